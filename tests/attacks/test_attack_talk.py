"""Hostile table talk (SPEC.md §14), by real bot processes under the real sandbox: talk may
carry markup and HTML, which every place that prints it must escape; a private message never
reaches a third seat, not even in a replay; talk addressed outside the talkers, or answering a
proposal that was never made, is a fault of the speaker, never an error of the referee."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli.app import app
from arena.games import get_game
from arena.replay import replay, seat_events
from arena.store import open_store
from arena.web.replay_page import render_replay
from tests.attacks.conftest import assert_contained, attack_bot, good_bot, play_match

HOSTILE = "[/][bold red]x[/] <script>alert(1)</script> {{ 7*7 }}"


def talkers_and_a_listener(tmp_path: Path, mode: str) -> list[Path]:
    """Seats 0 and 1: the hostile talker (two copies); seat 2: a bot that does not talk."""
    return [
        attack_bot(tmp_path / "a", "talk_hostile", {"mode": mode}),
        attack_bot(tmp_path / "b", "talk_hostile", {"mode": "talk"}),
        good_bot(tmp_path),
    ]


@pytest.fixture(scope="module")
def talked(tmp_path_factory, arena_cache):
    root = tmp_path_factory.mktemp("talk")
    match = play_match(
        talkers_and_a_listener(root, "talk"), root, game=get_game("intrigue"), options={}
    )
    return match, root


def heard(log: str) -> list[dict]:
    return [
        json.loads(line.split(" info ", 1)[1])
        for line in log.splitlines()
        if line.startswith("ATTACK heard info ")
    ]


def test_hostile_but_legal_talk_is_played_and_recorded_and_nobody_faults(talked):
    match, _ = talked
    assert_contained(match, attackers=[])
    assert match.record.options["talk"] == [0, 1]
    said = [e.truth() for step in replay(match.record) for e in step.events if e.kind == "said"]
    assert any(body["text"] == HOSTILE and body["to"] == "all" for body in said)
    assert {body["text"] for body in said if body["to"] != "all"} == {"SECRET-0", "SECRET-1"}


def test_a_private_message_reaches_its_addressee_and_no_third_seat_even_in_a_replay(talked):
    match, _ = talked
    for seat, log in enumerate(match.logs[:2]):
        secrets = {e["text"] for e in heard(log) if e["text"].startswith("SECRET")}
        assert secrets == {"SECRET-0", "SECRET-1"}, (seat, secrets)  # its own and the other's
    third = [body for step in replay(match.record) for body in seat_events(step, 2)]
    assert third and not any(body["kind"] in ("said", "unsaid") for body in third)
    assert "SECRET" not in json.dumps(third)


def test_show_and_the_replay_page_print_talk_as_text_and_only_to_its_readers(
    talked, monkeypatch, tmp_path
):
    match, _ = talked
    db = tmp_path / "arena.db"
    with open_store(db, create=True) as store:
        store.save_game(match.record)
    monkeypatch.setenv("COLUMNS", "250")
    monkeypatch.setenv("NO_COLOR", "1")
    runner = CliRunner()
    show = lambda *args: runner.invoke(app, ["show", match.record.game_id, "--db", str(db), *args])  # noqa: E731
    reader, outsider = show("--seat", "1"), show("--seat", "2")
    assert reader.exit_code == 0 and outsider.exit_code == 0, (reader.output, outsider.output)
    assert HOSTILE in reader.output, "markup is shown as the text it is, not interpreted"
    assert "SECRET-0" in reader.output
    assert "SECRET" not in outsider.output and "<script>" not in outsider.output
    page = render_replay(match.record, asset_prefix="", home="", only_seat=1)
    assert "<script>alert(1)</script>" not in page
    assert "SECRET-0" in page
    assert "SECRET" not in render_replay(match.record, asset_prefix="", home="", only_seat=2)


@pytest.mark.parametrize(
    ("mode", "reason"),
    [("outsider", "not one of the"), ("invented-ref", "not one of the|unknown field")],
)
def test_talk_outside_the_rules_is_the_speakers_fault_and_the_game_goes_on(
    tmp_path, arena_cache, mode, reason
):
    match = play_match(
        talkers_and_a_listener(tmp_path, mode), tmp_path, game=get_game("intrigue"), options={}
    )
    assert_contained(match, attackers=[0], fault="illegal")
    fault = match.record.seats[0].fault_reason or ""
    assert any(words in fault for words in reason.split("|")), fault
