"""Table talk in PARANOIA (RULES.md, Table talk; SPEC.md §14): a window before each turn and
one as a mission ends, private notes, the structured terms (none binding), and what each seat
may read."""

from __future__ import annotations

import random
from typing import Any

import pytest
from paranoia_helpers import (
    ABORT,
    DENOUNCE,
    FLUSH,
    PASS,
    act,
    discard,
    new,
    one,
    pending,
    play,
)

from arena.games.base import Event
from arena.games.paranoia.game import GAME
from arena.games.paranoia.state import ParanoiaState
from arena.games.paranoia.tabletalk import ROUNDS
from protocol import legal

SILENCE = {"act": "pass"}


def say(act: str, to: int | str = "all", **fields: Any) -> dict[str, Any]:
    return {"act": act, "to": to, **fields}


def talk(state: ParanoiaState, seat: int, answer: dict[str, Any]) -> list[Event]:
    assert pending(state) == (seat, "talk"), f"pending: {pending(state)} ({state.context})"
    events = state.apply(answer)
    assert state.invariants() == [], state.invariants()
    return events


def silence(state: ParanoiaState) -> list[int]:
    """Pass every talk decision of the pending window; the seats asked, in order."""
    asked = []
    number = state.talk_windows
    while (decision := state.pending()) is not None and decision.kind == "talk":
        if state.talk_windows != number:
            break
        asked.append(decision.seat)
        state.apply(SILENCE)
    return asked


def test_without_talkers_there_is_no_talk_at_all() -> None:
    state, _ = new(4)
    assert pending(state) == (0, "turn")
    assert "talk" not in state.view(0) and "talk" not in state.table_view()


def test_a_window_before_each_turn_asks_the_talkers_from_the_seat_whose_turn_it_is() -> None:
    """Seats 1 and 3 talk, seats 0 and 2 do not: before seat 0's turn seat 1 speaks first
    (the first talker from the turn's seat on), a non-talker is never asked; one round."""
    state, _ = new(4, talkers=frozenset({1, 3}))
    assert pending(state) == (1, "talk")
    assert state.view(1)["decision"] == {"kind": "talk", "window": "before-turn"}
    assert state.view(1)["talk"] == {
        "window": "before-turn",
        "number": 1,
        "round": 1,
        "open": True,
        "messages": [],
    }
    assert "talk" not in state.view(0), "a seat that does not talk reads no talk"
    assert silence(state) == [1, 3]
    assert pending(state) == (0, "turn")
    act(state, 0, "turn", discard(state.ts[0].hand[-1]))
    assert silence(state) == [1, 3], "before seat 1's turn, seat 1 first"
    act(state, 1, "turn", discard(state.ts[1].hand[-1]))
    assert silence(state) == [3, 1], "before seat 2's turn, from seat 2 on"


def test_a_window_before_a_turn_has_one_round_and_every_message_is_read() -> None:
    assert ROUNDS == {"before-turn": 1, "mission-end": 2}
    state, _ = new(3, talkers=frozenset({0, 1, 2}))
    spoken = 0
    for seat in (0, 1, 2):
        events = talk(state, seat, say("tell", text=f"I am loyal, says {seat}"))
        spoken += sum(e.kind == "said" for e in events)
    assert spoken == 3
    assert pending(state) == (0, "turn"), "closed after its one round"
    assert len(state.view(2)["talk"]["messages"]) == 3


def test_a_private_note_reaches_its_addressee_alone() -> None:
    """Seen by the speaker and the addressee; the third talker and the non-talker get no
    event and read nothing of it, not even that it was sent."""
    state, _ = new(4, talkers=frozenset({0, 1, 2}))
    note = say("promise", 2, terms={"spare": 2}, text="I will not target you this mission")
    events = talk(state, 0, note)
    said = one(events, "said")
    assert said == {
        "window": 1,
        "round": 1,
        "from": 0,
        "to": 2,
        "act": "promise",
        "terms": {"spare": 2},
        "ref": None,
        "text": "I will not target you this mission",
    }
    assert events[0].seen_by == frozenset({0, 2}) and events[0].others is None
    assert state.view(2)["talk"]["messages"] == [said]
    assert state.view(0)["talk"]["messages"] == [said]
    assert state.view(1)["talk"]["messages"] == []
    assert "talk" not in state.view(3)
    assert state.table_view()["talk"] == [said], "the table view holds every message"


def test_the_terms_name_seats_and_cards_and_a_pact_binds_nobody() -> None:
    """Proposing a pact ({"spare": s} to s) and accepting it is all talk: no event but the
    two messages, and the pact's parties may still target each other."""
    state, _ = new(3, hands=[[DENOUNCE], [], []], talkers=frozenset({0, 1}))
    terms = state.pending().legal["fields"]["terms"]["options"]
    assert {"spare": 1} in terms and {"target": 2} in terms and {"play": DENOUNCE} in terms
    assert {"spare": 0} not in terms, "seat 0 names others only"
    talk(state, 0, say("propose", 1, terms={"spare": 1}, text="pact?"))
    legal_1 = state.pending().legal
    assert legal_1["fields"]["ref"]["options"] == [{"round": 1, "from": 0}]
    events = talk(state, 1, say("accept", 0, ref={"round": 1, "from": 0}))
    assert [e.kind for e in events] == ["said", "turn"], "nothing carried out: none binds"
    silence(state)
    events = act(state, 0, "turn", play(DENOUNCE, "another", 1))
    assert any(e.kind == "treason" and e.data["seat"] == 1 for e in events), "pact broken"


def test_a_window_as_each_mission_ends_but_the_last_the_team_leader_first() -> None:
    """After Internal Security (the dead talk too: talk is the player's); none after the
    game's last mission."""
    state, _ = new(3, leader=1, talkers=frozenset({0, 2}), mission_cap=2)
    rng = random.Random(0)
    opened: dict[int, tuple[int, int, int]] = {}
    """Each mission-end window: (mission, its first speaker, the Team Leader then)."""
    while (decision := state.pending()) is not None:
        if decision.kind == "talk":
            talked = state.view(decision.seat)["talk"]
            if talked["window"] == "mission-end" and talked["number"] not in opened:
                assert state.phase == "internal-security"
                opened[talked["number"]] = (state.mission_number, decision.seat, state.leader)
            state.apply(SILENCE)
        else:
            state.apply(legal.random_action(decision.legal, rng))
        assert state.invariants() == []
    assert state.mission_number == 2
    [(mission, first, leader)] = opened.values()
    assert mission == 1, "after mission 1, not after the last"
    assert first == min((s for s in (0, 2) if s >= leader), default=0), "the leader's side first"


def test_talk_decisions_are_few_enough_for_max_decisions() -> None:
    """Whole games where every seat talks and says something whenever it may."""
    for seed in range(3):
        state, _ = GAME.start(5, seed, {"talk": [0, 1, 2, 3, 4]})
        rng = random.Random(seed)
        decisions = 0
        while (decision := state.pending()) is not None:
            answer = legal.random_action(decision.legal, rng)
            state.apply(answer)
            decisions += 1
            assert state.invariants() == []
        assert decisions <= GAME.max_decisions


def _twins(note: dict[str, Any], other: dict[str, Any], seed: int) -> list[list[Any]]:
    """Two games, identical but for one private note of seat 0 to seat 1 (``note`` in one,
    ``other`` in the other); the seats 2 and 3 (a talker, a non-talker) at each step: their
    views and the events they would be told."""
    seen: list[list[Any]] = []
    for first in (note, other):
        state, _ = GAME.start(4, seed, {"talk": [0, 1, 2]})
        rng = random.Random(seed)
        stream: list[Any] = []
        noted = False
        while (decision := state.pending()) is not None:
            if decision.kind == "talk" and decision.seat == 0 and not noted:
                answer, noted = first, True
            elif decision.kind == "talk":
                answer = SILENCE if rng.random() < 0.5 else say("tell", text="hello")
            else:
                answer = legal.random_action(decision.legal, rng)
            events = state.apply(answer)
            for seat in (2, 3):
                told = [
                    e.data if e.seen_by is None or seat in e.seen_by else e.others
                    for e in events
                    if e.seen_by is None or seat in e.seen_by or e.others is not None
                ]
                stream.append((seat, told, state.view(seat)))
        seen.append(stream)
    return seen


@pytest.mark.parametrize("seed", range(3))
def test_a_private_note_changes_nothing_a_third_seat_sees(seed: int) -> None:
    """Twin games differing in one private note (its act, terms and text) give every third
    seat, talker or not, the same views and events at every step."""
    note = say("promise", 1, terms={"spare": 1}, text="you are safe with me")
    other = say("threat", 1, terms={"target": 1}, text="you are next")
    first, second = _twins(note, other, seed)
    assert len(first) > 100
    assert first == second
    bare = _twins(note, SILENCE, seed)
    assert bare[0] == bare[1], "not even whether a note was sent"


def test_the_pass_is_the_default_answer() -> None:
    state, _ = new(3, talkers=frozenset({0, 1}))
    decision = state.pending()
    assert decision.kind == "talk"
    assert legal.default_action(decision.legal) == SILENCE
    assert PASS not in decision.legal.get("options", [])


def test_an_executed_troubleshooters_player_still_talks_as_the_mission_ends() -> None:
    """Talk is the player's, not its troubleshooter's: seat 0, executed at Internal Security,
    is asked in the mission-end window, which plays both its rounds though nobody speaks."""
    state, _ = new(
        3, mission=FLUSH, hands=[[ABORT], [], []], treason=[3, 0, 0], talkers=frozenset({0, 1})
    )
    silence(state)
    act(state, 0, "turn", play(ABORT, "mission"))
    while (decision := state.pending()) is not None and decision.kind == "respond":
        state.apply(PASS)
    assert state.view(0)["talk"]["window"] == "mission-end"
    assert not state.ts[0].alive, "executed as a traitor"
    assert state.leader == 1, "its successor leads, so speaks first"
    assert silence(state) == [1, 0, 1, 0]
