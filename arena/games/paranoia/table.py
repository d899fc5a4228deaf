"""What lies on the table: the troubleshooters, the clearance supply and the decks.

Mechanics only (no turn order, no decisions): a troubleshooter's counters and their limits,
clearance moves that respect the limited supply, and decks that reshuffle with the game's one
seeded RNG. The flow that uses them is in state.py.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from arena.games.paranoia.vocabulary import CLEARANCES, CardSet, Clearance

START_CLONES = 6
"""Clone tokens per player (sourced); losing the sixth ends the game."""


@dataclass
class Troubleshooter:
    """One player's troubleshooter and its clones."""

    seat: int
    """The seat that plays it."""
    rank: int = 0
    """Clearance, 0 (RED) .. 7 (ULTRAVIOLET)."""
    clones: int = START_CLONES
    """Clones left, this one included (0 once the last is lost)."""
    wounds: int = 0
    """Wounds on the current clone."""
    treason: int = 0
    """Treason points on the current clone."""
    hand: list[str] = field(default_factory=list)
    """Action card ids, in the order they came."""
    alive: bool = True
    """False while dead (between a death and the new clone) and once out of clones."""
    returning: bool = False
    """Dead and its skipped turn is over: the new clone arrives at the start of the next turn."""
    skips: int = 0
    """Card-play turns to skip this mission (from cards)."""
    took_wounds: bool = False
    """Received a wound during this mission (for the mission tests)."""
    died: bool = False
    """Lost a clone during this mission."""
    killed_traitor: bool = False
    """Dealt the fatal wound to a traitor during this mission."""

    @property
    def out(self) -> bool:
        """Lost its last clone: never returns."""
        return self.clones == 0


class Clearances:
    """The clearance table and the limited supply of clearance cards."""

    def __init__(self, cards: CardSet, troubleshooters: list[Troubleshooter]) -> None:
        self.rows: tuple[Clearance, ...] = cards.clearances
        """The table, RED first."""
        self._troubleshooters = troubleshooters

    def row(self, t: Troubleshooter) -> Clearance:
        """The table row of a troubleshooter's clearance."""
        return self.rows[t.rank]

    def traitor(self, t: Troubleshooter) -> bool:
        """Treason at or above its clearance's max treason."""
        return t.treason >= self.rows[t.rank].max_treason

    def left(self, rank: int) -> int:
        """Cards of that clearance still in the supply."""
        held = sum(1 for t in self._troubleshooters if t.rank == rank)
        return self.rows[rank].supply - held

    def move(self, t: Troubleshooter, step: int) -> bool:
        """Gain (+1) or lose (-1) one clearance; False (and nothing changes) at ULTRAVIOLET or
        RED, or when the new clearance's supply is empty."""
        rank = t.rank + step
        if not 0 <= rank < len(self.rows) or self.left(rank) <= 0:
            return False
        t.rank = rank
        return True

    def supply(self) -> dict[str, int]:
        """Cards left per clearance name."""
        # One pass, not one per rank; a list, not a Counter (whose construction cost more
        # than the rest of this, at every view)
        held = [0] * len(self.rows)
        for t in self._troubleshooters:
            held[t.rank] += 1
        return {name: self.rows[rank].supply - held[rank] for rank, name in enumerate(CLEARANCES)}


class Deck:
    """A face-down deck and its face-up discard pile; the top is the end of ``cards``."""

    def __init__(self, cards: list[str], rng: random.Random) -> None:
        self.cards = cards
        """Face down; drawn from the end."""
        self.discards: list[str] = []
        """Face up, in the order discarded."""
        self._rng = rng
        rng.shuffle(self.cards)

    def draw(self) -> tuple[str | None, bool]:
        """The top card (None if deck and discards are both empty) and whether the discards
        had to be shuffled in first."""
        reshuffled = False
        if not self.cards and self.discards:
            self.cards, self.discards = self.discards, []
            self._rng.shuffle(self.cards)
            reshuffled = True
        return (self.cards.pop() if self.cards else None), reshuffled


def action_deck(cards: CardSet, rng: random.Random) -> Deck:
    """Every action card copy, shuffled."""
    return Deck([a.id for a in cards.actions for _ in range(a.count)], rng)


def mission_deck(cards: CardSet, rng: random.Random) -> Deck:
    """Every mission card copy, shuffled."""
    return Deck([m.id for m in cards.missions for _ in range(m.count)], rng)
