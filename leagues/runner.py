"""`arena league run`: play a league's schedule, resuming where an earlier run stopped.

The process that runs this is the single writer: workers hand finished records back and it
stores each one at once, in one transaction with its place in the league, so a run stopped
by Ctrl-C (or anything else) loses at most the games in progress, and a rerun plays exactly
the games not yet stored.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from arena.manifest import load_bot
from arena.record import GameRecord
from arena.store import Store
from leagues.execution import GamePlan, make_executor
from leagues.schedule import build_schedule, schedule_fingerprint
from leagues.spec import LeagueSpec
from leagues.tasks import GameTask


@dataclass
class RunSummary:
    """What one run of a league did."""

    scheduled: int
    """Games in the whole schedule."""
    already_done: int
    """Games stored by earlier runs (skipped)."""
    played: int = 0
    """Games played and stored by this run."""
    faults: int = 0
    """Seats that faulted in this run's games."""
    interrupted: bool = False
    elapsed_s: float = 0.0

    @property
    def remaining(self) -> int:
        return self.scheduled - self.already_done - self.played


@dataclass(frozen=True)
class PreparedLeague:
    """A league ready to run: its schedule, its record in the database, what is left."""

    spec: LeagueSpec
    league_id: int
    tasks: list[GameTask]
    pending: list[GameTask]
    plan: GamePlan


def prepare_league(spec: LeagueSpec, store: Store, *, log_dir: Path | None) -> PreparedLeague:
    """Schedule the league, register it (refusing an edited schedule) and find what is left."""
    tasks = build_schedule(spec)
    fingerprint = schedule_fingerprint(spec, tasks)
    league = store.register_league(
        name=spec.name,
        title=spec.game,
        fingerprint=fingerprint,
        games=len(tasks),
        path=str(spec.path),
    )
    done = store.league_done(league.id)
    plan = GamePlan(
        title=spec.game,
        entrants=tuple(load_bot(entrant.path) for entrant in spec.entrants),
        options=spec.options,
        time_control=spec.time,
        fault_policy=spec.fault_policy,
        bot_seed_key=store.bot_seed_key(),
        game_id_prefix=f"{fingerprint}",
        log_dir=log_dir,
    )
    pending = [task for task in tasks if task.index not in done]
    return PreparedLeague(spec, league.id, tasks, pending, plan)


def run_league(
    prepared: PreparedLeague,
    store: Store,
    *,
    workers: int,
    on_record: Callable[[GameTask, GameRecord], None] | None = None,
) -> RunSummary:
    """Play the pending games, storing each as it finishes. Ctrl-C stops the run cleanly:
    finished games are kept, the games in progress are abandoned (a rerun plays them)."""
    summary = RunSummary(
        scheduled=len(prepared.tasks), already_done=len(prepared.tasks) - len(prepared.pending)
    )
    started = time.monotonic()
    executor = make_executor(prepared.plan, workers)
    results = executor.run(prepared.pending)
    try:
        for task, record in results:
            store.save_game(record, (prepared.league_id, task.index))
            summary.played += 1
            summary.faults += sum(seat.fault != "ok" for seat in record.seats)
            if on_record is not None:
                on_record(task, record)
    except KeyboardInterrupt:
        summary.interrupted = True
    finally:
        results.close()  # stops the workers and their bots, whatever happened
        summary.elapsed_s = time.monotonic() - started
    return summary
