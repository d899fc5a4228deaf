"""Checks that must hold after every decision (used by the conformance playouts)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from arena.games.corruption.cards import (
    CARDS_PLACED_PER_ROUND,
    CHARACTERS,
    PEEKS_PER_GAME,
    ROUNDS,
    Card,
    Variant,
    is_bribe,
    starting_hand,
)
from arena.games.corruption.contracts import BY_ID, CONTRACTS, GOVERNMENTS

if TYPE_CHECKING:
    from arena.games.corruption.state import CorruptionState


def broken(state: CorruptionState) -> list[str]:
    """Every broken invariant, in words (empty when all hold)."""
    return [*_cards(state), *_table(state), *_contracts(state), *_peeks(state), *_progress(state)]


def _cards(state: CorruptionState) -> list[str]:
    problems = []
    full = starting_hand(Variant.CLOSED in state.variants)
    on_table: list[Counter[Card]] = [Counter() for _ in range(state.players)]
    for p in state.table.placements:
        on_table[p.owner][p.card] += 1
    for seat in range(state.players):
        hand = state.hands[seat]
        if any(n < 0 for n in hand.values()):
            problems.append(f"seat {seat} holds a negative count of a card: {dict(hand)}")
        total = +hand + on_table[seat] + Counter(state.gone[seat])
        if total != full:
            problems.append(
                f"seat {seat}'s cards are not accounted for exactly once: hand {dict(+hand)}, "
                f"table {dict(on_table[seat])}, gone {state.gone[seat]}"
            )
        if any(card not in CHARACTERS for card in state.gone[seat]):
            problems.append(f"seat {seat} has a bribe among the cards gone: {state.gone[seat]}")
    return problems


def _table(state: CorruptionState) -> list[str]:
    problems = []
    table = state.table
    ids = [p.id for p in table.placements]
    if ids != sorted(set(ids)) or any(i >= state.next_placement for i in ids):
        problems.append(f"placement ids are not unique and increasing: {ids}")
    placed = Counter(p.owner for p in table.placements)
    for seat, n in placed.items():
        if n > CARDS_PLACED_PER_ROUND:
            problems.append(f"seat {seat} placed {n} cards this round (at most 6)")
    if len(table.placements) != state.turn:
        problems.append(f"{len(table.placements)} cards on the table but {state.turn} turns played")
    on_table = {c for g in GOVERNMENTS for c in state.layout[g]}
    for p in table.placements:
        if p.swiss and not is_bribe(p.card):
            problems.append(f"placement {p.id}: a {p.card.value} on a Swiss account")
        if p.swiss and p.face_up:
            problems.append(f"placement {p.id}: a Swiss account card is face up")
        if state.face_up is not None and p.face_up != (p.slot in state.face_up and not p.swiss):
            problems.append(f"placement {p.id}: face_up={p.face_up} breaks the schedule")
        if p.contract is not None and p.contract not in state.layout[p.government]:
            problems.append(f"placement {p.id} sits under contract {p.contract}, not on the table")
    for contract in table.cancelled:
        if contract not in on_table:
            problems.append(f"cancelled contract {contract} is not on the table")
    return problems


def _contracts(state: CorruptionState) -> list[str]:
    problems = []
    everywhere = [
        *state.deck,
        *(c for g in GOVERNMENTS for c in state.layout[g]),
        *(c for won in state.won for c in won),
    ]
    if sorted(everywhere) != [c.id for c in CONTRACTS]:
        problems.append(f"contracts not conserved (deck + table + won): {sorted(everywhere)}")
    for seat, score in enumerate(state.scores()):
        if score != sum(BY_ID[c].value for c in state.won[seat]):
            problems.append(f"seat {seat}'s score {score} is not the value of its contracts")
    return problems


def _peeks(state: CorruptionState) -> list[str]:
    problems = []
    budget = PEEKS_PER_GAME if Variant.LITTLE_BLACK_BOOK in state.variants else 0
    for seat in range(state.players):
        left = state.peeks_left[seat]
        if not 0 <= left <= budget:
            problems.append(f"seat {seat} has {left} peeks left (allowed 0..{budget})")
        if left + len(state.peeks[seat]) != budget:
            problems.append(
                f"seat {seat}: {left} peeks left + {len(state.peeks[seat])} spent != {budget}"
            )
        for peek in state.peeks[seat]:
            if peek.owner == seat:
                problems.append(f"seat {seat} peeked at its own card {peek.placement}")
    return problems


def _progress(state: CorruptionState) -> list[str]:
    problems = []
    if not 1 <= state.round <= ROUNDS:
        problems.append(f"round {state.round} is outside 1..{ROUNDS}")
    over = state.phase.value == "over"
    if over != (state.pending() is None):
        problems.append(f"phase {state.phase.value} but pending decision {state.pending()}")
    if over and state.table.placements:
        problems.append("the game is over but cards are still on the table")
    return problems
