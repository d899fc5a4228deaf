"""League throughput and memory, for `make bench`. Prints; asserts nothing.

- games per second of a league of random bots (3-player Corruption) at 1 and 2 workers:
  target, two workers at least 1.5× one (two cores);
- peak memory (max RSS) of the runner process, and of its workers, over a league and one five
  times longer, each measured in a fresh process: target, flat memory (the longer league's
  peaks within 10% of the shorter's);
- the same league on a Dask cluster against the local pool, and the single writer's ceiling
  (leagues.bench_cluster).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from arena.benchreport import figure
from arena.bundled import bundled_bot
from arena.store import open_store
from leagues.runner import prepare_league, run_league
from leagues.spec import load_league

ROOT = Path(__file__).resolve().parent.parent


def write_league(folder: Path, games: int, workers: int) -> Path:
    path = folder / "bench.toml"
    path.write_text(
        'name = "bench"\ngame = "corruption"\n'
        f'bots = [{{path = "{bundled_bot("random")}", copies = 3}}]\n'
        f"table_size = 3\ngames = {games}\nseed = 1\nworkers = {workers}\n"
    )
    return path


def run_once(games: int, workers: int) -> dict[str, float]:
    """Play a fresh league in a temporary folder; games/s and peak RSS (MiB)."""
    with tempfile.TemporaryDirectory() as folder:
        spec = load_league(write_league(Path(folder), games, workers))
        with open_store(Path(folder) / "bench.db", create=True) as store:
            prepared = prepare_league(spec, store, log_dir=None)
            started = time.monotonic()
            summary = run_league(prepared, store, workers=workers)
            elapsed = time.monotonic() - started
    self_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    children_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return {
        "games": summary.played,
        "games_per_s": summary.played / elapsed,
        "runner_mib": self_kib / 1024,
        "largest_child_mib": children_kib / 1024,
    }


def measure_in_fresh_process(games: int, workers: int) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, "-m", "leagues.bench", "--once", str(games), str(workers)],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--once", nargs=2, type=int, metavar=("GAMES", "WORKERS"), help=argparse.SUPPRESS
    )
    parser.add_argument(
        "--quick", action="store_true", help="shorter leagues, for CI logs (noisier)"
    )
    args = parser.parse_args()
    if args.once:
        print(json.dumps(run_once(*args.once)))
        return
    # The memory leagues (short games, then five times as many) are most of this bench's time:
    # 60 → 300 games keep `make bench` under 2 minutes and the longer league still five times longer.
    speed_games, short = (20, 20) if args.quick else (60, 60)
    print("league runner: 3-player Corruption, random bots (subprocesses), fresh database")
    one, two = (measure_in_fresh_process(speed_games, workers) for workers in (1, 2))
    figure(
        "2 workers against 1",
        f"{two['games_per_s'] / one['games_per_s']:.2f}× "
        f"({one['games_per_s']:.1f} → {two['games_per_s']:.1f} games/s)",
        "≥ 1.5× (two cores)",
        two["games_per_s"] >= 1.5 * one["games_per_s"],
    )
    small, large = (measure_in_fresh_process(games, 2) for games in (short, 5 * short))
    for key, name in (("runner_mib", "runner"), ("largest_child_mib", "largest worker/bot")):
        figure(
            f"{name} peak memory",
            f"{small[key]:.1f} → {large[key]:.1f} MiB",
            f"flat: {short} → {5 * short} games, ≤ +10%",
            large[key] <= 1.1 * small[key],
        )
    from leagues import bench_cluster  # it borrows write_league from here

    bench_cluster.report(quick=args.quick)


if __name__ == "__main__":
    main()
