"""The replay page holds nothing a seat was not sent, and nothing a bot wrote becomes HTML."""

from __future__ import annotations

import dataclasses
import json
import random
import re

from arena.record import GameRecord
from arena.replay import replay
from arena.web.replay_data import replay_document
from arena.web.replay_page import render_replay, render_standalone_replay
from tests.support.corruption_twins import hidden_swaps, play_scripted
from tests.support.replay_games import played

XSS = "<script>alert(1)</script>"


def embedded(html: str) -> dict:
    found = re.search(
        r'<script type="application/json" id="replay-data">(.*?)</script>', html, re.S
    )
    assert found
    return json.loads(found.group(1))


def without_times(record: GameRecord, decisions: int) -> GameRecord:
    """The record's first `decisions` decisions, with every wall-clock figure and the final
    result set to 0: twins are played separately, and their clocks differ; their results are
    public once the game is over, and their cut short records are not over."""
    return dataclasses.replace(
        record,
        decisions=tuple(d._replace(ms=0.0) for d in record.decisions[:decisions]),
        seats=tuple(dataclasses.replace(s, time_ms=0.0, score=0.0, rank=0) for s in record.seats),
        detail={},
        started_at="",
        finished_at="",
    )


def reveal_decision(record: GameRecord, round_no: int) -> int:
    """How many decisions were applied when round `round_no`'s cards were revealed."""
    for number, step in enumerate(replay(record)):
        if any(e.kind == "revealed" and e.data.get("round") == round_no for e in step.events):
            return number
    raise AssertionError(f"round {round_no} was never revealed")


def test_a_seat_page_is_the_same_whatever_another_seat_hid():
    """The referee's differential leak test, on the rendered page: change one seat's face-down
    bribe; until the reveal, every other seat's page is byte for byte the same (its owner's,
    which shows the card, differs: the test can fail)."""
    checked = 0
    for seed in range(3):
        record, _ = play_scripted(4, seed, [], None)
        script = [d.action for d in record.decisions]
        for changes, seat, round_no, peekers in random.Random(seed).sample(hidden_swaps(record), 2):
            twin_script = list(script)
            for index, card in changes.items():
                twin_script[index] = {**script[index], "card": card}
            twin, _ = play_scripted(4, seed, [], twin_script)
            until = reveal_decision(record, round_no) - 1  # the decision before the reveal
            pages = [
                [render_standalone_replay(without_times(r, until), only_seat=s) for s in range(4)]
                for r in (record, twin)
            ]
            assert pages[0][seat] != pages[1][seat]
            for observer in set(range(4)) - {seat} - peekers:
                assert pages[0][observer] == pages[1][observer], (
                    f"seat {observer}'s page depends on seat {seat}'s face-down card"
                )
                checked += 1
    assert checked >= 12


def test_a_bot_name_is_text_in_the_page_and_its_data():
    record, _ = played("intrigue", 4, names=[XSS, "b1", "b2", "b3"])
    html = render_replay(record, asset_prefix="../static/", home="../index.html")
    assert XSS not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert embedded(html)["seats"][0]["bot"] == XSS + "@1.0", (
        "the JSON block keeps the name, escaped"
    )
    assert embedded(html) == json.loads(json.dumps(replay_document(record)))


def test_pages_reference_no_outside_assets():
    record, _ = played("corruption", 4)
    for html in (
        render_replay(record, asset_prefix="../static/", home="../index.html"),
        render_standalone_replay(record, only_seat=2),
    ):
        assert not re.search(r"""(src|href)=["']?(https?:)?//""", html)
    standalone = render_standalone_replay(record)
    assert "<script src=" not in standalone and 'rel="stylesheet"' not in standalone


def test_a_game_that_does_not_replay_gets_a_page_saying_why():
    record, _ = played("corruption", 4)
    unknown = dataclasses.replace(record, title="<b>newer-game</b>")
    html = render_replay(unknown, asset_prefix="../static/", home="../index.html")
    assert "does not replay on this version of arena" in html and "<b>" not in html
