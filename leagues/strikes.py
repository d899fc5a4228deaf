"""Strikes: an entrant that faults in too many of its league games is disqualified.

A bot that crashes or times out in most games spoils its tables for everyone else; past
the league's threshold it is struck out, recorded as such, and no game of it is scheduled
any more (the games it already played stay recorded).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from arena.faults import Fault
from arena.record import GameRecord
from leagues.tasks import GameTask


@dataclass
class StrikeBook:
    """Games and faulted games per entrant, and who is out."""

    threshold: float | None
    """Disqualify above this share of faulted games (None: never)."""
    minimum: int
    """...once the entrant has played at least this many games."""
    games: dict[int, int] = field(default_factory=dict)
    faults: dict[int, int] = field(default_factory=dict)
    out: dict[int, str] = field(default_factory=dict)
    """Entrant index -> why it is out."""

    def count(self, task: GameTask, seat_faults: Iterable[tuple[int, Fault]]) -> None:
        """Add one game: (seat, fault) for each seat."""
        for seat, fault in seat_faults:
            entrant = task.seating[seat]
            self.games[entrant] = self.games.get(entrant, 0) + 1
            self.faults[entrant] = self.faults.get(entrant, 0) + (fault != Fault.OK)

    def add(self, task: GameTask, record: GameRecord) -> list[int]:
        """Count a finished game; the entrants it strikes out (newly)."""
        self.count(task, ((s.seat, s.fault) for s in record.seats))
        return self.newly_out(set(task.seating))

    def newly_out(self, entrants: Iterable[int]) -> list[int]:
        struck: list[int] = []
        if self.threshold is None:
            return struck
        for entrant in entrants:
            games = self.games.get(entrant, 0)
            if entrant in self.out or games < self.minimum:
                continue
            if self.faults.get(entrant, 0) / games > self.threshold:
                struck.append(entrant)
        return struck

    def playable(self, task: GameTask) -> bool:
        """False once any of the task's entrants is out."""
        return not any(entrant in self.out for entrant in task.seating)
