"""Intrigue's table talk: the windows (before the sends, inside a negotiation, before a
conflict is decided), side payments (binding, under the table, money conserved, refused when the
payer cannot pay), promises (binding nobody), and who reads what."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from intrigue_helpers import DOC, act, kinds, new

from arena.games.base import Event
from arena.games.intrigue import GAME
from arena.games.intrigue.state import IntrigueState
from arena.games.talk import TALK
from protocol.legal import is_legal, random_action
from tests.support.examples import examples

SILENCE = {"act": "pass"}


def talk_turns(state: IntrigueState) -> list[tuple[int, str]]:
    """Pass through the open window; (seat, window label) of each talk decision."""
    seen = []
    while (decision := state.pending()) is not None and decision.kind == TALK:
        seen.append((decision.seat, state.view(decision.seat)["decision"]["window"]))
        act(state, decision.seat, TALK, SILENCE)
    return seen


def say(state: IntrigueState, seat: int, message: dict[str, Any]) -> list[Event]:
    """Seat ``seat`` sends ``message`` (checked legal first) in the open window."""
    decision = state.pending()
    assert decision is not None and is_legal(decision.legal, message), (decision, message)
    return act(state, seat, TALK, message)


def send_window(cash: list[int] | None = None) -> IntrigueState:
    """Round 1, seat 0's turn with nobody at its door: the window before its sends opens."""
    state, _ = new(3, seat=0, round_no=1, talkers=(0, 1, 2), cash=cash)
    return state


def test_a_window_opens_before_the_turns_sends_for_every_talker_two_rounds() -> None:
    state = send_window()
    assert talk_turns(state) == [(s, "send") for s in (0, 1, 2, 0, 1, 2)]
    decision = state.pending()
    assert decision is not None and (decision.seat, decision.kind) == (0, "send")


def test_no_window_without_two_talkers_and_no_talk_key_for_those_who_do_not_talk() -> None:
    state, _ = new(3, seat=0, round_no=1, talkers=(1,))
    decision = state.pending()
    assert decision is not None and decision.kind == "send"
    assert "talk" not in state.view(0) and "talk" in state.view(1)
    state, _ = new(3, seat=0, round_no=1, talkers=(0, 2))
    assert talk_turns(state) == [(0, "send"), (2, "send")] * 2
    assert "talk" not in state.view(1) and state.view(2)["talk"]["window"] == "send"


def test_an_accepted_side_payment_is_paid_under_the_table_and_money_is_conserved() -> None:
    state = send_window()
    offer = {"act": "propose", "to": 1, "terms": {"pay": 2000}, "text": "for your 10,000"}
    said = say(state, 0, offer)
    assert [(e.kind, e.seen_by) for e in said] == [("said", frozenset({0, 1}))]
    events = say(state, 1, {"act": "accept", "to": 0, "ref": {"round": 1, "from": 0}})
    assert kinds(events) == ["said", "side-paid"]
    paid = events[1]
    assert paid.data == {
        "from": 0,
        "to": 1,
        "amount": 2000,
        "window": 1,
        "round": 1,
        "proposer": 0,
    }
    assert paid.seen_by == frozenset({0, 1}) and paid.for_seat(2) is None, "under the table"
    assert state.ledger.cash == [30000, 34000, 32000]
    assert sum(state.ledger.cash) == 3 * 32000 and state.invariants() == []


def test_asking_for_a_payment_makes_the_accepter_pay_and_a_public_deal_is_seen_by_all() -> None:
    state = send_window()
    say(state, 0, {"act": "propose", "terms": {"ask": 3000}, "text": "who pays me 3,000?"})
    say(state, 1, SILENCE)
    events = say(state, 2, {"act": "accept", "ref": {"round": 1, "from": 0}})
    assert [(e.kind, e.seen_by) for e in events] == [
        ("said", frozenset({0, 1, 2})),
        ("side-paid", frozenset({0, 1, 2})),
    ]
    assert state.ledger.cash == [35000, 32000, 29000]


def test_a_side_payment_the_payer_cannot_make_falls_through_and_moves_nothing() -> None:
    state = send_window(cash=[32000, 2000, 32000])
    say(state, 0, {"act": "propose", "to": 1, "terms": {"ask": 5000}})
    events = say(state, 1, {"act": "accept", "to": 0, "ref": {"round": 1, "from": 0}})
    assert kinds(events) == ["said", "side-payment-failed"]
    assert events[1].seen_by == frozenset({0, 1})
    assert state.ledger.cash == [32000, 2000, 32000] and state.invariants() == []


def test_a_seat_may_offer_to_pay_only_what_it_holds() -> None:
    state = send_window(cash=[3000, 32000, 32000])
    decision = state.pending()
    assert decision is not None
    terms = decision.legal["fields"]["terms"]["options"]
    assert [t["pay"] for t in terms if "pay" in t] == [1000, 2000, 3000]
    assert [t["ask"] for t in terms if "ask" in t] == [1000 * k for k in range(1, 21)]
    assert {"seat_at": 10000} in terms and {"spare": True} in terms


def test_a_promise_binds_nobody() -> None:
    state = send_window()
    say(state, 0, {"act": "propose", "to": 1, "terms": {"seat_at": 10000}})
    events = say(state, 1, {"act": "accept", "to": 0, "ref": {"round": 1, "from": 0}})
    assert kinds(events) == ["said"]
    assert state.ledger.cash == [32000, 32000, 32000]


def negotiation_position() -> IntrigueState:
    """Seat 0's turn in round 2, seat 1's doctor at its door; seats 0, 1 and 2 talk."""
    state, _ = new(3, seat=0, round_no=2, waiting={0: [(1, DOC)]}, talkers=(0, 1, 2))
    return state


def test_a_negotiation_has_a_private_window_between_its_two_parties_before_the_offer() -> None:
    state = negotiation_position()
    decision = state.pending()
    assert decision is not None and (decision.seat, decision.kind) == (1, TALK)
    assert decision.legal["fields"]["to"]["options"] == ["all", 0], "only the owner to talk to"
    events = say(state, 1, {"act": "promise", "terms": {"spare": True}, "text": "be kind"})
    assert events[0].seen_by == frozenset({0, 1}), "'all' in this window is the two of them"
    assert state.view(0)["talk"]["messages"][0]["text"] == "be kind"
    assert state.view(2)["talk"] is None, "seat 2 took part in no window"
    assert talk_turns(state) == [(0, "negotiation"), (1, "negotiation"), (0, "negotiation")]
    decision = state.pending()
    assert decision is not None and (decision.seat, decision.kind) == (1, "offer")


def test_a_conflict_has_a_window_between_the_owner_and_the_players_in_it() -> None:
    state, _ = new(4, seat=0, round_no=2, waiting={0: [(1, DOC), (2, DOC)]}, talkers=(0, 1, 2, 3))
    labels = []
    while (decision := state.pending()) is not None and decision.kind != "choose":
        if decision.kind == TALK:
            labels += talk_turns(state)
        elif decision.kind == "offer":
            act(state, decision.seat, "offer", {"amount": 1000})
        else:
            act(state, decision.seat, decision.kind, {"accept": True})
    assert labels == [
        *([(1, "negotiation"), (0, "negotiation")] * 2),
        *([(2, "negotiation"), (0, "negotiation")] * 2),  # the applicant speaks first
        *([(0, "conflict"), (1, "conflict"), (2, "conflict")] * 2),
    ], "seat 3 has no scholar in the conflict: it is not in its window"


def random_talk_game(players: int, seed: int, talkers: list[int]) -> IntrigueState:
    options = GAME.normalize_options({"variants": [], "talk": talkers})
    state, _ = GAME.start(players, seed, options)
    rng = random.Random(seed)
    decisions = 0
    while (decision := state.pending()) is not None:
        state.apply(random_action(decision.legal, rng))
        decisions += 1
        assert state.invariants() == []
        assert decisions <= GAME.max_decisions
    return state


@settings(max_examples=examples(8), deadline=None)
@given(players=st.integers(3, 5), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_random_play_with_talk_keeps_every_invariant_and_conserves_money(players, seed, data):
    talkers = data.draw(st.sets(st.integers(0, players - 1), min_size=2).map(sorted))
    state = random_talk_game(players, seed, talkers)
    ledger = state.ledger
    assert sum(ledger.side_paid) == sum(ledger.side_received)
    made = sum(ledger.start) + sum(ledger.income) + sum(ledger.bank_bribes)
    assert sum(ledger.cash) == made, "side payments and bribes only move money between seats"
    assert state.talk.count > 0


def test_a_five_talker_game_stays_within_max_decisions() -> None:
    state = random_talk_game(5, 3, [0, 1, 2, 3, 4])
    assert sum(state.ledger.side_paid) > 0, "random talkers strike some deals"


def test_talk_and_side_payments_read_as_sentences_in_replays() -> None:
    said = {
        "kind": "said",
        "window": 1,
        "round": 1,
        "from": 0,
        "to": 1,
        "act": "propose",
        "terms": {"pay": 2000},
        "ref": None,
        "text": "For Your 10,000",
    }
    assert GAME.describe(said) == (
        'Seat 0 to seat 1 (private): propose {pay: 2000} "For Your 10,000"'
    )
    paid = {"from": 0, "to": 1, "amount": 2000, "window": 1, "round": 1, "proposer": 0}
    assert "2,000 ducats under the table" in GAME.describe({"kind": "side-paid", **paid})
    assert "falls through" in GAME.describe({"kind": "side-payment-failed", **paid})
