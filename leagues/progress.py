"""Live progress of a league run: games done of total, games per second, ETA, faults, and the
current top of the table, redrawn in place (rich). Memory stays flat: per-bot counters only."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from rich.console import Console, Group
from rich.live import Live
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from arena.faults import Fault
from arena.printable import cell, shown
from arena.record import GameRecord
from leagues.tasks import GameTask


@dataclass
class _Tally:
    games: int = 0
    wins: int = 0
    rank_sum: int = 0
    faults: int = 0


class LeagueProgress:
    """A context manager; call update() with each finished game."""

    def __init__(
        self, console: Console, *, name: str, total: int, done: int, workers: int, top: int = 5
    ) -> None:
        self.console = console
        self.top = top
        self.faults = 0
        self.tallies: dict[str, _Tally] = defaultdict(_Tally)
        self.progress = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[workers]} workers"),
            TextColumn("{task.fields[rate]} games/s"),
            TextColumn("faults {task.fields[faults]}"),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            console=console,
        )
        # the description is formatted into markup ("[bold]{task.description}"): escape it
        self.task = self.progress.add_task(
            shown(name), total=total, completed=done, rate="-", faults=0, workers=workers
        )
        self._started_at: float | None = None
        self._played = 0
        self.live = Live(self._render(), console=console, refresh_per_second=4, transient=False)

    def __enter__(self) -> LeagueProgress:
        self.live.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.live.update(self._render())
        self.live.__exit__(None, None, None)

    def set_workers(self, workers: int) -> None:
        """The number of workers playing (a cluster's changes as workers join and leave)."""
        self.progress.update(self.task, workers=workers)
        self.live.update(self._render())

    def update(self, task: GameTask, record: GameRecord) -> None:
        now = self.progress.get_time()
        if self._started_at is None:
            self._started_at = now
        self._played += 1
        for seat in record.seats:
            tally = self.tallies[seat.bot.label]
            tally.games += 1
            tally.wins += seat.rank == 1
            tally.rank_sum += seat.rank
            tally.faults += seat.fault != Fault.OK
            self.faults += seat.fault != Fault.OK
        elapsed = max(now - self._started_at, 1e-9)
        rate = f"{self._played / elapsed:.1f}" if self._played > 1 else "-"
        self.progress.update(self.task, advance=1, rate=rate, faults=self.faults)
        self.live.update(self._render())

    def _render(self) -> Group:
        table = Table(title="top of the table so far (this run)", title_justify="left", box=None)
        for column in ("bot", "seats", "seat wins", "mean rank", "faults"):
            table.add_column(column, justify="left" if column == "bot" else "right")
        ranked = sorted(self.tallies.items(), key=lambda item: item[1].rank_sum / item[1].games)
        for label, tally in ranked[: self.top]:
            table.add_row(
                cell(label),
                str(tally.games),
                str(tally.wins),
                f"{tally.rank_sum / tally.games:.2f}",
                str(tally.faults),
            )
        return Group(self.progress, table) if self.tallies else Group(self.progress)
