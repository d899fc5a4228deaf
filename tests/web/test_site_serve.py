"""`arena serve`: the report's pages live from the database, read-only, on a free port; a page
reloads itself when a game is saved; a database that cannot be served is one clear line."""

from __future__ import annotations

import shutil
import socket
import sqlite3
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli.app import app
from arena.games import get_game
from arena.inprocess import InProcessBot, random_decider
from arena.referee import SeatedBot, play_game
from arena.store import open_store
from arena.web.server import ReportServer, make_server
from tests.support import web_db
from tests.support.schemas import MIGRATION_IDS, SCHEMA_M009, mark_as_migrated


@pytest.fixture(scope="module")
def database(tmp_path_factory) -> Path:
    return web_db.build(tmp_path_factory.mktemp("db") / "arena.db", games=6)


@pytest.fixture
def served(database: Path, tmp_path: Path) -> Iterator[tuple[ReportServer, Path]]:
    """A server on a free loopback port, of a copy of the database this test may add to."""
    copy = tmp_path / "arena.db"
    shutil.copyfile(database, copy)
    server = make_server(copy, "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server, copy
    server.shutdown()
    server.server_close()


def get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def one_more_game(db: Path) -> None:
    seated = [
        SeatedBot(bot, InProcessBot(random_decider(500 + s)))
        for s, bot in enumerate([web_db.RANDOM_A, web_db.RANDOM_B, web_db.RANDOM_A2])
    ]
    record = play_game(get_game("corruption"), seated, seed=500, options={}, game_id="late0001")
    with open_store(db, create=False) as store:
        store.save_game(record)


def test_the_served_pages_are_the_report_and_nothing_else(served) -> None:
    server, _ = served
    status, body = get(server.url)
    assert status == 200 and b"Leaderboards" in body and b"data-live=" in body
    assert get(f"{server.url}games/index.html")[0] == 200
    assert get(f"{server.url}bots/corruption/random-a@1.0.html")[0] == 200
    assert get(f"{server.url}leagues/{web_db.LEAGUE}.html")[0] == 200
    assert get(f"{server.url}static/vendor/uPlot.iife.min.js")[0] == 200
    assert get(f"{server.url}api/seq.json") == (200, b'{"seq": 11}')
    assert get(f"{server.url}games/no-such-game.html")[0] == 404
    assert get(f"{server.url}bots/corruption/nobody@1.html")[0] == 404
    assert get(f"{server.url}static/%2E%2E/pages.py")[0] == 404  # no way out of static/


@pytest.mark.slow
def test_a_page_shows_a_new_game_without_a_manual_reload(page, served) -> None:
    server, db = served
    page.goto(server.url, wait_until="networkidle")
    games_cell = page.locator(
        "table.leaderboard[data-title='corruption'] tr[data-bot='random-b@1.0'] td:nth-child(5)"
    )
    before = int(games_cell.inner_text())
    one_more_game(db)
    # the page polls every 2 s and reloads itself; the test never calls page.reload()
    page.wait_for_function(
        "before => { const c = document.querySelector(\"table.leaderboard[data-title='corruption']"
        " tr[data-bot='random-b@1.0'] td:nth-child(5)\"); return c && +c.textContent > before; }",
        arg=before,
        timeout=30_000,
    )
    assert int(games_cell.inner_text()) == before + 1


@pytest.mark.slow
def test_arena_serve_on_port_0_prints_the_url_it_serves(database: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "arena", "serve", "--db", str(database), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith(f"Serving {database} read-only at http://127.0.0.1:"), line
        url = line.split(" at ")[1].split()[0]
        status, body = get(url)
        assert status == 200 and b"random-a@1.0" in body
    finally:
        process.terminate()
        process.wait(timeout=30)


def ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
    except OSError:
        return False
    return True


def test_serve_listens_on_an_ipv6_address_and_says_so_in_its_url(database: Path) -> None:
    if not ipv6_loopback():
        pytest.skip("this host has no IPv6 loopback (::1) to listen on: nothing to prove")
    server = make_server(database, "::1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        assert server.url.startswith("http://[::1]:"), server.url
        status, body = get(server.url)
        assert status == 200 and b"random-a@1.0" in body
    finally:
        server.shutdown()
        server.server_close()


def error_line(*args: str) -> str:
    result = CliRunner().invoke(app, ["serve", *args])
    assert result.exit_code == 1, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    return lines[0]


def test_serving_a_missing_database_is_one_clear_line(tmp_path: Path) -> None:
    line = error_line("--db", str(tmp_path / "missing.db"), "--port", "0")
    assert "no database at" in line and "--db" in line


def test_serving_never_upgrades_a_database(tmp_path: Path) -> None:
    """Read-only: a database written by an older arena is refused, not migrated."""
    old = tmp_path / "old.db"
    with sqlite3.connect(old) as conn:
        conn.executescript(SCHEMA_M009.read_text())
        conn.execute("INSERT INTO meta (key, value) VALUES ('bot_seed_key', '00')")
        mark_as_migrated(conn, MIGRATION_IDS[: MIGRATION_IDS.index("m009_league_tally") + 1])
    before = old.read_bytes()
    line = error_line("--db", str(old), "--port", "0")
    assert "needs a schema upgrade" in line
    assert old.read_bytes() == before


@pytest.mark.slow
def test_serving_a_locked_database_is_one_clear_line(database: Path, tmp_path: Path) -> None:
    locked = tmp_path / "locked.db"
    shutil.copyfile(database, locked)
    holder = sqlite3.connect(locked, isolation_level=None)
    try:
        holder.execute("PRAGMA locking_mode = EXCLUSIVE")  # no reader gets in, WAL or not
        holder.execute("BEGIN EXCLUSIVE")
        holder.execute("UPDATE meta SET value = value")
        line = error_line("--db", str(locked), "--port", "0")
    finally:
        holder.close()
    assert "is locked" in line and "another arena process" in line
