"""Corruption (Bruno Faidutti): construction contracts, bribes and a few characters.

Modules: contracts (the 24 contracts and their provenance), cards (player cards, variants,
face-up schedules), options, table (one round's placed cards), placing (phase 2 options and
events), attribution (phase 3's five steps), state (the state machine), view (seat and table
views), invariants, game (``GAME``).
"""

from arena.games.corruption.game import GAME, CorruptionGame

__all__ = ["GAME", "CorruptionGame"]
