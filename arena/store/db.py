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


class UnknownName(StoreError):
    """A name the user gave (a bot, a game id) matches nothing stored: a usage mistake, which
    the command line reports like an unknown option (exit 2), not like a database failure."""


class GameNotFound(UnknownName):
    """No stored game matches an id or prefix, or a prefix matches several."""


class DamagedRecord(StoreError):
    """A stored value this arena cannot read: an unknown fault or status, JSON that does not
    parse. Written by a newer arena or edited by hand; nothing is changed."""


class ReadOnlyDatabase(StoreError):
    """The file, its folder or its file system cannot be written (nothing was changed)."""


SQLITE_READONLY = 8
SQLITE_CANTOPEN = 14
"""Primary SQLite result codes (the low byte of sqlite3.Error.sqlite_errorcode)."""


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


def _read_only_reason(path: Path) -> tuple[str, str] | None:
    """(what is read-only, what to do) when the file, its folder or its file system cannot be
    written by this process; None when nothing visibly is."""
    folder = path.parent
    try:
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return (
                f"it is on a read-only file system ({folder})",
                "copy it (with its -wal file, if there is one) to a writable folder and pass "
                "--db with the copy",
            )
    except OSError:
        pass
    if path.exists() and not os.access(path, os.W_OK):
        return (
            "the file is read-only",
            f"make it writable (chmod u+w {path}, or chattr -i {path} if it is immutable), "
            "or pass --db with a writable copy",
        )
    if not os.access(folder, os.W_OK | os.X_OK):
        return (
            f"its folder {folder} is read-only, and SQLite must create {path.name}-wal and "
            f"{path.name}-shm beside it",
            "make the folder writable, or copy the database (with its -wal file, if there is "
            "one) to a writable folder and pass --db with the copy",
        )
    return None


def read_only_message(path: Path) -> str:
    what, todo = _read_only_reason(path) or (
        "SQLite reports it read-only",
        "check that you may write the file and its folder, or pass --db with another file",
    )
    return f"cannot write the database {path}: {what}. Nothing was changed; {todo}."


def cannot_open_message(path: Path, error: sqlite3.Error) -> str:
    if path.exists() and not os.access(path, os.R_OK):
        return (
            f"cannot open the database {path}: you may not read it (permission denied). "
            "Check its permissions, or pass --db with another file."
        )
    reason = _read_only_reason(path)
    if reason is not None and not path.exists():
        return (
            f"cannot create the database {path}: its folder {path.parent} is read-only. Pass "
            "--db with a file in a writable folder."
        )
    if reason is not None:
        what, todo = reason
        return f"cannot open the database {path}: {what}. Nothing was changed; {todo}."
    return (
        f"cannot open the database {path} ({error}). Check that you may read it and write its "
        f"folder {path.parent}, or pass --db with another file."
    )


def _primary_code(error: sqlite3.Error) -> int | None:
    code = getattr(error, "sqlite_errorcode", None)
    return None if code is None else code & 0xFF


@contextmanager
def translate_errors(path: Path) -> Iterator[None]:
    """Turn the sqlite3 errors a user can cause into StoreErrors that say what to do."""
    try:
        yield
    except sqlite3.OperationalError as e:
        if "locked" in str(e) or "busy" in str(e):
            raise DatabaseLocked(locked_message(path)) from e
        code = _primary_code(e)
        if code == SQLITE_READONLY:
            raise ReadOnlyDatabase(read_only_message(path)) from e
        if code == SQLITE_CANTOPEN:
            raise ReadOnlyDatabase(cannot_open_message(path, e)) from e
        raise
    except sqlite3.DatabaseError as e:
        if "not a database" in str(e) or "malformed" in str(e):
            raise StoreError(not_a_database_message(path)) from e
        raise


def connect(
    path: str | os.PathLike[str], *, create: bool, busy_timeout: float, read_only: bool = False
) -> Database:
    """Open ``path`` (foreign keys on, busy timeout) without changing anything in it.

    Never creates a file unless ``create`` is true; never deletes or rewrites one. WAL mode is
    switched on by ``migrations.prepare``, once the file is known to be an arena database.
    ``read_only``: open it for reading only (see ``_connect_read_only``); never creates.
    """
    p = Path(path)
    try:
        return _connect_checked(p, create=create, busy_timeout=busy_timeout, read_only=read_only)
    except PermissionError as e:  # a folder on the way that this user may not enter
        raise StoreError(
            f"cannot reach the database {p}: permission denied ({e.filename}). Check the "
            "folders' permissions, or pass --db with another file."
        ) from e


def _connect_checked(p: Path, *, create: bool, busy_timeout: float, read_only: bool) -> Database:
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
    if read_only:
        return _connect_read_only(p, busy_timeout)
    # mode=rw never creates the file, so a mistyped --db cannot leave an empty database behind.
    return _open_uri(p, "?mode=rwc" if create else "?mode=rw", busy_timeout)


def _connect_read_only(p: Path, busy_timeout: float) -> Database:
    """Open for reading only. mode=ro reads a WAL database as long as SQLite finds (or can
    create) its -shm file. In a read-only folder without one, only immutable=1 can read it,
    and that ignores the -wal file and takes no locks, so it is tried only when there is no
    -wal file holding transactions the main file lacks. (A writer would need to create one
    in that folder: one that this process cannot write to.)"""
    try:
        return _open_uri(p, "?mode=ro", busy_timeout)
    except ReadOnlyDatabase:
        wal = p.with_name(p.name + "-wal")
        if wal.exists() and wal.stat().st_size > 0:
            raise
        return _open_uri(p, "?mode=ro&immutable=1", busy_timeout)


def _open_uri(p: Path, mode: str, busy_timeout: float) -> Database:
    uri = p.resolve().as_uri() + mode
    try:
        conn = sqlite3.connect(uri, uri=True, timeout=busy_timeout)
    except sqlite3.Error as e:
        if _primary_code(e) in (SQLITE_CANTOPEN, SQLITE_READONLY):
            raise ReadOnlyDatabase(cannot_open_message(p, e)) from e
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
