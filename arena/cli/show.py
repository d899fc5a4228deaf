"""`arena show`: a recorded game, replayed from the table's view or one seat's."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from arena.cli.common import (
    DEFAULT_DB,
    EXIT_USAGE,
    DbOption,
    console,
    fail,
    open_db,
    store_fail,
)
from arena.cli.replay_html import (
    HtmlOption,
    OpenOption,
    open_in_browser,
    temporary_page,
    write_replay,
)
from arena.faults import Fault
from arena.printable import cell, shown, visible
from arena.record import GameRecord, GameStatus
from arena.replay import ReplayError, describer, replay, seat_events


def show(
    game_id: Annotated[
        str, typer.Argument(metavar="GAME_ID", help="A game id, or its first characters.")
    ],
    seat: Annotated[
        int | None,
        typer.Option(
            "--seat", "-s", metavar="N", help="Show exactly what this seat (0-based) was told."
        ),
    ] = None,
    db: DbOption = Path(DEFAULT_DB),
    html: HtmlOption = None,
    open_page: OpenOption = False,
) -> None:
    """Replay a recorded game: every decision and event, from the table or as one seat saw it.

    With --html or --open, the replay is a web page to step through instead: the table drawn
    at each decision, and the view of the table or of any seat (with --seat, of that seat
    alone: the page holds nothing else).

    Example: arena show 3f2a9c --seat 2 --open
    """
    from arena.store import StoreError  # sqlite-utils: imported by the commands that use it

    try:
        with open_db(db, create=False) as store:
            record = store.load_game(game_id)
    except StoreError as exc:
        store_fail(exc)
    if seat is not None and not 0 <= seat < record.players:
        fail(f"this game has seats 0 to {record.players - 1}", EXIT_USAGE)
    try:
        describe = describer(record)
    except ReplayError as exc:
        fail(f"the game does not replay on this version of arena: {exc}")
    out = console()
    if html is not None or open_page:
        page = write_replay(record, html or temporary_page(), seat)
        out.print(f"Replay page written to {shown(page)}")
        if open_page:
            open_in_browser(page)
        return
    out.print(header(record, seat))
    try:
        for number, step in enumerate(replay(record)):
            decision = step.decision
            if decision is not None and (seat is None or decision.seat == seat):
                who = "referee for " if decision.by_referee else ""
                out.print(
                    f"[dim]#{number:<4}[/] [bold]{who}seat {decision.seat}[/] "
                    f"{shown(step.kind)}: {shown(json.dumps(decision.action))}"
                    + (f" [dim]({decision.ms:.1f} ms)[/]" if decision.ms else "")
                )
            for body in seat_events(step, seat):
                # an event may quote a bot (an Intrigue promise): never markup, never raw
                out.print(f"       {visible(describe(body))}", markup=False)
    except ReplayError as exc:
        fail(f"the game does not replay on this version of arena: {exc}")
    out.print(results_table(record))


def header(record: GameRecord, seat: int | None) -> str:
    variants = ", ".join(record.options.get("variants", [])) or "standard rules"
    side = (
        "the table's view (everything)"
        if seat is None
        else f"seat {seat}'s view (exactly what it was sent)"
    )
    return (
        f"[bold]{shown(record.title)}[/] game {shown(record.game_id)} · seed {record.seed} · "
        f"{shown(variants)} · {shown(record.status)} · {side}"
    )


def results_table(record: GameRecord) -> Table:
    table = Table(
        title="Result"
        if record.status == GameStatus.COMPLETE
        else cell(f"Aborted: {record.termination}")
    )
    for column in ("seat", "bot", "rank", "score", "decisions", "time (ms)", "fault"):
        table.add_column(column, justify="left" if column in ("bot", "fault") else "right")
    for s in record.seats:
        fault = s.fault if s.fault == Fault.OK else f"{s.fault}: {s.fault_reason}"
        table.add_row(
            str(s.seat),
            cell(s.bot.label),
            str(s.rank),
            f"{s.score:,.0f}",
            str(s.decisions),
            f"{s.time_ms:.0f}",
            cell(fault),
        )
    return table
