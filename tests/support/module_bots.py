"""For games played once for the tests of a module: a module-scoped fixture runs the bots, and
each test that changes the database gets its own copy."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest


@contextlib.contextmanager
def own_snapshot_cache(folder: Path) -> Iterator[pytest.MonkeyPatch]:
    """Bots snapshot into ``folder``'s own cache while the block runs, as each test's bots do
    into the test's (tests/conftest.py, own_snapshot_cache: a per-test fixture, which pytest
    sets up only after the module's). Yields the MonkeyPatch, for the fixture's other changes,
    all undone at the end of the block."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ARENA_CACHE", str(folder / "arena-cache"))
        yield patch


def own_copy(db: Path, copy: Path) -> Path:
    """A copy of the database ``db`` at ``copy``, whole and consistent (SQLite's backup: with
    whatever is still in the -wal file), for one test to change."""
    source, target = sqlite3.connect(db), sqlite3.connect(copy)
    try:
        source.backup(target)
    finally:
        source.close()
        target.close()
    return copy
