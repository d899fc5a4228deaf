"""One runner per league and database: a second `arena league run` is refused, not interleaved.

An advisory lock (flock) on a small file beside the database. The kernel releases it when
the holder dies, however it dies (SIGKILL included), so a crashed runner never blocks the
rerun that resumes it.
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


def lock_path(db: Path, league: str) -> Path:
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", league)[:80]
    return db.with_name(f"{db.name}.{safe}.lock")


@contextmanager
def league_lock(db: Path, league: str) -> Iterator[None]:
    """Hold the league's lock for the duration; LeagueBusy if another process holds it."""
    path = lock_path(db, league)
    handle = open(path, "a+")
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "another process"
            raise LeagueBusy(
                f"league {league!r} is already being run on {db} by {holder}. Wait for it to "
                "finish (or stop it with Ctrl-C); then the same command resumes the league."
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"process {os.getpid()}")
        handle.flush()
        yield
    finally:
        handle.close()  # closing releases the lock
