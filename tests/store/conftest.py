"""Fixtures for the store tests: a fresh database file per test, and small game records.

Helpers are handed out as fixtures (not imported from here) so the tests do not depend on
pytest's import mode.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from arena.faults import Fault
from arena.record import BotIdentity, DecisionRecord, GameRecord, GameStatus, SeatRecord
from arena.store import Store, open_store

ALPHA = BotIdentity("alpha", "1.0", "a1a1", "/bots/alpha")
BETA = BotIdentity("beta", "2.0", "b2b2", "/bots/beta")
GAMMA = BotIdentity("gamma", "0.1", "c3c3", "/bots/gamma")
RANDOM = BotIdentity("random", "1", "d4d4", "/bots/random")


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "arena.db"


@pytest.fixture
def store(db_path: Path) -> Iterator[Store]:
    with open_store(db_path, create=True) as s:
        yield s


@pytest.fixture
def bots() -> SimpleNamespace:
    """Four bot identities: alpha, beta, gamma, random."""
    return SimpleNamespace(alpha=ALPHA, beta=BETA, gamma=GAMMA, random=RANDOM)


@pytest.fixture(name="make_game")
def make_game_fixture():
    return make_game


@pytest.fixture(name="table_rows")
def table_rows_fixture():
    return table_rows


def make_game(
    game_id: str,
    seats: Sequence[tuple[BotIdentity, int]],
    *,
    title: str = "corruption",
    status: GameStatus = GameStatus.COMPLETE,
    finished_at: str = "2025-01-01T00:00:00Z",
    faults: dict[int, Fault] | None = None,
    scores: Sequence[float] | None = None,
    decisions: Sequence[DecisionRecord] | None = None,
    options: dict[str, Any] | None = None,
) -> GameRecord:
    """A record with seats (bot, rank) in seat order; the score defaults to players - rank."""
    faults = faults or {}
    n = len(seats)
    return GameRecord(
        game_id=game_id,
        title=title,
        options=options if options is not None else {"variants": []},
        seed=1234,
        seats=tuple(
            SeatRecord(
                seat=i,
                bot=bot,
                score=float(scores[i]) if scores is not None else float(n - rank),
                rank=rank,
                fault=faults.get(i, Fault.OK),
                fault_reason=None if i not in faults else f"seat {i} did {faults[i]}",
                time_ms=10.0 * (i + 1),
                decisions=3,
            )
            for i, (bot, rank) in enumerate(seats)
        ),
        decisions=tuple(decisions)
        if decisions is not None
        else tuple(DecisionRecord(seat=i % n, action=i, ms=1.25) for i in range(3 * n)),
        status=status,
        termination="normal" if status == GameStatus.COMPLETE else "seat 0 crashed",
        started_at="2025-01-01T00:00:00Z",
        finished_at=finished_at,
        detail={"rounds": 3},
    )


def table_rows(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every arena table, for before/after comparisons."""
    tables = ["bots", "games", "seats", "game_decisions", "ratings", "title_bot_totals"]
    rows = {name: list(store.db.execute(f"SELECT * FROM {name} ORDER BY rowid")) for name in tables}
    # Without a rowid: ordered by its primary key.
    rows["rating_history"] = list(
        store.db.execute("SELECT * FROM rating_history ORDER BY game_id, bot_id")
    )
    return rows
