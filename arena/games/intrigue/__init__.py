"""Intrigue (Stefan Dorra): scholars, palaces, bribes and broken promises.

Modules: scholars (pieces and fixed numbers), options, board (where every scholar is; the
money ledger), negotiation (offer / answer / pay), receiving (step 2's three ordered parts),
state (the state machine), view (seat and table views), invariants, describe, game (``GAME``).
"""

from arena.games.intrigue.game import GAME, IntrigueGame

__all__ = ["GAME", "IntrigueGame"]
