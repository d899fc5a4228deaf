"""--seed-key / $ARENA_SEED_KEY: the same seed and key play the same games in any database."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli.app import app
from arena.seeds import SEED_KEY_ENV, secret_from_seed_key
from arena.store import open_store
from leagues.runner import prepare_league
from leagues.spec import load_league
from tests.support.leagues import write_league

ROOT = Path(__file__).resolve().parents[2]
RANDOM = str(ROOT / "bots" / "random")
GREEDY = str(ROOT / "bots" / "corruption-greedy")
KEY = "ci-key-0123456789abcdef"
PLAY = ["play", "corruption", "--bot", GREEDY, "--bot", RANDOM, "--bot", RANDOM]


@pytest.fixture
def run(monkeypatch):
    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.delenv(SEED_KEY_ENV, raising=False)
    runner = CliRunner()

    def invoke(*args: str):
        return runner.invoke(app, list(args), catch_exceptions=False)

    return invoke


def games_played(db: Path) -> list[tuple]:
    """Everything about each game but its id and times: deal seed, bots' seeds, every
    decision, the result."""
    with open_store(db, create=False) as store:
        ids = [row["id"] for row in store.db.query("SELECT id FROM games ORDER BY seq")]
        records = [store.load_game(game_id) for game_id in ids]
    return [
        (
            r.seed,
            [(s.bot.label, s.bot_seed, s.rank, s.score) for s in r.seats],
            [(d.seat, d.action, d.by_referee) for d in r.decisions],
        )
        for r in records
    ]


def test_one_seed_key_plays_the_same_games_in_two_fresh_databases(run, tmp_path, monkeypatch):
    first, second, third = tmp_path / "a.db", tmp_path / "b.db", tmp_path / "c.db"
    args = [*PLAY, "--games", "2", "--seed", "1"]
    played = run(*args, "--seed-key", KEY, "--db", str(first))
    assert played.exit_code == 0, played.output
    assert "repeatable with this seed key" in played.output
    monkeypatch.setenv(SEED_KEY_ENV, KEY)  # the environment variable is the same key
    assert run(*args, "--db", str(second)).exit_code == 0
    assert games_played(first) == games_played(second)
    assert len(games_played(first)) == 2 and all(game[2] for game in games_played(first))
    monkeypatch.delenv(SEED_KEY_ENV)
    assert run(*args, "--db", str(third)).exit_code == 0
    theirs = {game[0] for game in games_played(third)}
    assert not theirs & {game[0] for game in games_played(first)}, "no key: the database's own"


def test_a_short_seed_key_is_refused_in_one_line(run, tmp_path):
    for command in (
        [*PLAY, "--db", str(tmp_path / "a.db")],
        ["league", "run", str(write_league(tmp_path)), "--db", str(tmp_path / "a.db")],
        ["regress", "--game", "corruption", "--candidate", GREEDY, "--baseline", RANDOM]
        + ["--field", RANDOM, "--field", RANDOM],
    ):
        result = run(*command, "--seed-key", "short")
        assert result.exit_code == 2, result.output
        assert "at least 16 characters" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "a.db").exists(), "refused before anything was created"


def test_a_league_with_one_seed_key_has_one_schedule_in_any_database(tmp_path):
    spec = load_league(write_league(tmp_path))
    secret = secret_from_seed_key(KEY)
    prepared = []
    for name in ("a.db", "b.db"):
        with open_store(tmp_path / name, create=True) as store:
            prepared.append(prepare_league(spec, store, log_dir=None, secret=secret))
            own = prepare_league(
                load_league(write_league(tmp_path, name="own-key")), store, log_dir=None
            )
            assert own.tasks != prepared[-1].tasks, "without the key, the database's deals"
    assert prepared[0].tasks == prepared[1].tasks
    assert prepared[0].plan.game_id_prefix == prepared[1].plan.game_id_prefix
