"""Opening databases: schema by migrations, and clear errors for what a user can get wrong."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from arena.store import DatabaseLocked, ReadOnlyDatabase, StoreError, open_store
from arena.store.migrations import known_names
from tests.support.readonly_fs import read_only_file, read_only_folder

ARENA_TABLES = {"bots", "games", "seats", "game_decisions", "ratings", "rating_history"}


@contextmanager
def locked_by_other_connection(path: Path, how: str = "EXCLUSIVE") -> Iterator[None]:
    """Another connection (as another arena process would) holding the write lock."""
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute(f"BEGIN {how}")
        yield
    finally:
        other.execute("ROLLBACK")
        other.close()


def schema(path: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(path) as conn:
        return list(conn.execute("SELECT name, sql FROM sqlite_master ORDER BY name"))


def test_new_database_gets_schema_wal_and_foreign_keys(db_path: Path) -> None:
    with open_store(db_path, create=True) as store:
        assert set(store.db.table_names()) >= ARENA_TABLES
        assert store.db.journal_mode == "wal"
        assert store.db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        assert store.db.execute("PRAGMA busy_timeout").fetchone()[0] == 5000
        applied = [
            row[0] for row in store.db.execute("SELECT name FROM _sqlite_migrations ORDER BY id")
        ]
        assert applied == known_names(), "every known migration is recorded once, in order"


def test_migrations_are_idempotent(db_path: Path) -> None:
    open_store(db_path, create=True).close()
    before = schema(db_path)
    with sqlite3.connect(db_path) as conn:
        records = list(conn.execute("SELECT * FROM _sqlite_migrations"))
    for _ in range(2):
        open_store(db_path, create=False).close()
    assert schema(db_path) == before
    with sqlite3.connect(db_path) as conn:
        assert list(conn.execute("SELECT * FROM _sqlite_migrations")) == records


def test_up_to_date_database_opens_for_reading_while_another_process_writes(
    db_path: Path,
) -> None:
    open_store(db_path, create=True).close()
    with (
        locked_by_other_connection(db_path),
        open_store(db_path, create=False, busy_timeout=0.05) as store,
    ):
        assert store.titles() == []


def test_missing_file_without_create_says_what_to_do(tmp_path: Path) -> None:
    path = tmp_path / "nope.db"
    with pytest.raises(StoreError, match=r"no database at .*nope\.db.*arena play.*--db FILE"):
        open_store(path, create=False)
    assert not path.exists(), "a missing database must not be created when create=False"


def test_missing_directory_with_create(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match=r"directory .* does not exist"):
        open_store(tmp_path / "no" / "such" / "arena.db", create=True)


def test_directory_is_not_a_database(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="is a directory, not a database file"):
        open_store(tmp_path, create=True)


def test_text_file_is_not_a_database_and_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    content = b"these are my notes, not a database\n" * 20
    path.write_bytes(content)
    for create in (False, True):
        with pytest.raises(StoreError, match="not an SQLite database"):
            open_store(path, create=create)
    assert path.read_bytes() == content


def test_other_programs_database_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE games (name TEXT)")
        conn.execute("INSERT INTO games VALUES ('chess')")
    conn.close()
    content = path.read_bytes()
    with pytest.raises(StoreError, match=r"not an arena database \(it has tables: games\)"):
        open_store(path, create=True)
    assert path.read_bytes() == content, "not even the journal mode may change"


def test_empty_file_without_create_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "empty.db"
    path.write_bytes(b"")
    with pytest.raises(StoreError, match="is empty, not an arena database"):
        open_store(path, create=False)
    assert path.read_bytes() == b""
    open_store(path, create=True).close()  # with create it becomes a database


def test_database_from_a_newer_arena_is_refused(db_path: Path) -> None:
    open_store(db_path, create=True).close()
    with sqlite3.connect(db_path) as conn:
        conn.execute(
            "INSERT INTO _sqlite_migrations (migration_set, name, applied_at)"
            " VALUES ('arena', 'm999_from_the_future', '2099-01-01')"
        )
    conn.close()
    before = schema(db_path)
    with pytest.raises(StoreError, match=r"newer version of arena.*m999_from_the_future.*Upgrade"):
        open_store(db_path, create=False)
    assert schema(db_path) == before


def test_other_migration_sets_in_the_same_table_are_not_mistaken_for_newer(
    db_path: Path,
) -> None:
    open_store(db_path, create=True).close()
    with sqlite3.connect(db_path) as conn:
        conn.execute(
            "INSERT INTO _sqlite_migrations (migration_set, name, applied_at)"
            " VALUES ('someone-else', 'm001_theirs', '2025-01-01')"
        )
    conn.close()
    open_store(db_path, create=False).close()


def test_locked_database_on_save_says_another_process_is_writing(
    db_path: Path, make_game, bots
) -> None:
    open_store(db_path, create=True).close()
    game = make_game("g1", [(bots.alpha, 1), (bots.beta, 2)])
    with open_store(db_path, create=False, busy_timeout=0.05) as store:
        with (
            locked_by_other_connection(db_path),
            pytest.raises(DatabaseLocked, match=r"another arena process is writing.*--db"),
        ):
            store.save_game(game)
        assert store.list_games() == [], "the refused save left nothing behind"
        store.save_game(game)  # once the other writer is done, the same save works
        assert store.has_game("g1")


def test_locked_new_database_on_open(tmp_path: Path) -> None:
    # A brand-new file (not yet WAL) locked by another process while it sets it up.
    path = tmp_path / "new.db"
    sqlite3.connect(path).close()
    with (
        locked_by_other_connection(path),
        pytest.raises(DatabaseLocked, match="is locked: another arena process is writing"),
    ):
        open_store(path, create=True, busy_timeout=0.05)
    open_store(path, create=True).close()


@pytest.mark.parametrize("name", ["with space?and#hash%20.db", "ünïcode.db"])
def test_file_names_are_taken_literally(tmp_path: Path, name: str) -> None:
    open_store(tmp_path / name, create=True).close()
    assert (tmp_path / name).is_file()
    open_store(tmp_path / name, create=False).close()


def test_the_first_write_to_a_read_only_file_fails_cleanly(db_path: Path, make_game, bots) -> None:
    """An immutable (or mode 0444) file opens and reads; SQLite refuses only at the first
    write, which raises ReadOnlyDatabase saying what to do, and leaves the file as it was."""
    with open_store(db_path, create=True) as store:
        store.save_game(make_game("g1", [(bots.alpha, 1), (bots.beta, 2)]))
    before = db_path.read_bytes()
    with read_only_file(db_path), open_store(db_path, create=False) as store:
        assert [g.id for g in store.list_games()] == ["g1"]
        with pytest.raises(ReadOnlyDatabase, match=r"the file is read-only.*chmod u\+w"):
            store.check_writable()
        with pytest.raises(ReadOnlyDatabase, match=r"read-only.*Nothing was changed"):
            store.save_game(make_game("g2", [(bots.alpha, 2), (bots.beta, 1)]))
        assert [g.id for g in store.list_games()] == ["g1"]
    assert db_path.read_bytes() == before
    with open_store(db_path, create=False) as store:
        store.save_game(make_game("g2", [(bots.alpha, 2), (bots.beta, 1)]))
        assert [g.id for g in store.list_games()] == ["g2", "g1"]


def test_a_read_only_folder_opens_read_only_only_when_asked(tmp_path: Path, make_game, bots):
    folder = tmp_path / "data"
    folder.mkdir()
    with open_store(folder / "arena.db", create=True) as store:
        store.save_game(make_game("g1", [(bots.alpha, 1), (bots.beta, 2)]))
    with read_only_folder(folder, tmp_path / "ro") as seen:
        path = seen / "arena.db"
        with pytest.raises(ReadOnlyDatabase, match="read-only"):
            open_store(path, create=False)
        with open_store(path, create=False, allow_read_only=True) as store:
            assert store.read_only
            assert [g.id for g in store.list_games()] == ["g1"]
            with pytest.raises(ReadOnlyDatabase, match="cannot write the database"):
                store.save_game(make_game("g2", [(bots.alpha, 2), (bots.beta, 1)]))
        with pytest.raises(ReadOnlyDatabase, match="cannot create the database"):
            open_store(seen / "new.db", create=True)
