"""Reruns: a recorded game played again by the same bots, to check it comes out the same.

Not a replay (arena.replay, behind `arena show`), which re-applies the recorded decisions
without any bot. A rerun asks the bots again: the same deal seed, options, seating, game id
and, per seat, the very seed that seat was sent (the record keeps them all, so no secret key
is needed), under the recorded clock and fault policy. Deterministic bots must then make the
same decisions; the first difference says where one (or the game code) is not reproducible.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from arena.conditions import FaultPolicy, TimeControl
from arena.containment.limits import DEFAULT_LIMITS, Limits
from arena.lineup import Lineup
from arena.manifest import BotManifest
from arena.record import DecisionRecord, GameRecord
from arena.referee import play_game
from arena.replay import recorded_game


@dataclass(frozen=True)
class Conditions:
    """The clock and fault policy a rerun plays under: the recorded ones."""

    time_control: TimeControl
    fault_policy: FaultPolicy
    assumed: tuple[str, ...] = ()
    """What the record did not keep (a game recorded before arena kept it), and so is
    arena play's default here: "the clock", "the fault policy"."""


def recorded_conditions(record: GameRecord) -> Conditions:
    """The conditions ``record``'s game was played under, as far as the record kept them."""
    assumed = []
    if record.time_control is None:
        assumed.append("the clock")
    if record.fault_policy is None:
        assumed.append("the fault policy")
    return Conditions(
        time_control=record.time_control or TimeControl(),
        fault_policy=record.fault_policy or FaultPolicy.SUBSTITUTE,
        assumed=tuple(assumed),
    )


def rerun_game(
    record: GameRecord,
    bots: Sequence[BotManifest],
    *,
    limits: Limits = DEFAULT_LIMITS,
    log_dir: Path | None = None,
) -> GameRecord:
    """Play ``record``'s game again with ``bots`` (one per seat, in seat order), under its
    recorded conditions, and return the new record (nothing is stored). Raises ReplayError
    for a title this arena does not know, BadOptions for seats or options its game refuses."""
    seats = sorted(record.seats, key=lambda s: s.seat)
    if len(bots) != len(seats):
        raise ValueError(f"{len(bots)} bots for a game of {len(seats)} seats")
    conditions = recorded_conditions(record)
    clock = conditions.time_control
    with Lineup(bots, time_control=clock, log_dir=log_dir, limits=limits) as lineup:
        return play_game(
            recorded_game(record),
            lineup.seated(range(len(bots)), record.game_id),
            seed=record.seed,
            options=record.options,
            time_control=clock,
            fault_policy=conditions.fault_policy,
            game_id=record.game_id,
            bot_seeds=[seat.bot_seed for seat in seats],
        )


def first_divergence(recorded: GameRecord, again: GameRecord) -> str | None:
    """Where the rerun first differs from the record, in words (None: identical decisions and
    result). Decision times are not compared: they never repeat."""
    for number, (was, now) in enumerate(zip(recorded.decisions, again.decisions), start=1):
        if _decision(was) != _decision(now):
            return f"decision {number}: recorded {_describe(was)}; rerun {_describe(now)}"
    if len(recorded.decisions) != len(again.decisions):
        return (
            f"the recorded game has {len(recorded.decisions)} decisions, the rerun "
            f"{len(again.decisions)} (the first {min(len(recorded.decisions), len(again.decisions))} "
            "are identical)"
        )
    if (recorded.status, recorded.termination) != (again.status, again.termination):
        return (
            f"the game ended differently: recorded {recorded.status} ({recorded.termination}); "
            f"rerun {again.status} ({again.termination})"
        )
    by_seat = zip(
        sorted(recorded.seats, key=lambda s: s.seat), sorted(again.seats, key=lambda s: s.seat)
    )
    for seat, rerun_seat in by_seat:
        if (seat.rank, seat.score, seat.fault) != (
            rerun_seat.rank,
            rerun_seat.score,
            rerun_seat.fault,
        ):
            return (
                f"seat {seat.seat}'s result: recorded rank {seat.rank}, score {seat.score:g}, "
                f"fault {seat.fault}; rerun rank {rerun_seat.rank}, score "
                f"{rerun_seat.score:g}, fault {rerun_seat.fault}"
            )
    return None


def _decision(decision: DecisionRecord) -> tuple[int, str, bool]:
    return decision.seat, json.dumps(decision.action, sort_keys=True), decision.by_referee


def _describe(decision: DecisionRecord) -> str:
    who = "the referee for seat" if decision.by_referee else "seat"
    return f"{who} {decision.seat} played {json.dumps(decision.action)}"
