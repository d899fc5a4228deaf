"""`arena report` and `arena serve`: the web report, written as static files or served live."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from arena.cli.common import DEFAULT_DB, EXIT_USAGE, DbOption, console, fail, open_db
from arena.printable import shown

DEFAULT_REPLAYS = 200
"""Replays a report holds unless told otherwise: under a minute of writing (a replay page
takes 0.1 to 0.2 s of CPU)."""


def report(
    db: DbOption = Path(DEFAULT_DB),
    out: Annotated[
        Path,
        typer.Option(
            "--out", "-o", metavar="DIR", help="The folder to write the site into (created if new)."
        ),
    ] = Path("report"),
    replays: Annotated[
        str,
        typer.Option(
            metavar="N|all",
            help="Write the replays of the newest N games (all: of every game). Replay pages "
            "already in the folder, written by this arena, are kept.",
        ),
    ] = str(DEFAULT_REPLAYS),
) -> None:
    """Write the web report as static pages: leaderboards with rating charts, games, bots,
    leagues and the newest games' replays. Opens from disk, works offline (no CDN).

    Example: arena report --db arena.db --out report && xdg-open report/index.html
    """
    # the site's templates (jinja2) and sqlite-utils: imported by the command that uses them
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from arena.store import StoreError
    from arena.web.site import write_site

    if out.exists() and not out.is_dir():
        fail(f"{out} is a file: pass --out with a folder (new or existing)", EXIT_USAGE)
    newest = _replay_count(replays)
    # a replay page takes a tenth of a second or more: a big database takes a while
    progress = Progress(
        "writing pages",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console(),
        transient=True,
        disable=not console().is_terminal,  # a log or a pipe gets the closing line alone
    )
    task = progress.add_task("pages", total=None)
    with open_db(db, create=False) as store, progress:
        try:
            written = write_site(
                store,
                out,
                lambda done, total: progress.update(task, completed=done, total=total),
                replays=newest,
            )
        except StoreError as exc:
            fail(str(exc))
        except OSError as exc:
            fail(
                f"cannot write the report into {out}: {exc.strerror or exc}. Pass --out with "
                "a folder you may write."
            )
    console().print(
        f"Wrote {written.pages} page(s) to {shown(out)}; open {shown(out / 'index.html')}"
    )
    if written.kept:
        console().print(f"  {written.kept} replay page(s) were there already, unchanged: kept")
    if written.replays < written.games:
        console().print(
            f"  Replays of the newest {written.replays} of {written.games} games: pass "
            "--replays all for every one, or see any game with arena serve."
        )


def _replay_count(text: str) -> int | None:
    """--replays: a number of games, or None for all; a clear error otherwise."""
    if text.strip().lower() == "all":
        return None
    try:
        count = int(text)
    except ValueError:
        count = -1
    if count < 0:
        fail(f"--replays takes a number of games (0 or more) or all, not {text!r}", EXIT_USAGE)
    # More than SQLite's integers hold is more than any database's games: all of them.
    return count if count < 2**63 else None


def serve(
    db: DbOption = Path(DEFAULT_DB),
    port: Annotated[
        int,
        typer.Option(min=0, max=65535, metavar="N", help="The port (0: any free port)."),
    ] = 8000,
    host: Annotated[
        str,
        typer.Option(
            metavar="ADDRESS",
            help="The address to listen on, IPv4 or IPv6, or a name; the default serves this "
            "machine only (0.0.0.0: every IPv4 network it is on; ::, IPv6 too).",
        ),
    ] = "127.0.0.1",
) -> None:
    """Serve the web report live from the database, read-only: pages show what is recorded
    when they are opened, and reload themselves when a game is saved (a running league).
    Stop with Ctrl-C.

    Example: arena serve --db arena.db --port 8000
    """
    # http.server and sqlite-utils: imported by the command that uses them
    from arena.store import StoreError
    from arena.web.server import make_server

    try:
        server = make_server(db, host, port)
    except StoreError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(
            f"cannot listen on {host}:{port}: {exc.strerror or exc}. Pass another --port "
            "(0 picks a free one) or --host.",
            EXIT_USAGE,
        )
    console().print(f"Serving {shown(db)} read-only at {server.url} (Ctrl-C to stop)")
    sys.stdout.flush()  # a script waiting for the URL needs it now, not at exit
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
