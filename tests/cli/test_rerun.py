"""`arena rerun`: a recorded game played again by the same (real, sandboxed) bots."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli.app import app
from arena.store import open_store
from arena.store.decisions import pack, unpack

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def run(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setenv("NO_COLOR", "1")
    runner = CliRunner()
    return lambda *args: runner.invoke(app, list(args), catch_exceptions=False)


@pytest.fixture
def recorded(run, tmp_path):
    """(database, game id, the random bot's copy) after one game of greedy against two
    copies of the random bot, whose play depends on the seed it is sent."""
    greedy, random_bot = tmp_path / "greedy", tmp_path / "random"
    shutil.copytree(ROOT / "bots" / "corruption-greedy", greedy)
    shutil.copytree(ROOT / "bots" / "random", random_bot)
    db = tmp_path / "arena.db"
    bots = ["--bot", str(greedy), "--bot", str(random_bot), "--bot", str(random_bot)]
    result = run("play", "corruption", *bots, "--seed", "4", "--db", str(db))
    assert result.exit_code == 0, result.output
    with open_store(db, create=False) as store:
        (game,) = store.list_games()
    return db, game.id, random_bot


def test_a_recorded_game_reruns_identically(run, recorded):
    db, game_id, _ = recorded
    result = run("rerun", game_id[:8], "--db", str(db))
    assert result.exit_code == 0, result.output
    with open_store(db, create=False) as store:
        decisions = len(store.load_game(game_id).decisions)
        assert len(store.list_games()) == 1, "a rerun records nothing"
    assert f"identical: {decisions} decisions and the result (complete)" in result.output


def test_the_first_divergence_is_reported(run, recorded):
    db, game_id, _ = recorded
    with open_store(db, create=False) as store:
        (stored,) = store.db.execute(
            "SELECT decisions FROM game_decisions WHERE game_id = ?", [game_id]
        ).fetchone()
        decisions = unpack(stored)
        decisions[6][1] = "tampered"  # as if seat decisions[6][0] had played otherwise
        store.db.execute(
            "UPDATE game_decisions SET decisions = ? WHERE game_id = ?",
            [pack(decisions), game_id],
        )
        store.db.conn.commit()
    result = run("rerun", game_id, "--db", str(db))
    assert result.exit_code == 1, result.output
    assert f'different: decision 7: recorded seat {decisions[6][0]} played "tampered"' in (
        result.output
    )


def test_a_bot_that_changed_since_the_game_is_refused(run, recorded, tmp_path):
    db, game_id, random_bot = recorded
    (random_bot / "notes.txt").write_text("a change to the bot's files")
    result = run("rerun", game_id, "--db", str(db))
    assert result.exit_code == 2, result.output
    assert "seat 1:" in result.output and "is not the random@1.0 that played" in result.output
    original = ROOT / "bots" / "random"
    seats = ["--bot", str(tmp_path / "greedy"), "--bot", str(original), "--bot", str(original)]
    assert run("rerun", game_id, *seats, "--db", str(db)).exit_code == 0, "--bot: the same files"
    wrong = run("rerun", game_id, "--bot", str(original), "--db", str(db))
    assert wrong.exit_code == 2 and "give --bot once per seat" in wrong.output


def test_the_rerun_sends_each_seat_its_recorded_seed(run, recorded):
    """The random bot's play follows its seed: with another recorded seed, the rerun differs
    (so an identical rerun is the bots' seeds reproduced, not luck)."""
    db, game_id, _ = recorded
    with open_store(db, create=False) as store:
        store.db.execute(
            "UPDATE seats SET bot_seed = bot_seed + 1 WHERE game_id = ? AND seat = 1", [game_id]
        )
        store.db.conn.commit()
    result = run("rerun", game_id, "--db", str(db))
    assert result.exit_code == 1, result.output
    assert "different: decision" in result.output and "seat 1 played" in result.output
