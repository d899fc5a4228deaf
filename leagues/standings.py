"""League standings: TrueSkill over the league's own games, mean rank and mean score with 95%
confidence intervals, a head-to-head table and faults per bot.

What the standings are; leagues.tally keeps them up to date as each game is stored (so they
can be read while the league runs, and always agree with what is recorded). Copies of one bot
(the same name, version and files) are one bot here: they are the same program.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from arena import ratings

Z95 = 1.959964
"""Two-sided 95% normal quantile: intervals are mean ± Z95 · sd / √n (n is large in leagues)."""


@dataclass(frozen=True)
class Interval:
    """A mean with its 95% confidence half-width (None when n < 2)."""

    mean: float
    half_width: float | None

    @classmethod
    def of(cls, values: list[float]) -> Interval:
        if len(values) < 2:
            return cls(values[0] if values else math.nan, None)
        return cls(
            statistics.fmean(values), Z95 * statistics.stdev(values) / math.sqrt(len(values))
        )

    @classmethod
    def of_sums(cls, n: int, total: float, squares: float) -> Interval:
        """The interval of n values from their sum and their sum of squares (exact arithmetic
        on those, so integer values such as ranks give what ``of`` gives)."""
        if n < 2:
            return cls(total if n else math.nan, None)
        exact_total = Fraction(total)
        variance = max(Fraction(squares) - exact_total * exact_total / n, Fraction(0)) / (n - 1)
        return cls(float(exact_total / n), Z95 * math.sqrt(variance) / math.sqrt(n))

    def text(self, digits: int = 2) -> str:
        if self.half_width is None:
            return f"{self.mean:.{digits}f}"
        return f"{self.mean:.{digits}f} ± {self.half_width:.{digits}f}"


@dataclass(frozen=True)
class BotStanding:
    """One bot's line in the standings."""

    label: str
    games: int
    """Complete games it sat in (a bot with two copies at one table counts the game once)."""
    seats: int
    """Seats it played (copies count separately)."""
    mu: float
    sigma: float
    wins: int
    """Seats that ranked first (ties included)."""
    rank: Interval
    score: Interval
    faults: int
    """Seats that faulted."""

    @property
    def conservative(self) -> float:
        return ratings.conservative(self.mu, self.sigma)


@dataclass(frozen=True)
class HeadToHead:
    """How often `a` finished ahead of `b` when both sat at one table (seat against seat)."""

    a: str
    b: str
    meetings: int
    ahead: int
    ties: int

    @property
    def share(self) -> float:
        """a's share: ahead counts 1, a tie 1/2."""
        return (self.ahead + self.ties / 2) / self.meetings if self.meetings else math.nan


@dataclass(frozen=True)
class Standings:
    """The whole picture of one league."""

    name: str
    title: str
    scheduled: int
    complete: int
    aborted: int
    bots: list[BotStanding] = field(default_factory=list)
    head_to_head: list[HeadToHead] = field(default_factory=list)
    disqualified: list[str] = field(default_factory=list)
    """Why each entrant struck out of the league was (leagues.strikes)."""

    def to_dict(self) -> dict[str, Any]:
        def interval(i: Interval) -> dict[str, Any]:
            return {"mean": i.mean, "ci95": i.half_width}

        return {
            "league": self.name,
            "game": self.title,
            "scheduled": self.scheduled,
            "complete": self.complete,
            "aborted": self.aborted,
            "bots": [
                {
                    "bot": b.label,
                    "games": b.games,
                    "seats": b.seats,
                    "mu": b.mu,
                    "sigma": b.sigma,
                    "mu_minus_3sigma": b.conservative,
                    "wins": b.wins,
                    "mean_rank": interval(b.rank),
                    "mean_score": interval(b.score),
                    "faults": b.faults,
                }
                for b in self.bots
            ],
            "disqualified": self.disqualified,
            "head_to_head": [
                {
                    "bot": h.a,
                    "opponent": h.b,
                    "meetings": h.meetings,
                    "ahead": h.ahead,
                    "ties": h.ties,
                    "share": h.share,
                }
                for h in self.head_to_head
            ],
        }


def labels_of(keys: set[tuple[str, str, str]]) -> dict[tuple[str, str, str], str]:
    """name@version, with a digest prefix where two different bots share name and version."""
    by_label: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
    for key in keys:
        by_label[f"{key[0]}@{key[1]}" if key[1] else key[0]].append(key)
    result = {}
    for label, same in by_label.items():
        for key in same:
            result[key] = label if len(same) == 1 else f"{label}~{key[2][:6]}"
    return result
