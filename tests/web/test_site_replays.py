"""Which replays `arena report` writes: those of the newest games (as many as --replays says),
every one with --replays all, and a replay page already written by this arena is kept rather
than drawn again. The lists link exactly the replays written and name the others as text."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli.app import app
from arena.store import open_store
from arena.web import paths
from arena.web.site import stamp, write_site
from tests.support import web_db


@pytest.fixture(scope="module")
def database(tmp_path_factory) -> Path:
    return web_db.build(tmp_path_factory.mktemp("db") / "arena.db", games=6)


def game_ids(database: Path) -> list[str]:
    """Every game's id, oldest first."""
    with open_store(database, create=False) as store:
        return [row[0] for row in store.db.execute("SELECT id FROM games ORDER BY seq")]


def replay_files(out: Path) -> set[str]:
    return {page.stem for page in (out / "games").glob("*.html") if page.name != "index.html"}


def report(database: Path, out: Path, *args: str):
    result = CliRunner().invoke(app, ["report", "--db", str(database), "--out", str(out), *args])
    assert result.exit_code == 0, result.output
    return result


def test_the_newest_games_get_replays_and_the_list_links_only_those(
    database: Path, tmp_path: Path
) -> None:
    ids = game_ids(database)
    assert len(ids) == 11  # 6 Corruption, 4 Intrigue, 1 with a faulting bot (web_db)
    out = tmp_path / "report"
    result = report(database, out, "--replays", "3")
    assert replay_files(out) == {paths.safe_file_name(i) for i in ids[-3:]}
    assert "Replays of the newest 3 of 11 games: pass --replays all" in result.output
    listed = (out / paths.GAMES).read_text(encoding="utf-8")
    for game_id in ids:
        link = f'href="{paths.relative(paths.GAMES, paths.game_page(game_id))}"'
        assert (link in listed) == (game_id in ids[-3:]), game_id
        assert f">{game_id[:12]}<" in listed, f"{game_id} is listed, linked or not"


def test_replays_all_writes_every_game_and_says_nothing_of_a_limit(
    database: Path, tmp_path: Path
) -> None:
    out = tmp_path / "report"
    result = report(database, out, "--replays", "all")
    assert replay_files(out) == {paths.safe_file_name(i) for i in game_ids(database)}
    assert "Replays of the newest" not in result.output


def test_a_replay_written_by_this_arena_is_kept_and_any_other_is_written_again(
    database: Path, tmp_path: Path
) -> None:
    out = tmp_path / "report"
    report(database, out, "--replays", "all")
    pages = sorted(p for p in (out / "games").glob("*.html") if p.name != "index.html")
    assert len(pages) == 11 and all(stamp() in p.read_text(encoding="utf-8") for p in pages)
    old, cut, mine = pages[0], pages[1], pages[2]
    old.write_text(old.read_text(encoding="utf-8").replace(stamp(), "arena report 0.0.1 0"))
    cut.write_bytes(cut.read_bytes()[:100])  # a page cut short before its stamp
    kept = {p: p.stat().st_mtime_ns for p in pages[2:]}
    mine.write_text(mine.read_text(encoding="utf-8") + "<!-- mine -->")  # stamped: kept as is

    result = report(database, out, "--replays", "all")
    assert "9 replay page(s) were there already, unchanged: kept" in result.output
    assert stamp() in old.read_text(encoding="utf-8")
    assert stamp() in cut.read_text(encoding="utf-8") and len(cut.read_bytes()) > 100
    assert mine.read_text(encoding="utf-8").endswith("<!-- mine -->")
    assert all(p.stat().st_mtime_ns == kept[p] for p in pages[3:]), "kept pages not rewritten"
    assert not list(out.rglob("*.partial")), "every page written whole, no temporary left"


def test_a_kept_page_must_be_of_the_game_stored_under_its_id_now(
    database: Path, tmp_path: Path
) -> None:
    # The same ids in another database (a league run again with the same seeds): the pages of
    # the games played again are drawn again, the others kept.
    out = tmp_path / "report"
    report(database, out, "--replays", "all")
    again = tmp_path / "again.db"
    shutil.copyfile(database, again)
    replayed = game_ids(database)[:2]
    with open_store(again, create=False) as store:
        store.db.execute(
            "UPDATE games SET finished_at = '2031-01-01T00:00:00.000+00:00' WHERE id IN (?, ?)",
            replayed,
        )
        store.db.conn.commit()
    before = {p: p.read_bytes() for p in (out / "games").glob("*.html") if p.name != "index.html"}

    result = report(again, out, "--replays", "all")
    assert "9 replay page(s) were there already, unchanged: kept" in result.output
    changed = {p.stem for p, html in before.items() if p.read_bytes() != html}
    assert changed == {paths.safe_file_name(i) for i in replayed}


def test_replays_zero_writes_the_site_without_replays(database: Path, tmp_path: Path) -> None:
    with open_store(database, create=False) as store:
        written = write_site(store, tmp_path / "out", replays=0)
    assert (written.replays, written.kept, written.games) == (0, 0, 11)
    assert replay_files(tmp_path / "out") == set()
    assert (tmp_path / "out" / "index.html").is_file()


def test_more_replays_than_any_database_holds_means_all(database: Path, tmp_path: Path) -> None:
    out = tmp_path / "report"
    result = report(database, out, "--replays", str(10**20))  # beyond SQLite's integers
    assert replay_files(out) == {paths.safe_file_name(i) for i in game_ids(database)}
    assert "Replays of the newest" not in result.output


@pytest.mark.parametrize("given", ["-1", "some", "1.5", ""])
def test_a_bad_replays_value_is_one_clear_line(database: Path, tmp_path: Path, given) -> None:
    out = tmp_path / "report"
    result = CliRunner().invoke(
        app, ["report", "--db", str(database), "--out", str(out), "--replays", given]
    )
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        f"error: --replays takes a number of games (0 or more) or all, not {given!r}"
    ]
    assert not out.exists()
