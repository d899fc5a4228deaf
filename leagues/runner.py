"""`arena league run`: play a league's schedule, resuming where an earlier run stopped.

The process that runs this is the single writer: workers hand finished records back and it
stores each one at once, in one transaction with its place in the league, so a run stopped
by Ctrl-C (or anything else) loses at most the games in progress, and a rerun plays exactly
the games not yet stored.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from arena.faults import Fault
from arena.manifest import load_bot
from arena.record import GameRecord
from arena.seeds import derive_deal_key
from arena.store import Store
from leagues.execution import Executor, GamePlan, make_executor
from leagues.schedule import build_schedule, schedule_fingerprint
from leagues.spec import LeagueSpec
from leagues.store import LeagueStore
from leagues.strikes import StrikeBook
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
    struck_out: list[str] = field(default_factory=list)
    """Why each entrant disqualified during this run was struck out."""
    skipped: int = 0
    """Games never to be played: they seat a disqualified entrant."""

    @property
    def remaining(self) -> int:
        return self.scheduled - self.already_done - self.played - self.skipped


@dataclass(frozen=True)
class PreparedLeague:
    """A league ready to run: its schedule, its record in the database, what is left."""

    spec: LeagueSpec
    league_id: int
    tasks: list[GameTask]
    pending: list[GameTask]
    """Not yet played, and playable (no disqualified entrant)."""
    plan: GamePlan
    strikes: StrikeBook
    """Games and faults per entrant so far, and who is out."""
    skipped: int = 0
    """Unplayed games that seat an entrant disqualified earlier."""


def prepare_league(
    spec: LeagueSpec, store: Store, *, log_dir: Path | None, secret: bytes | None = None
) -> PreparedLeague:
    """Schedule the league, register it (refusing an edited schedule) and find what is left.

    secret: what deals and bots' seeds are derived from (arena.seeds.secret_from_seed_key);
    default: the database's own. The deals decide the schedule, so a league must be resumed
    with the secret it was started with."""
    secret = secret if secret is not None else store.bot_seed_key()
    tasks = build_schedule(spec, derive_deal_key(secret))
    fingerprint = schedule_fingerprint(spec, tasks)
    leagues = LeagueStore(store)
    league = leagues.register(
        name=spec.name,
        title=spec.game,
        fingerprint=fingerprint,
        games=len(tasks),
        path=str(spec.path),
    )
    done = leagues.done(league.id)
    plan = GamePlan(
        title=spec.game,
        manifests=tuple(load_bot(entrant.path) for entrant in spec.entrants),
        options=spec.options,
        time_control=spec.time,
        fault_policy=spec.fault_policy,
        bot_seed_key=secret,
        game_id_prefix=f"{fingerprint}",
        log_dir=log_dir,
        limits=spec.limits,
    )
    strikes = StrikeBook(spec.disqualify_above, spec.strike_after)
    strikes.out.update(leagues.disqualified(league.id))
    faults_by_task: dict[int, list[tuple[int, Fault]]] = {}
    for task_index, seat, fault in leagues.seat_faults(league.id):
        faults_by_task.setdefault(task_index, []).append((seat, fault))
    for task_index, seat_faults in faults_by_task.items():
        strikes.count(tasks[task_index], seat_faults)
    unplayed = [task for task in tasks if task.index not in done]
    pending = [task for task in unplayed if strikes.playable(task)]
    return PreparedLeague(
        spec, league.id, tasks, pending, plan, strikes, skipped=len(unplayed) - len(pending)
    )


def run_league(
    prepared: PreparedLeague,
    store: Store,
    *,
    workers: int,
    on_record: Callable[[GameTask, GameRecord], None] | None = None,
    executor: Executor | None = None,
) -> RunSummary:
    """Play the pending games, storing each as it finishes. Ctrl-C stops the run cleanly:
    finished games are kept, the games in progress are abandoned (a rerun plays them).

    executor: where the games are played (e.g. a leagues.cluster.DaskExecutor); default: in
    this process, or a local pool of `workers` processes."""
    done = len(prepared.tasks) - len(prepared.pending) - prepared.skipped
    summary = RunSummary(scheduled=len(prepared.tasks), already_done=done)
    strikes = prepared.strikes
    leagues = LeagueStore(store)
    started = time.monotonic()
    executor = executor or make_executor(prepared.plan, workers)
    # Filtered as tasks are handed out, so a strike takes effect for every game not yet begun.
    results = executor.run(task for task in prepared.pending if strikes.playable(task))
    try:
        for task, record in results:
            leagues.save_game(record, prepared.league_id, task.index)
            summary.played += 1
            summary.faults += sum(seat.fault != Fault.OK for seat in record.seats)
            for entrant in strikes.add(task, record):
                label = prepared.spec.entrants[entrant].label
                games, faults = strikes.games[entrant], strikes.faults[entrant]
                leagues.disqualify(
                    prepared.league_id, entrant=entrant, label=label, games=games, faults=faults
                )
                strikes.out[entrant] = f"{label} faulted in {faults} of {games} games"
                summary.struck_out.append(strikes.out[entrant])
            if on_record is not None:
                on_record(task, record)
    except KeyboardInterrupt:
        summary.interrupted = True
    finally:
        results.close()  # stops the workers and their bots, whatever happened
        summary.elapsed_s = time.monotonic() - started
    if summary.interrupted:
        # Ctrl-C can land between a game's COMMIT and the count above: count what is stored.
        summary.played = len(leagues.done(prepared.league_id)) - done
    summary.skipped = prepared.skipped + sum(
        1
        for task in prepared.pending
        if not strikes.playable(task) and not _stored(store, prepared, task)
    )
    return summary


def _stored(store: Store, prepared: PreparedLeague, task: GameTask) -> bool:
    return store.has_game(prepared.plan.game_id(task))
