"""Leagues on a Dask cluster, for `make bench`: the engine's overhead per game and the single
writer's ceiling, and what they say about a million-game league. Prints; asserts nothing.
Run: python -m leagues.bench_cluster [--quick]

- games/s of one league of random bots (3-player Corruption, real sandboxed bot processes)
  played by the local pool and by a Dask cluster on this machine with the same number of
  workers (a LocalCluster: a scheduler and worker processes talking TCP, exactly as remote
  ones), alternated so that both see the same load; and the head's CPU seconds per game;
- the single writer's ceiling: GameRecords stored per second (LeagueStore.save_game, one
  transaction each, as the head stores them) when they arrive faster than it can write:
  records of games played in-process beforehand, saved in a loop under fresh ids;
- Dask's ceiling: records per second the cluster brings one head when games take no time
  (tasks that hand back a record, submitted and gathered as DaskExecutor does). The local
  cluster's scheduler runs in the head's process here, so its CPU counts as the head's.
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from arena.benchreport import figure, note
from arena.games import get_game
from arena.inprocess import InProcessBot, random_decider
from arena.record import BotIdentity, GameRecord
from arena.referee import SeatedBot, play_game
from arena.store import open_store
from leagues.bench import write_league
from leagues.cluster import ClusterUnavailable, DaskExecutor, require_distributed
from leagues.cluster_address import ClusterAddress
from leagues.execution import Executor, GamePlan
from leagues.runner import prepare_league, run_league
from leagues.spec import load_league
from leagues.store import LeagueStore

WORKERS = 2
MILLION = 1_000_000


@dataclasses.dataclass
class Run:
    games_per_s: float
    head_cpu_ms_per_game: float
    """The head's CPU (every thread of it) from its first stored game to its last, per game:
    receiving, storing, and for a cluster the Dask client; the run's start-up left out."""


def play_league(games: int, executor_for: Callable[[GamePlan], Executor] | None) -> Run:
    """One fresh league; executor_for(plan) gives the executor (None: the local pool)."""
    cpu_at: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        spec = load_league(write_league(Path(folder), games, WORKERS))
        with open_store(Path(folder) / "bench.db", create=True) as store:
            prepared = prepare_league(spec, store, log_dir=None)
            executor = executor_for(prepared.plan) if executor_for else None
            wall = time.monotonic()
            summary = run_league(
                prepared,
                store,
                workers=WORKERS,
                executor=executor,
                on_record=lambda task, record: cpu_at.append(time.process_time()),
            )
            wall = time.monotonic() - wall
    return Run(summary.played / wall, 1000 * (cpu_at[-1] - cpu_at[0]) / (len(cpu_at) - 1))


def pool_against_cluster(
    games: int, rounds: int, address: ClusterAddress
) -> tuple[list[Run], list[Run]]:
    pool: list[Run] = []
    cluster: list[Run] = []
    for _ in range(rounds):
        pool.append(play_league(games, None))
        cluster.append(play_league(games, lambda plan: DaskExecutor(plan, address)))
    return pool, cluster


def sample_records() -> list[GameRecord]:
    """Records of 3-player Corruption games, played in-process (random bots)."""
    game = get_game("corruption")
    bots = [BotIdentity(f"random-{name}", "inprocess", "-") for name in "abc"]
    played: list[GameRecord] = []
    for index in range(20):
        seated = [
            SeatedBot(bots[(index + seat) % 3], InProcessBot(random_decider(index * 10 + seat)))
            for seat in range(3)
        ]
        played.append(play_game(game, seated, seed=index, options={}, bot_seed_key=b"bench"))
    return played


def writer_ceiling(records: int, sample: list[GameRecord]) -> tuple[float, float]:
    """(records stored per second, CPU ms per record) of the single writer."""
    arriving = [
        dataclasses.replace(sample[index % len(sample)], game_id=f"writer-{index:07d}")
        for index in range(records)
    ]
    with (
        tempfile.TemporaryDirectory() as folder,
        open_store(Path(folder) / "writer.db", create=True) as store,
    ):
        leagues = LeagueStore(store)
        league = leagues.register(
            name="writer", title="corruption", fingerprint="writer", games=records, path="-"
        )
        wall, cpu = time.monotonic(), time.process_time()
        for task, record in enumerate(arriving):
            leagues.save_game(record, league.id, task)
        wall, cpu = time.monotonic() - wall, time.process_time() - cpu
    return records / wall, 1000 * cpu / records


def delivered(record: GameRecord, index: int) -> GameRecord:
    """A worker's whole task when games take no time: hand back a record."""
    return dataclasses.replace(record, game_id=f"delivered-{index:07d}")


def delivery_ceiling(
    records: int, sample: list[GameRecord], address: ClusterAddress
) -> tuple[float, float]:
    """(records per second, head CPU ms per record) that Dask brings one head (see the
    module's docstring). Nothing is stored."""
    from distributed import Client, as_completed

    with Client(address.scheduler) as client:
        record = client.scatter(sample[0], broadcast=True)
        window = 2 * sum(client.nthreads().values())
        completed = as_completed(with_results=True)
        submitted = 0

        def submit() -> None:
            nonlocal submitted
            completed.add(client.submit(delivered, record, submitted, pure=False))
            submitted += 1

        wall, cpu = time.monotonic(), time.process_time()
        for _ in range(min(window, records)):
            submit()
        for future, _ in completed:
            future.release()
            if submitted < records:
                submit()
        wall, cpu = time.monotonic() - wall, time.process_time() - cpu
    return records / wall, 1000 * cpu / records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer games, for CI logs (noisier)")
    report(quick=parser.parse_args().quick)


def report(*, quick: bool) -> None:
    """Print the figures (leagues.bench calls this for `make bench`)."""
    try:
        require_distributed()
    except ClusterUnavailable as exc:
        note("leagues on a Dask cluster", f"not measured: {exc}")
        return
    from distributed import LocalCluster

    games, rounds, records = (20, 1, 500) if quick else (60, 2, 3000)
    print(
        f"leagues on a Dask cluster: {WORKERS} workers, 3-player Corruption, random bots "
        f"(subprocesses), local pool and LocalCluster alternated {rounds}×"
    )
    sample = sample_records()
    with LocalCluster(
        n_workers=WORKERS,
        threads_per_worker=1,
        dashboard_address=None,
        silence_logs=logging.ERROR,
    ) as local:
        address = ClusterAddress(scheduler=local.scheduler_address)
        pool, cluster = pool_against_cluster(games, rounds, address)
        delivered_per_s, delivery_cpu_ms = delivery_ceiling(records, sample, address)
    pool_rate = statistics.median(r.games_per_s for r in pool)
    cluster_rate = statistics.median(r.games_per_s for r in cluster)
    figure(
        "cluster / pool, 2 workers",
        f"{cluster_rate / pool_rate:.2f}× ({pool_rate:.1f} → {cluster_rate:.1f} games/s)",
        "≥ 0.8× (the engine's overhead)",
        cluster_rate >= 0.8 * pool_rate,
    )
    pool_cpu = statistics.median(r.head_cpu_ms_per_game for r in pool)
    cluster_cpu = statistics.median(r.head_cpu_ms_per_game for r in cluster)
    note("head CPU per game, in a league", f"pool {pool_cpu:.1f} ms, cluster {cluster_cpu:.1f} ms")
    stored_per_s, writer_cpu_ms = writer_ceiling(records, sample)
    figure(
        "single writer's ceiling",
        f"{1000 / writer_cpu_ms:.0f}/s by CPU, {stored_per_s:.0f}/s wall",
        "≥ 100 games/s by CPU",
        1000 / writer_cpu_ms >= 100,
    )
    note("the writer's CPU per game", f"{writer_cpu_ms:.2f} ms (LeagueStore.save_game)")
    note(
        "Dask's ceiling into one head",
        f"{delivered_per_s:.0f} records/s wall, {delivery_cpu_ms:.2f} ms head CPU each "
        "(scheduler included)",
    )
    # One head takes in a game for the writer's CPU plus Dask's. By CPU, not wall clock: the
    # wall clocks above say as much about the machine's other load as about arena (on an idle
    # machine with a fast disk they approach the CPU figures).
    head_ceiling = 1000 / (writer_cpu_ms + delivery_cpu_ms)
    per_worker = cluster_rate / WORKERS
    feedable = head_ceiling / per_worker
    note("one head's ceiling", f"{head_ceiling:.0f} games/s (by CPU: writer + Dask)")
    note("games/s per worker (here)", f"{per_worker:.2f} (games of random bots, this load)")
    note("workers one head can feed", f"{feedable:.0f}")
    for hours in (24.0, 1.0):
        rate = MILLION / (hours * 3600)
        needed = rate / per_worker
        note(
            f"1,000,000 games in {hours:.0f} h",
            f"{rate:.0f} games/s: {needed:.0f} workers"
            + ("" if needed <= feedable else f", beyond one head ({head_ceiling:.0f} games/s)"),
        )
    note(
        "1,000,000 games, one head",
        f"{MILLION / head_ceiling / 3600:.1f} h at best, with {feedable:.0f} workers",
    )


if __name__ == "__main__":
    main()
