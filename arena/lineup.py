"""The bots of a match: one process per entry, kept alive across games.

A process pays its start-up and handshake once and then plays game after game (DESIGN.md).
One that faulted, or died, is started afresh before its next game; one that cannot start
sits that game out as a faulted seat (the referee plays default actions for it).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import arena
from arena.botprocess import BotProcess
from arena.containment.limits import DEFAULT_LIMITS, Limits
from arena.faults import BotError
from arena.manifest import BotManifest
from arena.referee import SeatedBot, TimeControl


class Lineup:
    """Bot processes for a sequence of games (use as a context manager to stop them all)."""

    def __init__(
        self,
        manifests: Sequence[BotManifest],
        *,
        time_control: TimeControl = TimeControl(),
        log_dir: Path | None = None,
        limits: Limits = DEFAULT_LIMITS,
    ) -> None:
        self.manifests = list(manifests)
        self.time_control = time_control
        self.log_dir = log_dir
        self.processes = [
            BotProcess(m, log_dir=log_dir, arena_version=arena.__version__, limits=limits)
            for m in self.manifests
        ]
        self.starts = [0] * len(self.processes)
        """How many times each entry's process was started (1 = never restarted)."""

    def __enter__(self) -> Lineup:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def seated(self, order: Sequence[int], game_id: str) -> list[SeatedBot]:
        """Seat i gets entry order[i]; each process is (re)started if needed, logs routed."""
        seated: list[SeatedBot] = []
        for seat, index in enumerate(order):
            process = self.processes[index]
            manifest = self.manifests[index]
            error = self.ensure_running(index)
            if self.log_dir is not None:
                # named by ids only: a bot's name is its author's choice, never a path
                process.set_log(self.log_dir / game_id / f"seat{seat}.log")
            seated.append(SeatedBot(manifest.identity, None if error else process, error))
        return seated

    def ensure_running(self, index: int) -> BotError | None:
        """Start entry index if it is not running; the error if it cannot start."""
        process = self.processes[index]
        if process.alive:
            return None
        process.stop()
        self.starts[index] += 1
        try:
            process.start(self.time_control.startup_s)
        except BotError as error:
            process.stop()
            return error
        return None

    def close(self) -> None:
        """Say bye to every bot and stop it (its whole process group)."""
        for process in self.processes:
            process.stop(grace_s=0.5)

    def kill(self) -> None:
        """Kill every bot at once, with everything it started (no goodbyes, no waiting)."""
        for process in self.processes:
            process.kill()


def rotation(entries: int, game_index: int) -> list[int]:
    """Seating for game game_index: seat i gets entry (i + game_index) mod entries, so over
    a multiple of `entries` games every entry sits in every seat equally often."""
    return [(seat + game_index) % entries for seat in range(entries)]
