"""`arena show --html/--open` and `arena check --html` write the replay viewer's page; without
the flags the text replay is unchanged."""

from __future__ import annotations

import json
import re
import webbrowser
from pathlib import Path

import pytest

from arena.printable import visible
from arena.replay import describer, replay, seat_events
from arena.store import open_store
from tests.support.replay_games import played

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def saved(tmp_path):
    """A database holding one in-process Corruption game (seat 2 faulted)."""
    record, _ = played("corruption", 4, faulty_seat=2)
    db = tmp_path / "arena.db"
    with open_store(db, create=True) as store:
        store.save_game(record)
    return db, record


def page_data(file: Path) -> dict:
    html = file.read_text(encoding="utf-8")
    found = re.search(
        r'<script type="application/json" id="replay-data">(.*?)</script>', html, re.S
    )
    assert found, "the page embeds its replay document"
    return json.loads(found.group(1))


def test_show_html_writes_the_whole_replay_and_a_seat_page_holds_that_seat_alone(
    run, saved, tmp_path
):
    db, record = saved
    result = run("show", record.game_id, "--db", str(db), "--html", str(tmp_path / "all.html"))
    assert result.exit_code == 0, result.output
    assert "Replay page written to" in result.output and "#1" not in result.output
    everything = page_data(tmp_path / "all.html")
    assert everything["sides"] == ["table", "0", "1", "2", "3"]
    seat = run(
        "show", record.game_id, "--seat", "1", "--db", str(db), "--html", str(tmp_path / "1.html")
    )
    assert seat.exit_code == 0, seat.output
    own = page_data(tmp_path / "1.html")
    assert own["sides"] == ["1"] and own["only_seat"] == 1
    # the events of the page are those `arena show --seat 1` prints, in order
    text = run("show", record.game_id, "--seat", "1", "--db", str(db)).output
    describe = describer(record)
    told = [visible(describe(b)) for step in replay(record) for b in seat_events(step, 1)]
    on_page = [own["texts"][i] for step in own["events"]["1"] for i in step]
    assert on_page == told and all(line in text for line in told)


def test_show_without_the_flags_prints_the_text_replay(run, saved):
    db, record = saved
    result = run("show", record.game_id, "--db", str(db))
    assert result.exit_code == 0 and "#1" in result.output and "Replay page" not in result.output


def test_show_open_writes_a_page_and_opens_it(run, saved, monkeypatch, tmp_path):
    db, record = saved
    opened: list[str] = []
    monkeypatch.setattr(webbrowser, "open", lambda url: opened.append(url) or True)
    result = run("show", record.game_id, "--db", str(db), "--open")
    assert result.exit_code == 0, result.output
    assert len(opened) == 1 and opened[0].startswith("file://")
    page = Path(opened[0].removeprefix("file://"))
    try:
        assert page_data(page)["game"]["id"] == record.game_id
    finally:
        page.unlink()
    named = run(
        "show", record.game_id, "--db", str(db), "--open", "--html", str(tmp_path / "p.html")
    )
    assert named.exit_code == 0 and opened[1] == (tmp_path / "p.html").resolve().as_uri()


def test_show_html_names_a_bad_target_in_one_line(run, saved, tmp_path):
    db, record = saved
    missing = run(
        "show", record.game_id, "--db", str(db), "--html", str(tmp_path / "no" / "x.html")
    )
    assert missing.exit_code == 2 and "does not exist" in missing.output
    folder = run("show", record.game_id, "--db", str(db), "--html", str(tmp_path))
    assert folder.exit_code == 2 and "is a folder" in folder.output


@pytest.mark.slow
def test_check_html_writes_each_game_from_the_bots_seat(run, tmp_path):
    bot = ROOT / "bots" / "random"
    result = run(
        "check", str(bot), "--games", "2", "--seed", "4", "--html", str(tmp_path / "check.html")
    )
    assert result.exit_code == 0, result.output
    pages = [page_data(tmp_path / f"check-{n}.html") for n in (1, 2)]
    # the checked bot sits in seat 0, then seat 1 (check moves it round the table)
    assert [page["sides"] for page in pages] == [["0"], ["1"]]
    assert all(f"check-{n}.html" in result.output for n in (1, 2))


def test_check_html_refuses_a_bad_target_before_playing(run, tmp_path):
    result = run("check", str(ROOT / "bots" / "random"), "--html", str(tmp_path / "no" / "c.html"))
    assert result.exit_code == 2 and "does not exist" in result.output
    assert "Checking" not in result.output
