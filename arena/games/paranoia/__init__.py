"""PARANOIA Mandatory Bonus Fun: troubleshooters, treason and a designed card set.

Modules: vocabulary (the effect vocabulary and card values), cardset (loads cards.toml),
table (troubleshooters, clearance supply, decks), plays (the chain and legal plays), effects
(the effect interpreter), flow (missions, turns, response windows, dying actions), deaths
(a clone lost, succession, new clones), debriefing (Debriefing and Internal Security), state (base.GameState), view, invariants, describe,
game (``GAME``).
"""

from arena.games.paranoia.game import GAME, ParanoiaGame

__all__ = ["GAME", "ParanoiaGame"]
