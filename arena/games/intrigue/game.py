"""The Intrigue title: static facts and ``start`` (base.Game)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arena.games.base import Event, check_players
from arena.games.intrigue import state as _state
from arena.games.intrigue.describe import describe as _describe
from arena.games.intrigue.options import KNOWN_VARIANTS, normalize_options, parse_variants
from arena.games.intrigue.scholars import SCHOLARS_PER_PLAYER

MAX_PLAYERS = 5

# Every decision is charged to one scholar: its send (1); its own negotiation as an applicant
# (offer, answer, pay: 3); at most one incumbent negotiation it triggers by arriving in an
# internal conflict (3); at most two owner decisions (choose + place for an external conflict,
# which has 2+ applicants; keep_or_replace + place under Free Replacement; or one place).
# 9 per scholar, 8 scholars per player: 5 * 8 * 9 = 360.
_DECISIONS_PER_SCHOLAR = 1 + 3 + 3 + 2
_MAX_DECISIONS = MAX_PLAYERS * SCHOLARS_PER_PLAYER * _DECISIONS_PER_SCHOLAR


# Not frozen: base.Game declares plain attributes, which a type checker reads as settable.
@dataclass
class IntrigueGame:
    """Stefan Dorra's Intrigue, as ruled in RULES.md beside this module."""

    title: str = "intrigue"
    """Name on the command line and in the database."""
    min_players: int = 3
    """Fewest seats."""
    max_players: int = MAX_PLAYERS
    """Most seats (five palaces in the box)."""
    variants: tuple[str, ...] = KNOWN_VARIANTS
    """Names accepted in options["variants"]."""
    max_decisions: int = _MAX_DECISIONS
    """Upper bound on decisions in one game."""
    supports_talk: bool = True
    """Seats that ask for talk (SPEC.md §14) get talk windows."""

    def normalize_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """``{"variants": [sorted unique names]}``; BadOptions names the fix."""
        return normalize_options(options)

    def start(
        self, players: int, seed: int, options: dict[str, Any]
    ) -> tuple[_state.IntrigueState, list[Event]]:
        """A new game (start player drawn, first turn begun) and its setup events."""
        check_players(self, players)
        return _state.start(players, seed, parse_variants(options))

    def describe(self, event: dict[str, Any]) -> str:
        """An event body in words (for replays)."""
        return _describe(event)


GAME = IntrigueGame()
"""The title object the referee uses."""
