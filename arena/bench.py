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
  shared machine hits both; beside it, the same ratio with the in-process referee measured as
  it runs when it waits on bots (sleeping before each decision, which costs the work after
  each wake-up more CPU than the echo's next to nothing pays);
- the bytes a seat receives per decision (the events since its previous request, then the
  request): target half of what it was when issue 12 was filed, for a seat that negotiated
  every wire feature (SPEC.md §13); a plain seat's figure is printed beside it.
Each ratio is judged on wall time and printed beside the same ratio in CPU time
(time.process_time of this process: the referee's side only, for the subprocess figure), which
load from other processes distorts far less.
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
from typing import Any

from arena.benchreport import figure, note
from arena.bundled import bundled_bot
from arena.containment.limits import Limits
from arena.games import get_game
from arena.inprocess import Decide, InProcessBot, random_decider
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
class Spent:
    """Time spent on something: wall-clock seconds and this process's CPU seconds."""

    wall: float
    cpu: float

    def per(self, count: float) -> Spent:
        return Spent(self.wall / count, self.cpu / count)


class Stopwatch:
    """Wall and CPU time from its creation to each call of ``spent``."""

    def __init__(self) -> None:
        self.wall, self.cpu = time.perf_counter(), time.process_time()

    def spent(self) -> Spent:
        return Spent(time.perf_counter() - self.wall, time.process_time() - self.cpu)


@dataclass(frozen=True)
class Sizes:
    """How much each figure plays, in decisions (a PARANOIA game has four times a Corruption
    game's): enough for a stable median, little enough for `make bench` to take 2 minutes."""

    rounds: int  # rounds of each paired measurement; the figure is their median
    inprocess_decisions: int  # per round, engine and in-process referee alternating
    subprocess_decisions: int  # per subprocess run
    sandbox_decisions: int  # per run of the sandbox-cost comparison


FULL = Sizes(rounds=5, inprocess_decisions=1500, subprocess_decisions=450, sandbox_decisions=450)
QUICK = Sizes(rounds=5, inprocess_decisions=600, subprocess_decisions=150, sandbox_decisions=150)


def games_for(title: str, players: int, decisions: int) -> int:
    """How many games make up about this many decisions (at least one)."""
    _, per_game = bench_engine(title, players, range(1000, 1003))
    return max(1, round(decisions / per_game))


def bench_engine(title: str, players: int, seeds: range) -> tuple[Spent, float]:
    """(time per game, decisions per game) of the bare state machine."""
    game = get_game(title)
    options = game.normalize_options({})
    rng = Random(0)
    decisions = 0
    clock = Stopwatch()
    for seed in seeds:
        state, _ = game.start(players, seed, options)
        while (decision := state.pending()) is not None:
            state.apply(legal.random_action(decision.legal, rng))
            decisions += 1
    return clock.spent().per(len(seeds)), decisions / len(seeds)


WAKE_SLEEP_S = 20e-6
"""How long an in-process bot sleeps before each answer, to measure what waking costs."""


def bench_inprocess(title: str, players: int, seeds: range, sleep_s: float = 0.0) -> Spent:
    """Time per game through the referee, bots in-process (views built, no JSON, no pipes).

    sleep_s: each bot first sleeps this long, so the referee sleeps once per decision as it
    does while a bot process thinks. Only the CPU time means something then: it shows what
    waking costs the work that follows (caches and the processor's state gone cold while the
    process slept), which the echo of the floor, with next to no work after each wake, does not
    pay (bench_table's note)."""
    game = get_game(title)
    identity = BotIdentity("random", "inprocess", "-")
    clock = Stopwatch()
    for seed in seeds:
        deciders = [random_decider(seed * 10 + s) for s in range(players)]
        if sleep_s:
            deciders = [_after_sleeping(decide, sleep_s) for decide in deciders]
        entrants = [SeatedBot(identity, InProcessBot(decide)) for decide in deciders]
        play_game(game, entrants, seed=seed, options={})
    return clock.spent().per(len(seeds))


def _after_sleeping(decide: Decide, sleep_s: float) -> Decide:
    def sleep_then_decide(view: dict[str, Any], legal_desc: dict[str, Any]) -> Any:
        time.sleep(sleep_s)
        return decide(view, legal_desc)

    return sleep_then_decide


def play_subprocess_games(lineup: Lineup, title: str, players: int, seeds: range) -> Spent:
    """Time per decision over games played by an already started lineup (the CPU time is the
    referee's: the bots' is theirs)."""
    game = get_game(title)
    decisions = 0
    clock = Stopwatch()
    for seed in seeds:
        seated = lineup.seated(rotation(players, seed), f"g{seed}")
        decisions += len(play_game(game, seated, seed=seed, options={}).decisions)
    return clock.spent().per(decisions)


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


def bench_echo(traffic: list[tuple[int, bytes]], processes: int) -> Spent:
    """Time per bare round trip: write a seat's chunk to its echo process, read the answer
    line (blocking pipes). Seat s talks to process s mod processes, the way a real table
    alternates between its bots' processes. The CPU time is this side's, as the referee's is
    in play_subprocess_games."""
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
    clock = Stopwatch()
    for index in range(len(traffic)):
        round_trip(index)
    spent = clock.spent()
    for proc in procs:
        assert proc.stdin
        proc.stdin.close()
        proc.wait()
    return spent.per(len(traffic))


def bench_table(title: str, players: int, sizes: Sizes) -> None:
    """Print the referee's three figures for one table."""
    n = games_for(title, players, sizes.inprocess_decisions)
    m = games_for(title, players, sizes.subprocess_decisions)
    engine: list[Spent] = []
    inprocess: list[Spent] = []
    asleep: list[Spent] = []
    decisions: list[float] = []
    for round_ in range(sizes.rounds):  # alternating, so drift hits both alike
        seeds = range(round_ * n, (round_ + 1) * n)
        engine_spent, per_game = bench_engine(title, players, seeds)
        engine.append(engine_spent)
        decisions.append(per_game)
        inprocess.append(bench_inprocess(title, players, seeds))
        asleep.append(bench_inprocess(title, players, seeds, WAKE_SLEEP_S))
    per_game = statistics.median(decisions)
    asleep_cpu = statistics.median(a.cpu for a in asleep) / per_game
    inprocess_per_decision = Spent(
        statistics.median(i.wall for i in inprocess) / per_game,
        statistics.median(i.cpu for i in inprocess) / per_game,
    )

    traffic = seat_traffic(title, players, 5)
    subprocess_runs: list[Spent] = []
    echo_runs: list[Spent] = []
    lineup, _ = start_lineup(players, sandbox=True)
    with lineup:
        for round_ in range(sizes.rounds):
            subprocess_runs.append(
                play_subprocess_games(lineup, title, players, range(round_ * m, (round_ + 1) * m))
            )
            echo_runs.append(bench_echo(traffic, players))

    def floor_ratios(clock: str) -> list[float]:
        """Each run's subprocess time over its own echo time plus the in-process referee."""
        base = getattr(inprocess_per_decision, clock)
        return [
            getattr(s, clock) / (getattr(e, clock) + base)
            for s, e in zip(subprocess_runs, echo_runs)
        ]

    def median_us(runs: list[Spent], clock: str) -> float:
        return statistics.median(getattr(r, clock) for r in runs) * 1e6

    print(f"{title}, {players} players, random bots")
    in_ratio = statistics.median(i.wall / e.wall for i, e in zip(inprocess, engine))
    in_cpu_ratio = statistics.median(i.cpu / e.cpu for i, e in zip(inprocess, engine))
    note(
        "game engine alone",
        f"{statistics.median(e.wall for e in engine) * 1e3:.2f} ms/game, "
        f"{per_game:.0f} decisions/game",
    )
    figure(
        "referee, in-process bots",
        f"{in_ratio:.2f}× the engine",
        "≤ 2× the engine",
        in_ratio <= 2,
    )
    note("", f"(in CPU time: {in_cpu_ratio:.2f}× the engine; median of {sizes.rounds} runs)")
    sub_ratio = statistics.median(floor_ratios("wall"))
    figure(
        "referee, subprocess bots",
        f"{sub_ratio:.2f}× its floor",
        "≤ 1.2× the floor",
        sub_ratio <= 1.2,
    )
    note(
        "",
        f"({median_us(subprocess_runs, 'wall'):.0f} µs/decision; floor = echo round trip "
        f"{median_us(echo_runs, 'wall'):.0f} µs + in-process referee "
        f"{inprocess_per_decision.wall * 1e6:.0f} µs; median of {sizes.rounds} runs)",
    )
    note(
        "",
        f"(in the referee's CPU time: {statistics.median(floor_ratios('cpu')):.2f}× its floor, "
        f"{median_us(subprocess_runs, 'cpu'):.0f} µs/decision against the echo driver's "
        f"{median_us(echo_runs, 'cpu'):.0f} µs + in-process referee "
        f"{inprocess_per_decision.cpu * 1e6:.0f} µs)",
    )
    waking = statistics.median(
        s.wall / (e.wall + asleep_cpu) for s, e in zip(subprocess_runs, echo_runs)
    )
    note(
        "",
        f"(waking: the in-process referee uses {asleep_cpu * 1e6:.0f} µs of CPU a decision "
        f"when it sleeps {WAKE_SLEEP_S * 1e6:.0f} µs before each, as it waits on a bot process, "
        f"against {inprocess_per_decision.cpu * 1e6:.0f} µs awake; with that in the floor: "
        f"{waking:.2f}×, a little flattered: that CPU also holds the sleep's own system call and"
        " a wake-up the echo already pays)",
    )
    plain = statistics.mean(len(chunk) for _, chunk in traffic)
    negotiated = statistics.mean(
        len(chunk) for _, chunk in seat_traffic(title, players, 5, frozenset(features.WIRE))
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
                spent = play_subprocess_games(lineup, title, players, seeds)
                per_decision[sandbox].append(spent.wall)
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
