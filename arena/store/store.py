"""The Store: one open arena database and everything arena asks of it."""

from __future__ import annotations

import os
from pathlib import Path
from types import TracebackType
from typing import Self

import trueskill
from sqlite_utils import Database

from arena import ratings
from arena.record import GameRecord, GameStatus
from arena.seeds import derive_deal_key
from arena.store import games, migrations, queries, rating_updates
from arena.store.db import (
    DEFAULT_BUSY_TIMEOUT,
    ReadOnlyDatabase,
    connect,
    translate_errors,
    write_transaction,
)
from arena.store.games import GameSummary
from arena.store.queries import LeaderboardRow


def open_store(
    path: str | os.PathLike[str],
    *,
    create: bool,
    busy_timeout: float = DEFAULT_BUSY_TIMEOUT,
    env: trueskill.TrueSkill | None = None,
    allow_read_only: bool = False,
) -> Store:
    """Open the arena database at ``path``, bringing its schema up to date.

    ``create``: make the file if it does not exist (else StoreError). ``busy_timeout``: seconds
    to wait for another process's write lock. ``env``: the TrueSkill environment (default
    ``arena.ratings.default_env()``). ``allow_read_only``: for callers that only read: when
    the file, its folder or its file system cannot be written, open it read-only instead of
    failing (``Store.read_only``; its schema must then be up to date). Raises StoreError with
    a message saying what to do (ReadOnlyDatabase when it cannot be opened or written).
    """
    p = Path(path)
    try:
        db = connect(p, create=create, busy_timeout=busy_timeout)
        read_only = False
        _prepare(db, p, create=create, read_only=False)
    except ReadOnlyDatabase:
        if not allow_read_only or not p.is_file():
            raise
        db = connect(p, create=False, busy_timeout=busy_timeout, read_only=True)
        read_only = True
        _prepare(db, p, create=False, read_only=True)
    store = Store(p, db, env if env is not None else ratings.default_env())
    store.read_only = read_only
    return store


def _prepare(db: Database, path: Path, *, create: bool, read_only: bool) -> None:
    try:
        with translate_errors(path):
            migrations.prepare(db, path, create=create, read_only=read_only)
    except BaseException:
        db.close()
        raise


class _RollBack(Exception):
    """Ends check_writable's probe transaction without committing it."""


class Store:
    """An open arena database. Use ``open_store`` to make one; close it (or use ``with``)."""

    def __init__(self, path: Path, db: Database, env: trueskill.TrueSkill) -> None:
        self.path = path
        self.db = db
        """The sqlite-utils Database, for ad-hoc queries."""
        self.env = env
        self.read_only = False
        """Opened for reading only (open_store's allow_read_only): every write raises
        ReadOnlyDatabase."""

    def save_game(self, record: GameRecord) -> None:
        """Store a game and, if complete, its rating update, all in one transaction (a
        savepoint when the caller has one open: leagues.store files it under a league in the
        same transaction).

        DuplicateGame (nothing changed) if its id is stored already.
        """
        with translate_errors(self.path):
            games.save_game(self.db, self.env, record)

    def bot_seed_key(self) -> bytes:
        """This database's secret for deriving the seeds bots are sent (see referee.seat_seed)."""
        with translate_errors(self.path):
            (row,) = self.db.query("SELECT value FROM meta WHERE key = 'bot_seed_key'")
        return bytes.fromhex(row["value"])

    def deal_seed_key(self) -> bytes:
        """This database's key for deriving deal seeds (arena.seeds.deal_seed): derived from
        the same secret as bot_seed_key, independent of it, and stable for the file's life."""
        return derive_deal_key(self.bot_seed_key())

    def check_writable(self) -> None:
        """Take the write lock, write, and roll back at once, before the caller starts work it
        could not store: raises DatabaseLocked (after the busy timeout) when another process
        is writing, ReadOnlyDatabase when the file cannot be written (SQLite says so only at
        the first write, not when the lock is taken). Nothing is changed."""
        try:
            with translate_errors(self.path), write_transaction(self.db):
                self.db.execute("UPDATE meta SET value = value WHERE key = 'bot_seed_key'")
                raise _RollBack
        except _RollBack:
            pass

    def has_game(self, game_id: str) -> bool:
        """Whether this exact game id is stored."""
        with translate_errors(self.path):
            return games.has_game(self.db, game_id)

    def load_game(self, id_or_prefix: str) -> GameRecord:
        """The stored game with this id, or the only one whose id starts with it."""
        with translate_errors(self.path):
            return games.load_game(self.db, id_or_prefix)

    def list_games(
        self,
        *,
        title: str | None = None,
        bot: str | None = None,
        status: GameStatus | None = None,
        limit: int | None = 50,
    ) -> list[GameSummary]:
        """Stored games, newest first, filtered by title, bot (name or name@version), status."""
        with translate_errors(self.path):
            return games.list_games(self.db, title=title, bot=bot, status=status, limit=limit)

    def leaderboard(self, title: str) -> list[LeaderboardRow]:
        """The rated bots of ``title``, best first by mu - 3 sigma."""
        with translate_errors(self.path):
            return queries.leaderboard(self.db, title)

    def titles(self) -> list[str]:
        """Titles that have stored games."""
        with translate_errors(self.path):
            return queries.titles(self.db)

    def recompute_ratings(self, title: str | None = None) -> int:
        """Rebuild ``title``'s ratings (every title's if None) from the stored games, in one
        transaction; returns how many games were replayed."""
        with translate_errors(self.path):
            return rating_updates.recompute(self.db, self.env, title)

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
