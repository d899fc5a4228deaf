"""The replay document says what the referee said: the same events and views, seat by seat."""

from __future__ import annotations

import json

import pytest

from arena.faults import Fault
from arena.printable import visible
from arena.replay import _replay, describer
from arena.web.replay_data import TABLE, replay_document, side_views, view_patch
from tests.support.replay_games import TITLES, played


@pytest.fixture(scope="module")
def games():
    """title -> (its game, what each seat was sent, the game's replay document): played and
    built once for the module, as the tests only read them."""
    found = {}
    for title, players in TITLES.items():
        record, sent = played(title, players)
        found[title] = record, sent, replay_document(record)
    return found


def events_of(document, side):
    return [document["texts"][i] for step in document["events"][side] for i in step]


@pytest.mark.parametrize("title", TITLES)
def test_each_seat_is_shown_the_events_and_views_the_referee_sent_it(games, title):
    record, sent, document = games[title]
    describe = describer(record)
    for seat, messages in enumerate(sent):
        side = str(seat)
        told = [visible(describe(m["event"])) for m in messages if m["type"] == "event"]
        assert told and events_of(document, side) == told
        views = side_views(document, side)
        assert views[0] == messages[0]["view"], "the first view is the one game_start sent"
        asked = [m["view"] for m in messages if m["type"] == "request"]
        # the view sent with decision n's request is the view after step n - 1
        own = [n for n, d in enumerate(record.decisions, start=1) if d.seat == seat]
        assert [views[n - 1] for n in own] == asked


@pytest.mark.parametrize("title", TITLES)
def test_the_table_side_is_the_table_view_at_every_step(games, title):
    record, _, document = games[title]
    expected = [state.table_view() for state, _ in _replay(record)]
    assert side_views(document, TABLE) == expected
    assert len(document["steps"]) == len(record.decisions) + 1


@pytest.mark.parametrize("title", TITLES)
def test_a_seat_document_holds_only_that_seat(games, title):
    record, _, full = games[title]
    mine = replay_document(record, only_seat=1)
    assert mine["sides"] == ["1"] and set(mine["views"]) == {"1"}
    numbers = [step["number"] for step in mine["steps"]]
    all_views = side_views(full, "1")
    assert side_views(mine, "1") == [all_views[n] for n in numbers]
    assert events_of(mine, "1") == events_of(full, "1")
    decisions = [step["decision"] for step in mine["steps"] if step["decision"]]
    assert decisions and all(d["seat"] == 1 for d in decisions)
    assert len(decisions) == sum(1 for d in record.decisions if d.seat == 1)
    # the table view's own fields never enter a seat's document
    table_only = set(full["views"][TABLE]["first"]) - set(full["views"]["1"]["first"])
    text = json.dumps(mine)
    assert table_only and not any(f'"{key}"' in text for key in table_only)


def test_a_fault_shows_at_the_first_decision_the_referee_played_for_the_seat():
    record, _ = played("corruption", 4, faulty_seat=2)
    assert record.seats[2].fault == Fault.ILLEGAL
    document = replay_document(record)
    faulted = [s for s in document["steps"] if s["fault"]]
    assert len(faulted) == 1
    step = faulted[0]
    assert step["decision"]["seat"] == 2 and step["decision"]["by_referee"]
    assert step["fault"]["fault"] == "illegal" and step["fault"]["reason"]
    assert document["seats"][2]["faulted_at"] == step["number"]
    assert [s["faulted_at"] for s in document["seats"]].count(None) == 3
    assert not any(
        s["decision"]["by_referee"]
        for s in document["steps"][: document["steps"].index(step)]
        if s["decision"]
    )
    # another seat's page does not quote the faulted bot's reason
    other = replay_document(record, only_seat=0)
    assert not any(s["fault"] for s in other["steps"])
    assert other["seats"][2]["fault"] == "illegal" and other["seats"][2]["fault_reason"] == ""
    assert other["seats"][2]["faulted_at"] is None


def test_patches_rebuild_values_of_every_shape():
    old = {"a": [1, 2], "b": {"c": 1, "gone": True}, "same": [1]}
    new = {"a": [1, 3, 4], "b": {"c": 1.0, "new": None}, "same": [1]}
    document = {
        "views": {"s": {"first": old, "patches": [0]}},
        "patches": [view_patch(old, new)],
        "values": [],
    }
    rebuilt = side_views(document, "s")
    assert rebuilt == [old, new] and isinstance(rebuilt[1]["b"]["c"], float)
    assert view_patch(new, new) == []
