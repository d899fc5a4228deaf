"""`arena report`: the whole report written as static files, to open from disk or put on any
file server (a CI artifact, GitHub Pages). Every asset is copied beside the pages: no CDN.

Replays are most of the work (a replay page takes a tenth of a second or more, and holds
every seat's view of every step): a site holds those of the newest games only, as many as
asked, and a replay page already in the folder is kept, not written again, when it carries
this arena's stamp for that game. A recorded game never changes, so its page changes only with
the code that draws it or with the game stored under its id (another database, e.g. a league
run again with the same seeds): the stamp covers both (Pages.replay_stamp).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import arena
from arena.code_digest import code_digest
from arena.store import Store
from arena.web import paths
from arena.web.pages import GENERATOR, Pages

FAVICON = "favicon.ico"


@dataclass(frozen=True)
class Written:
    """What write_site did."""

    pages: int
    """Pages in the site (replays kept included)."""
    replays: int
    """Replay pages in the site."""
    kept: int
    """Replay pages already there with this arena's stamp, not written again."""
    games: int
    """Games in the database."""


def copy_static(folder: Path) -> None:
    """Copy the package's static assets (styles, scripts, the vendored chart library) into
    ``folder``/static."""
    source = resources.files("arena.web") / "static"
    with resources.as_file(source) as found:
        shutil.copytree(found, folder / "static", dirs_exist_ok=True)
        # browsers ask every server for /favicon.ico: without it, a 404 in the console
        shutil.copyfile(found / FAVICON, folder / FAVICON)


def stamp() -> str:
    """This arena's replay stamp: a digest of the code and templates that draw replays (the
    arena and protocol packages' files), so a page written by other code is written again."""
    return f"{GENERATOR} {arena.__version__} {code_digest('arena', 'protocol')}"


def write_site(
    store: Store,
    out: Path,
    on_page: Callable[[int, int], None] | None = None,
    *,
    replays: int | None,
) -> Written:
    """Write every page of ``store``'s report under ``out``, with the replays of the newest
    ``replays`` games (None: every game). The pages are read in one transaction: one state
    of the database, even while a league writes it. ``on_page(done, total)`` is called after
    each page."""
    out.mkdir(parents=True, exist_ok=True)
    copy_static(out)
    written = kept = replay_pages = 0
    generator = stamp()
    pages: Pages | None = None
    store.db.execute("BEGIN")
    try:
        pages = Pages(store, replays=replays, generator=generator, lists_in_order=True)
        games = store.db.execute("SELECT count(*) FROM games").fetchone()[0]
        every = list(pages.paths())
        for path in every:
            target = out / path
            is_replay = paths.is_game_page(path)
            replay_pages += is_replay
            if is_replay and _stamped(target, pages.replay_stamp(paths.game_of_page(path))):
                kept += 1
            else:
                html = pages.render(path)
                if html is None:
                    raise RuntimeError(f"the report lists {path} but has no page for it")
                _write(target, html)
            written += 1
            if on_page is not None:
                on_page(written, len(every))
    finally:
        if pages is not None:
            pages.close()
        store.db.execute("ROLLBACK")
    return Written(written, replay_pages, kept, games)


def _write(target: Path, html: str) -> None:
    """Write a page whole or not at all (a report stopped midway leaves no half page that
    a later one would keep for its stamp)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    partial.write_text(html, encoding="utf-8")
    partial.replace(target)


def _stamped(page: Path, generator: str | None) -> bool:
    """True if ``page`` is the replay page this arena wrote of this game (its stamp in its
    head)."""
    if generator is None:
        return False
    try:
        with page.open("rb") as handle:
            head = handle.read(2048)
    except OSError:
        return False
    return f'<meta name="generator" content="{generator}">'.encode() in head
