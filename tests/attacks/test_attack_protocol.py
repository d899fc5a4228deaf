"""Hostile input from a bot: answers, hello names and text that end up in the referee's own
output. Each must become a fault with a reason, never an exception in the referee, and nothing
a bot says may reach the referee's terminal as markup or escape sequences."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from arena.games import get_game
from tests.attacks.conftest import assert_contained, attack_bot, good_bot, play_match

ROOT = Path(__file__).resolve().parents[2]
FAULTS = ("malformed", "schema", "illegal")


def hostile_answer(tmp_path: Path, name: str, game=None, options=None):
    bots = [attack_bot(tmp_path, name), good_bot(tmp_path), good_bot(tmp_path, "g2")]
    if game is None:
        return play_match(bots, tmp_path)
    return play_match(bots, tmp_path, game=game, options=options)


def assert_faulted_with_reason(match) -> None:
    assert_contained(match, attackers=[0], fault=None)
    seat = match.record.seats[0]
    assert seat.fault in FAULTS, (seat.fault, seat.fault_reason)
    assert seat.fault_reason and seat.fault_reason.encode("utf-8"), "a reason, storable as UTF-8"
    assert seat.rank == 3 and seat.decisions == 0


def test_deeply_nested_json_is_a_fault(tmp_path, arena_cache):
    assert_faulted_with_reason(hostile_answer(tmp_path, "nested_json"))


def test_a_5000_digit_integer_is_a_fault(tmp_path, arena_cache):
    assert_faulted_with_reason(hostile_answer(tmp_path, "bigint"))


def test_a_lone_surrogate_answer_is_a_fault(tmp_path, arena_cache):
    assert_faulted_with_reason(hostile_answer(tmp_path, "surrogate_toy"))


def test_a_lone_surrogate_in_an_intrigue_promise_is_a_fault(tmp_path, arena_cache):
    match = hostile_answer(tmp_path, "surrogate_promise", get_game("intrigue"), {})
    assert_contained(match, attackers=[0], fault=None)
    seat = match.record.seats[0]
    assert seat.fault in FAULTS, (seat.fault, seat.fault_reason)
    json.dumps(match.record.decisions, default=str).encode("utf-8")


# -- hostile hello names -------------------------------------------------------------------------------

HELLO_NAMES = {
    "markup": "[red]x[/]",
    "ansi": "\x1b[31mred\x1b[0m",
    "surrogate": "\udc80",
    "nul": "a\x00b",
    "traversal": "../../etc/passwd",
}


@pytest.fixture(scope="module")
def hello_match(tmp_path_factory, arena_cache):
    root = tmp_path_factory.mktemp("hello")
    bots = []
    for kind, name in HELLO_NAMES.items():
        bot = attack_bot(root, "hello_name", {"name": name})
        bots.append(bot.rename(bot.with_name(f"hello_{kind}")))
    return play_match([*bots, good_bot(root)], root)


def test_hostile_hellos_do_not_stop_the_game(hello_match):
    assert_contained(hello_match, attackers=range(len(HELLO_NAMES)), fault=None, all_started=False)


@pytest.mark.parametrize("kind", list(HELLO_NAMES))
def test_a_hostile_hello_name_is_a_handshake_fault(hello_match, kind):
    seat = hello_match.record.seats[list(HELLO_NAMES).index(kind)]
    # a decoder that refuses the line outright (a lone surrogate, a control character) is as good
    assert seat.fault in ("handshake", "malformed"), (seat.fault, seat.fault_reason)
    assert seat.fault_reason


# -- the referee's terminal ---------------------------------------------------------------------------


def arena_check(bot: Path, logs: Path) -> subprocess.CompletedProcess[str]:
    """`arena check BOT` as a user runs it, output to a pipe (so rich adds no escapes itself)."""
    env = dict(os.environ, TERM="dumb", COLUMNS="200", NO_COLOR="1")
    command = [sys.executable, "-m", "arena", "check", str(bot), "--game", "corruption",
               "--games", "1", "--logs", str(logs), "--decision-ms", "20000",
               "--startup-ms", "60000"]  # fmt: skip
    return subprocess.run(
        command,
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        errors="replace",
        timeout=300,
    )


@pytest.mark.parametrize(
    "bot, params, fault",
    [
        ("cli_markup", None, "illegal"),
        ("cli_escape", None, "crash"),
    ],
)
def test_bot_text_reaches_the_terminal_only_as_plain_text(
    tmp_path, arena_cache, bot, params, fault
):
    done = arena_check(attack_bot(tmp_path, bot, params), tmp_path / "logs")
    said = done.stdout + done.stderr
    assert "Traceback" not in said, said[-3000:]
    assert done.returncode == 1 and "FAIL" in said and fault in said, said[-3000:]
    assert "\x1b" not in said and "\x07" not in said, "no escape sequence of the bot's"


def test_a_markup_hello_name_does_not_break_arena_check(tmp_path, arena_cache):
    done = arena_check(attack_bot(tmp_path, "hello_name", {"name": "[/]"}), tmp_path / "logs")
    said = done.stdout + done.stderr
    assert "Traceback" not in said, said[-3000:]
    assert "MarkupError" not in said
