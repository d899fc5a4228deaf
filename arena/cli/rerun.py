"""`arena rerun`: play a recorded game again with the same bots and check it comes out the same."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from arena.cli.common import (
    DEFAULT_DB,
    EXIT_FAILED,
    EXIT_USAGE,
    DbOption,
    UnsandboxedOption,
    console,
    contain_bots,
    fail,
    open_db,
    resolve_bots,
    store_fail,
)
from arena.containment.limits import Limits
from arena.games.base import BadOptions
from arena.manifest import BotManifest
from arena.printable import shown
from arena.record import GameRecord
from arena.replay import ReplayError, recorded_game


def rerun(
    game_id: Annotated[
        str, typer.Argument(metavar="GAME_ID", help="A game id, or its first characters.")
    ],
    bot: Annotated[
        list[Path] | None,
        typer.Option(
            "--bot",
            "-b",
            metavar="DIR",
            help="The bot of each seat, in seat order (default: where the database first saw "
            "each one). Each must be the very version that played: its files are checked.",
        ),
    ] = None,
    db: DbOption = Path(DEFAULT_DB),
    unsandboxed: UnsandboxedOption = False,
) -> None:
    """Play a recorded game again with the same bots, deal, seating and bots' seeds, and check
    that every decision and the result are identical; otherwise say where it first differs.
    Records nothing. Exit codes: 0 identical, 1 different. The game is played under its
    recorded clock and fault policy (a game recorded before arena kept them gets arena play's
    defaults, and the output says so).

    Example: arena rerun 3f2a9c --db arena.db
    """
    # the referee, bot processes and sqlite-utils: imported by the commands that use them
    from arena.rerun import first_divergence, recorded_conditions, rerun_game
    from arena.store import StoreError

    try:
        with open_db(db, create=False) as store:
            record = store.load_game(game_id)
    except StoreError as exc:
        store_fail(exc)
    try:
        recorded_game(record)
    except ReplayError as exc:
        fail(f"the game cannot be rerun on this version of arena: {exc}")
    bots = _the_bots_that_played(record, bot)
    out = console()
    sandbox = contain_bots(unsandboxed, out)
    out.print(
        f"rerunning {shown(record.title)} game {shown(record.game_id)} · {record.players} seats · "
        f"{len(record.decisions)} recorded decisions"
    )
    conditions = recorded_conditions(record)
    clock = ", ".join(f"{key} {value:g}" for key, value in conditions.time_control.in_ms().items())
    out.print(f"under the clock {clock} · fault policy {conditions.fault_policy}")
    if conditions.assumed:
        out.print(
            f"[yellow]note:[/] the record does not keep {' or '.join(conditions.assumed)} (an "
            "older arena recorded the game): the rerun uses arena play's defaults, so a game "
            "played under others may differ"
        )
    try:
        again = rerun_game(record, bots, limits=Limits(sandbox=sandbox))
    except BadOptions as exc:
        fail(
            "the game cannot be rerun on this version of arena: the recorded seats and options "
            f"do not start a game: {exc}"
        )
    divergence = first_divergence(record, again)
    if divergence is not None:
        out.print(f"[bold red]different:[/] {shown(divergence)}")
        raise typer.Exit(EXIT_FAILED)
    out.print(
        f"[bold green]identical:[/] {len(again.decisions)} decisions and the result "
        f"({shown(again.status)})"
    )


def _the_bots_that_played(record: GameRecord, given: list[Path] | None) -> list[BotManifest]:
    """The recorded version of each seat's bot, from --bot or the recorded paths; exits saying
    what to do when one is missing or has changed."""
    seats = sorted(record.seats, key=lambda s: s.seat)
    if given and len(given) != len(seats):
        fail(
            f"this game has {len(seats)} seats: give --bot once per seat, in seat order "
            f"(you gave {len(given)}), or none to use the recorded paths",
            EXIT_USAGE,
        )
    paths = given or [Path(seat.bot.path) for seat in seats]
    bots = resolve_bots(paths)
    for seat, path, manifest in zip(seats, paths, bots):
        if manifest.digest != seat.bot.digest:
            fail(
                f"seat {seat.seat}: {path} is not the {seat.bot.label} that played (its files "
                f"differ from the recorded ones, digest {seat.bot.digest[:12]}); pass --bot "
                "once per seat with the directories of the versions that played",
                EXIT_USAGE,
            )
    return bots
