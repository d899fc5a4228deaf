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

from arena.bundled import bundled_bot
from arena.containment.limits import Limits
from arena.games import get_game
from arena.inprocess import InProcessBot, random_decider
from arena.lineup import Lineup, rotation
from arena.manifest import load_bot
from arena.record import BotIdentity
from arena.referee import SeatedBot, play_game
from protocol import codec, legal

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
            SeatedBot(identity, InProcessBot(random_decider(seed * 10 + s))) for s in range(players)
        ]
        play_game(game, entrants, seed=seed, options={})
    return (time.perf_counter() - started) / games


def bench_subprocess(
    title: str, players: int, games: int, sandbox: bool = True
) -> tuple[float, float, float]:
    """(seconds per game, decisions per game, seconds to start the table's bots) with
    persistent random-bot subprocesses, sandboxed or not."""
    game = get_game(title)
    bot = load_bot(bundled_bot("random"))
    decisions = 0
    with Lineup([bot] * players, limits=Limits(sandbox=sandbox)) as lineup:
        started = time.perf_counter()
        lineup.seated(list(range(players)), "warm-up")  # start-up is paid once, not timed
        startup = time.perf_counter() - started
        started = time.perf_counter()
        for index in range(games):
            record = play_game(
                game, lineup.seated(rotation(players, index), f"g{index}"), seed=index, options={}
            )
            decisions += len(record.decisions)
        elapsed = time.perf_counter() - started
    return elapsed / games, decisions / games, startup


def bench_sandbox_cost(title: str, players: int, games: int) -> dict[str, float]:
    """What the sandbox costs: per decision and per bot start, sandboxed minus unsandboxed,
    medians of three alternating runs (alternating, so drift on a shared machine hits both)."""
    runs: dict[bool, list[tuple[float, float, float]]] = {True: [], False: []}
    for _ in range(3):
        for sandbox in (True, False):
            runs[sandbox].append(bench_subprocess(title, players, games, sandbox))
    per_decision = {
        sandbox: statistics.median(game_s / decisions for game_s, decisions, _ in results)
        for sandbox, results in runs.items()
    }
    startup = {
        sandbox: statistics.median(start for _, _, start in results) / players
        for sandbox, results in runs.items()
    }
    return {
        "sandboxed_us": per_decision[True] * 1e6,
        "unsandboxed_us": per_decision[False] * 1e6,
        "start_sandboxed_ms": startup[True] * 1e3,
        "start_unsandboxed_ms": startup[False] * 1e3,
    }


def seat_traffic(title: str, players: int, games: int) -> list[tuple[int, bytes]]:
    """What seats are sent per decision in real games, in decision order: for every request,
    (seat, the lines since that seat's previous request followed by the request)."""
    game = get_game(title)
    traffic: list[tuple[int, bytes]] = []
    for seed in range(games):
        bots = [InProcessBot(random_decider(seed * 10 + s)) for s in range(players)]
        for bot in bots:
            bot.keep_messages = True
        record = play_game(
            game, [SeatedBot(BotIdentity("r", "", "-"), b) for b in bots], seed=seed, options={}
        )
        per_seat: list[list[bytes]] = []
        for bot in bots:
            chunks, pending = [], b""
            for message in bot.received:
                pending += codec.encode(message)
                if message["type"] == "request":
                    chunks.append(pending)
                    pending = b""
            per_seat.append(chunks[::-1])
        traffic.extend((d.seat, per_seat[d.seat].pop()) for d in record.decisions)
    return traffic


def bench_echo(traffic: list[tuple[int, bytes]], rounds: int, processes: int) -> float:
    """Seconds per bare round trip: write a seat's chunk to its echo process, read the answer
    line (blocking pipes). With processes > 1, seat s talks to process s mod processes, the
    way a real table alternates between its bots' processes."""
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", ECHO], stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )
        for _ in range(processes)
    ]

    def round_trip(index: int) -> None:
        seat, chunk = traffic[index % len(traffic)]
        proc = procs[seat % processes]
        assert proc.stdin and proc.stdout
        proc.stdin.write(chunk)
        proc.stdin.flush()
        proc.stdout.readline()

    for index in range(50):  # warm-up
        round_trip(index)
    started = time.perf_counter()
    for index in range(rounds):
        round_trip(index)
    elapsed = time.perf_counter() - started
    for proc in procs:
        assert proc.stdin
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
    sub_s, sub_decisions, _ = bench_subprocess(title, players, args.subprocess_games)
    traffic = seat_traffic(title, players, 5)
    rounds = len(traffic)
    echo_s = statistics.median(bench_echo(traffic, rounds, players) for _ in range(3))
    one_s = statistics.median(bench_echo(traffic, rounds, 1) for _ in range(3))
    mean_chunk = statistics.mean(len(chunk) for _, chunk in traffic)

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
    print(
        f"  bare echo round trip      {echo_s * 1e6:9.1f} µs       "
        f"(a seat's real traffic per decision, mean {mean_chunk:.0f} bytes, to {players} "
        "echo processes in turn as at the table)"
    )
    print(
        f"  bare echo, one process    {one_s * 1e6:9.1f} µs       (the same traffic to a single process)"
    )
    print(
        f"  referee overhead          {overhead * 1e6:9.1f} µs/decision beyond the bare round trip"
    )
    print(
        f"  target: subprocess game ≤ 1.5 × {sub_decisions:.0f} × round trip + in-process game = {target * 1e3:.2f} ms; "
        f"reached {sub_s * 1e3:.2f} ms ({'met' if sub_s <= target else 'NOT met'}, {sub_s / (floor + inproc_s):.2f}× the floor)"
    )
    cost = bench_sandbox_cost(title, players, max(5, args.subprocess_games // 4))
    print(
        f"  sandbox cost              {cost['sandboxed_us'] - cost['unsandboxed_us']:9.1f} µs/decision "
        f"({cost['sandboxed_us']:.0f} sandboxed vs {cost['unsandboxed_us']:.0f} unsandboxed, per "
        f"decision, medians of 3 alternating runs; target: within the noise, under 10%)"
    )
    print(
        f"  bot start-up              {cost['start_sandboxed_ms']:9.1f} ms/bot    "
        f"({cost['start_unsandboxed_ms']:.1f} ms unsandboxed: the launcher, bubblewrap, setpriv; "
        "paid once per process, not per game)"
    )


if __name__ == "__main__":
    main()
