"""Frozen schemas of arena databases, and the migrations each had applied: what tests build an
older database from, and compare a new one against."""

from __future__ import annotations

import sqlite3
from pathlib import Path

STORE_TESTS = Path(__file__).resolve().parent.parent / "store"
SCHEMA_M005 = STORE_TESTS / "schema_m005.sql"
"""After m001..m005, as arena wrote it before m007."""
SCHEMA_M009 = STORE_TESTS / "schema_m009.sql"
"""After m001..m009, as arena wrote it before the web report's views and sums (m010, m011)."""
SCHEMA_M011 = STORE_TESTS / "schema_m011.sql"
"""After every migration this version knows."""
M005_IDS = [
    "m001_initial",
    "m002_leagues",
    "m003_seat_cpu",
    "m004_league_strikes",
    "m005_game_sandboxed",
]
MIGRATION_IDS = [
    *M005_IDS,
    "m006_game_clock",
    "m007_compact_storage",
    "m008_title_bot_totals",
    "m009_league_tally",
    "m010_report_views",
    "m011_seat_sums",
]


def mark_as_migrated_to_m005(conn: sqlite3.Connection) -> None:
    """Record m001..m005 as applied, as arena did in a database it wrote then."""
    mark_as_migrated(conn, M005_IDS)


def mark_as_migrated(conn: sqlite3.Connection, names: list[str]) -> None:
    """Record the migrations ``names`` as applied, as arena did in a database it wrote."""
    conn.execute(
        "CREATE TABLE _sqlite_migrations (id INTEGER PRIMARY KEY, migration_set TEXT, "
        "name TEXT, applied_at TEXT)"
    )
    conn.executemany(
        "INSERT INTO _sqlite_migrations (migration_set, name, applied_at) "
        "VALUES ('arena', ?, '2025-01-01')",
        [(name,) for name in names],
    )
