"""Turns and rounds: income, sending, round 5, the final income, ranks, the start player."""

from __future__ import annotations

from collections import Counter

import pytest
from intrigue_helpers import (
    CLE,
    DOC,
    PRI,
    SCI,
    act,
    kinds,
    negotiate,
    new,
    of_kind,
    options,
    random_game,
)

from arena.games.base import IllegalAction
from arena.games.intrigue import GAME
from arena.games.intrigue.scholars import TYPES


def test_income_is_paid_by_the_bank_for_each_scholar_employed_elsewhere() -> None:
    state, events = new(
        3, seat=0, round_no=2, inside={1: {6000: (0, DOC)}, 2: {10000: (0, SCI), 1000: (1, PRI)}}
    )
    assert of_kind(events, "income") == [
        {
            "seat": 0,
            "amount": 16000,
            "final": False,
            "scholars": [
                {"scholar": 2, "palace": 1, "section": 6000},
                {"scholar": 0, "palace": 2, "section": 10000},
            ],
        }
    ]
    assert state.ledger.cash == [48000, 32000, 32000], "the bank pays; no other seat does"
    assert state.ledger.income == [16000, 0, 0]


def test_first_turn_has_no_income_and_nothing_to_receive() -> None:
    state, events = GAME.start(3, 7, {"variants": []})
    first = state.start_player
    assert kinds(events) == ["start-player", "round-start", "turn-start", "income"]
    assert of_kind(events, "income")[0]["amount"] == 0
    decision = state.pending()
    assert decision is not None and (decision.seat, decision.kind) == (first, "send")


def test_sending_never_to_ones_own_palace_and_both_may_go_to_the_same_palace() -> None:
    state, _ = new(3, seat=0)
    opts = options(state)
    assert {o["palace"] for o in opts} == {1, 2}, "never one's own palace"
    assert {o["scholar"] for o in opts} == set(TYPES)
    with pytest.raises(IllegalAction):
        state.apply({"scholar": SCI, "palace": 0})
    act(state, 0, "send", {"scholar": DOC, "palace": 1})
    sent = of_kind(act(state, 0, "send", {"scholar": DOC, "palace": 1}), "sent")
    assert sent == [{"seat": 0, "scholar": 3, "type": DOC, "palace": 1, "forced": False}]
    assert state.board.waiting[1] == [2, 3], "both doctors wait in front of palace 1"
    assert state.board.hand_counts(0) == {SCI: 2, DOC: 0, PRI: 2, CLE: 2}
    decision = state.pending()
    assert decision is not None and decision.kind == "offer", "seat 1's turn: it receives"


def test_a_type_no_longer_in_hand_cannot_be_sent() -> None:
    state, _ = new(3, seat=0, round_no=2, island=[(0, DOC), (0, DOC)])
    assert DOC not in {o["scholar"] for o in options(state)}


def test_round_five_has_no_sending_and_ends_with_a_final_income() -> None:
    state, _ = new(
        3,
        seat=1,
        start_player=0,
        round_no=5,
        waiting={1: [(0, DOC)]},
        inside={2: {10000: (0, SCI)}, 0: {3000: (1, PRI)}},
        hands_to_island=True,
    )
    negotiate(state, 0, 1, 0)
    events = act(state, 1, "place", {"section": 6000})
    assert "sent" not in kinds(events) and state.pending() is None
    assert kinds(events) == ["placed", "turn-start", "income", *["income"] * 3, "game-end"]
    finals = [e for e in of_kind(events, "income") if e["final"]]
    assert [(e["seat"], e["amount"]) for e in finals] == [(0, 16000), (1, 3000), (2, 0)]
    assert state.ledger.cash == [32000 + 16000, 32000 + 3000 + 3000, 32000]


def test_the_most_ducats_wins_and_ties_share_a_rank() -> None:
    state, events = new(
        3,
        seat=2,
        start_player=0,
        round_no=5,
        inside={1: {3000: (0, SCI)}, 0: {3000: (1, SCI)}},
        hands_to_island=True,
    )
    assert state.pending() is None, "nothing to receive in the last turn: the game ends"
    outcome = state.outcome()
    assert outcome.scores == (35000.0, 35000.0, 32000.0)
    assert outcome.ranks == (1, 1, 3)
    assert outcome.detail["final_cash"] == [35000, 35000, 32000]
    assert of_kind(events, "game-end") == [{"scores": [35000, 35000, 32000], "ranks": [1, 1, 3]}]


def test_the_start_player_is_drawn_from_the_seed() -> None:
    firsts = {GAME.start(4, seed, {"variants": []})[0].start_player for seed in range(30)}
    assert firsts == {0, 1, 2, 3}
    assert GAME.start(4, 11, {})[0].start_player == GAME.start(4, 11, {})[0].start_player


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_game_is_five_turns_each_and_every_scholar_is_sent_in_rounds_one_to_four(players):
    state, events, _ = random_game(players, players, [])
    turns = Counter(e["seat"] for e in of_kind(events, "turn-start"))
    assert turns == dict.fromkeys(range(players), 5)
    sent = of_kind(events, "sent")
    assert Counter(e["seat"] for e in sent) == dict.fromkeys(range(players), 8)
    round_no, sent_in = 0, Counter()
    for event in events:
        if event.kind == "round-start":
            round_no = event.data["round"]
        elif event.kind == "sent":
            sent_in[round_no] += 1
    assert sent_in == dict.fromkeys(range(1, 5), 2 * players), "two per turn, none in round 5"
    finals = [e["seat"] for e in of_kind(events, "income") if e["final"]]
    assert sorted(finals) == list(range(players)) and events[-1].kind == "game-end"
    assert not any(state.board.hands) and not any(state.board.waiting)
