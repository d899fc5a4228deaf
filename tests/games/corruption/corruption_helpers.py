"""Helpers for Corruption scenario tests: build a position, then play it through ``apply``."""

from __future__ import annotations

import json
import random
from typing import Any

from arena.games.base import Event
from arena.games.corruption import GAME
from arena.games.corruption.cards import Variant
from arena.games.corruption.contracts import GOVERNMENTS
from arena.games.corruption.state import CorruptionState
from protocol.legal import random_action

CH, CS, CAP = "city-hall", "county-seat", "capitol"
BRIBES = ["bribe-1000", "bribe-2000", "bribe-4000", "bribe-6000", "bribe-8000", "bribe-10000"]
DA, REP, HM = "district-attorney", "reporter", "hit-man"

Where = int | str
"""A contract id, or a government name for its Swiss account."""

STANDARD = {CH: [1, 2], CS: [3, 4], CAP: [5, 6]}
"""A default layout: contracts 1..6, two per government."""


def start_position(
    players: int,
    layout: dict[str, list[int]],
    *,
    first_player: int = 0,
    variants: tuple[str, ...] = (),
    seed: int = 0,
    round_no: int = 1,
    won: dict[int, list[int]] | None = None,
) -> tuple[CorruptionState, list[Event]]:
    """A game at the start of ``round_no`` with exactly ``layout``'s contracts under
    each government (no deal this round), ``won`` contracts already won and a chosen first
    player; hands are full sets. Everything after that goes through the real ``apply``."""
    state = CorruptionState(players, seed, frozenset(Variant(v) for v in variants))
    used = {c for ids in layout.values() for c in ids} | {
        c for ids in (won or {}).values() for c in ids
    }
    state.deck = [c for c in state.deck if c not in used]
    state.layout = {g: list(layout.get(g.value, [])) for g in GOVERNMENTS}
    for seat, ids in (won or {}).items():
        state.won[seat] = list(ids)
    state.round = round_no - 1
    events: list[Event] = []
    state._begin_round(events, deal=False, first_player=first_player)
    state._advance(events)
    return state, events


def new(
    players: int = 3,
    layout: dict[str, list[int]] | None = None,
    **kwargs: Any,
) -> CorruptionState:
    """A game at the start of a round with exactly this layout (see start_position)."""
    state, _ = start_position(players, layout or STANDARD, **kwargs)
    assert state.invariants() == []
    return state


def act(state: CorruptionState, seat: int, kind: str, action: Any) -> list[Event]:
    """Answer the pending decision, checking it is the one expected."""
    decision = state.pending()
    assert decision is not None, "the game is over"
    assert (decision.seat, decision.kind) == (seat, kind), (
        f"expected seat {seat} to decide {kind!r}, pending is seat {decision.seat} {decision.kind!r}"
    )
    events = state.apply(action)
    assert state.invariants() == []
    return events


def place(state: CorruptionState, seat: int, card: str, where: Where) -> list[Event]:
    """Place one card under a contract (int) or on a Swiss account (government name)."""
    if isinstance(where, str):
        return act(state, seat, "place", {"card": card, "swiss": where})
    return act(state, seat, "place", {"card": card, "contract": where})


def plan(*moves: tuple[str, Where], fill: Where, count: int = 6) -> list[tuple[str, Where]]:
    """A seat's placements for a round: the given moves, then its unused bribes (cheapest
    first) at ``fill`` until it has ``count`` placements."""
    used = {card for card, _ in moves}
    rest = [(card, fill) for card in BRIBES if card not in used]
    return [*moves, *rest][:count]


def play_round(state: CorruptionState, plans: dict[int, list[tuple[str, Where]]]) -> list[Event]:
    """Play every seat's planned placements in turn order; returns the events (including any
    automatic attribution that follows)."""
    queues = {seat: list(moves) for seat, moves in plans.items()}
    events: list[Event] = []
    while any(queues.values()):
        decision = state.pending()
        assert decision is not None and decision.kind == "place", decision
        card, where = queues[decision.seat].pop(0)
        events += place(state, decision.seat, card, where)
    return events


def tie_round(state: CorruptionState, contract: int) -> list[Event]:
    """A round where every seat puts all six bribes on one contract: a tie, nobody wins."""
    return play_round(state, {s: [(b, contract) for b in BRIBES] for s in range(state.players)})


def pid(state: CorruptionState, seat: int, card: str, where: Where) -> int:
    """The placement id of a seat's card at a spot this round."""
    for p in state.table.placements:
        spot = p.government.value if p.contract is None else p.contract
        if p.owner == seat and p.card.value == card and spot == where:
            return p.id
    raise AssertionError(f"seat {seat} has no {card} at {where}")


def of_kind(events: list[Event], kind: str) -> list[dict[str, Any]]:
    """The full data of every event of this kind."""
    return [e.data for e in events if e.kind == kind]


def kinds(events: list[Event]) -> list[str]:
    """Event kinds in order."""
    return [e.kind for e in events]


def cards_in_view(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Every placed card shown in a view (contracts and Swiss accounts)."""
    cards = []
    for government in view["governments"]:
        for contract in government["contracts"]:
            cards.extend(contract["cards"])
        cards.extend(government["swiss"])
    return cards


def random_game(
    players: int, seed: int, variants: list[str], choices_seed: int | None = None
) -> tuple[CorruptionState, list[Event], list[Any]]:
    """A whole game with uniformly random legal answers; returns state, events, actions."""
    state, events = GAME.start(players, seed, GAME.normalize_options({"variants": variants}))
    rng = random.Random(seed if choices_seed is None else choices_seed)
    actions = []
    while (decision := state.pending()) is not None:
        action = random_action(decision.legal, rng)
        actions.append(action)
        events += state.apply(action)
    return state, events, actions


def dump(value: Any) -> str:
    """Canonical JSON, for byte-identical comparisons."""
    return json.dumps(value, sort_keys=False, separators=(",", ":"))
