"""The league runner killed with SIGKILL at random moments, again and again, then resumed.

Half the kills land while the runner and its workers are starting their bots, half in the
middle of play (a random moment after this run stored a game). After every kill the database
passes PRAGMA integrity_check, every game is fully recorded or absent, no game is played twice,
no bot or worker process is left behind; at the end the league is complete and its ratings
equal a recompute from the recorded games exactly (==: both rate in save order).
"""

from __future__ import annotations

import random
import signal
import subprocess
import time
from pathlib import Path

import pytest

from arena.store import open_store
from tests.support.leagues import (
    assert_ratings_equal_a_recompute,
    league_command,
    stored_games,
    write_league,
)
from tests.support.paths import ROOT

pytestmark = pytest.mark.slow  # kills a real league run a dozen times

KILLS = 12
GAMES = 80
"""Enough that the league is still unfinished after the twelve kills (at load 4 they let 18
games be stored; an idle machine plays faster between a stored game and a kill): every kill
lands on a run with games left. 150 games only made the final run longer."""


def recorded(db: Path) -> tuple[int, int]:
    """(games stored, league games stored), checking consistency on the way."""
    if stored_games(db) == 0:
        return 0, 0  # killed while the file was being created: nothing to lose yet
    with open_store(db, create=False) as store:
        assert store.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        games = store.db.execute("SELECT count(*) FROM games").fetchone()[0]
        for table in ("seats", "game_decisions", "league_games"):
            orphans = store.db.execute(
                f"SELECT count(*) FROM {table} WHERE game_id NOT IN (SELECT id FROM games)"
            ).fetchone()[0]
            assert orphans == 0, f"{table} has rows of a game that is not recorded"
        incomplete = store.db.execute(
            "SELECT count(*) FROM games g WHERE g.players != (SELECT count(*) FROM seats s "
            "WHERE s.game_id = g.id) OR g.id NOT IN (SELECT game_id FROM game_decisions) "
            "OR (g.id NOT IN (SELECT game_id FROM rating_history) AND g.status = 'complete' "
            "AND (SELECT count(DISTINCT bot_id) FROM seats s WHERE s.game_id = g.id) > 1)"
        ).fetchone()[0]
        assert incomplete == 0, "a game is recorded without all of its parts (or its rating)"
        league = store.db.execute("SELECT count(*) FROM league_games").fetchone()[0]
        return games, league


def test_sigkill_at_random_moments_never_loses_or_duplicates_a_game(tmp_path, bot_processes):
    league, db = write_league(tmp_path, games=GAMES), tmp_path / "arena.db"
    command = league_command(league, db, workers=2)
    rng = random.Random(2026)
    progress = []
    for round_ in range(KILLS):
        before = stored_games(db)
        proc = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT
        )
        if round_ % 2:
            # mid-play: once this run has stored a game, a random moment later
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and proc.poll() is None:
                if stored_games(db) > before:
                    break
                time.sleep(0.02)
        # even rounds: while the runner and its workers start (and start their bots)
        time.sleep(rng.uniform(0.0, 0.6))  # a random kill point, not a synchronisation
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        deadline = time.monotonic() + 60  # a guard only: they go at once unless the host is slow
        while bot_processes(tmp_path) and time.monotonic() < deadline:
            time.sleep(0.05)  # orphans get their parent-death signal asynchronously
        assert bot_processes(tmp_path) == [], "no bot outlives a killed runner"
        if db.exists():
            games, league_games = recorded(db)
            assert games == league_games
            progress.append(games)
    assert progress == sorted(progress), "games only ever accumulate"
    final = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=1800)
    assert final.returncode == 0, final.stdout + final.stderr
    games, league_games = recorded(db)
    assert games == league_games == GAMES, "every scheduled game exactly once"
    with open_store(db, create=False) as store:
        assert_ratings_equal_a_recompute(store)
    print(f"\nkill points survived: {KILLS}; games recorded after each kill: {progress}")
