"""Checks that must hold after every decision (used by the conformance playouts)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from arena.games.intrigue.scholars import ROUNDS, SCHOLARS_PER_PLAYER, SEND_ROUNDS, TYPES, UNIT

if TYPE_CHECKING:
    from arena.games.intrigue.state import IntrigueState


def broken(state: IntrigueState) -> list[str]:
    """Every broken invariant, in words (empty when all hold)."""
    return [*_money(state), *_scholars(state), *_palaces(state), *_progress(state)]


def _money(state: IntrigueState) -> list[str]:
    problems = []
    ledger = state.ledger
    for seat in range(state.players):
        expected = ledger.start[seat] + ledger.income[seat] + ledger.received[seat]
        expected += ledger.side_received[seat] - ledger.paid[seat] - ledger.side_paid[seat]
        if ledger.cash[seat] != expected:
            problems.append(
                f"seat {seat} holds {ledger.cash[seat]} ducats, not start {ledger.start[seat]} "
                f"+ income {ledger.income[seat]} + bribes received {ledger.received[seat]} "
                f"+ side payments received {ledger.side_received[seat]} "
                f"- bribes paid {ledger.paid[seat]} - side payments paid {ledger.side_paid[seat]}"
                f" = {expected}"
            )
        if ledger.cash[seat] < 0 or ledger.cash[seat] % UNIT:
            problems.append(f"seat {seat} holds {ledger.cash[seat]} ducats")
    if sum(ledger.side_received) != sum(ledger.side_paid):
        problems.append(
            f"side payments received {sum(ledger.side_received)} != paid {sum(ledger.side_paid)}"
        )
    if sum(ledger.received) != sum(ledger.paid) + sum(ledger.bank_bribes):
        problems.append(
            f"bribes received {sum(ledger.received)} != bribes paid {sum(ledger.paid)} "
            f"+ paid by the bank {sum(ledger.bank_bribes)}"
        )
    return problems


def _scholars(state: IntrigueState) -> list[str]:
    problems = []
    board = state.board
    places = Counter(
        [
            *(sid for hand in board.hands for sid in hand),
            *(sid for front in board.waiting for sid in front),
            *(sid for sections in board.sections for sid in sections.values() if sid is not None),
            *board.island,
        ]
    )
    everyone = {s.id for s in board.scholars}
    if set(places) != everyone or any(n != 1 for n in places.values()):
        lost = sorted(everyone - set(places))
        twice = sorted(sid for sid, n in places.items() if n > 1)
        problems.append(f"scholars not accounted for exactly once: missing {lost}, twice {twice}")
    if len(board.scholars) != SCHOLARS_PER_PLAYER * state.players:
        problems.append(f"{len(board.scholars)} scholars for {state.players} players")
    for seat, hand in enumerate(board.hands):
        if any(board.scholar(sid).owner != seat for sid in hand):
            problems.append(f"seat {seat} holds another colour's scholar: {hand}")
    return problems


def _palaces(state: IntrigueState) -> list[str]:
    problems = []
    board = state.board
    for palace in range(state.players):
        inside = [sid for sid in board.sections[palace].values() if sid is not None]
        types = Counter(board.scholar(sid).type for sid in inside)
        doubled = sorted(t for t, n in types.items() if n > 1)
        if doubled:
            problems.append(f"palace {palace} has more than one {doubled}")
        for sid in [*inside, *board.waiting[palace]]:
            if board.scholar(sid).owner == palace:
                problems.append(f"scholar {sid} is at its own colour's palace {palace}")
        missing = sum(1 for t in TYPES if t not in types)
        if len(board.free_sections(palace)) != missing:
            problems.append(
                f"palace {palace} has {len(board.free_sections(palace))} free sections but "
                f"{missing} missing types"
            )
    return problems


def _progress(state: IntrigueState) -> list[str]:
    problems = []
    over = state.phase.value == "over"
    if not 1 <= state.round <= ROUNDS:
        problems.append(f"round {state.round} is outside 1..{ROUNDS}")
    if over != (state.pending() is None):
        problems.append(f"phase {state.phase.value} but pending decision {state.pending()}")
    if (state.receiving is not None) != (state.phase.value == "receive"):
        problems.append(f"phase {state.phase.value} but receiving is {state.receiving}")
    if state.phase.value == "send":
        if state.round > SEND_ROUNDS:
            problems.append(f"sending in round {state.round}")
        if state.board.waiting[state.current]:
            problems.append(f"seat {state.current} sends with scholars still at its door")
    if over and (any(state.board.hands) or any(state.board.waiting)):
        problems.append("the game is over with scholars in hand or waiting")
    return problems
