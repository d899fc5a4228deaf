"""A league file, checked: the typed values everything downstream (schedules, runners,
standings) uses instead of the file's dicts. leagues.spec loads them."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from arena.configfile import ConfigFileError
from arena.containment.limits import DEFAULT_LIMITS, Limits
from arena.referee import FaultPolicy, TimeControl


class LeagueFormat(StrEnum):
    """How a league matches its entrants."""

    ROUND_ROBIN = "round-robin"
    """Everyone against everyone: every pair of bots meets equally often."""
    GAUNTLET = "gauntlet"
    """Candidates against a field: every table is one candidate plus field bots."""


class LeagueFileError(ConfigFileError):
    """A league file that cannot be used; the message names the file, the line and the fix."""


@dataclass(frozen=True)
class Entrant:
    """One seat-taker of a league: a bot directory, or one copy of it."""

    path: Path
    """The bot's directory, resolved to an absolute path."""
    label: str
    """How tables and standings show it; unique in the league, e.g. "random#2"."""
    copy: int = 1
    """Which copy of the bot this is (1-based); 1 when the bot is listed without copies."""


@dataclass(frozen=True)
class LeagueSpec:
    """A league file, checked: everything needed to schedule and play it."""

    name: str
    """The league's name (informative; not part of the schedule's fingerprint)."""
    path: Path
    """The league file, resolved to an absolute path."""
    game: str
    """The game title, e.g. "corruption"."""
    format: LeagueFormat
    """Round-robin or gauntlet."""
    bots: tuple[Entrant, ...]
    """Round-robin: every entrant. Gauntlet: the field. One Entrant per copy."""
    candidates: tuple[Entrant, ...]
    """Gauntlet: the bots under test. Round-robin: empty."""
    table_sizes: tuple[int, ...]
    """Every table size played, ascending, e.g. (5,) or (3, 4, 5)."""
    games: int
    """Games to play in total, over all table sizes (>= 1)."""
    seed: int = 0
    """Base seed; deal seeds are derived from it with the database's deal key
    (arena.seeds.deal_seed)."""
    duplicate: bool = True
    """Replay each deal with the seating rotated, so the luck of the deal cancels out."""
    workers: int = 1
    """Games played at once."""
    options: dict[str, Any] = field(default_factory=dict, hash=False)
    """Game options, normalized by the game (treat as read-only)."""
    time: TimeControl = TimeControl()
    """The clock every seat plays under."""
    fault_policy: FaultPolicy = FaultPolicy.SUBSTITUTE
    """What a game does when a seat faults."""
    disqualify_above: float | None = None
    """Strikes: an entrant that faulted in more than this share of its league games is
    disqualified and no longer scheduled (None: never)."""
    strike_after: int = 5
    """Games an entrant must have played before it can be disqualified."""
    limits: Limits = DEFAULT_LIMITS
    """Containment of every bot process ([limits]; defaults as arena.limits.Limits)."""
    cluster: str | None = None
    """[cluster] address: the Dask cluster `league run` plays on unless told --cluster (None:
    this machine's worker processes). Not part of the schedule."""

    @property
    def entrants(self) -> tuple[Entrant, ...]:
        """Field bots then candidates: GameTask.seating indexes into this."""
        return self.bots + self.candidates
