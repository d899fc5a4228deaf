"""The unit of work of a league: one game to play, and what it needs to be played anywhere.

This is the seam between scheduling and execution (issue: "a game task in, a game record
out"): a task names its bots by index into the league's bot list, so a worker on any
machine that has the same bot directories can play it, and the single writer can tell
from the task index alone whether it is already done.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GameTask:
    """One scheduled game."""

    index: int
    """Position in the schedule (0-based); stable across reruns of the same league file."""
    seed: int
    """The deal's seed. Games of one duplicate group share it."""
    seating: tuple[int, ...]
    """seating[seat] = index of the bot in the league's bot list."""
    group: int
    """Duplicate group: games with the same group replay one deal with the seating rotated
    (or, in a regression match, with the candidate and the baseline swapped)."""
