"""`arena check`: tell a bot author exactly what their bot does wrong."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from arena.check import run_check
from arena.cli.common import (
    DEFAULT_GAME_MS,
    EXIT_FAILED,
    EXIT_USAGE,
    GameMsOption,
    UnsandboxedOption,
    bundled_bot,
    console,
    contain_bots,
    fail,
    fresh_seed,
    resolve_bots,
    resolve_game,
)
from arena.containment.limits import Limits
from arena.faults import Fault
from arena.printable import cell, shown
from arena.referee import TimeControl


def check(
    bot_dir: Annotated[Path, typer.Argument(metavar="BOT_DIR", help="The bot directory to check.")],
    game_title: Annotated[
        str, typer.Option("--game", "-g", help="The game to check it on.")
    ] = "corruption",
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Games to play.")] = 4,
    players: Annotated[
        int | None, typer.Option(help="Table size (default: the game's smallest table + 1).")
    ] = None,
    opponent: Annotated[
        Path | None,
        typer.Option(help="The bot to fill the other seats (default: the bundled random bot)."),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            help="Base seed (default: random, printed): the same seed plays the same games again "
            "(a check's seeds are derived with a public key; it records and rates nothing)."
        ),
    ] = None,
    decision_ms: Annotated[int, typer.Option(min=1, help="Time per decision, in ms.")] = 1000,
    bank_ms: Annotated[int, typer.Option(min=0, help="Time bank per game, in ms.")] = 5000,
    startup_ms: Annotated[
        int, typer.Option(min=1, help="Time to start and say hello, in ms.")
    ] = 10000,
    game_ms: GameMsOption = DEFAULT_GAME_MS,
    logs: Annotated[
        Path | None,
        typer.Option(help="Keep the bot's stderr logs here (default: a temporary folder, shown)."),
    ] = None,
    unsandboxed: UnsandboxedOption = False,
) -> None:
    """Run a bot through the handshake and a few games against random bots; report every fault.

    Exits 0 when the bot played every game without a fault, 1 otherwise.

    Example: arena check bots/corruption-greedy --game corruption --games 6
    """
    game = resolve_game(game_title)
    table_size = players or min(game.min_players + 1, game.max_players)
    if not game.min_players <= table_size <= game.max_players:
        fail(
            f"{game.title} is played by {game.min_players} to {game.max_players} players",
            EXIT_USAGE,
        )
    bot, rival = resolve_bots([bot_dir, opponent or bundled_bot("random")])
    base_seed = fresh_seed() if seed is None else seed
    log_dir = logs or Path(tempfile.mkdtemp(prefix="arena-check-"))
    out = console()
    out.print(
        f"Checking [bold]{shown(bot.name)}[/] {shown(bot.version)} ({shown(bot.directory)}) "
        f"on {game.title}: {games} game(s) at {table_size} seats, base seed {base_seed} "
        f"(--seed {base_seed} repeats these games)"
    )
    sandbox = contain_bots(unsandboxed, out)

    def show(index: int, record, seat: int) -> None:  # type: ignore[no-untyped-def]
        mine = record.seats[seat]
        verdict = (
            "[green]ok[/]"
            if mine.fault == Fault.OK
            else f"[red]{shown(mine.fault)}[/]: {shown(mine.fault_reason)}"
        )
        variants = shown(", ".join(record.options.get("variants", [])) or "standard")
        out.print(
            f"  game {index + 1} (seat {seat}, {variants}): {mine.decisions} decisions, rank {mine.rank} · {verdict}"
        )

    report = run_check(
        game,
        bot,
        rival,
        games=games,
        players=table_size,
        seed=base_seed,
        time_control=TimeControl(
            decision_ms / 1000, bank_ms / 1000, startup_ms / 1000, game_ms / 1000
        ),
        log_dir=log_dir,
        on_game=show,
        limits=Limits(sandbox=sandbox),
    )
    if report.startup_error:
        out.print(f"[red]FAIL[/] the bot did not start: {shown(report.startup_error)}")
        out.print(f"Its stderr, if any: {shown(log_dir)}")
        raise typer.Exit(EXIT_FAILED)
    out.print(
        f"Handshake ok: it calls itself {shown(repr(report.handshake_name))} "
        f"version {shown(repr(report.handshake_version))}"
    )
    out.print(f"Timing: {report.timing_summary()}")
    if report.faults:
        table = Table(title="Faults")
        for column in ("game", "fault", "what to fix"):
            table.add_column(column)
        for number, fault, reason in report.faults:
            table.add_row(str(number), cell(fault), cell(reason))
        out.print(table)
        out.print(
            f"[red]FAIL[/] {len(report.faults)} of {len(report.games)} game(s) had a fault. "
            f"Stderr logs: {shown(log_dir)}"
        )
        raise typer.Exit(EXIT_FAILED)
    out.print(
        f"[green]PASS[/] {len(report.games)} game(s) without a fault. Stderr logs: {shown(log_dir)}"
    )
