"""Replay pages written by the command line (`arena show --html/--open`, `arena check --html`):
one self-contained file per game, opened in the user's browser on request."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Annotated

import typer

from arena.cli.common import EXIT_USAGE, fail
from arena.printable import shown
from arena.record import GameRecord
from arena.replay import ReplayError

HtmlOption = Annotated[
    Path | None,
    typer.Option(
        "--html",
        metavar="FILE",
        help="Write the replay as a web page (one file, works offline) instead of text.",
    ),
]
OpenOption = Annotated[
    bool,
    typer.Option(
        "--open",
        help="Open the replay page in your web browser (written to a temporary file unless "
        "--html names one).",
    ),
]


def check_target(file: Path) -> None:
    """Exit with a one-line message unless ``file`` can be a page's name (checked before a
    command does its work, so a typo costs nothing)."""
    if file.is_dir():
        fail(f"--html {shown(file)} is a folder: give a file name such as replay.html", EXIT_USAGE)
    if not file.parent.is_dir():
        fail(f"--html {shown(file)}: the folder {shown(file.parent)} does not exist", EXIT_USAGE)


def write_replay(record: GameRecord, file: Path, only_seat: int | None) -> Path:
    """Write the replay page of ``record`` (one seat's side alone with ``only_seat``) to
    ``file``; exits with a one-line message when it cannot."""
    # imported when a page is written: jinja2 costs every other command its start-up time
    from arena.web.replay_page import render_standalone_replay

    check_target(file)
    try:
        page = render_standalone_replay(record, only_seat=only_seat)
    except ReplayError as exc:
        fail(f"the game does not replay on this version of arena: {shown(exc)}")
    try:
        file.write_text(page, encoding="utf-8")
    except OSError as exc:
        fail(f"cannot write {shown(file)}: {shown(exc.strerror or exc)}")
    return file


def temporary_page() -> Path:
    """A new file for `--open` without `--html` (kept: the browser reads it later)."""
    with tempfile.NamedTemporaryFile(prefix="arena-replay-", suffix=".html", delete=False) as f:
        return Path(f.name)


def open_in_browser(file: Path) -> None:
    import webbrowser

    webbrowser.open(file.resolve().as_uri())


def numbered(file: Path, number: int, count: int) -> Path:
    """FILE for a single page; FILE's name with -1, -2, ... before the suffix for several."""
    if count == 1:
        return file
    return file.with_name(f"{file.stem}-{number}{file.suffix or '.html'}")
