"""`arena league run` and `arena league standings`: the league organiser's commands.

The league machinery (scheduling, worker pools, Dask, SQLite) is imported by the function
that uses it, so that `arena --help` and the other commands do not pay for it."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.table import Table

from arena.cli.common import (
    DEFAULT_DB,
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    DbOption,
    SeedKeyOption,
    UnsandboxedOption,
    WorkersOption,
    bot_log_dir,
    compact,
    console,
    contain_bots,
    fail,
    open_db,
    seed_secret,
    table,
)
from arena.cli.usage import ArenaCommand
from arena.printable import cell, shown, visible
from leagues.cluster_address import ClusterAddress, parse_cluster
from leagues.lock import LeagueBusy, league_lock
from leagues.progress import LeagueProgress

if TYPE_CHECKING:
    from arena.store import Store
    from leagues.execution import Executor
    from leagues.spec import LeagueSpec
    from leagues.standings import Standings

app = typer.Typer(
    help="League files: round-robins and gauntlets that run in parallel, resume after an "
    "interruption, and report standings.\n\nExample: arena league run leagues/examples/corruption-round-robin.toml",
    no_args_is_help=True,
    rich_markup_mode=None,
)

LeagueFile = Annotated[Path, typer.Argument(metavar="FILE", help="The league file (TOML).")]
ClusterOption = Annotated[
    str | None,
    typer.Option(
        "--cluster",
        metavar="ADDRESS",
        help="Play on a Dask cluster: tcp://HOST:PORT of a running `dask scheduler`, or "
        "local[:N] to start N workers here (default N: --workers); default: the league file's "
        "[cluster] address, else this machine's worker processes. Needs the cluster extra: "
        "pip install 'arena[cluster]'.",
    ),
]


def _load(path: Path) -> LeagueSpec:
    from leagues.spec import LeagueFileError, load_league

    try:
        return load_league(path)
    except LeagueFileError as exc:
        fail(str(exc), EXIT_USAGE)


@app.command("run", cls=ArenaCommand)
def run(
    file: LeagueFile,
    workers: WorkersOption = None,
    db: DbOption = Path(DEFAULT_DB),
    seed_key: SeedKeyOption = None,
    unsandboxed: UnsandboxedOption = False,
    cluster: ClusterOption = None,
) -> None:
    """Play a league's games in parallel, recording each as it finishes; rerun to resume.

    Ctrl-C stops cleanly: finished games are kept and the same command later plays exactly
    the games still missing. With --cluster the games are played on Dask workers (which
    receive the bots' folders from here) and recorded here, with the same guarantees.

    Example: arena league run leagues/examples/corruption-round-robin.toml --workers 2
    """
    spec = _load(file)
    secret = seed_secret(seed_key)
    out = console()
    address = _cluster(cluster if cluster is not None else spec.cluster)
    # On a remote cluster the workers run the bots, and each refuses if it cannot sandbox them.
    remote = address is not None and address.scheduler is not None
    if not (remote and not unsandboxed) and not contain_bots(unsandboxed, out):
        spec = dataclasses.replace(spec, limits=dataclasses.replace(spec.limits, sandbox=False))
    store = open_db(db, create=True, write=True)
    try:
        with league_lock(db, spec.name):
            _run(spec, store, db, workers, secret, out, address)
    except LeagueBusy as exc:
        fail(str(exc))


def _cluster(text: str | None) -> ClusterAddress | None:
    from leagues.cluster import ClusterUnavailable, require_distributed

    if text is None:
        return None
    try:
        address = parse_cluster(text)
        require_distributed()
    except ValueError as exc:
        fail(str(exc), EXIT_USAGE)
    except ClusterUnavailable as exc:
        fail(str(exc), EXIT_USAGE)
    return address


def _run(
    spec: LeagueSpec,
    store: Store,
    db: Path,
    workers: int | None,
    secret: bytes | None,
    out: Console,
    address: ClusterAddress | None,
) -> None:
    from arena.store import StoreError
    from leagues.cluster import ClusterUnavailable, DaskExecutor
    from leagues.execution import WorkerFailed
    from leagues.runner import prepare_league, run_league
    from leagues.store import LeagueChanged

    try:
        prepared = prepare_league(spec, store, log_dir=bot_log_dir(db), secret=secret)
    except LeagueChanged as exc:
        fail(str(exc))
    except StoreError as exc:
        fail(str(exc))
    n_workers = workers or spec.workers
    total = len(prepared.tasks)
    done = total - len(prepared.pending) - prepared.skipped
    for reason in prepared.strikes.out.values():
        out.print(f"[red]disqualified:[/] {shown(reason)}; its remaining games are not scheduled")
    if not prepared.pending:
        skipped = (
            f" ({prepared.skipped} not played: disqualified entrants)" if prepared.skipped else ""
        )
        out.print(
            f"League {shown(repr(spec.name))} is complete: all {total} games are recorded in "
            f"{shown(db)}{skipped}."
        )
        out.print(standings_table(_standings(store, spec, total)))
        return
    where = f"{n_workers} worker(s)" if address is None else f"Dask cluster {shown(address)}"
    out.print(
        f"League [bold]{shown(spec.name)}[/] · {spec.game} · {total} games"
        + (f" ({done} already recorded, resuming)" if done else "")
        + f" · {where} · recording to {shown(db)}"
    )
    shown_workers = n_workers if address is None else 0  # a cluster's are counted as they come
    try:
        with LeagueProgress(
            out, name=spec.name, total=total, done=done, workers=shown_workers
        ) as progress:
            executor: Executor | None = None
            if address is not None:
                executor = DaskExecutor(
                    prepared.plan, address, workers=n_workers, on_workers=progress.set_workers
                )
            summary = run_league(
                prepared, store, workers=n_workers, on_record=progress.update, executor=executor
            )
        out.line()
    except ClusterUnavailable as exc:
        fail(str(exc))
    except WorkerFailed as exc:
        fail(f"{exc}\nFinished games are recorded; rerun the same command to resume.")
    except StoreError as exc:
        fail(f"{exc} Finished games are recorded; rerun the same command to resume.")
    rate = summary.played / summary.elapsed_s if summary.elapsed_s else 0.0
    out.print(
        f"Played {summary.played} game(s) in {summary.elapsed_s:.1f} s ({rate:.1f} games/s), "
        f"{summary.faults} seat fault(s)."
    )
    for reason in summary.struck_out:
        out.print(
            f"[red]disqualified (strikes):[/] {shown(reason)}; its remaining games were dropped"
        )
    if summary.skipped:
        out.print(
            f"{summary.skipped} scheduled game(s) were not played: they seat disqualified entrants."
        )
    if summary.interrupted:
        out.print(
            f"[yellow]Stopped: {summary.already_done + summary.played} of {total} games are recorded; "
            f"run the same command again to play the {summary.remaining} left.[/]"
        )
    out.print(standings_table(_standings(store, spec, total)))
    if summary.interrupted:
        raise typer.Exit(EXIT_INTERRUPTED)


@app.command("standings", cls=ArenaCommand)
def standings(
    file: LeagueFile,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
    as_csv: Annotated[bool, typer.Option("--csv", help="Print the standings as CSV.")] = False,
    db: DbOption = Path(DEFAULT_DB),
) -> None:
    """The league's standings: TrueSkill μ − 3σ, games, mean rank and mean score with 95%
    confidence intervals, head-to-head, faults. Works while the league is running.

    Example: arena league standings leagues/examples/corruption-round-robin.toml --json
    """
    if as_json and as_csv:
        fail("choose one of --json and --csv", EXIT_USAGE)
    from leagues.store import LeagueStore

    spec = _load(file)
    store = open_db(db, create=False)
    league = LeagueStore(store).find(spec.name)
    if league is None:
        fail(
            f"league {spec.name!r} has no games in {db} yet; run it first: arena league run {file}"
        )
    result = _standings(store, spec, league.games)
    out = console()
    if as_json:
        print(json.dumps(result.to_dict(), indent=2))
    elif as_csv:
        print(standings_csv(result), end="")
    else:
        out.print(standings_table(result))
        for reason in result.disqualified:
            out.print(f"[red]disqualified:[/] {shown(reason)}")
        out.print(head_to_head_table(result))


def _standings(store: Store, spec: LeagueSpec, scheduled: int) -> Standings:
    from leagues.store import LeagueStore

    leagues = LeagueStore(store)
    league = leagues.find(spec.name)
    if league is None:
        raise typer.Exit(EXIT_FAILED)
    return leagues.standings(dataclasses.replace(league, title=spec.game, games=scheduled))


def standings_table(result: Standings) -> Table:
    board = table(
        f"{result.name}: {result.complete} of {result.scheduled} games"
        + (f" ({result.aborted} aborted)" if result.aborted else "")
        + " · best first by μ-3σ · wins counted per seat · rank, score: mean ± 95% CI",
        ["bot", "games", "seats", "seat wins", "μ-3σ", "μ±σ", "rank", "score", "faults"],
        keep="bot",
        keep_width=max((len(visible(b.label)) for b in result.bots), default=3),
    )
    for b in result.bots:
        score = b.score
        score_text = compact(score.mean) + (
            f"±{compact(score.half_width)}" if score.half_width else ""
        )
        board.add_row(
            cell(b.label),
            str(b.games),
            str(b.seats),
            str(b.wins),
            f"{b.conservative:.1f}",
            f"{b.mu:.1f}±{b.sigma:.1f}",
            b.rank.text().replace(" ± ", "±"),
            score_text,
            str(b.faults),
        )
    return board


def head_to_head_table(result: Standings) -> Table:
    """Rows: the bot; columns: its opponent; cell: share of meetings it finished ahead."""
    labels = [b.label for b in result.bots]
    grid = Table(
        title="head to head: how often the row bot finished ahead of the column bot (ties ½)",
        title_justify="left",
        box=None,
    )
    grid.add_column("")
    for label in labels:
        grid.add_column(cell(label), justify="right")
    share = {(h.a, h.b): h for h in result.head_to_head}
    for a in labels:
        cells = []
        for b in labels:
            h = share.get((a, b))
            cells.append("—" if a == b or h is None else f"{100 * h.share:.0f}% of {h.meetings}")
        grid.add_row(cell(a), *cells)
    return grid


def standings_csv(result: Standings) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(
        [
            "bot",
            "games",
            "seats",
            "mu",
            "sigma",
            "mu_minus_3sigma",
            "wins",
            "mean_rank",
            "mean_rank_ci95",
            "mean_score",
            "mean_score_ci95",
            "faults",
        ]
    )
    for b in result.bots:
        writer.writerow(
            [
                visible(b.label),  # a CSV on a terminal: no raw control characters
                b.games,
                b.seats,
                f"{b.mu:.4f}",
                f"{b.sigma:.4f}",
                f"{b.conservative:.4f}",
                b.wins,
                f"{b.rank.mean:.4f}",
                "" if b.rank.half_width is None else f"{b.rank.half_width:.4f}",
                f"{b.score.mean:.4f}",
                "" if b.score.half_width is None else f"{b.score.half_width:.4f}",
                b.faults,
            ]
        )
    return buffer.getvalue()
