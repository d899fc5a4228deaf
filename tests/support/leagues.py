"""Small leagues of copies of the bundled bots, written for a test, and the command to run one."""

from __future__ import annotations

import shutil
import sqlite3
import sys
from pathlib import Path

# The league tables' migrations register on import, as arena.cli imports them: without it a
# test that opens a league database (open_store) fails as "written by a newer version" when
# its file runs alone, with no other test module having imported leagues.store.
import leagues.store  # noqa: F401
from tests.support.paths import ROOT


def write_league(
    tmp_path: Path, *, games: int = 12, name: str = "test-league", extra: str = ""
) -> Path:
    """A small round-robin of copies of the bundled bots, copied under tmp_path so that
    bot_processes(tmp_path) sees this test's bots and nobody else's."""
    bots = tmp_path / "bots"
    for bot in ("corruption-greedy", "random"):
        if not (bots / bot).exists():
            shutil.copytree(ROOT / "bots" / bot, bots / bot)
    path = tmp_path / "league.toml"
    path.write_text(
        f'name = "{name}"\n'
        'game = "corruption"\n'
        f'bots = ["{bots / "corruption-greedy"}", {{path = "{bots / "random"}", copies = 3}}]\n'
        "table_size = 3\n"
        f"games = {games}\n"
        "seed = 7\n"
        "workers = 1\n" + extra
    )
    return path


def league_command(league: Path, db: Path, workers: int) -> list[str]:
    """`arena league run` as a separate process (python -m arena)."""
    return [
        sys.executable,
        "-m",
        "arena",
        "league",
        "run",
        str(league),
        "--db",
        str(db),
        "--workers",
        str(workers),
    ]


def assert_ratings_equal_a_recompute(store) -> None:
    """The live ratings and their history are exactly (==, every bit) what a recompute from the
    recorded games gives: each complete game rated once, in save order, none lost."""

    def tables():
        return (
            [tuple(r) for r in store.db.execute("SELECT * FROM ratings ORDER BY title, bot_id")],
            [
                tuple(r)
                for r in store.db.execute("SELECT * FROM rating_history ORDER BY game_id, bot_id")
            ],
        )

    live = tables()
    assert live[0], "some bot was rated"
    store.recompute_ratings()
    assert tables() == live, "ratings equal a recompute"


def stored_games(db: Path) -> int:
    """Games stored so far, read without taking part (0 while the file is being created)."""
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as conn:
            return conn.execute("SELECT count(*) FROM games").fetchone()[0]
    except sqlite3.Error:
        return 0
