"""The record of one finished game: everything stored, enough to replay it exactly."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NamedTuple

from arena.conditions import FaultPolicy, TimeControl
from arena.faults import Fault


class GameStatus(StrEnum):
    """How a game ended, as stored in ``games.status`` (the schema's CHECK lists these values)."""

    COMPLETE = "complete"
    """Played to the end: the game is rated."""
    ABORTED = "aborted"
    """Stopped early (``GameRecord.termination`` says why): kept, but not rated."""


@dataclass(frozen=True)
class BotIdentity:
    """Which bot sat in a seat; two versions of a bot never share an identity."""

    name: str
    """The name from bot.toml."""
    version: str
    """The version from bot.toml."""
    digest: str
    """A hash of the bot's directory contents (hex), so an edited bot is a new identity."""
    path: str = ""
    """Where the bot was found (informative only)."""

    @property
    def label(self) -> str:
        """name@version, the way tables show a bot."""
        return f"{self.name}@{self.version}" if self.version else self.name


class DecisionRecord(NamedTuple):
    """One decision as it was applied.

    A named tuple, not a frozen dataclass like the other records: the referee makes one per
    decision, and a frozen dataclass's constructor (an object.__setattr__ per field) took
    several microseconds of the referee's ~16 µs of bookkeeping per decision."""

    seat: int
    """The seat that was asked."""
    action: Any
    """The action applied (JSON value)."""
    by_referee: bool = False
    """True when the referee played a default action for a faulted seat."""
    ms: float = 0.0
    """Wall-clock milliseconds the seat took to answer (0 for referee actions)."""


@dataclass(frozen=True)
class SeatRecord:
    """How one seat fared."""

    seat: int
    bot: BotIdentity
    score: float
    rank: int
    """1 = best; tied seats share a rank; a faulted seat ranks last."""
    fault: Fault = Fault.OK
    fault_reason: str | None = None
    """Why, in words for the bot's author."""
    time_ms: float = 0.0
    """Wall-clock milliseconds spent answering."""
    decisions: int = 0
    """Requests this seat's bot answered."""
    bot_seed: int = 0
    """The per-game seed this seat's bot was sent (derived secretly from the deal's seed)."""
    cpu_ms: float | None = None
    """CPU milliseconds the bot's process used during the game, from the operating system
    (beside time_ms, wall clock, it tells a slow machine from a slow bot); None if unknown."""


@dataclass(frozen=True)
class GameRecord:
    """One game, complete or aborted."""

    game_id: str
    title: str
    options: dict[str, Any]
    seed: int
    seats: tuple[SeatRecord, ...]
    decisions: tuple[DecisionRecord, ...]
    status: GameStatus = GameStatus.COMPLETE
    termination: str = "normal"
    """Why the game ended: "normal", or the reason it was aborted."""
    started_at: str = ""
    """ISO 8601 UTC."""
    finished_at: str = ""
    detail: dict[str, Any] = field(default_factory=dict)
    """Game-specific outcome facts (Outcome.detail)."""
    sandboxed: bool | None = None
    """True: every bot process ran in the sandbox; False: run --unsandboxed; None: no bot
    processes (in-process bots)."""
    time_control: TimeControl | None = None
    """The clock the game was played under; None: recorded before arena kept it."""
    fault_policy: FaultPolicy | None = None
    """What a fault did to the game; None: recorded before arena kept it."""

    @property
    def players(self) -> int:
        return len(self.seats)
