"""The game interface: what every title gives the referee.

A game is a pure, seeded state machine (DESIGN.md): no I/O, no clock, no global RNG. The
referee drives it with ``pending`` / ``apply`` and shows each seat only ``view(seat)`` and the
events built for that seat. Any seat may be asked at any moment: a game is not a turn loop.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from protocol import legal


class IllegalAction(ValueError):
    """An action the pending decision does not allow (the referee checks first; this is the
    game's own guard)."""


class BadOptions(ValueError):
    """Game options that do not make sense; the message says which and what is allowed."""


@dataclass(frozen=True)
class Decision:
    """One question for one seat."""

    seat: int
    """The seat that must answer (0-based)."""
    kind: str
    """What is being decided, e.g. "place" or "swiss"; bots may dispatch on it."""
    legal: dict[str, Any]
    """The legal-action description (protocol.legal) the answer must satisfy."""


@dataclass(frozen=True)
class Event:
    """Something that happened, with the version of it each seat is allowed to know.

    Hidden information is *built*, never filtered: the game writes the full truth in
    ``data`` and, when some seats may not see all of it, builds ``others`` explicitly.
    """

    kind: str
    """The event's name, e.g. "placed" or "awarded"."""
    data: dict[str, Any]
    """The full truth (recorded, shown in table replays)."""
    seen_by: frozenset[int] | None = None
    """Seats that see ``data``; None means every seat does."""
    others: dict[str, Any] | None = None
    """What the seats outside ``seen_by`` are told; None means they are told nothing."""

    def for_seat(self, seat: int) -> dict[str, Any] | None:
        """The event body as this seat may see it, or None if it sees nothing."""
        if self.seen_by is None or seat in self.seen_by:
            return {"kind": self.kind, **self.data}
        if self.others is None:
            return None
        return {"kind": self.kind, **self.others}

    def audiences(self, seats: list[int]) -> list[tuple[list[int], dict[str, Any]]]:
        """The seats told something, grouped by what they are told: (seats, body) for those
        who see ``data`` and for those told ``others``, each body what for_seat gives them,
        built once per group instead of once per seat (the referee sends it to each)."""
        if self.seen_by is None:
            return [(seats, {"kind": self.kind, **self.data})] if seats else []
        seeing = [seat for seat in seats if seat in self.seen_by]
        groups = [(seeing, {"kind": self.kind, **self.data})] if seeing else []
        if self.others is not None:
            rest = [seat for seat in seats if seat not in self.seen_by]
            if rest:
                groups.append((rest, {"kind": self.kind, **self.others}))
        return groups

    def truth(self) -> dict[str, Any]:
        """The event body with nothing hidden, for the table's view of a replay."""
        return {"kind": self.kind, **self.data}


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended."""

    scores: tuple[float, ...]
    """Each seat's score in the game's own unit."""
    ranks: tuple[int, ...]
    """Each seat's rank, 1 = best; tied seats share a rank."""
    detail: dict[str, Any] = field(default_factory=dict)
    """Game-specific facts worth recording (e.g. contracts won)."""


class GameState(Protocol):
    """A game in progress. Changes only through ``apply``."""

    def pending(self) -> Decision | None:
        """The decision the game waits for, or None once the game is over."""

    def apply(self, action: Any) -> list[Event]:
        """Apply the pending decision's answer; return the events it caused (in order).

        Raises IllegalAction if the action is not legal; the state is then unchanged.
        """

    def apply_checked(self, action: Any) -> list[Event]:
        """``apply`` without checking the answer against the pending decision's legal actions:
        the caller vouches that it is the canonical form of a legal answer (the referee, which
        checks every answer before the game sees it, so each answer is checked once, not
        twice). It may still raise IllegalAction for a rule the description cannot express.
        """

    def view(self, seat: int) -> dict[str, Any]:
        """Everything this seat may know now, built from nothing (JSON-ready)."""

    def table_view(self) -> dict[str, Any]:
        """Everything, hidden or not (for replays from the table's side)."""

    def outcome(self) -> Outcome:
        """Scores and ranks; only once ``pending()`` is None."""

    def invariants(self) -> list[str]:
        """Broken invariants of the current state, in words (empty when all hold).

        Used by the conformance suite after every decision of random playouts.
        """


class Game(Protocol):
    """A game title: static facts and a way to start a game."""

    title: str
    """The name used on the command line and in the database, e.g. "corruption"."""
    min_players: int
    max_players: int
    variants: tuple[str, ...]
    """Names accepted in options["variants"]."""
    max_decisions: int
    """An upper bound on decisions in one game (a guard against endless games)."""

    def normalize_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """Check options and return them in canonical form (sorted, defaults filled in).

        Raises BadOptions with a message that names the fix.
        """

    def start(
        self, players: int, seed: int, options: dict[str, Any]
    ) -> tuple[GameState, list[Event]]:
        """A new game and the events of its setup (e.g. the first deal)."""


def checked_action(decision: Decision | None, action: Any) -> Any:
    """The answer to the pending decision in its canonical form (the legal option itself, so
    look-alikes such as 17.0 for 17 never enter a state); IllegalAction if nothing is pending
    or the answer is not legal. Every title's apply starts here."""
    if decision is None:
        raise IllegalAction("the game is over; no decision is pending")
    reason = legal.why_illegal(decision.legal, action)
    if reason is not None:
        raise IllegalAction(f"{decision.kind}: {reason}")
    return legal.canonical(decision.legal, action)


def check_players(game: Game, players: int) -> None:
    """BadOptions unless players is a whole number within the title's table sizes."""
    if isinstance(players, bool) or not isinstance(players, int):
        raise BadOptions(f"players must be an integer, not {players!r}")
    if not game.min_players <= players <= game.max_players:
        raise BadOptions(
            f"{game.title} needs {game.min_players} to {game.max_players} players, not {players}"
        )


def normalize_variants(options: dict[str, Any] | None, known: tuple[str, ...]) -> list[str]:
    """The variant names of options shaped ``{"variants": [...]}``, sorted and unique; raises
    BadOptions naming the fix for anything else (the one option every title shares)."""
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise BadOptions(f'options must be a JSON object like {{"variants": []}}, not {options!r}')
    unknown_keys = sorted(set(options) - {"variants"})
    if unknown_keys:
        raise BadOptions(f"unknown option(s) {unknown_keys}; the only option is 'variants'")
    raw = options.get("variants", [])
    if not isinstance(raw, list | tuple) or not all(isinstance(name, str) for name in raw):
        raise BadOptions(f"'variants' must be a list of names from {list(known)}")
    unknown = sorted(set(raw) - set(known))
    if unknown:
        raise BadOptions(f"unknown variant(s) {unknown}; known variants: {list(known)}")
    return sorted(set(raw))


def ranks_from_keys(keys: list[tuple[Any, ...]]) -> tuple[int, ...]:
    """Competition ranks (1 = best) from per-seat sort keys where larger is better;
    equal keys share a rank (1, 2, 2, 4)."""
    order = sorted(keys, reverse=True)
    return tuple(order.index(key) + 1 for key in keys)
