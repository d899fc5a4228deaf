"""The Corruption title: static facts and ``start`` (base.Game)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arena.games.base import Event, check_players
from arena.games.corruption import state as _state
from arena.games.corruption.cards import CARDS_PLACED_PER_ROUND, PEEKS_PER_GAME, ROUNDS
from arena.games.corruption.describe import describe as _describe
from arena.games.corruption.options import KNOWN_VARIANTS, normalize_options, parse_variants

MAX_PLAYERS = 7

# Per round: one Stud Libre choice, 6 placements per seat, and at most one attribution decision
# per placed card (Swiss, Hit Man or Reporter); plus every peek of the game, which does not use
# a turn. 4 * (1 + 42 + 42) + 14 = 354.
_MAX_DECISIONS = (
    ROUNDS * (1 + 2 * CARDS_PLACED_PER_ROUND * MAX_PLAYERS) + PEEKS_PER_GAME * MAX_PLAYERS
)


# Not frozen: base.Game declares plain attributes, which a type checker reads as settable.
@dataclass
class CorruptionGame:
    """Bruno Faidutti's Corruption (1999), as ruled in RULES.md beside this module."""

    title: str = "corruption"
    """Name on the command line and in the database."""
    min_players: int = 3
    """Fewest seats."""
    max_players: int = MAX_PLAYERS
    """Most seats (seven colours in the box)."""
    variants: tuple[str, ...] = KNOWN_VARIANTS
    """Names accepted in options["variants"]."""
    max_decisions: int = _MAX_DECISIONS
    """Upper bound on decisions in one game."""

    def normalize_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """``{"variants": [sorted unique names]}``; BadOptions names the fix."""
        return normalize_options(options)

    def start(
        self, players: int, seed: int, options: dict[str, Any]
    ) -> tuple[_state.CorruptionState, list[Event]]:
        """A new game (first deal, first player) and its setup events."""
        check_players(self, players)
        return _state.start(players, seed, parse_variants(options))

    def describe(self, event: dict[str, Any]) -> str:
        """An event body in words (for replays)."""
        return _describe(event)


GAME = CorruptionGame()
"""The title object the referee uses."""
