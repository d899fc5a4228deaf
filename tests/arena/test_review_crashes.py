"""The red-team review's crashes, replayed by real bot subprocesses against the real referee.

Each answer below once raised out of the referee (a traceback, the game lost, a league unable
to finish): valid or nearly valid JSON that json.loads took and something later choked on.
Now the seat is faulted with a reason its author can act on and the game completes for the
others. The bot is tests/fakebots/fakebot.py in `bytes` mode: it answers its request N with
the raw bytes of a file, whatever they are.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from arena.games import get_game
from arena.inprocess import InProcessBot
from arena.lineup import Lineup
from arena.manifest import load_bot
from arena.record import BotIdentity, GameRecord
from arena.referee import SeatedBot, TimeControl, play_game
from tests.support.paths import FAKEBOT
from tests.support.toygame import GAME as TOY

CLOCK = TimeControl(decision_s=2.0, bank_s=0.0, startup_s=5.0)
INTRIGUE = get_game("intrigue")


def bytes_bot(folder: Path, raw: bytes, at: int = 1) -> Path:
    """A bot directory whose bot answers its request `at` with raw (else the first option)."""
    folder.mkdir()
    shutil.copy(FAKEBOT, folder / "fakebot.py")
    (folder / "answer.bin").write_bytes(raw)
    (folder / "bot.toml").write_text(
        'name = "hostile"\nversion = "0"\n'
        f'command = ["{{python}}", "fakebot.py", "bytes", "{at}", "answer.bin"]\n'
    )
    return folder


def play(game: Any, bots: list[Path], options: dict[str, Any], tmp_path: Path) -> GameRecord:
    manifests = [load_bot(b) for b in bots]
    with Lineup(manifests, time_control=CLOCK, log_dir=tmp_path / "logs") as lineup:
        entrants = lineup.seated(list(range(len(bots))), "review")
        return play_game(
            game, entrants, seed=11, options=options, time_control=CLOCK, game_id="review"
        )


def assert_faulted_and_completed(record: GameRecord, seat: int, words: str) -> None:
    faulted = record.seats[seat]
    assert faulted.fault == "malformed", (faulted.fault, faulted.fault_reason)
    assert words in (faulted.fault_reason or ""), faulted.fault_reason
    assert record.status == "complete"
    assert all(s.fault == "ok" for s in record.seats if s.seat != seat)
    assert faulted.rank == len(record.seats), "a faulted seat ranks last"
    assert all(d.by_referee for d in record.decisions[-3:] if d.seat == seat)


def test_deep_nesting_is_a_malformed_fault(make_bot, tmp_path):
    """RecursionError in json.loads: 100,000 nested arrays (200 KB, well under the line cap)."""
    action = b"[" * 100_000 + b"0" + b"]" * 100_000
    raw = b'{"type":"action","id":1,"action":' + action + b"}\n"
    hostile = bytes_bot(tmp_path / "nested", raw)
    record = play(TOY, [make_bot("good"), hostile, make_bot("good", name="g2")], {}, tmp_path)
    assert_faulted_and_completed(record, 1, "nested too deep")


def test_a_five_thousand_digit_integer_is_a_malformed_fault(make_bot, tmp_path):
    """ValueError (int string conversion limit) when the referee quoted the number."""
    raw = b'{"type":"action","id":1,"action":' + b"7" * 5000 + b"}\n"
    hostile = bytes_bot(tmp_path / "bigint", raw)
    record = play(TOY, [make_bot("good"), hostile, make_bot("good", name="g2")], {}, tmp_path)
    assert_faulted_and_completed(record, 1, "too large")


def _first_legal(desc: dict[str, Any]) -> Any:
    """fakebot.py's answer to every request (every record field filled in)."""
    if desc["kind"] == "choice":
        return desc["options"][0]
    if desc["kind"] == "range":
        return desc["min"]
    if desc["kind"] == "text":
        return ""
    return {name: _first_legal(sub) for name, sub in desc["fields"].items()}


def first_offer(players: int, seat: int) -> tuple[int, dict[str, Any]]:
    """(request number, legal answer) of seat's first Intrigue offer when every seat plays
    like fakebot.py: found by playing the same game in process (games are deterministic)."""
    asked: list[dict[str, Any]] = []

    def decide(view: dict[str, Any], desc: dict[str, Any]) -> Any:
        asked.append(desc)
        return _first_legal(desc)

    entrants = [
        SeatedBot(BotIdentity(f"s{s}", "", "-"), InProcessBot(decide if s == seat else _first))
        for s in range(players)
    ]
    play_game(INTRIGUE, entrants, seed=11, options={})
    for number, desc in enumerate(asked, start=1):
        if desc["kind"] == "record" and "promise" in desc["fields"]:
            return number, _first_legal(desc)
    raise AssertionError("seat was never asked for an offer")


def _first(view: dict[str, Any], desc: dict[str, Any]) -> Any:
    return _first_legal(desc)


@pytest.mark.parametrize(
    ("encoding", "words"),
    [("escape", "lone surrogate escape"), ("raw", "encode a surrogate")],
)
def test_a_lone_surrogate_in_an_intrigue_promise_is_a_malformed_fault(
    make_bot, tmp_path, encoding, words
):
    """The promise is echoed to the whole table: orjson refused to encode the lone surrogate
    json.loads had let through ("\\udc80" is valid JSON; JavaScript makes one by cutting an
    emoji in half), and the referee crashed telling the other seats."""
    number, offer = first_offer(players=3, seat=1)
    offer["promise"] = "I keep my word \udc80"
    text = json.dumps({"type": "action", "id": number, "action": offer}, ensure_ascii=False)
    if encoding == "escape":
        raw = text.encode("ascii", "backslashreplace")  # \udc80 as the six-character escape
        assert b"\\udc80" in raw
    else:
        raw = text.encode("utf-8", "surrogatepass")  # the three bytes ED B2 80
        assert b"\xed\xb2\x80" in raw
    hostile = bytes_bot(tmp_path / "surrogate", raw + b"\n", at=number)
    bots = [make_bot("good"), hostile, make_bot("good", name="g2")]
    record = play(INTRIGUE, bots, {}, tmp_path)
    assert_faulted_and_completed(record, 1, words)
    assert record.seats[1].decisions == number - 1, "every earlier answer was taken"
