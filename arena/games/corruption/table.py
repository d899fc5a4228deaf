"""One round's cards on the table and what attribution has done to them."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from arena.games.corruption.cards import BRIBE_VALUE, Card, is_bribe
from arena.games.corruption.contracts import GOVERNMENTS, Government

Layout = dict[Government, list[int]]
"""Contract ids under each government, left to right (older contracts first)."""


class Status(StrEnum):
    """What has happened to a placed card during attribution."""

    IN_PLAY = "in-play"
    KILLED = "killed"
    """A Hit Man killed it."""
    REMOVED = "removed"
    """A Reporter removed this bribe, or this Hit Man had no target."""


CardMarks = tuple[Status, int | None, int | None]
"""What attribution has written on a placed card: its status, by whom (Table.by), and where a
Swiss bribe was assigned (Table.assigned)."""


@dataclass(frozen=True)
class Placement:
    """One card put on the table during phase 2."""

    id: int
    """Unique within the game, increasing in play order."""
    owner: int
    """The seat that played it."""
    card: Card
    """What it is."""
    slot: int
    """The owner's placement number this round (1..6)."""
    face_up: bool
    """Whether it was played face up (never true on a Swiss account)."""
    government: Government
    """The government it was played under (directly or on its Swiss account)."""
    contract: int | None
    """The contract it sits under, or None when it is on the government's Swiss account."""

    @property
    def swiss(self) -> bool:
        """True for a bribe on a Swiss account."""
        return self.contract is None


class Table:
    """The cards played this round, in play order, and the marks attribution leaves on them."""

    def __init__(self) -> None:
        self.placements: list[Placement] = []
        """Every card placed this round, in play order."""
        self.by_id: dict[int, Placement] = {}
        """Placement by id."""
        self.status: dict[int, Status] = {}
        """Attribution status of each placement."""
        self.by: dict[int, int | None] = {}
        """For a killed/removed card: the Hit Man or Reporter that did it (None: no target)."""
        self.assigned: dict[int, int | None] = {}
        """Swiss bribe -> the contract its owner assigned it to (None: nowhere to go)."""
        self.cancelled: list[int] = []
        """Contracts cancelled by a District Attorney this round, in visiting order."""
        self.revealed = False
        """True once phase 3 has turned every card over."""
        self.card_views: dict[tuple[int, bool], tuple[CardMarks, dict[str, Any]]] = {}
        """What views show of each card, by (placement id, face shown), with the marks it
        was built from: reused by every view while the marks are the same (view.py). Never
        changed once built, since the views that share it are out of the game's hands."""

    def add(self, placement: Placement) -> None:
        """Put a card on the table."""
        self.placements.append(placement)
        self.by_id[placement.id] = placement
        self.status[placement.id] = Status.IN_PLAY

    def placed_by(self, seat: int) -> int:
        """How many cards this seat has placed this round."""
        return sum(1 for p in self.placements if p.owner == seat)

    def under(self, contract: int) -> list[Placement]:
        """Cards played directly under a contract, in play order."""
        return [p for p in self.placements if p.contract == contract]

    def on_swiss(self, government: Government) -> list[Placement]:
        """Bribes on a government's Swiss account, in play order."""
        return [p for p in self.placements if p.swiss and p.government == government]

    def alive(self, placement_id: int) -> bool:
        """True while nothing has killed or removed this card."""
        return self.status[placement_id] == Status.IN_PLAY

    def on_contract(self, layout: Layout, card: Card) -> list[Placement]:
        """Every card of this kind under a contract, in visiting order: government by
        government, contract left to right, then play order."""
        return [
            p
            for government in GOVERNMENTS
            for contract in layout[government]
            for p in self.under(contract)
            if p.card == card
        ]

    def totals(self, contract: int) -> dict[int, int]:
        """Each seat's standing bribes on a contract: direct ones at face value, Swiss ones
        assigned to it at half. Seats with no bribe there are absent."""
        totals: dict[int, int] = {}
        for p in self.placements:
            if not is_bribe(p.card) or not self.alive(p.id):
                continue
            if p.contract == contract:
                totals[p.owner] = totals.get(p.owner, 0) + BRIBE_VALUE[p.card]
            elif p.swiss and self.assigned.get(p.id) == contract:
                totals[p.owner] = totals.get(p.owner, 0) + BRIBE_VALUE[p.card] // 2
        return totals
