"""`arena report`: the whole report written as static files, to open from disk or put on any
file server (a CI artifact, GitHub Pages). Every asset is copied beside the pages: no CDN."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from importlib import resources
from pathlib import Path

from arena.store import Store
from arena.web.pages import Pages

FAVICON = "favicon.ico"


def copy_static(folder: Path) -> None:
    """Copy the package's static assets (styles, scripts, the vendored chart library) into
    ``folder``/static."""
    source = resources.files("arena.web") / "static"
    with resources.as_file(source) as found:
        shutil.copytree(found, folder / "static", dirs_exist_ok=True)
        # browsers ask every server for /favicon.ico: without it, a 404 in the console
        shutil.copyfile(found / FAVICON, folder / FAVICON)


def write_site(store: Store, out: Path, on_page: Callable[[int, int], None] | None = None) -> int:
    """Write every page of ``store``'s report under ``out``; returns how many pages. The pages
    are read in one transaction: one state of the database, even while a league writes it.
    ``on_page(done, total)`` is called after each page (a replay takes up to a second)."""
    out.mkdir(parents=True, exist_ok=True)
    copy_static(out)
    written = 0
    store.db.execute("BEGIN")
    try:
        pages = Pages(store)
        every = list(pages.paths())
        for path in every:
            html = pages.render(path)
            if html is None:
                raise RuntimeError(f"the report lists {path} but has no page for it")
            target = out / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(html, encoding="utf-8")
            written += 1
            if on_page is not None:
                on_page(written, len(every))
    finally:
        store.db.execute("ROLLBACK")
    return written
