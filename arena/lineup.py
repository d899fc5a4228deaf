"""The bots of a match: one process per entry, kept alive across games.

A process pays its start-up and handshake once and then plays game after game (DESIGN.md).
One that faulted, or died, is started afresh before its next game; one that cannot start
sits that game out as a faulted seat (the referee plays default actions for it).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import arena
from arena.botprocess import BotProcess, finish_starts
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
        errors = self.ensure_running(order)
        seated: list[SeatedBot] = []
        for seat, index in enumerate(order):
            process = self.processes[index]
            if self.log_dir is not None:
                # named by ids only: a bot's name is its author's choice, never a path
                process.set_log(self.log_dir / game_id / f"seat{seat}.log")
            error = errors.get(index)
            seated.append(
                SeatedBot(self.manifests[index].identity, None if error else process, error)
            )
        return seated

    def ensure_running(self, indexes: Iterable[int]) -> dict[int, BotError]:
        """Start those of the entries indexes that are not running; the errors of those that
        cannot start (each is stopped). All are launched before any handshake is awaited, so
        they start side by side; each still has its own startup time, from its own launch."""
        errors: dict[int, BotError] = {}
        launched: list[int] = []
        try:
            for index in dict.fromkeys(indexes):
                process = self.processes[index]
                if process.alive:
                    continue
                process.stop()
                self.starts[index] += 1
                launched.append(index)
                try:
                    process.launch(self.time_control.startup_s)
                except BotError as error:
                    launched.pop()
                    errors[index] = error
                    process.stop()
            outcomes = finish_starts([self.processes[index] for index in launched])
        except BaseException:
            # interrupted mid-start (Ctrl-C, a signal): none is left half-started
            for index in launched:
                self.processes[index].stop()
            raise
        for index, outcome in zip(launched, outcomes):
            if outcome is not None:
                errors[index] = outcome
                self.processes[index].stop()
        return errors

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
