"""The league tables, kept by leagues.store in arena's database: moving them out of arena/store
must leave every existing database working and every new one with the same schema."""

from __future__ import annotations

import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from arena.store import DuplicateGame, Store, open_store
from arena.store.migrations import known_names, migrations
from leagues.store import LeagueChanged, LeagueStore
from tests.support.schemas import (
    MIGRATION_IDS,
    SCHEMA_M005,
    SCHEMA_M011,
    mark_as_migrated_to_m005,
)


def normalised(sql: str) -> str:
    return re.sub(r"\s+", " ", sql).strip()


def expected_schema(tmp_path: Path, frozen: Path = SCHEMA_M011) -> set[str]:
    reference = tmp_path / f"reference-{frozen.stem}.db"
    with sqlite3.connect(reference) as conn:
        conn.executescript(frozen.read_text())
    return schema(reference)


def schema(path: Path) -> set[str]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute(
            "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL "
            "AND name NOT LIKE '%sqlite_migrations%'"
        )
        return {normalised(sql) for (sql,) in rows}


def test_a_new_database_has_the_schema_arena_always_wrote(tmp_path: Path) -> None:
    """Indentation aside (the statements moved between modules), sqlite_master is the same."""
    db = tmp_path / "arena.db"
    with open_store(db, create=True):
        pass
    assert schema(db) == expected_schema(tmp_path)
    with sqlite3.connect(db) as conn:
        recorded = conn.execute("SELECT migration_set, name FROM _sqlite_migrations").fetchall()
    assert sorted(recorded) == [("arena", name) for name in MIGRATION_IDS]


def test_a_database_written_before_the_move_is_brought_up_to_date(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    with sqlite3.connect(db) as conn:
        conn.executescript(SCHEMA_M005.read_text())
        conn.execute("INSERT INTO meta (key, value) VALUES ('bot_seed_key', '00')")
        mark_as_migrated_to_m005(conn)
    assert schema(db) == expected_schema(tmp_path, SCHEMA_M005)
    with open_store(db, create=False) as store:
        assert migrations.pending(store.db) == []
        leagues = LeagueStore(store)
        row = leagues.register(name="l", title="corruption", fingerprint="f", games=2, path="x")
        assert leagues.find("l") == row
        with pytest.raises(LeagueChanged, match="different schedule"):
            leagues.register(name="l", title="corruption", fingerprint="g", games=2, path="x")
    assert schema(db) == expected_schema(tmp_path)


def test_every_arena_command_knows_the_league_migrations() -> None:
    """A fresh interpreter that imports only the CLI (as `arena play` does) must know them, or
    it would refuse a database with league tables as written by a newer arena."""
    shown = subprocess.run(
        [
            sys.executable,
            "-c",
            "import arena.cli.app; from arena.store.migrations import known_names; "
            "print(' '.join(sorted(known_names())))",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert shown.stdout.split() == MIGRATION_IDS
    assert sorted(known_names()) == MIGRATION_IDS


def test_a_league_game_and_its_place_in_the_league_are_saved_together(
    store: Store, make_game, bots
) -> None:
    """Filed under its league in the game's own transaction: a game that cannot be stored
    (here: already stored) leaves no league row behind, so a rerun replays exactly it."""
    leagues = LeagueStore(store)
    league = leagues.register(name="l", title="corruption", fingerprint="f", games=3, path="x")
    game = make_game("g1", [(bots.alpha, 1), (bots.beta, 2)])
    leagues.save_game(game, league.id, 0)
    with pytest.raises(DuplicateGame):
        leagues.save_game(game, league.id, 1)
    assert leagues.done(league.id) == {0}
    assert leagues.seat_faults(league.id) == [(0, 0, "ok"), (0, 1, "ok")]
    assert [seat["name"] for seat in leagues.seats(league.id)] == ["alpha", "beta"]


def test_disqualification_is_recorded_once_and_read_back(store: Store) -> None:
    leagues = LeagueStore(store)
    league = leagues.register(name="l", title="corruption", fingerprint="f", games=3, path="x")
    for _ in range(2):  # idempotent: a rerun may strike the same entrant again
        leagues.disqualify(league.id, entrant=1, label="beta@2.0", games=4, faults=3)
    assert leagues.disqualified(league.id) == {1: "beta@2.0 faulted in 3 of 4 games"}
