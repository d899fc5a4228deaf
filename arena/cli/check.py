"""`arena check`: tell a bot author exactly what their bot does wrong."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from arena.bundled import bundled_bot
from arena.cli.common import (
    BOT_HELP,
    DEFAULT_GAME_MS,
    EXIT_FAILED,
    BankMsOption,
    DecisionMsOption,
    GameMsOption,
    PlayersOption,
    StartupMsOption,
    UnsandboxedOption,
    check_table_size,
    console,
    contain_bots,
    fresh_seed,
    resolve_bots,
    resolve_game,
    seed_option,
    time_control,
)
from arena.cli.replay_html import check_target, numbered, write_replay
from arena.containment.limits import Limits
from arena.faults import Fault
from arena.games import talk
from arena.games.base import Game
from arena.printable import cell, shown
from arena.replay import replay
from protocol import features

if TYPE_CHECKING:
    from arena.check import CheckReport


def check(
    bot_dir: Annotated[Path, typer.Argument(metavar="BOT", help=f"The bot to check: {BOT_HELP}.")],
    game_title: Annotated[
        str, typer.Option("--game", "-g", metavar="GAME", help="The game to check it on.")
    ] = "corruption",
    games: Annotated[
        int, typer.Option("--games", "-n", min=1, metavar="N", help="Games to play.")
    ] = 4,
    players: PlayersOption = None,
    opponent: Annotated[
        Path | None,
        typer.Option(
            metavar="BOT",
            help=f"The bot to fill the other seats, {BOT_HELP} (default: the bundled random bot).",
        ),
    ] = None,
    seed: Annotated[
        int | None,
        seed_option(
            "The same seed plays the same games again, on any machine (a check's deals are "
            "derived with a public key; it records and rates nothing)."
        ),
    ] = None,
    decision_ms: DecisionMsOption = 1000,
    bank_ms: BankMsOption = 5000,
    startup_ms: StartupMsOption = 10000,
    game_ms: GameMsOption = DEFAULT_GAME_MS,
    logs: Annotated[
        Path | None,
        typer.Option(
            metavar="DIR",
            help="Keep the bots' stderr logs here (default: a temporary folder, removed at "
            "the end).",
        ),
    ] = None,
    unsandboxed: UnsandboxedOption = False,
    html: Annotated[
        Path | None,
        typer.Option(
            "--html",
            metavar="FILE",
            help="Also write each game's replay from the bot's seat as a web page: FILE for "
            "one game, FILE-1.html, FILE-2.html, ... for several.",
        ),
    ] = None,
) -> None:
    """Run a bot through the handshake and a few games against random bots; report every fault.

    Exits 0 when the bot played every game without a fault, 1 otherwise.

    Example: arena check corruption-greedy --game corruption --games 6
    """
    # imported when a check runs: the referee and the bot processes are no use to other commands
    from arena.check import run_check

    if html is not None:
        check_target(html)
    game = resolve_game(game_title)
    table_size = players or min(game.min_players + 1, game.max_players)
    check_table_size(game, table_size)
    bot, rival = resolve_bots([bot_dir, opponent or bundled_bot("random")])
    base_seed = fresh_seed() if seed is None else seed
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

    # Without --logs the logs live in a temporary folder, removed however the check ends
    # (pass, fail, error, Ctrl-C); what the report needs from them is read before that.
    with log_folder(logs) as log_dir:
        where = f"Stderr logs: {shown(log_dir)}" if logs else "(--logs DIR keeps the stderr logs)"
        report = run_check(
            game,
            bot,
            rival,
            games=games,
            players=table_size,
            seed=base_seed,
            time_control=time_control(decision_ms, bank_ms, game_ms, startup_ms),
            log_dir=log_dir,
            on_game=show,
            limits=Limits(sandbox=sandbox),
        )
        if report.startup_error:
            out.print(f"[red]FAIL[/] the bot did not start: {shown(report.startup_error)}")
            out.print(where)
            raise typer.Exit(EXIT_FAILED)
    out.print(
        f"Handshake ok: it calls itself {shown(repr(report.handshake_name))} "
        f"version {shown(repr(report.handshake_version))}"
    )
    out.print(f"Wire features: {wire_features(report.features)}")
    if features.TALK in report.features:
        out.print(f"Talk: {talk_summary(game, report)}")
    out.print(f"Timing: {report.timing_summary()}")
    if html is not None:
        for number, (record, seat) in enumerate(zip(report.games, report.seats), start=1):
            page = write_replay(record, numbered(html, number, len(report.games)), seat)
            out.print(f"Replay of game {number} from seat {seat}: {shown(page)}")
    problems = [*report.faults, *decide_problems(report)]
    if problems:
        table = Table(title="Faults")
        for column in ("game", "fault", "what to fix"):
            table.add_column(column)
        for number, fault, reason in sorted(problems, key=lambda p: p[0]):
            table.add_row(str(number), cell(fault), cell(reason))
        out.print(table)
        failed = len({number for number, _, _ in problems})
        out.print(f"[red]FAIL[/] {failed} of {len(report.games)} game(s) had a fault. {where}")
        raise typer.Exit(EXIT_FAILED)
    out.print(f"[green]PASS[/] {len(report.games)} game(s) without a fault. {where}")


@contextmanager
def log_folder(logs: Path | None) -> Iterator[Path]:
    """The folder given, or a temporary one that is removed on leaving, however it is left."""
    if logs is not None:
        yield logs
        return
    with tempfile.TemporaryDirectory(prefix="arena-check-") as temporary:
        yield Path(temporary)


def wire_features(granted: frozenset[str]) -> str:
    """The features a bot negotiated, in the order the referee offers them, for the report."""
    if not granted:
        return "none asked for (plain protocol v1 messages)"
    return ", ".join(name for name in features.OFFERED if name in granted) + " (SPEC.md §13, §14)"


def talk_summary(game: Game, report: CheckReport) -> str:
    """What the bot said, for a bot that asked for talk (SPEC.md §14): how many talk requests
    it answered, or why it had none, so a silent check is never read as a tested talker."""
    if not getattr(game, "supports_talk", False):
        return f"asked for, but {game.title} has no talk"
    talking = [(r, seat) for r, seat in zip(report.games, report.seats) if talk.OPTION in r.options]
    if not talking:
        return (
            "asked for, but no other seat talked (the opponents do not ask for talk): check "
            "with --opponent set to a talking bot, e.g. this bot itself"
        )
    answered = sum(
        1
        for record, seat in talking
        for step in replay(record)
        if step.kind == talk.TALK and step.decision is not None and step.decision.seat == seat
    )
    return f"{answered} talk request(s) answered in {len(talking)} game(s)"


def decide_problems(report: CheckReport) -> list[tuple[int, str, str]]:
    """One row per game in which decide raised: the first exception and how many times."""
    by_game: dict[int, list[str]] = {}
    for number, error in report.decide_errors:
        by_game.setdefault(number, []).append(error)
    return [
        (
            number,
            "decide raised",
            f"{errors[0]}; {len(errors)} time(s) in this game. The traceback is in the bot's "
            "stderr log",
        )
        for number, errors in by_game.items()
    ]
