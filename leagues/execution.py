"""Running game tasks: in this process, or in a pool of worker processes.

The seam DESIGN.md asks for: a GameTask in, a GameRecord out. An executor knows nothing of
the database or the schedule; a distributed engine would be one more executor. Each worker
owns its bot processes and keeps them alive across games; the caller is the single writer.
"""

from __future__ import annotations

import os
import queue
import signal
import traceback
from collections.abc import Generator, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import multiprocess

from arena.containment.lifetime import die_with_parent
from arena.containment.limits import DEFAULT_LIMITS, Limits
from arena.games import get_game
from arena.lineup import Lineup
from arena.manifest import BotManifest
from arena.record import GameRecord
from arena.referee import FaultPolicy, TimeControl, play_game
from leagues.tasks import GameTask


@dataclass(frozen=True)
class GamePlan:
    """Everything a worker needs to play any task of one league (picklable)."""

    title: str
    manifests: tuple[BotManifest, ...]
    """The bots to start, one per entrant (GameTask.seating indexes into this)."""
    options: dict[str, Any]
    time_control: TimeControl
    fault_policy: FaultPolicy
    bot_seed_key: bytes
    game_id_prefix: str
    """Game ids are prefix-index, so a game is recognisable and never stored twice."""
    log_dir: Path | None = None
    limits: Limits = DEFAULT_LIMITS
    """Containment of every bot process (the league's [limits])."""

    def game_id(self, task: GameTask) -> str:
        return f"{self.game_id_prefix}-{task.index:06d}"


class WorkerFailed(RuntimeError):
    """A worker process died or raised: the message carries its traceback or exit code."""


Results = Generator[tuple[GameTask, GameRecord], None, None]
"""What run() gives: close() it to stop early (workers and their bots are stopped)."""


class Executor(Protocol):
    """Plays tasks; yields each finished (task, record) as soon as it is done, in any order."""

    def run(self, tasks: Iterable[GameTask]) -> Results: ...


class TaskPlayer:
    """Plays tasks one after another with one set of bot processes (one per entrant)."""

    def __init__(self, plan: GamePlan) -> None:
        self.plan = plan
        self.game = get_game(plan.title)
        self.lineup = Lineup(
            plan.manifests, time_control=plan.time_control, log_dir=plan.log_dir, limits=plan.limits
        )

    def play(self, task: GameTask) -> GameRecord:
        game_id = self.plan.game_id(task)
        return play_game(
            self.game,
            self.lineup.seated(task.seating, game_id),
            seed=task.seed,
            options=self.plan.options,
            time_control=self.plan.time_control,
            fault_policy=self.plan.fault_policy,
            game_id=game_id,
            bot_seed_key=self.plan.bot_seed_key,
        )

    def close(self) -> None:
        self.lineup.close()

    def kill(self) -> None:
        """Kill every bot process now, without goodbyes (safe in a signal handler)."""
        self.lineup.kill()


class InlineExecutor:
    """Plays every task in this process (one worker; simplest to debug)."""

    def __init__(self, plan: GamePlan) -> None:
        self.plan = plan

    def run(self, tasks: Iterable[GameTask]) -> Results:
        player = TaskPlayer(self.plan)
        try:
            for task in tasks:
                yield task, player.play(task)
        finally:
            player.close()


class PoolExecutor:
    """Plays tasks in `workers` processes; at most two tasks per worker are in flight, so
    memory stays flat however many tasks there are."""

    def __init__(self, plan: GamePlan, workers: int) -> None:
        self.plan = plan
        self.workers = workers

    def run(self, tasks: Iterable[GameTask]) -> Results:
        todo = iter(tasks)
        context = multiprocess.get_context("fork")
        inbox = context.Queue()
        outbox = context.Queue()
        processes = [
            context.Process(target=_work, args=(self.plan, inbox, outbox, os.getpid()), daemon=True)
            for _ in range(self.workers)
        ]
        for process in processes:
            process.start()
        in_flight: dict[int, GameTask] = {}
        try:
            for _ in range(2 * self.workers):
                if not _feed(todo, inbox, in_flight):
                    break
            while in_flight:
                try:
                    kind, index, payload = outbox.get(timeout=0.5)
                except queue.Empty:
                    dead = [p for p in processes if not p.is_alive()]
                    if dead:
                        raise WorkerFailed(
                            f"a worker process exited unexpectedly (exit code {dead[0].exitcode})"
                        ) from None
                    continue
                if kind == "error":
                    raise WorkerFailed(f"a worker failed:\n{payload}")
                task = in_flight.pop(index)
                _feed(todo, inbox, in_flight)
                yield task, payload
        finally:
            _stop(processes, inbox)


def _feed(todo: Iterator[GameTask], inbox: Any, in_flight: dict[int, GameTask]) -> bool:
    task = next(todo, None)
    if task is None:
        return False
    in_flight[task.index] = task
    inbox.put(task)
    return True


def _stop(processes: list[Any], inbox: Any) -> None:
    """Ask idle workers to finish; terminate busy ones (SIGTERM: they stop their bots)."""
    for _ in processes:
        inbox.put(None)
    for process in processes:
        process.join(timeout=0.2)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(timeout=10)
        if process.is_alive():  # pragma: no cover - a worker ignoring SIGTERM
            process.kill()
            process.join()


def _work(plan: GamePlan, inbox: Any, outbox: Any, runner: int) -> None:
    """A worker: play tasks until told to stop; its bots are stopped however it ends.

    A SIGTERM (from the pool, or the parent-death signal when the runner dies) kills the bots
    and exits at once. The handler raises nothing: an exception raised from a signal handler
    lands wherever the worker happens to be — inside logging's fork hooks, once, where it was
    swallowed and the worker carried on for ever with its bots. os._exit skips the queue's
    feeder thread too, which a worker once hung on at exit.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    player = TaskPlayer(plan)
    signal.signal(signal.SIGTERM, lambda signum, frame: _die(player, signum))
    if not die_with_parent(signal.SIGTERM, runner):
        _die(player, signal.SIGTERM)  # the runner died before we could ask to follow it
    try:
        while (task := inbox.get()) is not None:
            outbox.put(("record", task.index, player.play(task)))
    except BaseException:
        outbox.put(("error", -1, traceback.format_exc()))
    finally:
        player.close()


def _die(player: TaskPlayer, signum: int) -> None:
    """Kill every bot of this worker (each whole cgroup) and exit now."""
    player.kill()
    os._exit(128 + signum)


def make_executor(plan: GamePlan, workers: int) -> Executor:
    """One worker plays inline; more run in a process pool."""
    return InlineExecutor(plan) if workers <= 1 else PoolExecutor(plan, workers)
