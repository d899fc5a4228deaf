"""Storage: one SQLite file (sqlite-utils, WAL, migrations) holding games, bots and ratings
(leagues keep their own tables in the same file: leagues.store).

``open_store(path, create=...)`` gives a ``Store``; use it as a context manager, call
``save_game`` once per finished game, and read back with ``load_game``, ``list_games``,
``leaderboard`` and ``titles``.
"""

from arena.store.db import (
    DamagedRecord,
    DatabaseLocked,
    DuplicateGame,
    GameNotFound,
    ReadOnlyDatabase,
    StoreError,
    UnknownName,
)
from arena.store.games import GameSummary, SeatSummary
from arena.store.queries import LeaderboardRow
from arena.store.store import Store, open_store

__all__ = [
    "DamagedRecord",
    "DatabaseLocked",
    "DuplicateGame",
    "GameNotFound",
    "GameSummary",
    "LeaderboardRow",
    "ReadOnlyDatabase",
    "SeatSummary",
    "Store",
    "StoreError",
    "UnknownName",
    "open_store",
]
