"""One runner per league and database: a second `arena league run` is refused, not interleaved.

An advisory lock (flock) on a small file beside the database. The kernel releases it when
the last descriptor of it is closed, so when the holder dies, however it dies (SIGKILL
included), a crashed runner never blocks the rerun that resumes it.

The lock belongs to the runner process alone. Workers are forked from the runner, and a fork
copies every descriptor: a worker orphaned by a killed runner would keep the lock file open,
and with it the lock, so the rerun would be refused as "already being run". So a hook
(os.register_at_fork) closes the child's copy of every held lock's descriptor right after any
fork. Closing a copy does not release a flock in the parent (the lock lives as long as one
descriptor of that open file remains), so the runner keeps the lock and nobody else has it.
(POSIX record locks, fcntl.lockf, are not inherited either, but they belong to a process,
not a descriptor: a second league_lock in the same process would not be refused, and closing
any descriptor of the file in the process would silently drop the lock.)

The holder removes the lock file when it is done, so a finished league leaves nothing beside
the database. Removing a lock file is only safe with a check on the taker's side: a process
that opened the file just before the holder removed it could lock that now nameless file while
a third process creates and locks a new one under the same name, and both would believe they
hold the lock. So after taking the lock, a process checks that the path still names the very
file it locked (same device and inode); if not, it lets go and starts again on the file the
path names now. The holder removes the file while still holding the lock, so whoever locks the
old file afterwards sees it is gone. (A runner killed by SIGKILL leaves its file behind; the
next run takes it over and removes it when done.) The database file itself is not locked with
flock: on NFS flock is emulated with the same fcntl locks SQLite takes on it.
"""

from __future__ import annotations

import fcntl
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


class LeagueBusy(RuntimeError):
    """Another process is running this league on this database."""


_held: set[int] = set()
"""The descriptors of the lock files this process has open."""


def _drop_inherited_locks() -> None:
    """In a freshly forked child: close the copies of the parent's lock descriptors."""
    for fd in list(_held):
        _held.discard(fd)
        try:
            os.close(fd)
        except OSError:  # pragma: no cover - already closed
            pass


os.register_at_fork(after_in_child=_drop_inherited_locks)


def lock_path(db: Path, league: str) -> Path:
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", league)[:80]
    return db.with_name(f"{db.name}.{safe}.lock")


@contextmanager
def league_lock(db: Path, league: str) -> Iterator[None]:
    """Hold the league's lock for the duration; LeagueBusy if another process holds it.

    Only this process holds it: children forked meanwhile (the league's workers) do not.
    """
    path = lock_path(db, league)
    owner = os.getpid()
    fd = _take(path, db, league)
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"process {owner}".encode(), 0)
        yield
    finally:
        # A forked child that leaves this block never owned the lock, and its copy of fd was
        # closed at the fork (the number may even name another file by now): leave it alone.
        if os.getpid() == owner:
            try:
                path.unlink()  # while still locked: see the module docstring
            except FileNotFoundError:  # pragma: no cover - removed by hand meanwhile
                pass
            _held.discard(fd)
            os.close(fd)  # closing the last descriptor releases the lock


def _take(path: Path, db: Path, league: str) -> int:
    """Open and lock the file ``path`` names; the locked descriptor, or LeagueBusy."""
    while True:
        # O_CLOEXEC: a bot started with exec never sees it; the fork hook covers forked workers.
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        _held.add(fd)  # before the lock is taken: every child forked from now on drops it
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 200, 0).decode(errors="replace").strip() or "another process"
            _held.discard(fd)
            os.close(fd)
            raise LeagueBusy(
                f"league {league!r} is already being run on {db} by {holder}. Wait for it to "
                "finish (or stop it with Ctrl-C); then the same command resumes the league."
            ) from None
        if _names(path, fd):
            return fd
        # locked a file its holder removed as it finished: try the one the path names now
        _held.discard(fd)
        os.close(fd)


def _names(path: Path, fd: int) -> bool:
    """Whether ``path`` is (still) a name of the open file ``fd``."""
    try:
        named = path.stat()
    except FileNotFoundError:
        return False
    opened = os.fstat(fd)
    return (named.st_dev, named.st_ino) == (opened.st_dev, opened.st_ino)
