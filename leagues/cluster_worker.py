"""What runs on a Dask worker: a plugin holding one league's plan and bot folders, and the
task that plays one game with it.

The plugin reaches every worker, including one that joins later (the scheduler keeps it and
hands it to each new worker). On a worker's first game it unpacks and verifies the bots and
checks that they can be sandboxed; then each of the worker's threads keeps its own lineup of
bot processes alive across games, as a worker of the local pool does. One lineup per thread
also keeps every bot the child of the thread that started it, which its parent-death signal
is tied to. Removing the plugin (end of the run, Ctrl-C, a new run of the same league) or
stopping the worker stops every bot.
"""

from __future__ import annotations

import dataclasses
import sys
import threading
import time
from pathlib import Path
from typing import Any

from distributed import Reschedule, WorkerPlugin, get_worker
from tornado.ioloop import PeriodicCallback

import arena
from arena.code_digest import code_digest
from arena.containment.readiness import require
from arena.record import GameRecord
from leagues.bundles import BotBundle, unpack
from leagues.execution import GamePlan, TaskPlayer
from leagues.tasks import GameTask

IDLE_S = 60.0
"""A thread's bots are stopped after this long without a game (started again when needed)."""


def code_identity() -> str:
    """Which arena this process runs: its version and a digest of its code (arena, protocol,
    leagues). A head and its workers must agree: they exchange records and plans as pickles,
    and a game must be played by the same rules on every worker."""
    return f"arena {arena.__version__} (code {code_digest('arena', 'protocol', 'leagues')})"


class LeaguePlugin(WorkerPlugin):
    """One league's plan and bot folders, installed on every worker of the cluster."""

    def __init__(self, name: str, plan: GamePlan, bundles: dict[str, BotBundle]) -> None:
        self.name = name
        self.plan = plan
        self.bundles = bundles
        """By digest: entrants that are copies of one bot share its folder."""
        self.head_python = sys.executable
        """How the head spelled {python} in the bots' commands; each worker uses its own."""
        self.head_code = code_identity()
        """The head's arena: a worker running another refuses to play (it may join late,
        after the head checked the workers it found)."""

    def setup(self, worker: Any) -> None:
        self.directory = Path(worker.local_directory) / "arena"
        self.lock = threading.Lock()
        self.local_plan: GamePlan | None = None
        self.players: dict[int, TaskPlayer] = {}
        """By thread: each plays its games with its own bot processes."""
        self.busy: set[int] = set()
        self.last_game: dict[int, float] = {}
        self.closed = False
        self.refusal: str | None = None
        if code_identity() != self.head_code:
            self.refusal = (
                f"this worker runs {code_identity()}, the league's head {self.head_code}: "
                "install the same arena on the head and every worker"
            )
        self.reaper = PeriodicCallback(self._reap_on_schedule, IDLE_S * 1000 / 4)
        self.reaper.start()

    def teardown(self, worker: Any) -> None:
        self.reaper.stop()
        with self.lock:
            self.closed = True
            players, self.players = list(self.players.values()), {}
        _stop(players)

    def player(self) -> TaskPlayer:
        """This thread's player, started on its first game; call done() after the game."""
        with self.lock:
            if self.closed:
                raise Reschedule()  # removed since the task began: play it elsewhere
            if self.refusal is not None:
                raise RuntimeError(self.refusal)
            if self.local_plan is None:
                self.local_plan = self._localise()
            thread = threading.get_ident()
            if thread not in self.players:
                self.players[thread] = TaskPlayer(self.local_plan)
            self.busy.add(thread)
            return self.players[thread]

    def done(self) -> None:
        """This thread's game is over."""
        with self.lock:
            thread = threading.get_ident()
            self.busy.discard(thread)
            self.last_game[thread] = time.monotonic()

    def _reap_on_schedule(self) -> None:
        self.reap_idle()

    def reap_idle(self, now: float | None = None) -> int:
        """Stop the bots of every thread that has played no game for IDLE_S; how many."""
        now = time.monotonic() if now is None else now
        with self.lock:
            idle = [
                thread
                for thread in self.players
                if thread not in self.busy and now - self.last_game.get(thread, now) >= IDLE_S
            ]
            players = [self.players.pop(thread) for thread in idle]
        _stop(players)
        return len(players)

    def _localise(self) -> GamePlan:
        """The plan as this worker runs it: its verified copies of the bots, its Python, its
        log folder. Refuses (raises) when bots cannot be sandboxed here and the league says
        they must be, as the local runner does."""
        require(unsandboxed=not self.plan.limits.sandbox)
        copies = {
            digest: unpack(bundle, self.directory / "staging")
            for digest, bundle in self.bundles.items()
        }
        manifests = []
        for manifest in self.plan.manifests:
            copy = copies[manifest.digest]
            command = tuple(
                sys.executable if part == self.head_python else part for part in manifest.command
            )
            manifests.append(dataclasses.replace(manifest, snapshot=copy, command=command))
        log_dir = None if self.plan.log_dir is None else self.directory / "bot-logs"
        return dataclasses.replace(self.plan, manifests=tuple(manifests), log_dir=log_dir)


def play(plugin_name: str, task: GameTask) -> GameRecord:
    """The cluster task: play one game on this worker with the league's plugin. A bot's fault
    is part of the record it returns; an exception here is the worker's, never the bot's."""
    plugin = get_worker().plugins.get(plugin_name)
    if not isinstance(plugin, LeaguePlugin):
        raise RuntimeError(
            f"this worker has no {plugin_name}: it was removed by another run of the same "
            "league on this cluster (run one head per league at a time)"
        )
    player = plugin.player()
    try:
        record = player.play(task)
    except Exception:
        if not plugin.closed:
            raise
        record = None  # its bots were stopped under it: see below
    finally:
        plugin.done()
    if plugin.closed:
        # Its bots were stopped under it (the worker is closing, the run was replaced): the
        # faults in this record are not the bots' doing, so it is no result. Play it again.
        # And stop them again: when the plugin closed before this game seated its bots, the
        # game started them afresh, and teardown, which no longer knows this player, would
        # leave them running after the run was stopped.
        _stop([player])
        raise Reschedule()
    assert record is not None
    return record


def _stop(players: list[TaskPlayer]) -> None:
    for player in players:
        player.kill()  # a game still running in a thread ends at once, its seats faulted
        player.close()
