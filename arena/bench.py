"""`make bench`: the referee's figures against issue 12's targets. Prints; asserts nothing.

For each game (Corruption with 5 players, Intrigue with 4, PARANOIA with 5), in one run on one
machine, as ratios so that the machine's speed and load cancel out:
- the referee with in-process random bots (no processes, no JSON) against the game alone (the
  bare state machine choosing random legal actions): target at most 2×;
- the referee with persistent sandboxed random-bot subprocesses (the real thing) against its
  floor: the same bytes echoed through the same number of processes (a minimal Python process
  per seat that parses every line and answers each request with a fixed line, fed exactly what
  a seat receives per decision in a real game), plus the in-process referee; target at most
  1.2×, the median of 5 runs, each run paired with its own echo measurement so that drift on a
  shared machine hits both;
- the bytes a seat receives per decision (the events since its previous request, then the
  request): target half of what it was when issue 12 was filed, for a seat that negotiated
  every wire feature (SPEC.md §13); a plain seat's figure is printed beside it.
Then, once (it does not depend on the game), what the sandbox costs per decision and per bot.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from random import Random

from arena.benchreport import figure, note
from arena.bundled import bundled_bot
from arena.containment.limits import Limits
from arena.games import get_game
from arena.inprocess import InProcessBot, random_decider
from arena.lineup import Lineup, rotation
from arena.manifest import load_bot
from arena.record import BotIdentity
from arena.referee import SeatedBot, play_game
from protocol import features, legal

# The tables `make bench` measures: each title at a usual size.
TABLES = (("corruption", 5), ("intrigue", 4), ("paranoia", 5))

# Mean bytes a seat received per decision when issue 12 was filed (this bench's own figure
# then); the wire target is half of these.
BYTES_PER_DECISION_BEFORE = {"corruption": 6700, "intrigue": 4100, "paranoia": 7700}

ECHO = (
    "import sys, json\n"
    "for line in sys.stdin.buffer:\n"
    "    msg = json.loads(line)\n"
    "    if msg['type'] == 'request':\n"
    "        sys.stdout.write(json.dumps({'type': 'action', 'id': msg['id'], 'action': 0}) + '\\n')\n"
    "        sys.stdout.flush()\n"
)


@dataclass(frozen=True)
class Sizes:
    """How much each figure plays, in decisions (a PARANOIA game has four times a Corruption
    game's): enough for a stable median, little enough for `make bench` to take 2 minutes."""

    rounds: int  # rounds of each paired measurement; the figure is their median
    inprocess_decisions: int  # per round, engine and in-process referee alternating
    subprocess_decisions: int  # per subprocess run
    sandbox_decisions: int  # per run of the sandbox-cost comparison


FULL = Sizes(rounds=5, inprocess_decisions=2000, subprocess_decisions=600, sandbox_decisions=600)
QUICK = Sizes(rounds=5, inprocess_decisions=600, subprocess_decisions=150, sandbox_decisions=150)


def games_for(title: str, players: int, decisions: int) -> int:
    """How many games make up about this many decisions (at least one)."""
    _, per_game = bench_engine(title, players, range(1000, 1003))
    return max(1, round(decisions / per_game))


def bench_engine(title: str, players: int, seeds: range) -> tuple[float, float]:
    """(seconds per game, decisions per game) of the bare state machine."""
    game = get_game(title)
    options = game.normalize_options({})
    rng = Random(0)
    decisions = 0
    started = time.perf_counter()
    for seed in seeds:
        state, _ = game.start(players, seed, options)
        while (decision := state.pending()) is not None:
            state.apply(legal.random_action(decision.legal, rng))
            decisions += 1
    return (time.perf_counter() - started) / len(seeds), decisions / len(seeds)


def bench_inprocess(title: str, players: int, seeds: range) -> float:
    """Seconds per game through the referee, bots in-process (views built, no JSON, no pipes)."""
    game = get_game(title)
    identity = BotIdentity("random", "inprocess", "-")
    started = time.perf_counter()
    for seed in seeds:
        entrants = [
            SeatedBot(identity, InProcessBot(random_decider(seed * 10 + s))) for s in range(players)
        ]
        play_game(game, entrants, seed=seed, options={})
    return (time.perf_counter() - started) / len(seeds)


def play_subprocess_games(lineup: Lineup, title: str, players: int, seeds: range) -> float:
    """Seconds per decision over games played by an already started lineup."""
    game = get_game(title)
    decisions = 0
    started = time.perf_counter()
    for seed in seeds:
        seated = lineup.seated(rotation(players, seed), f"g{seed}")
        decisions += len(play_game(game, seated, seed=seed, options={}).decisions)
    return (time.perf_counter() - started) / decisions


def start_lineup(players: int, sandbox: bool) -> tuple[Lineup, float]:
    """A lineup of random bots, all started; and the seconds starting them took."""
    lineup = Lineup([load_bot(bundled_bot("random"))] * players, limits=Limits(sandbox=sandbox))
    started = time.perf_counter()
    lineup.seated(list(range(players)), "warm-up")  # starts every bot: paid once, not per game
    return lineup, time.perf_counter() - started


def seat_traffic(
    title: str, players: int, games: int, wanted: frozenset[str] = frozenset()
) -> list[tuple[int, bytes]]:
    """What seats are sent per decision in real games, in decision order: for every request,
    (seat, the lines since that seat's previous request followed by the request), in the wire
    form of a bot that negotiated the wire features `wanted` (none: the plain messages)."""
    game = get_game(title)
    traffic: list[tuple[int, bytes]] = []
    for seed in range(games):
        bots = [InProcessBot(random_decider(seed * 10 + s), wanted) for s in range(players)]
        for bot in bots:
            bot.keep_lines = True
        record = play_game(
            game, [SeatedBot(BotIdentity("r", "", "-"), b) for b in bots], seed=seed, options={}
        )
        per_seat: list[list[bytes]] = []
        for bot in bots:
            chunks, pending = [], b""
            for line in bot.lines:
                pending += line
                if line.startswith(b'{"type":"request"'):
                    chunks.append(pending)
                    pending = b""
            per_seat.append(chunks[::-1])
        traffic.extend((d.seat, per_seat[d.seat].pop()) for d in record.decisions)
    return traffic


def bench_echo(traffic: list[tuple[int, bytes]], processes: int) -> float:
    """Seconds per bare round trip: write a seat's chunk to its echo process, read the answer
    line (blocking pipes). Seat s talks to process s mod processes, the way a real table
    alternates between its bots' processes."""
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
    for index in range(len(traffic)):
        round_trip(index)
    elapsed = time.perf_counter() - started
    for proc in procs:
        assert proc.stdin
        proc.stdin.close()
        proc.wait()
    return elapsed / len(traffic)


def bench_table(title: str, players: int, sizes: Sizes) -> None:
    """Print the referee's three figures for one table."""
    n = games_for(title, players, sizes.inprocess_decisions)
    m = games_for(title, players, sizes.subprocess_decisions)
    engine, inprocess, decisions = [], [], []
    for round_ in range(sizes.rounds):  # alternating, so drift hits both alike
        seeds = range(round_ * n, (round_ + 1) * n)
        engine_s, per_game = bench_engine(title, players, seeds)
        engine.append(engine_s)
        decisions.append(per_game)
        inprocess.append(bench_inprocess(title, players, seeds))
    inprocess_per_decision = statistics.median(inprocess) / statistics.median(decisions)

    traffic = seat_traffic(title, players, 5)
    ratios, subprocess_us, echo_us = [], [], []
    lineup, _ = start_lineup(players, sandbox=True)
    with lineup:
        for round_ in range(sizes.rounds):
            per_decision = play_subprocess_games(
                lineup, title, players, range(round_ * m, (round_ + 1) * m)
            )
            echo_s = bench_echo(traffic, players)
            ratios.append(per_decision / (echo_s + inprocess_per_decision))
            subprocess_us.append(per_decision * 1e6)
            echo_us.append(echo_s * 1e6)

    print(f"{title}, {players} players, random bots")
    in_ratio = statistics.median(i / e for i, e in zip(inprocess, engine))
    note(
        "game engine alone",
        f"{statistics.median(engine) * 1e3:.2f} ms/game, "
        f"{statistics.median(decisions):.0f} decisions/game",
    )
    figure(
        "referee, in-process bots",
        f"{in_ratio:.2f}× the engine",
        "≤ 2× the engine",
        in_ratio <= 2,
    )
    sub_ratio = statistics.median(ratios)
    figure(
        "referee, subprocess bots",
        f"{sub_ratio:.2f}× its floor",
        "≤ 1.2× the floor",
        sub_ratio <= 1.2,
    )
    note(
        "",
        f"({statistics.median(subprocess_us):.0f} µs/decision; floor = echo round trip "
        f"{statistics.median(echo_us):.0f} µs + in-process referee "
        f"{inprocess_per_decision * 1e6:.0f} µs; median of {sizes.rounds} runs)",
    )
    plain = statistics.mean(len(chunk) for _, chunk in traffic)
    negotiated = statistics.mean(
        len(chunk) for _, chunk in seat_traffic(title, players, 5, frozenset(features.OFFERED))
    )
    goal = BYTES_PER_DECISION_BEFORE[title] / 2
    note("a plain seat receives", f"{plain / 1000:.2f} KB/decision (no wire feature asked for)")
    figure(
        "a seat with wire features gets",
        f"{negotiated / 1000:.2f} KB/decision",
        f"≤ {goal / 1000:.2f} KB (½ of {BYTES_PER_DECISION_BEFORE[title] / 1000:.1f})",
        negotiated <= goal,
    )
    note("", "(the target is held against a seat that negotiated every wire feature, SPEC §13)")


def bench_sandbox(title: str, players: int, games: int) -> None:
    """What the sandbox costs, per decision and per bot start: sandboxed against unsandboxed,
    medians of three alternating runs (alternating, so drift on a shared machine hits both)."""
    per_decision: dict[bool, list[float]] = {True: [], False: []}
    startup: dict[bool, list[float]] = {True: [], False: []}
    for run in range(3):
        for sandbox in (True, False):
            lineup, start_s = start_lineup(players, sandbox)
            with lineup:
                seeds = range(run * games, (run + 1) * games)
                per_decision[sandbox].append(play_subprocess_games(lineup, title, players, seeds))
            startup[sandbox].append(start_s / players)
    boxed, bare = (statistics.median(per_decision[s]) * 1e6 for s in (True, False))
    print(f"the sandbox ({title}, {players} players, random bots)")
    figure(
        "sandbox cost per decision",
        f"{boxed - bare:+.0f} µs ({(boxed - bare) / bare:+.0%})",
        "under 10% of a decision",
        boxed - bare < 0.10 * bare,
    )
    note(
        "",
        f"({boxed:.0f} µs sandboxed vs {bare:.0f} µs unsandboxed, medians of 3 alternating runs)",
    )
    note(
        "bot start-up",
        f"{statistics.median(startup[True]) * 1e3:.0f} ms/bot sandboxed, "
        f"{statistics.median(startup[False]) * 1e3:.0f} ms unsandboxed (paid once per process, "
        "not per game; no target)",
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--game",
        choices=[title for title, _ in TABLES],
        help="measure this game only (default: all three)",
    )
    parser.add_argument("--players", type=int, help="table size (default: the game's usual)")
    parser.add_argument(
        "--quick", action="store_true", help="fewer games per figure, for CI logs (noisier)"
    )
    args = parser.parse_args()
    sizes = QUICK if args.quick else FULL
    tables = [(t, args.players or p) for t, p in TABLES if args.game in (None, t)]
    print(
        f"referee — {sys.platform}, Python {sys.version.split()[0]}"
        f"{', quick run (fewer games, noisier)' if args.quick else ''}"
    )
    for title, players in tables:
        bench_table(title, players, sizes)
    title, players = tables[0]
    bench_sandbox(title, players, games_for(title, players, sizes.sandbox_decisions))


if __name__ == "__main__":
    main()
