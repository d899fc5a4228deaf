"""`arena play`: a match among the given bots, recorded and rated as it goes."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from arena.cli.common import (
    BOT_HELP,
    DEFAULT_DB,
    DEFAULT_GAME_MS,
    EXIT_INTERRUPTED,
    BankMsOption,
    DbOption,
    DecisionMsOption,
    FaultPolicyOption,
    GameMsOption,
    SeedKeyOption,
    StartupMsOption,
    UnsandboxedOption,
    VariantOption,
    bot_log_dir,
    check_table_size,
    compact,
    console,
    contain_bots,
    fail,
    fresh_seed,
    open_db,
    resolve_bots,
    resolve_game,
    resolve_options,
    seed_option,
    seed_secret,
    table,
    time_control,
)
from arena.conditions import FaultPolicy
from arena.containment.limits import Limits
from arena.faults import Fault
from arena.printable import cell, shown, visible
from arena.record import GameRecord, GameStatus
from arena.seeds import derive_deal_key


def play(
    game_title: Annotated[
        str, typer.Argument(metavar="GAME", help="The game title, e.g. corruption.")
    ],
    bot: Annotated[
        list[Path],
        typer.Option(
            "--bot",
            "-b",
            metavar="BOT",
            help=f"A bot: {BOT_HELP}; repeat once per seat (the same bot may sit twice).",
        ),
    ],
    games: Annotated[
        int, typer.Option("--games", "-n", min=1, metavar="N", help="How many games to play.")
    ] = 1,
    seed: Annotated[
        int | None,
        seed_option(
            "Each game's deal seed is derived from it with the database's secret key: the same "
            "seed on the same --db deals the same games; another database deals others (unless "
            "both runs give one --seed-key), and no bot can predict them."
        ),
    ] = None,
    seed_key: SeedKeyOption = None,
    variant: VariantOption = None,
    db: DbOption = Path(DEFAULT_DB),
    decision_ms: DecisionMsOption = 1000,
    bank_ms: BankMsOption = 5000,
    startup_ms: StartupMsOption = 10000,
    game_ms: GameMsOption = DEFAULT_GAME_MS,
    fault_policy: FaultPolicyOption = FaultPolicy.SUBSTITUTE,
    unsandboxed: UnsandboxedOption = False,
) -> None:
    """Play GAME among the bots, record every game and update the ratings.

    Example: arena play corruption --bot bots/corruption-greedy --bot bots/random --bot bots/random --games 10
    """
    from arena.match import MatchPlan, play_match  # the referee and bot processes
    from arena.store import StoreError

    game = resolve_game(game_title)
    manifests = resolve_bots(bot)
    check_table_size(game, len(manifests))  # one --bot per seat
    options = resolve_options(game, variant or [])
    base_seed = fresh_seed() if seed is None else seed
    given_secret = seed_secret(seed_key)
    out = console()
    sandbox = contain_bots(unsandboxed, out)
    store = open_db(db, create=True, write=True)
    secret = given_secret if given_secret is not None else store.bot_seed_key()
    plan = MatchPlan(
        game=game,
        bots=tuple(manifests),
        games=games,
        seed=base_seed,
        options=options,
        time_control=time_control(decision_ms, bank_ms, game_ms, startup_ms),
        fault_policy=fault_policy,
        log_dir=bot_log_dir(db),
        bot_seed_key=secret,
        limits=Limits(sandbox=sandbox),
        deal_seed_key=derive_deal_key(secret),
    )
    repeatable = (
        "repeatable on this database" if given_secret is None else "repeatable with this seed key"
    )
    variants_text = ", ".join(options.get("variants", [])) or "standard rules"  # type: ignore[arg-type]
    out.print(
        f"[bold]{game.title}[/] · {len(manifests)} players · {games} game(s) · {variants_text} · "
        f"base seed {base_seed} ({repeatable}) · recording to {shown(db)}"
    )
    records: list[GameRecord] = []

    def record_game(index: int, record: GameRecord) -> None:
        store.save_game(record)
        records.append(record)
        out.print(f"{index + 1:>{len(str(games))}}/{games} {game_line(record)}")

    interrupted = False
    try:
        play_match(plan, record_game)
    except KeyboardInterrupt:
        interrupted = True
        out.print(
            f"[yellow]interrupted: {len(records)} finished game(s) were recorded; the game in progress was not.[/]"
        )
    except StoreError as exc:
        fail(f"{exc} ({len(records)} game(s) were recorded before this)")
    out.print(summary_table(records))
    out.print(f"Leaderboard: arena ratings {game.title} --db {shown(db)}")
    if interrupted:
        raise typer.Exit(EXIT_INTERRUPTED)


def game_line(record: GameRecord) -> str:
    """One finished game in one line: id, then seats from best to worst."""
    if record.status != GameStatus.COMPLETE:
        return f"{shown(record.game_id[:8])} [red]aborted[/]: {shown(record.termination)}"
    parts = []
    for seat in sorted(record.seats, key=lambda s: (s.rank, s.seat)):
        fault = f" [red]({shown(seat.fault)})[/]" if seat.fault != Fault.OK else ""
        parts.append(f"{_ordinal(seat.rank)} {shown(seat.bot.label)} {compact(seat.score)}{fault}")
    return f"{shown(record.game_id[:8])}  " + " · ".join(parts)


def summary_table(records: list[GameRecord]) -> Table:
    """Per bot over these games: seats, wins, mean rank, mean score, faults, all counted per
    seat (a bot in two seats of a game plays two seat-games)."""
    stats: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for record in records:
        if record.status != GameStatus.COMPLETE:
            continue
        for seat in record.seats:
            row = stats[seat.bot.label]
            row["games"] += 1
            row["wins"] += seat.rank == 1
            row["rank"] += seat.rank
            row["score"] += seat.score
            row["faults"] += seat.fault != Fault.OK
    summary = table(
        f"This run: {len(records)} game(s)",
        ["bot", "seats", "seat wins", "win%/seat", "mean rank", "mean score", "faults"],
        keep="bot",
        keep_width=max((len(visible(label)) for label in stats), default=3),
    )
    for label, row in sorted(stats.items(), key=lambda item: item[1]["rank"] / item[1]["games"]):
        n = row["games"]
        summary.add_row(
            cell(label),
            f"{n:.0f}",
            f"{row['wins']:.0f}",
            f"{100 * row['wins'] / n:.0f}%",
            f"{row['rank'] / n:.2f}",
            compact(row["score"] / n),
            f"{row['faults']:.0f}",
        )
    return summary


def _ordinal(rank: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(rank, f"{rank}th")
