"""Invariants of a PARANOIA state, checked by the conformance suite after every decision."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from arena.games.paranoia.table import START_CLONES

if TYPE_CHECKING:
    from arena.games.paranoia.state import ParanoiaState


def broken(state: ParanoiaState) -> list[str]:
    """Each broken invariant, in words (empty when all hold)."""
    problems: list[str] = []
    problems += _cards_conserved(state)
    for t in state.ts:
        row = state.clearances.row(t)
        if not 0 <= t.clones <= START_CLONES:
            problems.append(f"seat {t.seat} has {t.clones} clones (0..{START_CLONES})")
        if t.out and t.alive:
            problems.append(f"seat {t.seat} is out of clones but alive")
        if not t.alive and (t.wounds or t.treason):
            problems.append(f"dead seat {t.seat} still has wounds or treason")
        if t.wounds > row.max_wounds or t.wounds < 0 or t.treason < 0:
            problems.append(f"seat {t.seat} has {t.wounds} wounds, {t.treason} treason")
    for rank, row in enumerate(state.clearances.rows):
        if state.clearances.left(rank) < 0:
            problems.append(f"more {row.name} troubleshooters than {row.name} cards ({row.supply})")
    if any(t.alive for t in state.ts) and not state.ts[state.leader].alive:
        problems.append(f"the Team Leader (seat {state.leader}) is dead while others live")
    if any(v < 0 for v in state.counters.values()):
        problems.append(f"a mission counter is negative: {state.counters}")
    decision = state.pending()
    if decision is not None and not state.ts[decision.seat].alive and decision.kind != "talk":
        # talk is the player's, not its troubleshooter's: the dead talk too
        problems.append(f"dead seat {decision.seat} is asked to decide ({decision.kind})")
    return problems


def _cards_conserved(state: ParanoiaState) -> list[str]:
    """Every action card copy is in exactly one place: deck, discards, a hand, the chain or
    the table; every mission card in the mission deck, its discards or in play."""
    where = Counter(state.actions.cards) + Counter(state.actions.discards)
    for t in state.ts:
        where += Counter(t.hand)
    where += Counter(p.card.id for p in state.chain)
    where += Counter(c.play.card.id for c in state.table)
    expected = Counter({a.id: a.count for a in state.cards.actions})
    problems = []
    if where != expected:
        problems.append(
            f"action cards not conserved: {dict((where - expected) + (expected - where))}"
        )
    missions = Counter(state.missions.cards) + Counter(state.missions.discards)
    if state.mission is not None and state.phase.value != "over":
        missions[state.mission.id] += 1
    if missions != Counter({m.id: m.count for m in state.cards.missions}):
        problems.append("mission cards not conserved")
    return problems
