"""Opening the database file, transactions, and the errors a user can run into."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlite_utils import Database

DEFAULT_BUSY_TIMEOUT = 5.0
"""Seconds to wait for another process's write lock before giving up."""


class StoreError(Exception):
    """Something is wrong with the database or the request; the message says what to do."""


class DatabaseLocked(StoreError):
    """Another process holds the write lock for longer than the busy timeout."""


class DuplicateGame(StoreError):
    """A game with this id is already stored (nothing was changed)."""


class GameNotFound(StoreError):
    """No stored game matches an id or prefix, or a prefix matches several."""


def locked_message(path: Path) -> str:
    return (
        f"the database {path} is locked: another arena process is writing it. "
        "Wait for that process to finish, or use another --db FILE."
    )


def not_a_database_message(path: Path) -> str:
    return (
        f"{path} is not an SQLite database (or it is damaged). "
        "Pass --db with an arena database, or a new file name to create one."
    )


@contextmanager
def translate_errors(path: Path) -> Iterator[None]:
    """Turn the sqlite3 errors a user can cause into StoreErrors that say what to do."""
    try:
        yield
    except sqlite3.OperationalError as e:
        if "locked" in str(e) or "busy" in str(e):
            raise DatabaseLocked(locked_message(path)) from e
        raise
    except sqlite3.DatabaseError as e:
        if "not a database" in str(e) or "malformed" in str(e):
            raise StoreError(not_a_database_message(path)) from e
        raise


def connect(path: str | os.PathLike[str], *, create: bool, busy_timeout: float) -> Database:
    """Open ``path`` (foreign keys on, busy timeout) without changing anything in it.

    Never creates a file unless ``create`` is true; never deletes or rewrites one. WAL mode is
    switched on by ``migrations.prepare``, once the file is known to be an arena database.
    """
    p = Path(path)
    if p.is_dir():
        raise StoreError(
            f"{p} is a directory, not a database file. "
            f"Pass --db FILE with a file name, e.g. --db {p / 'arena.db'}"
        )
    if not p.exists():
        if not create:
            raise StoreError(f"no database at {p} — run `arena play ...` first, or pass --db FILE")
        if not p.parent.is_dir():
            raise StoreError(f"cannot create {p}: the directory {p.parent} does not exist")
    # mode=rw never creates the file, so a mistyped --db cannot leave an empty database behind.
    uri = p.resolve().as_uri() + ("?mode=rwc" if create else "?mode=rw")
    try:
        conn = sqlite3.connect(uri, uri=True, timeout=busy_timeout)
    except sqlite3.Error as e:
        raise StoreError(f"cannot open {p}: {e}") from e
    try:
        with translate_errors(p):
            # The first real read: fails here for a file that is not SQLite.
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            db = Database(conn, execute_plugins=False)
            db.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
            db.execute("PRAGMA foreign_keys = ON")
    except BaseException:
        conn.close()
        raise
    return db


@contextmanager
def write_transaction(db: Database) -> Iterator[Database]:
    """One transaction that takes the write lock up front (BEGIN IMMEDIATE).

    Taking the lock at BEGIN, rather than at the first write as a plain BEGIN does, means a
    concurrent writer makes us wait (busy timeout) instead of failing half-way through.
    Inside an open transaction this nests as a savepoint. Rolls back on any exception,
    KeyboardInterrupt included.
    """
    if db.conn.in_transaction:
        with db.atomic():
            yield db
        return
    db.conn.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.rollback()
        raise
    try:
        db.conn.execute("COMMIT")
    except BaseException:
        db.rollback()
        raise
