"""`arena report` and `arena serve`: the web report, written as static files or served live."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from arena.cli.common import DEFAULT_DB, EXIT_USAGE, DbOption, console, fail, open_db
from arena.printable import shown


def report(
    db: DbOption = Path(DEFAULT_DB),
    out: Annotated[
        Path,
        typer.Option(
            "--out", "-o", metavar="DIR", help="The folder to write the site into (created if new)."
        ),
    ] = Path("report"),
) -> None:
    """Write the web report as static pages: leaderboards with rating charts, games, bots,
    leagues and every game's replay. Opens from disk, works offline (no CDN).

    Example: arena report --db arena.db --out report && xdg-open report/index.html
    """
    # the site's templates (jinja2) and sqlite-utils: imported by the command that uses them
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from arena.store import StoreError
    from arena.web.site import write_site

    if out.exists() and not out.is_dir():
        fail(f"{out} is a file: pass --out with a folder (new or existing)", EXIT_USAGE)
    # one page per game (its replay, up to a second each): a big database takes a while
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
            pages = write_site(
                store, out, lambda done, total: progress.update(task, completed=done, total=total)
            )
        except StoreError as exc:
            fail(str(exc))
        except OSError as exc:
            fail(
                f"cannot write the report into {out}: {exc.strerror or exc}. Pass --out with "
                "a folder you may write."
            )
    console().print(f"Wrote {pages} page(s) to {shown(out)}; open {shown(out / 'index.html')}")


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
            help="The address to listen on; the default serves this machine only (0.0.0.0: "
            "every network it is on).",
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
