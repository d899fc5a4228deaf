"""`arena regress`: a candidate against its baseline, in duplicate, until the answer is clear.

Every deal (a seed, a seat for the bot under test, and a seating of the field) is played twice:
once with the candidate in that seat, once with the baseline, everything else identical (the
field bots even get the same seeds). Each pair of games differs only in the bot, so the paired
difference of their normalized rank scores measures the candidate against the baseline with
the luck of the deal taken out. A sequential test (leagues.sequential) reads the differences
as pairs finish and stops as soon as it can answer.

Deal seeds come from arena.seeds.deal_seed under a key derived from the plan's secret, which
is drawn at random for each run unless the user gives one (--seed-key), even when --db records
the games (recording needs no key: each record keeps its seeds): no bot can predict a deal
from the base seed, and a rerun with the same --seed deals anew. Both games of a pair
share their deal seed, and the bots' seeds (arena.referee.seat_seed, keyed by the same secret).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from arena.containment.limits import DEFAULT_LIMITS, Limits
from arena.faults import Fault
from arena.games.base import Game
from arena.manifest import BotManifest
from arena.record import GameRecord
from arena.referee import FaultPolicy, TimeControl
from arena.seeds import deal_seed, derive_deal_key, random_deal_key
from leagues.execution import GamePlan, make_executor
from leagues.sequential import (
    Bounds,
    RegressResult,
    SequentialTest,
    Verdict,
    conclude,
    finish,
    paired_difference,
)
from leagues.tasks import GameTask

CANDIDATE, BASELINE = 0, 1
"""Indices into GamePlan.manifests of the two bots under comparison; the field's copies follow."""


@dataclass(frozen=True)
class RegressPlan:
    """What to compare, where, and under which bounds."""

    game: Game
    candidate: BotManifest
    baseline: BotManifest
    field_bots: tuple[BotManifest, ...]
    players: int
    max_pairs: int
    seed: int
    bounds: Bounds
    options: dict[str, Any] = field(default_factory=dict)
    time_control: TimeControl = TimeControl()
    workers: int = 1
    limits: Limits = DEFAULT_LIMITS
    """Containment of every bot process."""
    secret: bytes = field(default_factory=random_deal_key, repr=False)
    """What this run's deal seeds (via derive_deal_key) and bots' seeds are derived from. A
    fresh random key unless given: pass one to replay the same deals (tests)."""


@dataclass(frozen=True)
class PairResult:
    """One deal played by both bots."""

    pair: int
    seat: int
    """The seat the candidate and the baseline took."""
    candidate_rank: int
    baseline_rank: int
    difference: float
    """s(candidate) − s(baseline), s = (N − rank) / (N − 1)."""
    candidate_fault: Fault
    baseline_fault: Fault


@dataclass
class RegressRun:
    """The outcome: the test's result, the pairs, and what was played."""

    result: RegressResult
    pairs: list[PairResult]
    games: list[GameRecord]
    elapsed_s: float


def seat_manifests(plan: RegressPlan) -> tuple[BotManifest, ...]:
    """Candidate, baseline, then players−1 copies of each field bot (a table may seat one
    field bot several times, and each seat needs its own process)."""
    copies = plan.players - 1
    return (plan.candidate, plan.baseline) + tuple(
        bot for bot in plan.field_bots for _ in range(copies)
    )


def pair_tasks(plan: RegressPlan) -> Iterator[GameTask]:
    """Game 2k is deal k with the candidate, game 2k+1 the same deal with the baseline."""
    n, field_size, copies = plan.players, len(plan.field_bots), plan.players - 1
    deal_key = derive_deal_key(plan.secret)
    for pair in range(plan.max_pairs):
        seat = pair % n
        seating: list[int] = []
        used: dict[int, int] = {}
        for j in range(n - 1):
            bot = (pair + j) % field_size
            copy = used.get(bot, 0)
            used[bot] = copy + 1
            seating.append(2 + bot * copies + copy)
        seed = deal_seed(deal_key, plan.seed, pair)
        for tested in (CANDIDATE, BASELINE):
            full = seating[:seat] + [tested] + seating[seat:]
            yield GameTask(index=2 * pair + tested, seed=seed, seating=tuple(full), group=pair)


def run_regress(
    plan: RegressPlan,
    *,
    on_pair: Callable[[PairResult, SequentialTest], None] | None = None,
    on_record: Callable[[GameRecord], None] | None = None,
    keep_games: bool = False,
) -> RegressRun:
    """Play pairs until the sequential test decides or max_pairs are played. on_record gets
    each game as soon as it finishes (arena regress --db stores it there)."""
    game_plan = GamePlan(
        title=plan.game.title,
        manifests=seat_manifests(plan),
        options=plan.game.normalize_options(plan.options),
        time_control=plan.time_control,
        fault_policy=FaultPolicy.SUBSTITUTE,
        bot_seed_key=plan.secret,  # the same for both games of a pair
        game_id_prefix=f"regress-{os.urandom(4).hex()}",
        limits=plan.limits,
    )
    test = SequentialTest(plan.bounds)
    finished: dict[int, GameRecord] = {}
    pairs: list[PairResult] = []
    games: list[GameRecord] = []
    started = time.monotonic()
    results = make_executor(game_plan, plan.workers).run(pair_tasks(plan))
    try:
        for task, record in results:
            if on_record is not None:
                on_record(record)
            if keep_games:
                games.append(record)
            finished[task.index] = record
            # Pairs are fed to the test in deal order, whatever order workers finish them in,
            # so the same deals (the same plan.secret) stop at the same pair.
            while 2 * len(pairs) in finished and 2 * len(pairs) + 1 in finished:
                number = len(pairs)
                pair = _pair(
                    number,
                    number % plan.players,
                    finished.pop(2 * number),
                    finished.pop(2 * number + 1),
                    plan.players,
                )
                pairs.append(pair)
                test.add(pair.difference)
                if on_pair is not None:
                    on_pair(pair, test)
                if test.state().verdict is not Verdict.CONTINUE:
                    break
            if test.state().verdict is not Verdict.CONTINUE:
                break
    finally:
        results.close()
    state = test.state()
    result = conclude(state, finish(state, max_reached=True), plan.bounds)
    return RegressRun(result, pairs, games, time.monotonic() - started)


def _pair(
    number: int, seat: int, candidate: GameRecord, baseline: GameRecord, n: int
) -> PairResult:
    c, b = candidate.seats[seat], baseline.seats[seat]
    return PairResult(
        pair=number,
        seat=seat,
        candidate_rank=c.rank,
        baseline_rank=b.rank,
        difference=paired_difference(c.rank, b.rank, n),
        candidate_fault=c.fault,
        baseline_fault=b.fault,
    )
