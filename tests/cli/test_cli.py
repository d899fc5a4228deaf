"""The command line, end to end: real bot subprocesses, a real database, exit codes, words."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli.app import app
from arena.store import open_store
from tests.support.module_bots import own_copy, own_snapshot_cache

ROOT = Path(__file__).resolve().parents[2]
RANDOM = str(ROOT / "bots" / "random")
GREEDY = str(ROOT / "bots" / "corruption-greedy")
COMMANDS = [
    "play",
    "ratings",
    "games",
    "show",
    "rerun",
    "check",
    "league run",
    "league standings",
    "regress",
]


@pytest.fixture
def run(monkeypatch):
    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.setenv("NO_COLOR", "1")
    runner = CliRunner()

    def invoke(*args: str):
        return runner.invoke(app, list(args), catch_exceptions=False)

    return invoke


PLAY_THREE = (  # three 3-player games among greedy and two random bots
    "play",
    "corruption",
    "--bot",
    GREEDY,
    "--bot",
    RANDOM,
    "--bot",
    RANDOM,
    "--games",
    "3",
    "--seed",
    "5",
)


@pytest.fixture(scope="module")
def played_once(tmp_path_factory):
    """(database, play's result) after PLAY_THREE, played once for the module."""
    folder = tmp_path_factory.mktemp("played")
    db = folder / "arena.db"
    with own_snapshot_cache(folder) as patch:
        patch.setenv("COLUMNS", "120")
        patch.setenv("NO_COLOR", "1")
        result = CliRunner().invoke(app, [*PLAY_THREE, "--db", str(db)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return db, result


@pytest.fixture
def played(played_once, tmp_path):
    """(this test's own copy of the database of PLAY_THREE's games, play's result)."""
    db, result = played_once
    return own_copy(db, tmp_path / "arena.db"), result


def test_play_records_every_game_and_prints_a_line_each_and_a_summary(played):
    db, result = played
    assert len(re.findall(r"^\d/3 [0-9a-f]{8} ", result.output, re.M)) == 3, result.output
    assert "This run: 3 game(s)" in result.output
    assert "seat wins" in result.output and "win%/seat" in result.output
    assert "corruption-greedy@1.0" in result.output and "random@1.0" in result.output
    assert "base seed 5" in result.output
    with open_store(db, create=False) as store:
        games = store.list_games(title="corruption")
    assert len(games) == 3
    assert all(g.status == "complete" and len(g.seats) == 3 for g in games)


def recorded_seeds(db: Path) -> list[int]:
    with open_store(db, create=False) as store:
        return [row["seed"] for row in store.db.query("SELECT seed FROM games ORDER BY seq")]


def test_play_deals_are_keyed_by_the_database_and_repeat_on_it(played, run, tmp_path):
    """--seed 5 again on the same database deals the same games (the database keeps the key);
    on another database, other games; never 5, 6, 7 (a bot could search those)."""
    db, _ = played
    first = recorded_seeds(db)
    assert len(set(first)) == 3 and not set(first) & {5, 6, 7}
    assert all(0 <= seed < 2**63 for seed in first)
    assert run(*PLAY_THREE, "--db", str(db)).exit_code == 0
    assert recorded_seeds(db) == first + first
    other = tmp_path / "other.db"
    assert run(*PLAY_THREE, "--db", str(other)).exit_code == 0
    assert not set(recorded_seeds(other)) & set(first)


def test_ratings_shows_the_leaderboard_and_recompute_agrees(played, run):
    db, _ = played
    before = run("ratings", "corruption", "--db", str(db))
    assert before.exit_code == 0
    assert "corruption leaderboard" in before.output
    assert "corruption-greedy@1.0" in before.output and "μ-3σ" in before.output
    # random sat in two of the three seats of each game: wins are per seat, out of its seats
    assert "seat wins" in before.output and "win%/seat" in before.output
    rows = [line.split() for line in before.output.splitlines()]
    (row,) = [cells for cells in rows if cells and cells[0].startswith("random@")]
    games, seats, wins = int(row[1]), int(row[2]), int(row[6])
    assert (games, seats) == (3, 6) and wins <= seats
    assert row[7] == f"{100 * wins / seats:.0f}%"
    after = run("ratings", "corruption", "--db", str(db), "--recompute")
    assert after.exit_code == 0
    assert "Recomputed the ratings from 3 recorded game(s)" in after.output
    assert after.output.split("\n", 1)[1] == before.output, (
        "recomputed ratings equal the incremental ones"
    )


def test_games_lists_and_filters(played, run):
    db, _ = played
    listing = run("games", "--db", str(db), "--bot", "corruption-greedy")
    assert listing.exit_code == 0
    assert "3 game(s), newest first" in listing.output
    unknown = run("games", "--db", str(db), "--bot", "corruption-gredy")
    assert unknown.exit_code == 2, "a bot name that matches nothing is a usage mistake"
    assert "no bot 'corruption-gredy'" in unknown.output
    assert "did you mean 'corruption-greedy'?" in unknown.output


def test_show_replays_from_the_table_and_from_one_seat(played, run):
    db, _ = played
    with open_store(db, create=False) as store:
        game_id = store.list_games()[0].id
        (row,) = store.db.query("SELECT seed FROM games WHERE id = ?", [game_id])
    table = run("show", game_id[:6], "--db", str(db))
    assert table.exit_code == 0, table.output
    # the header wraps where the terminal ends: a 63-bit deal seed is 19 digits long
    header = " ".join(table.output.split())
    assert "the table's view" in header and "Result" in table.output
    assert f"seed {row['seed']}" in header, "the game's own deal seed: it replays alone"
    assert "Round 1: dealt" in table.output
    seat = run("show", game_id, "--seat", "1", "--db", str(db))
    assert seat.exit_code == 0
    assert "seat 1's view" in " ".join(seat.output.split())
    # a seat's replay hides the other seats' face-down cards; the table's shows them all
    assert "a face-down card" in seat.output
    assert "a face-down card" not in table.output
    bad_seat = run("show", game_id, "--seat", "9", "--db", str(db))
    assert bad_seat.exit_code == 2


def test_check_passes_a_good_bot(run, tmp_path):
    result = run("check", GREEDY, "--games", "2", "--seed", "1", "--logs", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert "PASS" in result.output and "Handshake ok" in result.output
    # an SDK bot negotiates every wire feature: the check exercises the negotiated wire
    assert "Wire features: view-patch, game-id-once, event-batch, choice-products" in result.output


def test_check_passes_a_bot_that_asks_for_no_wire_feature(run, tmp_path):
    result = run("check", "random", "--games", "1", "--seed", "1", "--logs", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert "Wire features: none asked for" in result.output


def test_check_explains_a_faulty_bot_and_exits_1(run, make_bot, tmp_path):
    result = run(
        "check", str(make_bot("illegal", 3)), "--games", "2", "--seed", "1", "--logs", str(tmp_path)
    )
    assert result.exit_code == 1, result.output
    assert "FAIL" in result.output and "illegal" in result.output
    assert "not one of the" in result.output


def test_check_reports_a_bot_that_cannot_start(run, make_bot, tmp_path):
    result = run("check", str(make_bot("version")), "--logs", str(tmp_path))
    assert result.exit_code == 1
    assert "did not start" in result.output and "protocol 99" in result.output


THREE_RANDOM = ["--bot", RANDOM] * 3
PLAY3 = ["play", "corruption", *THREE_RANDOM]


@pytest.mark.parametrize(
    "args,words",
    [
        (["play", "chess", "--bot", RANDOM], "unknown game 'chess'"),
        (["play", "corruption", "--bot", RANDOM, "--bot", RANDOM], "3 to 7 players"),
        (["play", "corruption", "--bot", "/no/such/dir", *THREE_RANDOM[:4]], "does not exist"),
        (["play", "corruption", "--bot", "nope", *THREE_RANDOM[:4]], "(bundled: corruption-"),
        (["check", "nope", "--games", "1"], "no bundled bot is called that"),
        (["check", "random", "--opponent", "nope"], "no bundled bot is called that"),
        ([*PLAY3, "--variant", "nope"], "nope"),
        ([*PLAY3, "--games", "0"], "--games"),
        ([*PLAY3, "--variant", "closed", "--variant", "stud-libre"], "closed"),
        (["check", str(ROOT), "--games", "1"], "bot.toml"),
    ],
)
def test_usage_mistakes_exit_2_with_a_message_naming_the_fix(run, args, words):
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert words in result.output


def test_reading_a_missing_database_says_what_to_do_and_creates_nothing(run, tmp_path):
    db = tmp_path / "missing.db"
    result = run("ratings", "--db", str(db))
    assert result.exit_code == 1
    assert "no database" in result.output and "arena play" in result.output
    assert not db.exists()


def test_a_locked_database_is_a_clear_error_not_a_traceback(run, tmp_path, monkeypatch):
    db = tmp_path / "arena.db"
    open_store(db, create=True).close()
    monkeypatch.setattr("arena.cli.common.BUSY_TIMEOUT_S", 0.1)
    holder = sqlite3.connect(db)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        result = run(
            "play", "corruption", "--bot", RANDOM, "--bot", RANDOM, "--bot", RANDOM, "--db", str(db)
        )
    finally:
        holder.rollback()
        holder.close()
    assert result.exit_code == 1, result.output
    assert "locked" in result.output and "another arena process" in result.output
    assert "1/1" not in result.output, "no game is played when its result could not be stored"


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help_with_an_example(run, command):
    result = run(*command.split(), "--help")
    assert result.exit_code == 0
    assert "Example: arena " + command in " ".join(result.output.split())


@pytest.mark.slow
def test_paranoia_plays_shows_rates_and_checks_end_to_end(run, tmp_path):
    """The third title through every command: real subprocesses, the survivor bot and the
    generic random bot; a seat's replay hides the other hands, the table's shows them."""
    db = tmp_path / "arena.db"
    survivor = str(ROOT / "bots" / "paranoia-survivor")
    args = ["--bot", survivor, "--bot", RANDOM, "--bot", RANDOM, "--bot", RANDOM]
    played = run("play", "paranoia", *args, "--games", "2", "--seed", "3", "--db", str(db))
    assert played.exit_code == 0, played.output
    assert "paranoia-survivor" in played.output and "2 game(s)" in played.output
    ratings = run("ratings", "paranoia", "--db", str(db))
    assert ratings.exit_code == 0 and "paranoia-survivor" in ratings.output
    with open_store(db, create=False) as store:
        game_id = store.list_games()[0].id
    table = run("show", game_id, "--db", str(db))
    seat = run("show", game_id, "--seat", "2", "--db", str(db))
    assert table.exit_code == 0 and seat.exit_code == 0, table.output + seat.output
    assert "Mission 1:" in table.output and "Game over after" in table.output
    dealt = re.compile(r"Seat (\d) draws (\d) card\(s\) \(deal\)")
    hidden = {m.group(1) for m in dealt.finditer(seat.output)}
    assert hidden and "2" not in hidden, "seat 2 sees counts of the others' deals, not its own"
    assert not dealt.search(table.output), "the table sees every card dealt"
    checked = run(
        "check",
        survivor,
        "--game",
        "paranoia",
        "--games",
        "2",
        "--seed",
        "1",
        "--logs",
        str(tmp_path / "logs"),
    )
    assert checked.exit_code == 0, checked.output
    assert "PASS" in checked.output


def test_output_that_is_not_a_terminal_is_never_wrapped(run, tmp_path, monkeypatch):
    """A pipe or a CI log is read with grep: a long line stays one line (rich would assume
    80 columns and break it mid-sentence)."""
    monkeypatch.delenv("COLUMNS")
    db = tmp_path / ("a-folder-with-a-long-name-" * 3) / "arena.db"
    db.parent.mkdir()
    open_store(db, create=True).close()
    result = run("ratings", "--db", str(db))
    assert result.exit_code == 0, result.output
    (line,) = result.output.splitlines()
    assert len(line) > 2 * 80 and line.endswith(f"--db {db}")
