"""Invariants of PARANOIA under random legal play (hypothesis over seeds and table sizes),
checked from the outside after every decision: the cards are conserved, clones stay within
0..6, a dead troubleshooter never decides nor plays, the chain resolves last in first out, and
the result agrees with the clearances."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.games import get_game
from arena.games.base import ranks_from_keys
from arena.games.paranoia.state import ParanoiaState
from protocol.legal import random_action
from tests.support.examples import examples

GAME = get_game("paranoia")
players_st = st.integers(min_value=3, max_value=8)
seed_st = st.integers(min_value=0, max_value=2**32 - 1)


def card_places(state: ParanoiaState) -> Counter[str]:
    """Every action card copy, wherever it is."""
    places = Counter(state.actions.cards) + Counter(state.actions.discards)
    for t in state.ts:
        places += Counter(t.hand)
    places += Counter(p.card.id for p in state.chain)
    places += Counter(c.play.card.id for c in state.table)
    return places


@settings(max_examples=examples(25), deadline=None)
@given(players=players_st, seed=seed_st, policy=seed_st)
def test_cards_clones_and_the_dead_under_random_play(players, seed, policy):
    state, _ = GAME.start(players, seed, {})
    rng = random.Random(policy)
    box = Counter({a.id: a.count for a in GAME.cards.actions})
    clones = [6] * players
    while (decision := state.pending()) is not None:
        actor = state.ts[decision.seat]
        assert actor.alive, f"dead seat {decision.seat} asked to decide {decision.kind}"
        alive_before = [t.alive for t in state.ts]
        events = state.apply(random_action(decision.legal, rng))
        assert card_places(state) == box, "action cards are neither created nor lost"
        depth = 0
        for event in events:
            if event.kind == "played":
                assert event.data["depth"] >= 1
                depth = event.data["depth"]
            if event.kind == "died":
                seat = event.data["seat"]
                clones[seat] -= 1
                assert event.data["clones"] == clones[seat], "each death costs exactly one clone"
            if event.kind == "clone-gained":
                clones[event.data["seat"]] = event.data["clones"]
            if event.kind == "played" and event.data["context"] != "dying":
                seat = event.data["seat"]
                assert alive_before[seat] or state.ts[seat].alive, f"dead seat {seat} played"
        assert depth <= len(box), "the chain holds at most every card"
        for t in state.ts:
            assert 0 <= t.clones <= 6, f"seat {t.seat} has {t.clones} clones"
    outcome = state.outcome()
    assert outcome.detail["missions"] <= state.mission_cap
    treason = outcome.detail["treason"]
    assert outcome.ranks == ranks_from_keys([(t.rank, -treason[t.seat]) for t in state.ts])
    ended = outcome.detail["ended_by"]
    assert (ended == "last-clone") == any(t.clones == 0 for t in state.ts)
    assert not state.chain, "nothing is left on the chain at the end"


@settings(max_examples=examples(10), deadline=None)
@given(players=players_st, seed=seed_st)
def test_the_chain_resolves_last_in_first_out(players, seed):
    """Every played card resolves (or fizzles) after every card played in answer to it."""
    state, _ = GAME.start(players, seed, {})
    rng = random.Random(seed)
    while (decision := state.pending()) is not None:
        stack: list[tuple[int, str]] = [(p.seat, p.card.id) for p in state.chain]
        for event in state.apply(random_action(decision.legal, rng)):
            if event.kind == "played":
                stack.append((event.data["seat"], event.data["card"]))
            elif event.kind in ("resolved", "fizzled", "on-table"):
                assert stack, "something resolved that was never played"
                assert stack.pop() == (event.data["seat"], event.data["card"]), "LIFO"
        assert [(p.seat, p.card.id) for p in state.chain] == stack
