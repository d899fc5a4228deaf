"""League throughput and memory, for `make bench`. Prints; asserts nothing.

- games per second of a league of random bots at 1 and 2 workers (3-player Corruption);
- peak memory (max RSS) of the runner process, and of its workers, over leagues of 1,000 and
  10,000 games, each measured in a fresh process: flat memory means the two peaks match.
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
    parser.add_argument("--speed-games", type=int, default=300)
    parser.add_argument("--memory", type=int, nargs="*", default=[1000, 10000])
    args = parser.parse_args()
    if args.once:
        print(json.dumps(run_once(*args.once)))
        return
    print("league runner: 3-player Corruption, random bots (subprocesses), fresh database")
    for workers in (1, 2):
        r = measure_in_fresh_process(args.speed_games, workers)
        print(f"  {workers} worker(s): {r['games_per_s']:7.1f} games/s over {r['games']:.0f} games")
    for games in args.memory:
        r = measure_in_fresh_process(games, 2)
        print(
            f"  {games:>6} games, 2 workers: runner peak {r['runner_mib']:6.1f} MiB, "
            f"largest worker/bot peak {r['largest_child_mib']:6.1f} MiB ({r['games_per_s']:.0f} games/s)"
        )


if __name__ == "__main__":
    main()
