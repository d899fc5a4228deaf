"""Phase 2 pieces: what a seat may place or peek at, and the events a placement or peek makes."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from arena.games.base import Event
from arena.games.corruption.cards import CARD_ORDER, Card, is_bribe
from arena.games.corruption.contracts import GOVERNMENTS
from arena.games.corruption.table import Layout, Placement, Table


@dataclass(frozen=True)
class Peek:
    """A Little Black Book look at a face-down card."""

    round: int
    """The round it was spent in."""
    placement: int
    """The placement looked at."""
    owner: int
    """Who played that card."""
    card: Card
    """What the peeker learned."""


def place_options(
    seat: int, hand: Counter[Card], layout: Layout, table: Table, peeks_left: int, peeked: set[int]
) -> list[dict[str, Any]]:
    """Every legal ``place`` answer: card kind x contract, bribe kind x Swiss account, then the
    peeks worth making (face-down cards of others under contracts, not yet peeked)."""
    contracts = [c for g in GOVERNMENTS for c in layout[g]]
    options: list[dict[str, Any]] = []
    swiss_accounts = [g.value for g in GOVERNMENTS]
    for card in CARD_ORDER:
        if hand[card] <= 0:
            continue
        code = card.value  # once per card kind: Enum.value is a slow descriptor on a hot path
        options.extend({"card": code, "contract": c} for c in contracts)
        if is_bribe(card):
            options.extend({"card": code, "swiss": g} for g in swiss_accounts)
    if peeks_left > 0:
        options.extend(
            {"peek": p.id}
            for p in table.placements
            if not p.swiss and not p.face_up and p.owner != seat and p.id not in peeked
        )
    return options


def placed_event(round_no: int, p: Placement) -> Event:
    """A card put down: public when face up, else its face for the owner only."""
    others = {
        "round": round_no,
        "seat": p.owner,
        "placement": p.id,
        "slot": p.slot,
        "face_up": p.face_up,
        "government": p.government.value,
        "contract": p.contract,
        "swiss": p.swiss,
    }
    data = {**others, "card": p.card.value}
    if p.face_up:
        return Event("placed", data)
    return Event("placed", data, seen_by=frozenset({p.owner}), others=others)


def peeked_event(seat: int, p: Placement, peeks_left: int) -> Event:
    """A peek: everyone learns who looked at which placement; only the peeker learns the card."""
    others = {"seat": seat, "placement": p.id, "owner": p.owner, "peeks_left": peeks_left}
    return Event(
        "peeked", {**others, "card": p.card.value}, seen_by=frozenset({seat}), others=others
    )
