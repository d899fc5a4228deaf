"""For a module-scoped fixture that runs bots, played once for the tests of a module."""

from __future__ import annotations

import contextlib
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
