"""Leagues on a real Dask cluster (tests/cluster/conftest.py): the same games as a local pool,
bots run only from the copies the head ships, a worker killed mid-league, the head killed and
interrupted mid-league and resumed."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import distributed
import pytest

from arena.seeds import secret_from_seed_key
from arena.store import open_store
from leagues.cluster import DaskExecutor
from leagues.cluster_address import ClusterAddress
from leagues.runner import RunSummary, prepare_league, run_league
from leagues.spec import load_league
from tests.support.leagues import (
    assert_ratings_equal_a_recompute,
    league_command,
    stored_games,
    write_league,
)
from tests.support.paths import ROOT

pytestmark = pytest.mark.slow  # a scheduler, two workers and their bots, for real

SEED_KEY = "cluster-tests-seed-key"
SECRET = secret_from_seed_key(SEED_KEY)
GONE_S = 60  # a guard only: bots go at once, their parent-death signal is asynchronous


def games(db: Path) -> list[tuple[Any, ...]]:
    """Every game of the league as played: id, deal, seats (bot, seed, result, fault) and
    decisions, in schedule order; nothing that depends on timing or on which worker played."""
    with open_store(db, create=False) as store:
        ids = [row[0] for row in store.db.execute("SELECT game_id FROM league_games ORDER BY task")]
        played = []
        for game_id in ids:
            record = store.load_game(game_id)
            seats = tuple(
                (s.seat, s.bot.name, s.bot.digest, s.bot_seed, s.rank, s.score, s.fault)
                for s in record.seats
            )
            decisions = tuple((d.seat, repr(d.action), d.by_referee) for d in record.decisions)
            played.append((record.game_id, record.seed, record.status, seats, decisions))
        return played


def play_locally(league: Path, db: Path) -> list[tuple[Any, ...]]:
    """The reference: the league played by a local pool of two workers."""
    with open_store(db, create=True) as store:
        prepared = prepare_league(load_league(league), store, log_dir=None, secret=SECRET)
        assert run_league(prepared, store, workers=2).remaining == 0
    return games(db)


def play_on(
    address: str,
    league: Path,
    db: Path,
    *,
    before: Callable[[], None] = lambda: None,
    on_record: Callable[..., None] | None = None,
) -> RunSummary:
    """Play the league on the cluster at address; before() runs once the executor has packed
    the bots and before any game."""
    with open_store(db, create=True) as store:
        prepared = prepare_league(load_league(league), store, log_dir=None, secret=SECRET)
        executor = DaskExecutor(prepared.plan, ClusterAddress(scheduler=address))
        before()
        summary = run_league(prepared, store, workers=1, on_record=on_record, executor=executor)
        assert_ratings_equal_a_recompute(store)
    return summary


def stored(db: Path) -> tuple[int, int]:
    """(games stored, league games stored)."""
    with open_store(db, create=False) as store:
        return (
            store.db.execute("SELECT count(*) FROM games").fetchone()[0],
            store.db.execute("SELECT count(*) FROM league_games").fetchone()[0],
        )


def league_bots(bot_processes, tmp_path: Path, cluster) -> Callable[[], list[str]]:
    """The test's bot processes: those run from the workers' caches or the head's. (Not
    everything under tmp_path: the dask processes' command lines name it too.)"""
    roots = [*cluster.caches, tmp_path / "arena-cache", tmp_path / "bots"]
    return lambda: [cmd for root in roots for cmd in bot_processes(root)]


def wait_until_none(find: Callable[[], list[str]]) -> list[str]:
    deadline = time.monotonic() + GONE_S
    while (left := find()) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


def test_the_cluster_plays_the_local_pools_games_from_the_copies_it_ships(
    tmp_path, dask_cluster, bot_processes, own_snapshot_cache, make_bot
):
    # One entrant crashes at its first decision of every game: a bot's fault, recorded in the
    # game like any result, that must never pass for a worker's death (nor kill a worker).
    crasher = make_bot("crash", at=1)
    shutil.copytree(crasher, tmp_path / "bots" / "crasher")
    league = write_league(tmp_path, games=24)
    league.write_text(
        league.read_text().replace(
            "copies = 3}]", f'copies = 2}}, "{tmp_path / "bots" / "crasher"}"]'
        )
    )
    reference = play_locally(league, tmp_path / "local.db")
    assert any(seat[-1] != "ok" for game in reference for seat in game[3]), "the crasher faults"

    def hide_the_originals() -> None:
        # From here the bots exist only in what the executor packed: not at their folders,
        # not in the head's snapshot cache.
        (tmp_path / "bots").rename(tmp_path / "bots-moved")
        own_snapshot_cache.rename(tmp_path / "head-cache-moved")

    running: list[tuple[list[str], list[str]]] = []

    def look(task, record) -> None:
        if not running:
            running.append(
                (
                    [cmd for cache in dask_cluster.caches for cmd in bot_processes(cache)],
                    bot_processes(tmp_path / "head-cache-moved")
                    + bot_processes(tmp_path / "bots-moved"),
                )
            )

    summary = play_on(
        dask_cluster.address,
        league,
        tmp_path / "cluster.db",
        before=hide_the_originals,
        on_record=look,
    )
    assert summary.played == 24 and summary.remaining == 0
    assert games(tmp_path / "cluster.db") == reference, "the same games, seeds, seats, decisions"
    assert summary.faults > 0, "the crasher's faults are results"
    assert all(worker.poll() is None for worker in dask_cluster.workers), "no worker died"
    on_workers, elsewhere = running[0]
    assert on_workers, "the workers run their own unpacked copies of the bots"
    assert elsewhere == [], "no bot runs from the head's copies"
    assert wait_until_none(league_bots(bot_processes, tmp_path, dask_cluster)) == [], (
        "the run stops its bots"
    )


def test_a_worker_killed_mid_league_costs_only_its_games_in_flight(
    tmp_path, dask_cluster, bot_processes
):
    # 24 games: the kill comes at the sixth recorded, with 18 left for both workers' queues
    league = write_league(tmp_path, games=24)
    reference = play_locally(league, tmp_path / "local.db")
    victim = dask_cluster.workers[0]
    recorded: list[int] = []
    in_flight_on_victim: list[str] = []

    def kill_a_worker(task, record) -> None:
        recorded.append(task.index)
        if len(recorded) == 6:
            with distributed.Client(dask_cluster.address) as client:
                names = {w: info["name"] for w, info in client.scheduler_info()["workers"].items()}
                for worker, keys in client.processing().items():
                    if names[worker] == "worker-0":
                        in_flight_on_victim.extend(str(key) for key in keys)
            os.kill(victim.pid, signal.SIGKILL)
            victim.wait()

    summary = play_on(
        dask_cluster.address, league, tmp_path / "cluster.db", on_record=kill_a_worker
    )
    assert in_flight_on_victim, "the worker died with games in flight"
    assert summary.played == 24 and summary.remaining == 0
    assert stored(tmp_path / "cluster.db") == (24, 24), "every game stored exactly once"
    assert games(tmp_path / "cluster.db") == reference, (
        "the games re-run elsewhere are the games as they should be: no worker death was "
        "recorded as a bot's fault"
    )
    assert wait_until_none(lambda: bot_processes(dask_cluster.caches[0])) == [], (
        "no bot outlives its killed worker"
    )
    assert wait_until_none(league_bots(bot_processes, tmp_path, dask_cluster)) == [], (
        "nothing left running on the surviving worker"
    )


HEAD_GAMES = 20
"""The league the head is killed and interrupted in (played twice: locally, for reference)."""


def test_a_killed_then_interrupted_head_resumes_exactly_on_the_same_cluster(
    tmp_path, dask_cluster, bot_processes
):
    # 20 games: each stop comes 5 stored games into a run (one run stopped at 5 and 10), so
    # after both the league is about half played, and the last run has games left to resume
    league = write_league(tmp_path, games=HEAD_GAMES)
    reference = play_locally(league, tmp_path / "local.db")
    db = tmp_path / "cluster.db"
    command = [
        *league_command(league, db, workers=1),
        "--cluster",
        dask_cluster.address,
        "--seed-key",
        SEED_KEY,
    ]

    def start_and_wait_for_games(more: int) -> subprocess.Popen[bytes]:
        before = stored_games(db)
        with open(tmp_path / "head.log", "wb") as log:
            head = subprocess.Popen(command, stdout=log, stderr=log, cwd=ROOT)
        deadline = time.monotonic() + 300
        while stored_games(db) < before + more:
            assert head.poll() is None, (tmp_path / "head.log").read_text()
            assert time.monotonic() < deadline, "the head stores games"
            time.sleep(0.05)
        return head

    head = start_and_wait_for_games(5)
    head.send_signal(signal.SIGKILL)
    head.wait()
    after_kill = stored(db)
    assert after_kill[0] == after_kill[1] < HEAD_GAMES

    head = start_and_wait_for_games(5)
    head.send_signal(signal.SIGINT)  # Ctrl-C
    assert head.wait(timeout=120) == 130, (tmp_path / "head.log").read_text()
    after_interrupt = stored(db)
    assert after_kill[0] < after_interrupt[0] == after_interrupt[1] < HEAD_GAMES
    assert wait_until_none(league_bots(bot_processes, tmp_path, dask_cluster)) == [], (
        "Ctrl-C stops the league's bots on every worker"
    )

    final = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert final.returncode == 0, final.stdout + final.stderr
    assert stored(db) == (HEAD_GAMES, HEAD_GAMES), "every game exactly once"
    assert games(db) == reference, "resumed exactly: the games a run without stops plays"
    with open_store(db, create=False) as store:
        assert_ratings_equal_a_recompute(store)
    assert wait_until_none(league_bots(bot_processes, tmp_path, dask_cluster)) == [], (
        "nothing left running"
    )


def test_cluster_local_starts_its_own_workers_for_the_run(tmp_path, bot_processes):
    league, db = write_league(tmp_path, games=6), tmp_path / "arena.db"
    command = [*league_command(league, db, workers=1), "--cluster", "local:2"]
    run = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Dask cluster local:2" in run.stdout and "2 workers" in run.stdout
    assert stored(db) == (6, 6)
    assert wait_until_none(lambda: bot_processes(tmp_path)) == [], "its workers and bots stop"
