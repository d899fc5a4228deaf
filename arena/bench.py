"""`make bench`: throughput figures for the referee. Prints; asserts nothing.

Compares, in one run on one machine:
- the game alone (pure state machine, random legal actions, no referee);
- the referee with in-process random bots (no processes, no JSON);
- the referee with persistent random-bot subprocesses (the real thing);
- a bare JSON-lines echo round trip, through a pipe to a minimal Python process that
  parses every line and answers each request with a fixed line: the floor any subprocess
  protocol pays per decision. It is fed exactly the bytes a seat receives per decision in a
  real game (the events since its last request, then the request), so the baseline carries
  the same JSON the bots must parse; the single-request-line figure is printed beside it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from arena.games import get_game
from arena.inprocess import InProcessBot, random_decider
from arena.lineup import Lineup, rotation
from arena.manifest import load_bot
from arena.record import BotIdentity
from arena.referee import Entrant, play_game
from protocol import codec, legal

ROOT = Path(__file__).resolve().parent.parent
ECHO = (
    "import sys, json\n"
    "for line in sys.stdin.buffer:\n"
    "    msg = json.loads(line)\n"
    "    if msg['type'] == 'request':\n"
    "        sys.stdout.write(json.dumps({'type': 'action', 'id': msg['id'], 'action': 0}) + '\\n')\n"
    "        sys.stdout.flush()\n"
)


def bench_engine(title: str, players: int, games: int) -> tuple[float, float]:
    """(seconds per game, decisions per game) of the bare state machine."""
    game = get_game(title)
    options = game.normalize_options({})
    rng = random.Random(0)
    decisions = 0
    started = time.perf_counter()
    for seed in range(games):
        state, _ = game.start(players, seed, options)
        while (decision := state.pending()) is not None:
            state.apply(legal.random_action(decision.legal, rng))
            decisions += 1
    return (time.perf_counter() - started) / games, decisions / games


def bench_inprocess(title: str, players: int, games: int) -> float:
    """Seconds per game through the referee, bots in-process (views built, no JSON, no pipes)."""
    game = get_game(title)
    identity = BotIdentity("random", "inprocess", "-")
    started = time.perf_counter()
    for seed in range(games):
        entrants = [
            Entrant(identity, InProcessBot(random_decider(seed * 10 + s))) for s in range(players)
        ]
        play_game(game, entrants, seed=seed, options={})
    return (time.perf_counter() - started) / games


def bench_subprocess(title: str, players: int, games: int) -> tuple[float, float]:
    """(seconds per game, decisions per game) with persistent random-bot subprocesses."""
    game = get_game(title)
    bot = load_bot(ROOT / "bots" / "random")
    decisions = 0
    with Lineup([bot] * players) as lineup:
        lineup.entrants(list(range(players)), "warm-up")  # start-up is paid once, not timed
        started = time.perf_counter()
        for index in range(games):
            record = play_game(
                game, lineup.entrants(rotation(players, index), f"g{index}"), seed=index, options={}
            )
            decisions += len(record.decisions)
        elapsed = time.perf_counter() - started
    return elapsed / games, decisions / games


def seat_traffic(title: str, players: int, games: int) -> list[bytes]:
    """What seats are sent per decision in real games: for every request, the lines since
    the seat's previous request (events, game start) followed by the request, as one chunk."""
    game = get_game(title)
    chunks: list[bytes] = []
    for seed in range(games):
        bots = [InProcessBot(random_decider(seed * 10 + s)) for s in range(players)]
        for bot in bots:
            bot.keep_messages = True
        play_game(
            game, [Entrant(BotIdentity("r", "", "-"), b) for b in bots], seed=seed, options={}
        )
        for bot in bots:
            pending = b""
            for message in bot.received:
                pending += codec.encode(message)
                if message["type"] == "request":
                    chunks.append(pending)
                    pending = b""
    return chunks


def bench_echo(chunks: list[bytes], rounds: int) -> float:
    """Seconds per bare round trip: write one chunk, read the one answer line (blocking pipes)."""
    proc = subprocess.Popen(
        [sys.executable, "-c", ECHO], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    assert proc.stdin and proc.stdout
    for chunk in chunks[:50]:  # warm-up
        proc.stdin.write(chunk)
        proc.stdin.flush()
        proc.stdout.readline()
    started = time.perf_counter()
    for index in range(rounds):
        proc.stdin.write(chunks[index % len(chunks)])
        proc.stdin.flush()
        proc.stdout.readline()
    elapsed = time.perf_counter() - started
    proc.stdin.close()
    proc.wait()
    return elapsed / rounds


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", default="corruption")
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--games", type=int, default=200, help="games for the in-process figures")
    parser.add_argument("--subprocess-games", type=int, default=40)
    args = parser.parse_args()
    title, players = args.game, args.players

    engine_s, decisions = bench_engine(title, players, args.games)
    inproc_s = bench_inprocess(title, players, args.games)
    sub_s, sub_decisions = bench_subprocess(title, players, args.subprocess_games)
    chunks = seat_traffic(title, players, 5)
    echo_s = statistics.median(bench_echo(chunks, len(chunks)) for _ in range(3))
    requests = sorted((c[c.rfind(b"\n", 0, -1) + 1 :] for c in chunks), key=len)
    median_request = requests[len(requests) // 2]
    single_s = statistics.median(bench_echo([median_request], 500) for _ in range(3))

    floor = sub_decisions * echo_s
    target = 1.5 * floor + inproc_s
    overhead = (sub_s - inproc_s) / sub_decisions - echo_s
    print(
        f"{title}, {players} players, random bots — {sys.platform}, Python {sys.version.split()[0]}"
    )
    print(
        f"  game engine alone         {1 / engine_s:9.1f} games/s   {engine_s * 1e3:8.2f} ms/game   {decisions:.0f} decisions/game"
    )
    print(
        f"  referee, in-process bots  {1 / inproc_s:9.1f} games/s   {inproc_s * 1e3:8.2f} ms/game"
    )
    print(
        f"  referee, subprocess bots  {1 / sub_s:9.1f} games/s   {sub_s * 1e3:8.2f} ms/game   {sub_decisions:.0f} decisions/game"
    )
    mean_chunk = statistics.mean(map(len, chunks))
    print(
        f"  bare echo round trip      {echo_s * 1e6:9.1f} µs       "
        f"(a seat's real traffic per decision: events + request, mean {mean_chunk:.0f} bytes)"
    )
    print(
        f"  bare echo, request only   {single_s * 1e6:9.1f} µs       "
        f"(the median request line alone, {len(median_request)} bytes)"
    )
    print(
        f"  referee overhead          {overhead * 1e6:9.1f} µs/decision beyond the bare round trip"
    )
    print(
        f"  target: subprocess game ≤ 1.5 × {sub_decisions:.0f} × round trip + in-process game = {target * 1e3:.2f} ms; "
        f"reached {sub_s * 1e3:.2f} ms ({'met' if sub_s <= target else 'NOT met'}, {sub_s / (floor + inproc_s):.2f}× the floor)"
    )


if __name__ == "__main__":
    main()
