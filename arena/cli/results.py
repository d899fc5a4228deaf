"""`arena ratings` and `arena games`: reading what has been recorded."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from arena.cli.common import (
    DEFAULT_DB,
    DbOption,
    compact,
    console,
    known_title,
    open_db,
    store_fail,
    table,
)
from arena.faults import Fault
from arena.printable import cell, shown, visible
from arena.record import GameStatus

if TYPE_CHECKING:
    from arena.store import LeaderboardRow, Store


def ratings(
    game_title: Annotated[
        str | None,
        typer.Argument(metavar="GAME", help="The game title (default: every title recorded)."),
    ] = None,
    db: DbOption = Path(DEFAULT_DB),
    recompute: Annotated[
        bool,
        typer.Option(
            "--recompute",
            help="Rebuild the ratings from the recorded games first, in the order they were "
            "saved: the order they were rated in, so intact ratings come out identical.",
        ),
    ] = False,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json", help="Print the leaderboards as JSON (an object of titles) instead of tables."
        ),
    ] = False,
) -> None:
    """The leaderboard: TrueSkill per game title, ordered by μ − 3σ (a conservative skill).

    Example: arena ratings corruption --db arena.db
    """
    from arena.store import StoreError  # sqlite-utils: imported by the commands that use it

    if game_title is not None:
        known_title(game_title)
    out = console()
    try:
        with open_db(db, create=False) as store:
            if recompute:
                replayed = store.recompute_ratings(game_title)
                out.print(f"Recomputed the ratings from {replayed} recorded game(s).")
            recorded = store.titles()
            titles = [game_title] if game_title in recorded else [] if game_title else recorded
            if as_json:
                boards = {
                    title: [row_json(row) for row in store.leaderboard(title)] for title in titles
                }
                print(json.dumps(boards, indent=2, ensure_ascii=False))
                return
            if not titles:
                # a title arena knows but nobody has played yet: empty, like an empty database
                out.print(
                    f"No {game_title + ' ' if game_title else ''}games recorded in {shown(db)} yet. Play some: "
                    f"arena play {game_title or 'corruption'} --bot ... --db {shown(db)}"
                )
                return
            for title in titles:
                out.print(leaderboard_table(store, title))
    except StoreError as exc:
        store_fail(exc)


def row_json(row: LeaderboardRow) -> dict[str, object]:
    """One leaderboard row as `arena ratings --json` prints it (the web report shows the same)."""
    return {
        "bot": row.label,
        "name": row.name,
        "version": row.version,
        "digest": row.digest,
        "games": row.games,
        "seats": row.seats,
        "mu": row.mu,
        "sigma": row.sigma,
        "mu_minus_3sigma": row.conservative,
        "wins": row.wins,
        "mean_score": row.mean_score,
        "faults": row.faults,
        "aborted": row.aborted,
    }


def leaderboard_table(store: Store, title: str) -> Table:
    rows = store.leaderboard(title)
    board = table(
        f"{title} leaderboard: TrueSkill, best first by μ-3σ; wins counted per seat; "
        "score = mean score",
        ["bot", "games", "seats", "μ-3σ", "μ", "σ", "seat wins", "win%/seat", "score", "faults"],
        keep="bot",
        keep_width=max((len(visible(row.label)) for row in rows), default=3),
    )
    for row in rows:
        board.add_row(
            cell(row.label),
            str(row.games),
            str(row.seats),
            f"{row.conservative:.2f}",
            f"{row.mu:.2f}",
            f"{row.sigma:.2f}",
            str(row.wins),
            f"{100 * row.wins / row.seats:.0f}%" if row.seats else "-",
            compact(row.mean_score) if row.mean_score is not None else "-",
            str(row.faults),
        )
    return board


def games(
    game_title: Annotated[
        str | None, typer.Option("--game", "-g", metavar="GAME", help="Only this game title.")
    ] = None,
    bot: Annotated[
        str | None,
        typer.Option(
            "--bot",
            "-b",
            metavar="NAME",
            help="Only games with this bot (name or name@version).",
        ),
    ] = None,
    limit: Annotated[
        int,
        typer.Option("--limit", "-n", min=1, metavar="N", help="At most this many, newest first."),
    ] = 20,
    db: DbOption = Path(DEFAULT_DB),
) -> None:
    """The recorded games, newest first; use an id (or its first characters) with `arena show`.

    Example: arena games --game corruption --bot corruption-greedy --limit 10
    """
    from arena.store import StoreError

    if game_title is not None:
        known_title(game_title)
    try:
        with open_db(db, create=False) as store:
            found = store.list_games(title=game_title, bot=bot, limit=limit)
    except StoreError as exc:
        store_fail(exc)
    out = console()
    if not found:
        out.print("No recorded game matches.")
        return
    listing = table(
        f"{len(found)} game(s), newest first",
        ["id", "game", "finished", "winner", "score", "faults"],
        left=("id", "game", "faults"),
        keep="winner",
        keep_width=max(
            (len(visible(s.bot)) for g in found for s in g.seats if s.rank == 1), default=7
        ),
    )
    for summary in found:
        winners = [s for s in summary.seats if s.rank == 1]
        faults = [f"seat {s.seat} {s.fault}" for s in summary.seats if s.fault != Fault.OK]
        aborted = summary.status != GameStatus.COMPLETE
        listing.add_row(
            cell(summary.id[:8]),
            cell(summary.title),
            cell(summary.finished_at[5:16].replace("T", " ")),
            "aborted" if aborted else cell(", ".join(s.bot for s in winners)),
            "-" if aborted else compact(winners[0].score),
            cell(", ".join(faults) or "-"),
        )
    out.print(listing)
