"""A database that cannot be written: in a read-only folder, a read-only (immutable) file, a
folder this user may not write. Commands that read still work where SQLite can read it;
commands that write (or a command that reads a database needing an upgrade) print one line
that says what is wrong and what to do, exit 1, and change nothing. Never a traceback."""

from __future__ import annotations

import gc
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli.app import app
from tests.support.module_bots import own_snapshot_cache
from tests.support.readonly_fs import IS_ROOT, read_only_file, read_only_folder

ROOT = Path(__file__).resolve().parents[2]
RANDOM = str(ROOT / "bots" / "random")
ENV = {"COLUMNS": "120", "NO_COLOR": "1"}


def invoke(*args: object):
    return CliRunner().invoke(app, [str(a) for a in args], env=ENV, catch_exceptions=False)


def write_league(folder: Path, other: Path) -> Path:
    path = folder / "league.toml"
    path.write_text(
        'name = "ro-league"\ngame = "corruption"\n'
        f'bots = ["{other}", {{path = "{RANDOM}", copies = 2}}]\n'
        "table_size = 3\ngames = 3\nseed = 2\n"
    )
    return path


@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> tuple[Path, Path]:
    """A database holding two played games and a finished three-game league (built once)
    among the random bot and a renamed copy of it (so that there are ratings)."""
    folder = tmp_path_factory.mktemp("recorded")
    other = folder / "other"
    shutil.copytree(RANDOM, other)
    toml = other / "bot.toml"
    toml.write_text(toml.read_text().replace('name = "random"', 'name = "other"'))
    db, league = folder / "arena.db", write_league(folder, other)
    args = ["--bot", other, "--bot", RANDOM, "--bot", RANDOM]
    with own_snapshot_cache(folder):
        assert invoke("play", "corruption", *args, "--games", "2", "--db", db).exit_code == 0
        assert invoke("league", "run", league, "--db", db).exit_code == 0
    gc.collect()  # the commands' own connections, so that the checkpoint can complete
    with sqlite3.connect(db) as conn:  # everything into the main file: the tests copy it alone
        assert conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0] == 0
    return db, league


@pytest.fixture
def db_copy(recorded, tmp_path) -> tuple[Path, Path]:
    """A fresh copy of the recorded database, alone in its own folder."""
    folder = tmp_path / "data"
    folder.mkdir()
    db, league = recorded
    shutil.copy(db, folder / "arena.db")
    return folder / "arena.db", league


def game_ids(db: Path) -> list[str]:
    with sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True) as conn:
        return [row[0] for row in conn.execute("SELECT id FROM games ORDER BY seq")]


def error_line(result) -> str:
    """The one error line of a failed command (and proof there is no traceback)."""
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line.startswith("error:")]
    assert len(lines) == 1, result.output
    return lines[0]


def play_one(db: Path):
    return invoke("play", "corruption", *["--bot", RANDOM] * 3, "--db", db)


def test_commands_that_read_work_in_a_read_only_folder(db_copy, recorded, tmp_path):
    db, league = db_copy
    first_game = game_ids(recorded[0])[0]  # read from the original, not to touch this folder
    before = db.read_bytes()
    with read_only_folder(db.parent, tmp_path / "ro") as folder:
        seen = folder / db.name
        ratings = invoke("ratings", "corruption", "--db", seen)
        assert ratings.exit_code == 0, ratings.output
        assert "random@1.0" in ratings.output
        games = invoke("games", "--db", seen)
        assert games.exit_code == 0 and "5 game(s)" in games.output, games.output
        show = invoke("show", first_game[:8], "--db", seen)
        assert show.exit_code == 0 and "Result" in show.output, show.output
        standings = invoke("league", "standings", league, "--db", seen, "--json")
        assert standings.exit_code == 0 and '"complete": 3' in standings.output
        assert sorted(p.name for p in folder.iterdir()) == ["arena.db"], "nothing created"
    assert db.read_bytes() == before


def test_commands_that_write_in_a_read_only_folder_say_so_in_one_line(db_copy, tmp_path):
    db, league = db_copy
    before = db.read_bytes()
    with read_only_folder(db.parent, tmp_path / "ro") as folder:
        seen = folder / db.name
        played = play_one(seen)
        line = error_line(played)
        assert "read-only" in line and str(seen) in line and "--db" in line
        assert "Nothing was changed" in line
        assert "1/1" not in played.output, "no game was played"
        recompute = error_line(invoke("ratings", "--recompute", "--db", seen))
        assert "read-only" in recompute
        run = error_line(invoke("league", "run", league, "--db", seen))
        assert "read-only" in run
        new = error_line(play_one(folder / "new.db"))
        assert "cannot create the database" in new and "writable folder" in new
        assert not (folder / "new.db").exists()
    assert db.read_bytes() == before


def test_a_read_only_file_is_read_but_never_written(db_copy):
    db, league = db_copy
    ids = game_ids(db)
    with read_only_file(db):
        ratings = invoke("ratings", "--db", db)
        assert ratings.exit_code == 0 and "random@1.0" in ratings.output, ratings.output
        played = play_one(db)
        line = error_line(played)
        assert "the file is read-only" in line and "chmod u+w" in line
        assert "1/1" not in played.output, "refused before any game is played"
        assert "read-only" in error_line(invoke("ratings", "--recompute", "--db", db))
        assert "read-only" in error_line(invoke("league", "run", league, "--db", db))
    assert game_ids(db) == ids, "nothing was lost or added"
    assert play_one(db).exit_code == 0, "writable again: the same command records"
    assert len(game_ids(db)) == len(ids) + 1


def test_a_database_needing_an_upgrade_in_a_read_only_folder_says_so(db_copy, tmp_path):
    """An older arena's file (here: the last migration undone) cannot be upgraded read-only."""
    db, _ = db_copy
    with sqlite3.connect(db) as conn:
        conn.execute("DROP TABLE league_disqualified")
        conn.execute("DELETE FROM _sqlite_migrations WHERE name = 'm004_league_strikes'")
    with read_only_folder(db.parent, tmp_path / "ro") as folder:
        line = error_line(invoke("ratings", "--db", folder / db.name))
        assert "needs a schema upgrade (m004_league_strikes)" in line
        assert "make it writable" in line
    assert invoke("ratings", "--db", db).exit_code == 0, "writable: it upgrades and reads"


@pytest.mark.skipif(not IS_ROOT or shutil.which("setpriv") is None, reason="needs root + setpriv")
def test_a_folder_this_user_may_not_write_as_a_non_root_user(recorded):
    """Permissions, not a read-only mount: another user, a folder without write permission
    and a database file it could write (SQLite refuses: it cannot create the -wal file)."""
    nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    probe = subprocess.run([*nobody, sys.executable, "-c", "import arena"], cwd=ROOT)
    if probe.returncode != 0:
        pytest.skip("the unprivileged user cannot run arena from this checkout")
    top = Path(tempfile.mkdtemp(prefix="arena-ro-"))
    try:
        top.chmod(0o755)
        folder = top / "data"
        folder.mkdir()
        db = folder / "arena.db"
        shutil.copy(recorded[0], db)
        db.chmod(0o666)
        folder.chmod(0o555)
        before = db.read_bytes()

        def arena(*args: object) -> subprocess.CompletedProcess[str]:
            return subprocess.run(
                [*nobody, sys.executable, "-m", "arena", *map(str, args)],
                cwd=ROOT,
                capture_output=True,
                text=True,
                env={**os.environ, **ENV, "ARENA_CACHE": str(cache)},
            )

        cache = top / "cache"  # where nobody may keep its bots' snapshots
        cache.mkdir()
        cache.chmod(0o777)
        ratings = arena("ratings", "--db", db)
        assert ratings.returncode == 0 and "random@1.0" in ratings.stdout, ratings.stderr
        # --unsandboxed: nobody may not make cgroups here, so the sandbox would be refused
        # first; this test is about the database
        played = arena("play", "corruption", *["--bot", RANDOM] * 3, "--db", db, "--unsandboxed")
        assert played.returncode == 1 and "Traceback" not in played.stderr, played.stderr
        (line,) = [s for s in played.stderr.splitlines() if s.startswith("error:")]
        assert f"its folder {folder} is read-only" in line and "make the folder writable" in line
        assert db.read_bytes() == before
    finally:
        shutil.rmtree(top, ignore_errors=True)
