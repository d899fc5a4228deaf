"""The static report (`arena report`) in a real browser: the leaderboard says what `arena ratings
--json` says, the games list filters and pages, bot-chosen HTML stays text, nothing is fetched
from outside, no script fails (the `page` fixture fails a test on any JavaScript error), and a
screenshot of each kind of page is written for a person to look at."""

from __future__ import annotations

import json
import re
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

import pytest
from typer.testing import CliRunner

from arena.cli.app import app
from arena.store import open_store
from arena.web import paths, queries
from arena.web.site import write_site
from tests.support import web_db

PAGE_SIZE = 5
"""Games a page in these tests, so that 17 games make four pages."""


@pytest.fixture(scope="module")
def database(tmp_path_factory) -> Path:
    return web_db.build(tmp_path_factory.mktemp("db") / "arena.db")


@pytest.fixture(scope="module")
def site_written(database: Path, tmp_path_factory) -> tuple[Path, int, list[tuple[int, int]]]:
    """The site, written once for the module: (its folder, the pages write_site says it wrote,
    each (done, total) it reported on the way)."""
    out = tmp_path_factory.mktemp("site")
    progress: list[tuple[int, int]] = []
    with pytest.MonkeyPatch.context() as patch, open_store(database, create=False) as store:
        patch.setattr(queries, "PAGE_SIZE", PAGE_SIZE)
        written = write_site(
            store, out, lambda done, total: progress.append((done, total)), replays=None
        )
    return out, written.pages, progress


@pytest.fixture(scope="module")
def site(site_written) -> Path:
    return site_written[0]


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    """Where the screenshots go (printed by the tests that write them)."""
    return tmp_path_factory.mktemp("screenshots")


def ratings_json(database: Path) -> dict[str, list[dict]]:
    result = CliRunner().invoke(app, ["ratings", "--json", "--db", str(database)])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def follow(page, link) -> None:
    """Click a link and wait until the new page has fetched everything (its favicon too): a
    click while a request is in flight cuts it off, which Chromium logs as an error."""
    link.click()
    page.wait_for_load_state("networkidle")


def two(value: float) -> str:
    return f"{value:.2f}"


def test_the_leaderboard_rows_are_what_ratings_json_prints(
    page, serve_directory, site, database, shots
) -> None:
    base = serve_directory(site)
    page.goto(f"{base}/index.html", wait_until="networkidle")
    expected = ratings_json(database)
    assert set(expected) == {"corruption", "intrigue"}
    for title, rows in expected.items():
        cells = page.locator(f"table.leaderboard[data-title='{title}'] tbody tr").evaluate_all(
            "rows => rows.map(r => Array.from(r.cells, c => c.textContent.trim()))"
        )
        shown = [
            {
                "bot": c[0],
                "μ-3σ": c[1],
                "μ": c[2],
                "σ": c[3],
                "games": c[4],
                "wins": c[5],
                "faults": c[7],
            }
            for c in cells
        ]
        assert shown == [
            {
                "bot": r["bot"],
                "μ-3σ": two(r["mu_minus_3sigma"]),
                "μ": two(r["mu"]),
                "σ": two(r["sigma"]),
                "games": str(r["games"]),
                "wins": str(r["wins"]),
                "faults": str(r["faults"]),
            }
            for r in rows
        ]
    # the rating chart is drawn (uPlot's canvas), one per title
    assert page.locator("figure.chart[data-kind='rating'] canvas").count() == 2
    page.screenshot(path=shots / "leaderboard.png", full_page=True)


@pytest.mark.slow
def test_the_games_list_pages_through_every_game(page, serve_directory, site, database) -> None:
    base = serve_directory(site)
    page.goto(f"{base}/games/index.html", wait_until="networkidle")
    seen: list[str] = []
    while True:
        ids = page.locator("table.games tbody tr").evaluate_all(
            "rows => rows.map(r => r.dataset.game)"
        )
        assert 0 < len(ids) <= PAGE_SIZE
        seen += ids
        older = page.locator("a[rel='next']")
        if older.count() == 0:
            break
        follow(page, older)
    with open_store(database, create=False) as store:
        newest_first = [
            row[0] for row in store.db.execute("SELECT id FROM games ORDER BY seq DESC")
        ]
    assert seen == newest_first
    follow(page, page.locator("a[rel='first']"))
    assert page.url.endswith("/games/index.html")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("link", "expected"),
    [
        ("with a fault", ["fault0001"]),
        ("intrigue", ["i0003", "i0002", "i0001", "i0000"]),
        (web_db.LEAGUE, ["c0009", "c0006", "c0003", "c0000"]),
        ("broken@0.1", ["fault0001"]),
    ],
)
def test_each_filter_shows_exactly_its_games(page, serve_directory, site, link, expected) -> None:
    base = serve_directory(site)
    page.goto(f"{base}/games/index.html", wait_until="networkidle")
    follow(page, page.locator("nav.filters a", has_text=re.compile(f"^{re.escape(link)}$")))
    ids = []
    while True:
        ids += page.locator("table.games tbody tr").evaluate_all(
            "rows => rows.map(r => r.dataset.game)"
        )
        if page.locator("a[rel='next']").count() == 0:
            break
        follow(page, page.locator("a[rel='next']"))
    assert ids == expected


@pytest.mark.slow
def test_every_replay_link_of_the_list_opens_its_game(page, serve_directory, site) -> None:
    base = serve_directory(site)
    page.goto(f"{base}/games/list/title-intrigue/1.html", wait_until="networkidle")
    follow(page, page.locator("a.replay", has_text="i0002"))
    assert page.url.endswith("/games/i0002.html")
    assert "i0002" in page.locator("h1").inner_text() or "i0002" in page.title()


@pytest.mark.slow
def test_a_bot_named_as_html_stays_text_on_every_page(page, serve_directory, site, shots) -> None:
    base = serve_directory(site)
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    hostile_file = paths.safe_file_name(f"{web_db.XSS_NAME}@6.6")
    for path in [
        paths.INDEX,
        paths.GAMES,
        paths.bot_page("corruption", hostile_file),
        paths.league_page(web_db.LEAGUE),
    ]:
        page.goto(f"{base}/{paths.relative('', path)}", wait_until="networkidle")
        assert f"{web_db.XSS_NAME}@6.6" in page.locator("main").inner_text(), path
        injected = page.evaluate(
            "() => Array.from(document.scripts).filter(s => s.text.includes('alert(1)')"
            " && s.type !== 'application/json').length"
        )
        assert injected == 0, path
    assert dialogs == []
    page.screenshot(path=shots / "bot-page-of-the-html-named-bot.png", full_page=True)


@pytest.mark.slow
def test_every_page_kind_renders_and_is_photographed(page, serve_directory, site, shots) -> None:
    base = serve_directory(site)
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    kinds = {
        "leaderboards": paths.INDEX,
        "games": paths.GAMES,
        "games-with-a-fault": paths.games_list_page(paths.GameFilter("fault"), 1),
        "bot": paths.bot_page("corruption", "random-a@1.0"),
        "bot-that-faulted": paths.bot_page("corruption", "broken@0.1"),
        "leagues": paths.LEAGUES,
        "league": paths.league_page(web_db.LEAGUE),
        "replay": paths.game_page("c0001"),
    }
    for name, path in kinds.items():
        page.goto(f"{base}/{paths.relative('', path)}", wait_until="networkidle")
        page.screenshot(path=shots / f"{name}.png", full_page=True)
        assert (shots / f"{name}.png").stat().st_size > 5_000
    print(f"screenshots in {shots}")
    outside = [url for url in requests if not url.startswith(base)]
    assert outside == []
    # the bot page draws its time histogram; the league page its heatmap with a cell per pair
    page.goto(f"{base}/{paths.relative('', kinds['league'])}", wait_until="networkidle")
    assert page.locator("table.heatmap td[title]").count() == 4 * 3
    assert "Disqualified" in page.locator("ul.disqualified").inner_text()


class _References(HTMLParser):
    """Every URL an HTML page refers to (src, href)."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.urls += [value for name, value in attrs if name in ("src", "href") and value]


def test_no_page_refers_to_anything_outside_the_site(site: Path) -> None:
    """Offline: no CDN, no font service; every local reference points at a file written."""
    pages = list(site.rglob("*.html"))
    assert len(pages) > 30
    for html in pages:
        found = _References()
        found.feed(html.read_text(encoding="utf-8"))
        for url in found.urls:
            assert not re.match(r"(?i)^([a-z]+:|//)", url), (html, url)
            target = url.split("#")[0]
            if target:
                assert (html.parent / unquote(target)).resolve().is_file(), (html, url)
    for stylesheet in site.rglob("*.css"):
        assert not re.search(r"(?i)url\(\s*['\"]?(https?:)?//", stylesheet.read_text())


def test_every_games_row_links_its_own_bots_best_first(site: Path, database: Path) -> None:
    """Bot links are rendered once per bot and page depth (Pages._bot_links): on every page
    with a games table (lists at two depths, bots' pages), each row still shows its own game's
    bots by rank, each link opening that bot's page in the game's title."""
    with open_store(database, create=False) as store:
        keys = queries.bot_keys(store.db)
        expected = {
            game_id: [
                (str(rank), keys[bot_id].display, paths.bot_page(title, keys[bot_id].file_name))
                for rank, bot_id, title in store.db.execute(
                    "SELECT rank, bot_id, title FROM seats JOIN games ON games.id = game_id"
                    " WHERE game_id = ? ORDER BY rank, seat",
                    [game_id],
                )
            ]
            for (game_id,) in store.db.execute("SELECT id FROM games WHERE status = 'complete'")
        }
    rows_seen = set()
    for html in site.rglob("*.html"):
        text = html.read_text(encoding="utf-8")
        for game_id, row in re.findall(r'<tr data-game="([^"]+)"[^>]*>(.*?)</tr>', text, re.S):
            seats = re.findall(
                r'<span class="seat">(\d+): <a class="bot" href="([^"]+)">([^<]*)</a></span>', row
            )
            shown = [
                (rank, unescape(name), (html.parent / unquote(href)).resolve())
                for rank, href, name in seats
            ]
            want = [
                (rank, name, (site / page).resolve())
                for rank, name, page in expected.get(game_id, [])
            ]
            assert shown == want, (html, game_id)
            rows_seen.add(html.parent.relative_to(site).parts[:1])
    assert rows_seen == {("games",), ("bots",)}, rows_seen


def test_arena_report_writes_the_site_and_says_where(database: Path, tmp_path: Path) -> None:
    out = tmp_path / "report"
    result = CliRunner().invoke(app, ["report", "--db", str(database), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert f"open {out / 'index.html'}" in result.output
    assert (out / "index.html").is_file() and (
        out / "static" / "vendor" / "uPlot.LICENSE"
    ).is_file()
    assert len(list((out / "games").glob("*.html"))) == 17 + 1  # every replay, and the list


def test_writing_the_site_reports_its_progress_page_by_page(site_written) -> None:
    """What `arena report` draws its progress bar from: every page, counted against the total."""
    out, written, progress = site_written
    assert written == len(list(out.rglob("*.html")))
    assert progress == [(done, written) for done in range(1, written + 1)]


def test_arena_report_into_a_file_is_one_clear_line(database: Path, tmp_path: Path) -> None:
    taken = tmp_path / "report.html"
    taken.write_text("mine")
    result = CliRunner().invoke(app, ["report", "--db", str(database), "--out", str(taken)])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        f"error: {taken} is a file: pass --out with a folder (new or existing)"
    ]
    assert taken.read_text() == "mine"
