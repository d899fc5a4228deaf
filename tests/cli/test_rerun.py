"""`arena rerun`: a recorded game played again by the same (real, sandboxed) bots."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli.app import app
from arena.store import open_store
from arena.store.decisions import pack, unpack
from tests.support.module_bots import own_copy, own_snapshot_cache

ROOT = Path(__file__).resolve().parents[2]


def play_one_game(run, folder: Path) -> tuple[Path, str, Path]:
    """(database, game id, the random bot's copy) after one game, in ``folder``, of greedy
    against two copies of the random bot, whose play depends on the seed it is sent."""
    greedy, random_bot = folder / "greedy", folder / "random"
    shutil.copytree(ROOT / "bots" / "corruption-greedy", greedy)
    shutil.copytree(ROOT / "bots" / "random", random_bot)
    db = folder / "arena.db"
    bots = ["--bot", str(greedy), "--bot", str(random_bot), "--bot", str(random_bot)]
    result = run("play", "corruption", *bots, "--seed", "4", "--db", str(db))
    assert result.exit_code == 0, result.output
    with open_store(db, create=False) as store:
        (game,) = store.list_games()
    return db, game.id, random_bot


@pytest.fixture(scope="module")
def played_once(tmp_path_factory):
    """The game of play_one_game, played once for the tests that change only the database
    (each gets its own copy, from `recorded`)."""
    folder = tmp_path_factory.mktemp("played-once")
    runner = CliRunner()
    with own_snapshot_cache(folder):
        return play_one_game(
            lambda *args: runner.invoke(app, list(args), catch_exceptions=False), folder
        )


@pytest.fixture
def recorded(played_once, tmp_path):
    """(database, game id, the random bot's copy): this test's own copy of the database of
    the game played once, and the bots that played it (which the test must not change)."""
    db, game_id, random_bot = played_once
    return own_copy(db, tmp_path / "arena.db"), game_id, random_bot


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


def test_a_bot_that_changed_since_the_game_is_refused(run, tmp_path):
    db, game_id, random_bot = play_one_game(run, tmp_path)  # its own bots, to change one
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


def clock_reading_bot(folder: Path) -> Path:
    """The random bot, seeded also by the clock game_start sends: its play depends on the
    clock (deterministically), as a bot that budgets its time may."""
    shutil.copytree(ROOT / "bots" / "random", folder)
    source = (folder / "bot.py").read_text()
    seeded = "random.Random(f\"{message.get('seed')}/{message.get('seat')}\")"
    assert seeded in source, "the random bot changed: update this test's copy"
    by_clock = (
        "random.Random(f\"{message.get('seed')}/{message.get('seat')}/{message.get('time')}\")"
    )
    (folder / "bot.py").write_text(source.replace(seeded, by_clock))
    return folder


def forget(db: Path, game_id: str, column: str) -> None:
    """Make the stored game look recorded before arena kept ``column`` (NULL)."""
    with open_store(db, create=False) as store:
        store.db.execute(f"UPDATE games SET {column} = NULL WHERE id = ?", [game_id])
        store.db.conn.commit()


def only_game(db: Path) -> str:
    with open_store(db, create=False) as store:
        (game,) = store.list_games()
    return game.id


CLOCK = [
    "--decision-ms",
    "1500",
    "--bank-ms",
    "2500",
    "--startup-ms",
    "9000",
    "--game-ms",
    "300000",
]


def test_a_game_reruns_under_its_recorded_clock(run, tmp_path):
    bot = clock_reading_bot(tmp_path / "by-clock")
    db = tmp_path / "arena.db"
    seats = ["--bot", "corruption-greedy", "--bot", str(bot), "--bot", str(bot)]
    played = run("play", "corruption", *seats, "--seed", "4", *CLOCK, "--db", str(db))
    assert played.exit_code == 0, played.output
    game_id = only_game(db)

    result = run("rerun", game_id, "--db", str(db))
    assert result.exit_code == 0, result.output
    assert (
        "under the clock decision_ms 1500, bank_ms 2500, startup_ms 9000, game_ms 300000 · "
        "fault policy substitute"
    ) in result.output
    assert "identical:" in result.output and "note:" not in result.output

    forget(db, game_id, "time_control")  # as if recorded before arena kept the clock
    result = run("rerun", game_id, "--db", str(db))
    assert "under the clock decision_ms 1000, bank_ms 5000, startup_ms 10000, game_ms 600000" in (
        result.output
    )
    assert "note: the record does not keep the clock" in result.output
    # the bots were sent another clock, and these play by it: the rerun shows it
    assert result.exit_code == 1 and "different: decision" in result.output, result.output


def test_a_game_reruns_under_its_recorded_fault_policy(run, tmp_path):
    """Seat 1 plays an illegal action at its third request: under abort, the game ends there,
    and the rerun must end it there too."""
    faulty = tmp_path / "faulty"
    faulty.mkdir()
    shutil.copy(ROOT / "tests" / "fakebots" / "fakebot.py", faulty / "fakebot.py")
    (faulty / "bot.toml").write_text(
        'name = "faulty"\nversion = "0"\ncommand = ["{python}", "fakebot.py", "illegal", "3"]\n'
    )
    db = tmp_path / "arena.db"
    seats = ["--bot", "random", "--bot", str(faulty), "--bot", "random"]
    played = run(
        "play", "corruption", *seats, "--seed", "4", "--fault-policy", "abort", "--db", str(db)
    )
    assert played.exit_code == 0, played.output
    game_id = only_game(db)
    with open_store(db, create=False) as store:
        assert store.load_game(game_id).status == "aborted"

    result = run("rerun", game_id, "--db", str(db))
    assert result.exit_code == 0, result.output
    assert "fault policy abort" in result.output
    assert "identical:" in result.output and "(aborted)" in result.output

    forget(db, game_id, "fault_policy")  # as if recorded before arena kept the policy
    result = run("rerun", game_id, "--db", str(db))
    assert "fault policy substitute" in result.output
    assert "note: the record does not keep the fault policy" in result.output
    assert result.exit_code == 1 and "different:" in result.output, result.output


def test_a_database_from_before_the_clock_was_kept_upgrades_and_reruns(run, recorded):
    """A database at m005: no clock or policy columns. Opening it adds them (NULL for the old
    game); the rerun uses play's defaults, says so, and (these bots ignore the clock) agrees."""
    db, game_id, _ = recorded
    with open_store(db, create=False) as store:
        for column in ("time_control", "fault_policy"):
            store.db.execute(f"ALTER TABLE games DROP COLUMN {column}")
        store.db.execute("DELETE FROM _sqlite_migrations WHERE name = 'm006_game_clock'")
        store.db.conn.commit()
    result = run("rerun", game_id, "--db", str(db))
    assert result.exit_code == 0, result.output
    assert "note: the record does not keep the clock or the fault policy" in result.output
    assert "identical:" in result.output
    with open_store(db, create=False) as store:
        assert store.load_game(game_id).time_control is None
    assert run("show", game_id, "--db", str(db)).exit_code == 0
