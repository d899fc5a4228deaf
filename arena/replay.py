"""Replays: a recorded game played again from its seed, options and decisions.

Games are pure, so the record needs no copy of the events: replaying the decisions rebuilds
every event and view exactly. A replay that diverges (an action the game refuses) means the
record or the game code changed, and is reported as such.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from arena.games import get_game, talk
from arena.games.base import BadOptions, Event, Game, GameState, IllegalAction
from arena.record import DecisionRecord, GameRecord


class ReplayError(RuntimeError):
    """The recorded decisions do not replay on this version of the game."""


@dataclass(frozen=True)
class Step:
    """One line of a replay: an event, or the decision that caused the events after it."""

    events: tuple[Event, ...]
    """What happened (for the setup step: the deal)."""
    decision: DecisionRecord | None = None
    """The decision applied before these events; None for the setup."""
    kind: str = ""
    """The decision's kind (e.g. "place")."""


def replay(record: GameRecord) -> Iterator[Step]:
    """Yield the setup events, then each decision with the events it caused."""
    for _, step in _replay(record):
        yield step


def recorded_game(record: GameRecord) -> Game:
    """The game ``record`` is of; ReplayError if this arena does not know its title (a newer
    arena's game, or a hand-edited database)."""
    try:
        return get_game(record.title)
    except KeyError as exc:
        raise ReplayError(exc.args[0]) from None


def _replay(record: GameRecord) -> Iterator[tuple[GameState, Step]]:
    game = recorded_game(record)
    try:
        state, events = game.start(record.players, record.seed, record.options)
    except BadOptions as exc:
        raise ReplayError(f"the recorded seats and options do not start a game: {exc}") from None
    yield state, Step(tuple(events))
    for number, decision in enumerate(record.decisions, start=1):
        pending = state.pending()
        if pending is None:
            raise ReplayError(f"decision {number} was recorded, but the game had already ended")
        if pending.seat != decision.seat:
            raise ReplayError(
                f"decision {number} was recorded for seat {decision.seat}, "
                f"but the game asks seat {pending.seat}"
            )
        try:
            caused = state.apply(decision.action)
        except IllegalAction as exc:
            raise ReplayError(f"decision {number} no longer applies: {exc}") from None
        yield state, Step(tuple(caused), decision, pending.kind)


def seat_events(step: Step, seat: int | None) -> list[dict[str, Any]]:
    """The step's events as the table (seat None) or one seat saw them."""
    if seat is None:
        return [event.truth() for event in step.events]
    return [body for event in step.events if (body := event.for_seat(seat)) is not None]


def describer(record: GameRecord) -> Callable[[dict[str, Any]], str]:
    """How an event of this record's title reads in words: talk's (SPEC.md §14) for talk
    events, else the game's own describe, or `kind: field=value, ...` for titles without one.
    ReplayError for an unknown title."""
    own = getattr(recorded_game(record), "describe", None) or describe_generic

    def words(body: dict[str, Any]) -> str:
        spoken = talk.describe(body)
        return own(body) if spoken is None else spoken

    return words


def describe_generic(body: dict[str, Any]) -> str:
    """An event as `kind: field=value, ...` for titles without a describer."""
    fields = ", ".join(f"{k}={json.dumps(v)}" for k, v in body.items() if k != "kind")
    return f"{body['kind']}: {fields}"
