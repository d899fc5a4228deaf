"""The store at scale: how fast a large league database answers, and its size. Prints;
asserts nothing. Run: python -m leagues.bench_store [--games N] [--quick]

The database is built fast, not by hours of play: a few dozen 5-player Corruption games are
played for real through the referee with in-process random bots and saved through
LeagueStore.save_game (the real path), then their stored rows are replicated with fresh game
ids in bulk SQL (same seats, decisions and outcomes) up to --games, all filed under one league.
The copies are then counted into the leaderboard totals and the league's standings by the
same replay a migration uses (arena.store.totals.rebuild, leagues.tally.rebuild), and
``ratings --recompute`` rates them, which is also the figure it measures. The copies' ids
count up in save order, as real (random) game ids do not: inserting and looking up by id is
kinder to SQLite here than in a real database of the same size.

Each timing is the median of --repeat runs of the function the command calls, in this
process: the command line's own start-up (importing typer, rich, sqlite-utils; about 0.7 s
of CPU here) comes on top and is printed once, separately.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from arena import ratings, trueskill_ffa
from arena.games import get_game
from arena.inprocess import InProcessBot, random_decider
from arena.record import BotIdentity
from arena.referee import SeatedBot, play_game
from arena.store import Store, open_store, totals
from arena.web import bench as web_bench
from leagues import tally
from leagues.store import LeagueRow, LeagueStore

TITLE = "corruption"
PLAYERS = 5
ENTRANTS = 6
"""In-process random bots, each under its own name, five of them at each table."""
PLAYED = 30
"""Games played for real; the rest are copies of these."""
LEAGUE = "bench-store"
QUICK_GAMES = 1_000
"""Small enough to build and measure in well under 30 s: building the league's standings and
recomputing the ratings each replay TrueSkill over every game (about 0.2 ms a game)."""

TARGETS_S = {
    "ratings (leaderboard)": 2.0,
    "games (first page of 50)": 0.3,
    "show (load one game)": 0.3,
    "league standings": 2.0,
}
RECOMPUTE_TARGET_S_PER_MILLION = 600.0
"""'Minutes, not hours': ten minutes for a million games."""
BYTES_PER_GAME_TARGET = 3000
RATED_GAMES = 2_000
"""Games whose TrueSkill update is timed alone, with the library and with the fast path."""


def build(path: Path, games: int) -> tuple[Store, LeagueRow]:
    """A league database of ``games`` 5-player Corruption games (see the module's docstring)."""
    store = open_store(path, create=True)
    leagues = LeagueStore(store)
    league = leagues.register(
        name=LEAGUE, title=TITLE, fingerprint="bench", games=games, path="(bench)"
    )
    bots = [BotIdentity(f"random-{chr(ord('a') + i)}", "inprocess", "-") for i in range(ENTRANTS)]
    game = get_game(TITLE)
    for task in range(min(PLAYED, games)):
        seated = [
            SeatedBot(bots[(task + s) % ENTRANTS], InProcessBot(random_decider(task * 10 + s)))
            for s in range(PLAYERS)
        ]
        record = play_game(game, seated, seed=task, options={}, bot_seed_key=b"bench")
        leagues.save_game(record, league.id, task)
    if games > PLAYED:
        replicate(store, league.id, PLAYED, games)
    return store, league


def replicate(store: Store, league_id: int, played: int, games: int) -> None:
    """Copy the first ``played`` games' rows until the league has ``games``: fresh ids and
    save order, same content. Ratings are left to the recompute that is measured."""
    db = store.db
    with db.conn:
        db.execute("CREATE TEMP TABLE copies (task INTEGER PRIMARY KEY, src TEXT, id TEXT)")
        sources = [row[0] for row in db.execute("SELECT id FROM games ORDER BY seq")]
        db.conn.executemany(
            "INSERT INTO copies VALUES (?, ?, ?)",
            ((task, sources[task % played], f"{task:032x}") for task in range(played, games)),
        )
        (base,) = db.execute("SELECT max(seq) FROM games").fetchone()
        columns = _columns(store, "games", skip={"id", "seq"})
        db.execute(
            f"INSERT INTO games (id, seq, {columns}) SELECT c.id, {base} + c.task, {columns}"
            " FROM copies c JOIN games g ON g.id = c.src ORDER BY c.task"
        )
        columns = _columns(store, "seats", skip={"game_id"})
        db.execute(
            f"INSERT INTO seats (game_id, {columns}) SELECT c.id, {columns}"
            " FROM copies c JOIN seats s ON s.game_id = c.src ORDER BY c.task, s.seat"
        )
        db.execute(
            "INSERT INTO game_decisions (game_id, decisions) SELECT c.id, d.decisions"
            " FROM copies c JOIN game_decisions d ON d.game_id = c.src ORDER BY c.task"
        )
        db.execute(
            "INSERT INTO league_games (league_id, task, game_id)"
            f" SELECT {league_id}, task, id FROM copies ORDER BY task"
        )
        db.execute("DROP TABLE copies")
        # What save_game and LeagueStore.save_game would have counted, game by game.
        totals.rebuild(db)
        tally.rebuild(db, league_id)


def _columns(store: Store, table: str, skip: set[str]) -> str:
    return ", ".join(c.name for c in store.db.table(table).columns if c.name not in skip)


def rating_cpu_per_game(store: Store, games: int, repeat: int) -> tuple[float, float]:
    """Microseconds of CPU to rate one of the first ``games`` games (the ratings each started
    from, as the recompute stored them): the library's rate(), then the fast path, in turn, so
    both see the same load. Same results: tests/test_trueskill_ffa.py holds them equal."""
    by_game: dict[int, tuple[list[tuple[float, float]], list[int]]] = {}
    for seq, rank, mu, sigma in store.db.execute(
        "SELECT g.seq, s.rank, h.mu_before, h.sigma_before FROM games g"
        " JOIN seats s ON s.game_id = g.id"
        " JOIN rating_history h ON h.game_id = g.id AND h.bot_id = s.bot_id"
        " WHERE g.seq IN (SELECT seq FROM games ORDER BY seq LIMIT ?) ORDER BY g.seq, s.seat",
        [games],
    ):
        seats, ranks = by_game.setdefault(seq, ([], []))
        seats.append((mu, sigma))
        ranks.append(rank)
    env = ratings.default_env()

    def library() -> None:
        for seats, ranks in by_game.values():
            env.rate([(env.create_rating(mu, sigma),) for mu, sigma in seats], ranks=ranks)

    def fast() -> None:
        for seats, ranks in by_game.values():
            trueskill_ffa.rate(env, seats, ranks)

    times: dict[Callable[[], None], list[float]] = {library: [], fast: []}
    for _ in range(max(repeat, 3)):
        for action, runs in times.items():
            started = time.process_time()
            action()
            runs.append((time.process_time() - started) / len(by_game) * 1e6)
    return statistics.median(times[library]), statistics.median(times[fast])


def timed(action: Callable[[], Any], repeat: int) -> float:
    """Median seconds of ``repeat`` runs."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def verdict(met: bool) -> str:
    return "met" if met else "NOT MET"


def bytes_in_use(store: Store) -> int:
    """Bytes of the database's pages that hold data (free pages left by deletions excluded)."""
    store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    (pages,) = store.db.execute("PRAGMA page_count").fetchone()
    (free,) = store.db.execute("PRAGMA freelist_count").fetchone()
    (size,) = store.db.execute("PRAGMA page_size").fetchone()
    return int((pages - free) * size)


def startup_seconds() -> float:
    """Wall time of `arena --help`: the command line's start-up, outside the figures above."""
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "arena", "--help"], capture_output=True, check=True, text=True
    )
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000, help="games in the league")
    parser.add_argument(
        "--quick", action="store_true", help=f"{QUICK_GAMES:,} games, one run of each (for CI)"
    )
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure (median)")
    args = parser.parse_args()
    games, repeat = (QUICK_GAMES, 1) if args.quick else (args.games, args.repeat)
    if games < 1 or repeat < 1:
        parser.error("--games and --repeat must be at least 1")
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        store, league = build(Path(folder) / "bench.db", games)
        built = time.perf_counter() - started
        with store:
            run(store, league, games, repeat, built)
    print(f"  (command-line start-up, not included above: {startup_seconds():.2f} s)")


def run(store: Store, league: LeagueRow, games: int, repeat: int, built: float) -> None:
    print(
        f"store at scale: a league of {games:,} {PLAYERS}-player Corruption games "
        f"({min(PLAYED, games)} played with in-process bots, the rest replicated rows), "
        f"built in {built:.1f} s; median of {repeat}"
    )
    cpu = time.process_time()
    recompute = timed(store.recompute_ratings, repeat)
    cpu = (time.process_time() - cpu) / repeat
    per_million = recompute / games * 1_000_000
    print(
        f"  ratings --recompute: {recompute:8.3f} s ({cpu:.3f} s of CPU), "
        f"{per_million / 60:6.1f} min per million games "
        f"(target {RECOMPUTE_TARGET_S_PER_MILLION / 60:.0f} min): "
        f"{verdict(per_million <= RECOMPUTE_TARGET_S_PER_MILLION)}"
    )
    print(
        f"    (its CPU time alone: {cpu / games * 1_000_000 / 60:.1f} min per million games; "
        "wall time exceeds it when other processes share the cores)"
    )
    library_us, fast_us = rating_cpu_per_game(store, min(games, RATED_GAMES), repeat)
    print(
        f"  TrueSkill per game, CPU: the trueskill library {library_us:6.0f} us, "
        f"arena.trueskill_ffa {fast_us:6.0f} us ({library_us / fast_us:.1f}x; alternating, "
        "median of the runs)"
    )
    (some_game,) = store.db.execute("SELECT id FROM games ORDER BY seq DESC LIMIT 1").fetchone()
    leagues = LeagueStore(store)
    actions: dict[str, Callable[[], Any]] = {
        "ratings (leaderboard)": lambda: store.leaderboard(TITLE),
        "games (first page of 50)": lambda: store.list_games(limit=50),
        "show (load one game)": lambda: store.load_game(some_game),
        "league standings": lambda: leagues.standings(league),
    }
    for name, action in actions.items():
        seconds = timed(action, repeat)
        target = TARGETS_S[name]
        print(f"  {name:<25} {seconds:8.3f} s (target {target} s): {verdict(seconds <= target)}")
    web_bench.run(store, repeat)
    per_game = bytes_in_use(store) / games
    print(
        f"  on disk: {per_game:8.0f} bytes a game (target {BYTES_PER_GAME_TARGET}): "
        f"{verdict(per_game <= BYTES_PER_GAME_TARGET)}"
    )


if __name__ == "__main__":
    main()
