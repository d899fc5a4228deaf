"""League standings: TrueSkill over the league's own games, mean rank and mean score with 95%
confidence intervals, a head-to-head table and faults per bot.

Computed from the stored games alone (so standings can be read while the league runs, and
always agree with what is recorded). Copies of one bot (the same name, version and files)
are one bot here: they are the same program.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from arena import ratings
from arena.faults import Fault
from arena.record import GameStatus

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


def compute_standings(
    rows: Iterable[dict[str, Any]], *, name: str, title: str, scheduled: int
) -> Standings:
    """Standings from the league's seat rows (leagues.store.LeagueStore.seats), in save order."""
    games: dict[str, list[dict[str, Any]]] = defaultdict(list)
    status: dict[str, str] = {}
    for row in rows:
        games[row["game_id"]].append(row)
        status[row["game_id"]] = row["status"]
    keys = {(r["name"], r["version"], r["digest"]) for seats in games.values() for r in seats}
    labels = _labels(keys)
    env = ratings.default_env()
    rating: dict[tuple[str, str, str], tuple[float, float]] = {}
    ranks: dict[str, list[float]] = defaultdict(list)
    scores: dict[str, list[float]] = defaultdict(list)
    played: dict[str, int] = defaultdict(int)
    wins: dict[str, int] = defaultdict(int)
    faults: dict[str, int] = defaultdict(int)
    meetings: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])
    complete = 0
    for game_id, seats in games.items():  # dicts keep save order
        if status[game_id] != GameStatus.COMPLETE:
            continue
        complete += 1
        seat_keys = [((s["name"], s["version"], s["digest"]), s["rank"]) for s in seats]
        rating.update(ratings.update(env, rating, seat_keys))
        for key in {k for k, _ in seat_keys}:
            played[labels[key]] += 1
        for seat in seats:
            label = labels[(seat["name"], seat["version"], seat["digest"])]
            ranks[label].append(seat["rank"])
            scores[label].append(seat["score"])
            wins[label] += seat["rank"] == 1
            faults[label] += seat["fault"] != Fault.OK
        for x in seats:
            for y in seats:
                a = labels[(x["name"], x["version"], x["digest"])]
                b = labels[(y["name"], y["version"], y["digest"])]
                if a == b:
                    continue
                tally = meetings[(a, b)]
                tally[0] += 1
                tally[1] += x["rank"] < y["rank"]
                tally[2] += x["rank"] == y["rank"]
    default = (env.mu, env.sigma)
    bots = [
        BotStanding(
            label=labels[key],
            games=played[labels[key]],
            seats=len(ranks[labels[key]]),
            mu=rating.get(key, default)[0],
            sigma=rating.get(key, default)[1],
            wins=wins[labels[key]],
            rank=Interval.of(ranks[labels[key]]),
            score=Interval.of(scores[labels[key]]),
            faults=faults[labels[key]],
        )
        for key in keys
        if ranks[labels[key]]
    ]
    bots.sort(key=lambda b: (-b.conservative, b.label))
    head = [HeadToHead(a, b, *tally) for (a, b), tally in sorted(meetings.items())]
    return Standings(name, title, scheduled, complete, len(games) - complete, bots, head)


def _labels(keys: set[tuple[str, str, str]]) -> dict[tuple[str, str, str], str]:
    """name@version, with a digest prefix where two different bots share name and version."""
    by_label: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
    for key in keys:
        by_label[f"{key[0]}@{key[1]}" if key[1] else key[0]].append(key)
    result = {}
    for label, same in by_label.items():
        for key in same:
            result[key] = label if len(same) == 1 else f"{label}~{key[2][:6]}"
    return result
