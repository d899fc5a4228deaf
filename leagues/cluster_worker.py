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
from pathlib import Path
from typing import Any

from distributed import WorkerPlugin, get_worker

from arena.containment.readiness import require
from arena.record import GameRecord
from leagues.bundles import BotBundle, unpack
from leagues.execution import GamePlan, TaskPlayer
from leagues.tasks import GameTask


class LeaguePlugin(WorkerPlugin):
    """One league's plan and bot folders, installed on every worker of the cluster."""

    def __init__(self, name: str, plan: GamePlan, bundles: dict[str, BotBundle]) -> None:
        self.name = name
        self.plan = plan
        self.bundles = bundles
        """By digest: entrants that are copies of one bot share its folder."""
        self.head_python = sys.executable
        """How the head spelled {python} in the bots' commands; each worker uses its own."""

    def setup(self, worker: Any) -> None:
        self.directory = Path(worker.local_directory) / "arena"
        self.lock = threading.Lock()
        self.local_plan: GamePlan | None = None
        self.players: dict[int, TaskPlayer] = {}
        self.closed = False

    def teardown(self, worker: Any) -> None:
        with self.lock:
            self.closed = True
            players, self.players = list(self.players.values()), {}
        for player in players:
            player.kill()  # a game still running in a thread ends at once, its seats faulted
            player.close()

    def player(self) -> TaskPlayer:
        """This thread's player, started on its first game."""
        with self.lock:
            if self.closed:
                raise RuntimeError("the league's run on this worker was stopped")
            if self.local_plan is None:
                self.local_plan = self._localise()
            thread = threading.get_ident()
            if thread not in self.players:
                self.players[thread] = TaskPlayer(self.local_plan)
            return self.players[thread]

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
    plugin = get_worker().plugins[plugin_name]
    assert isinstance(plugin, LeaguePlugin)
    return plugin.player().play(task)
