"""The games lists a written site reads in one pass (queries.games_pages) are the pages read one
by one (queries.games_page, what `arena serve` does), for every filter, and the site's pages
are the same whichever way they were read."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from arena.store import open_store
from arena.web import paths, queries
from arena.web.pages import Pages
from arena.web.site import write_site
from tests.support import web_db


@pytest.fixture(scope="module")
def database(tmp_path_factory) -> Path:
    return web_db.build(tmp_path_factory.mktemp("db") / "arena.db", games=9)


def filters(pages: Pages) -> list[paths.GameFilter]:
    return [paths.GameFilter(), paths.GameFilter("fault"), *pages._filters()]


@pytest.mark.parametrize("size", [1, 2, 3, 50])
def test_one_pass_gives_the_pages_of_one_query_each(database: Path, size: int) -> None:
    with open_store(database, create=False) as store:
        pages = Pages(store)
        kinds = set()
        for shown in filters(pages):
            kinds.add(shown.kind)
            in_one_pass = list(queries.games_pages(store.db, shown, pages.keys, size))
            first = queries.games_page(store.db, shown, 1, pages.keys, size)
            one_by_one = [
                queries.games_page(store.db, shown, page, pages.keys, size)
                for page in range(1, first.pages + 1)
            ]
            assert in_one_pass == one_by_one, shown
            assert sum(len(p.rows) for p in in_one_pass) == first.total, shown
        assert kinds == {"", "fault", "title", "league", "bot"}


def without_time(html: str | None) -> str:
    assert html is not None
    return re.sub(r" · [0-9T:+-]+</footer>", "</footer>", html)


def test_a_site_reads_the_same_lists_in_order_as_out_of_order(database: Path, monkeypatch) -> None:
    monkeypatch.setattr(queries, "PAGE_SIZE", 2)
    with open_store(database, create=False) as store:
        in_order = Pages(store, lists_in_order=True)
        listed = [p for p in in_order.paths() if paths.parse_games_list_page(p) is not None]
        assert len(listed) > 20
        written = {path: without_time(in_order.render(path)) for path in listed}
        in_order.close()
        for path in reversed(listed):  # a fresh reader, every page on its own
            assert without_time(Pages(store).render(path)) == written[path], path


def test_a_list_read_in_part_holds_no_lock_once_closed(database: Path, tmp_path, monkeypatch):
    """A one-pass read stopped after its first page keeps its statement open, and with it a
    lock that stops a WAL checkpoint (make bench hit it): close() ends it."""
    monkeypatch.setattr(queries, "PAGE_SIZE", 2)
    copy = tmp_path / "arena.db"
    copy.write_bytes(database.read_bytes())
    with open_store(copy, create=False) as store:
        pages = Pages(store, lists_in_order=True)
        assert pages.render(paths.GAMES) is not None  # page 1 of 6: the read is left open
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        pages.close()
        store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def test_a_list_read_to_its_last_page_holds_no_lock(database: Path, tmp_path, monkeypatch):
    """The statement ends with the last page read, even a full one (its rows fetched, the
    statement not yet at its end), not when the reader is closed."""
    copy = tmp_path / "arena.db"
    copy.write_bytes(database.read_bytes())
    with open_store(copy, create=False) as store:
        total = store.db.execute("SELECT count(*) FROM games").fetchone()[0]
        monkeypatch.setattr(queries, "PAGE_SIZE", total)  # one page, and a full one
        pages = Pages(store, lists_in_order=True)
        assert pages.render(paths.GAMES) is not None
        store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # raised "locked" before
        pages.close()


def test_a_written_site_reads_each_list_once_not_once_a_page(
    database: Path, tmp_path: Path, monkeypatch
) -> None:
    """The site writer reads each filter's list in one pass: one query a page would read all
    the games before each page, which made a 20,000-game report take minutes."""
    monkeypatch.setattr(queries, "PAGE_SIZE", 2)
    one_page_reads: list[paths.GameFilter] = []
    read_one_page = queries.games_page

    def counted(db, shown, page, keys, size=None):
        one_page_reads.append(shown)
        return read_one_page(db, shown, page, keys, size)

    monkeypatch.setattr(queries, "games_page", counted)
    with open_store(database, create=False) as store:
        write_site(store, tmp_path / "site", replays=0)
        shown_lists = filters(Pages(store))
    listed = list((tmp_path / "site" / "games").rglob("*.html"))
    assert len(listed) > 2 * len(shown_lists), "lists of several pages each"
    # one read per list, to count its pages (Pages.paths); every page came from the one pass
    assert sorted(one_page_reads, key=repr) == sorted(shown_lists, key=repr)
