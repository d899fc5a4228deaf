"""Random legal play over seeds, 3-5 players, with and without Free Replacement."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from intrigue_helpers import dump

from arena.games.base import Event, ranks_from_keys
from arena.games.intrigue import GAME
from arena.games.intrigue.scholars import MAX_EXCHANGES, START_CASH
from protocol.legal import random_action
from tests.support.examples import examples

players_st = st.integers(min_value=3, max_value=5)
seed_st = st.integers(min_value=0, max_value=2**32 - 1)
variants_st = st.sampled_from([[], ["free-replacement"]])


class CashTracker:
    """Everybody's cash as a careful bot tracks it from public events alone."""

    def __init__(self, players: int) -> None:
        self.cash = [START_CASH] * players

    def event(self, event: Event) -> None:
        data = event.data
        if event.kind == "income":
            self.cash[data["seat"]] += data["amount"]
        elif event.kind == "negotiated":
            self.cash[data["palace"]] += data["paid"]
            if not data["paid_by_bank"]:
                self.cash[data["applicant"]] -= data["paid"]


def check_view(view: dict[str, Any], seat: int, cash: int) -> None:
    """A seat's view: its own cash at the top, no other cash anywhere."""
    assert view["seat"] == seat and view["cash"] == cash
    assert "money" not in view
    for key, value in view.items():
        if key != "cash":
            assert '"cash"' not in dump(value), f"a cash figure under {key!r}"


def play(players: int, seed: int, variants: list[str], choices: int) -> tuple[Any, list[Any]]:
    """A checked random game; returns (outcome, transcript)."""
    state, events = GAME.start(players, seed, GAME.normalize_options({"variants": variants}))
    tracker = CashTracker(players)
    transcript: list[Any] = [[e.truth() for e in events]]
    for event in events:
        tracker.event(event)
    rng = random.Random(choices)
    decisions = Counter()
    while (decision := state.pending()) is not None:
        check_view(state.view(decision.seat), decision.seat, state.ledger.cash[decision.seat])
        assert tracker.cash == state.ledger.cash, "public events are enough to track cash"
        action = random_action(decision.legal, rng)
        caused = state.apply(action)
        decisions[decision.kind] += 1
        assert sum(decisions.values()) <= GAME.max_decisions
        assert state.invariants() == [], f"after {decision.kind} {action}: {state.invariants()}"
        for event in caused:
            tracker.event(event)
            assert all(event.for_seat(s) == event.truth() for s in range(players)), "public"
            assert GAME.describe(event.truth()).split(":")[0] != event.kind, "described in words"
            if event.kind == "sent":
                assert event.data["palace"] != event.data["seat"], "never one's own palace"
            if event.kind in ("placed", "kept"):
                assert event.data["applicant"] != event.data["palace"], "never its own colour"
        transcript.append([decision.seat, action, [e.truth() for e in caused]])
    # every answer follows an offer or a raise; every reply (pay) follows a demand
    assert decisions["answer"] <= decisions["offer"] * MAX_EXCHANGES
    assert decisions["pay"] <= decisions["answer"]
    assert decisions["send"] == 8 * players
    outcome = state.outcome()
    assert list(outcome.scores) == tracker.cash == state.ledger.cash
    assert outcome.ranks == ranks_from_keys([(c,) for c in tracker.cash])
    transcript.append([list(outcome.scores), list(outcome.ranks), state.table_view()])
    return outcome, transcript


@settings(max_examples=examples(30), deadline=None)
@given(players=players_st, seed=seed_st, variants=variants_st, choices=seed_st)
def test_random_play_keeps_every_invariant_and_ends_within_the_bound(
    players, seed, variants, choices
):
    play(players, seed, variants, choices)


@settings(max_examples=examples(10), deadline=None)
@given(players=players_st, seed=seed_st, variants=variants_st, choices=seed_st)
def test_same_seed_and_decisions_replay_identically(players, seed, variants, choices):
    _, first = play(players, seed, variants, choices)
    _, again = play(players, seed, variants, choices)
    assert dump(first) == dump(again)


@settings(max_examples=examples(10), deadline=None)
@given(players=players_st, seed=seed_st, variants=variants_st, choices=seed_st)
def test_a_negotiation_asks_at_most_one_offer_and_two_questions_per_exchange(
    players, seed, variants, choices
):
    state, _ = GAME.start(players, seed, GAME.normalize_options({"variants": variants}))
    rng = random.Random(choices)
    per_negotiation: Counter[tuple[int, int, int, str]] = Counter()
    while (decision := state.pending()) is not None:
        about = state.view(decision.seat)["decision"]
        if decision.kind in ("offer", "answer", "pay"):
            role = state.view(decision.seat)["negotiation"]["role"]
            per_negotiation[(state.round, about["palace"], about["scholar"], role)] += 1
        state.apply(random_action(decision.legal, rng))
    assert per_negotiation and max(per_negotiation.values()) <= 1 + 2 * MAX_EXCHANGES
