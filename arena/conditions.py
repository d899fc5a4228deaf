"""The conditions a game is played under: its clock and what a fault does to it.

Kept apart from the referee, which enforces them, because a game's record keeps them too
(arena.record.GameRecord), so that `arena rerun` plays the game again under the same ones.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any


class FaultPolicy(StrEnum):
    """What a game does when a seat faults."""

    SUBSTITUTE = "substitute"
    """Stop the bot, play default legal actions for its seat to the end; the seat ranks last."""
    ABORT = "abort"
    """End the game at once; it is recorded as aborted and not rated."""


@dataclass(frozen=True)
class TimeControl:
    """The clock every seat plays under, in seconds (a bot is sent it in milliseconds:
    protocol.messages.TimeControlMs)."""

    decision_s: float = 1.0
    """Time allowed for each decision before the bank is drawn on."""
    bank_s: float = 5.0
    """Extra time per seat per game, spent by decisions that overrun decision_s."""
    startup_s: float = 10.0
    """Time allowed for a bot to start and answer the hello."""
    game_s: float = 600.0
    """Wall-clock limit of one game, not counting the time of seats already faulted (and at
    most twice this in all). Checked before each request: when passed, the playing seat the
    referee has waited on longest in this game faults (GAME_TIME) and the fault policy
    applies (_Game._check_game_clock). The default covers the longest games of random
    playouts (about 440 decisions, PARANOIA at six seats) with every decision taking its full
    default second, plus every seat's bank; raise it with decision_s."""

    def in_ms(self) -> dict[str, float]:
        """The clock in milliseconds, as a record stores it: {"decision_ms": ..., ...}.

        Rounded to a millionth of a millisecond, which undoes the float error of seconds
        times 1000: a clock given in ms (every option and league file) comes back exactly.
        """
        return {_ms_key(f.name): round(getattr(self, f.name) * 1000, 6) for f in fields(self)}

    @classmethod
    def from_ms(cls, stored: Any) -> TimeControl:
        """The clock that ``in_ms`` gave; ValueError, naming what is wrong, for anything else
        (a stored value may have been edited by hand or written by a newer arena)."""
        keys = {_ms_key(f.name): f.name for f in fields(cls)}
        if not isinstance(stored, dict) or set(stored) != set(keys):
            raise ValueError(f"a time control must be an object with {', '.join(keys)}")
        seconds = {}
        for key, name in keys.items():
            value = stored[key]
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ValueError(f"{key} must be a number of milliseconds, not {value!r}")
            if not math.isfinite(value) or value < 0:
                raise ValueError(f"{key} must be a finite number, 0 or more, not {value!r}")
            seconds[name] = value / 1000
        return cls(**seconds)


def _ms_key(field_name: str) -> str:
    """decision_s -> decision_ms."""
    return field_name.removesuffix("_s") + "_ms"
