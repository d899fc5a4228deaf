"""`arena show` and `arena games` on a database holding values this arena cannot read (written
by a newer arena, or edited by hand): a one-line error naming the game, never a traceback."""

from __future__ import annotations

import sqlite3
import zlib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli.app import app
from arena.store import decisions, open_store
from tests.support.module_bots import own_snapshot_cache


@pytest.fixture(scope="module")
def one_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A database with one game of random bots (played once for the module; tests copy it)."""
    db = tmp_path_factory.mktemp("damaged") / "arena.db"
    bots = ["--bot", "random"] * 3
    with own_snapshot_cache(db.parent):
        played = CliRunner().invoke(
            app,
            ["play", "corruption", *bots, "--seed", "3", "--db", str(db)],
            catch_exceptions=False,
        )
    assert played.exit_code == 0, played.output
    with open_store(db, create=False) as store:
        (game,) = store.list_games()
    return db, game.id


def damaged(one_game: tuple[Path, str], folder: Path, *statements: str) -> Path:
    """A copy of the database with ``statements`` run on it as plain SQL (``:id`` is the game's
    id); CHECK constraints are off, as in a database another program wrote. Decisions are
    stored compressed (arena.store.decisions), so two SQL functions help damage them:
    ``compressed(text)`` stores any text as they are stored, and ``first_seat_moved(stored)``
    moves the first decision to the next of three seats."""
    original, game_id = one_game
    db = folder / "damaged.db"
    with sqlite3.connect(original) as source, sqlite3.connect(db) as copy:
        source.backup(copy)  # with what is still in the -wal file
    with sqlite3.connect(db) as conn:
        conn.create_function("compressed", 1, lambda text: zlib.compress(text.encode()))
        conn.create_function("first_seat_moved", 1, _first_seat_moved)
        conn.execute("PRAGMA ignore_check_constraints = ON")
        for statement in statements:
            assert conn.execute(statement, {"id": game_id}).rowcount == 1, statement
    return db


def _first_seat_moved(stored: bytes) -> bytes:
    rows = decisions.unpack(stored)
    rows[0][0] = (rows[0][0] + 1) % 3
    return decisions.pack(rows)


def one_line_error(result, *words: str) -> None:
    """Exit 1 with one error line naming ``words``: the last line (a replay that fails midway
    has shown what replayed)."""
    assert result.exit_code == 1, result.output
    lines = result.output.strip().splitlines()
    errors = [line for line in lines if line.startswith("error: ")]
    assert errors == lines[-1:], result.output
    for word in words:
        assert word in errors[0], result.output


# Each damage, and what the error names; a row both commands read is tried with both.
IN_BOTH = {
    "an unknown fault": (
        "UPDATE seats SET fault = 'gremlins' WHERE game_id = :id AND seat = 1",
        "seat 1's fault",
    ),
    "an unknown status": ("UPDATE games SET status = 'paused' WHERE id = :id", "status"),
}
IN_SHOW = {
    "decisions that are not JSON": (
        "UPDATE game_decisions SET decisions = compressed('[[0, 1') WHERE game_id = :id",
        "decisions",
    ),
    "a decision of the wrong shape": (
        "UPDATE game_decisions SET decisions = compressed('[[0, 1]]') WHERE game_id = :id",
        "decisions",
    ),
    "a decision's seat that is not a number": (
        "UPDATE game_decisions SET decisions = compressed('[[\"0\"], [1], [0], [1.5]]') "
        "WHERE game_id = :id",
        "decisions",
    ),
    "decisions that are not compressed": (
        "UPDATE game_decisions SET decisions = X'00ff' WHERE game_id = :id",
        "decisions",
    ),
    "no decisions row": ("DELETE FROM game_decisions WHERE game_id = :id", "decisions"),
    "options that are not an object": (
        "UPDATE games SET options = '[1]' WHERE id = :id",
        "options",
    ),
    "detail that is not JSON": ("UPDATE games SET detail = '{' WHERE id = :id", "detail"),
    "an unknown fault policy": (
        "UPDATE games SET fault_policy = 'shrug' WHERE id = :id",
        "fault policy",
    ),
    "a clock missing a field": (
        "UPDATE games SET time_control = '{\"decision_ms\": 1000}' WHERE id = :id",
        "time control",
    ),
}


@pytest.mark.parametrize(("statement", "named"), IN_BOTH.values(), ids=IN_BOTH.keys())
@pytest.mark.parametrize("command", ["show", "games"])
def test_a_value_both_commands_read(run, one_game, tmp_path, command, statement, named):
    db = damaged(one_game, tmp_path, statement)
    args = [command, one_game[1]] if command == "show" else [command]
    one_line_error(run(*args, "--db", str(db)), f"game {one_game[1]}", named, "newer arena")


@pytest.mark.parametrize(("statement", "named"), IN_SHOW.values(), ids=IN_SHOW.keys())
def test_a_value_show_reads(run, one_game, tmp_path, statement, named):
    db = damaged(one_game, tmp_path, statement)
    result = run("show", one_game[1], "--db", str(db))
    one_line_error(result, f"game {one_game[1]}", named, "newer arena")
    listing = run("games", "--db", str(db))
    assert listing.exit_code == 0 and one_game[1][:8] in listing.output, "the list does not read it"


# Values that load but that this arena's games refuse to replay.
UNREPLAYABLE = {
    "an unknown title": ("UPDATE games SET title = 'poker' WHERE id = :id", "unknown game 'poker'"),
    "options the game refuses": (
        'UPDATE games SET options = \'{"variants": ["moon"]}\' WHERE id = :id',
        "unknown variant(s) ['moon']",
    ),
    "a seat too few for the game": (
        "DELETE FROM seats WHERE game_id = :id AND seat = 2",
        "needs 3 to 7 players, not 2",
    ),
    "a decision of a seat the game does not ask": (
        # the first decision moved to the next seat (deals differ by database: not a constant)
        "UPDATE game_decisions SET decisions = first_seat_moved(decisions) WHERE game_id = :id",
        "decision 1 was recorded for seat",
    ),
}


@pytest.mark.parametrize(("statement", "named"), UNREPLAYABLE.values(), ids=UNREPLAYABLE.keys())
def test_a_game_that_does_not_replay(run, one_game, tmp_path, statement, named):
    db = damaged(one_game, tmp_path, statement)
    result = run("show", one_game[1], "--db", str(db))
    one_line_error(result, "does not replay on this version of arena", named)


@pytest.mark.parametrize(
    ("statement", "named"),
    [UNREPLAYABLE["an unknown title"], UNREPLAYABLE["options the game refuses"]],
    ids=["an unknown title", "options the game refuses"],
)
def test_a_game_that_cannot_be_rerun(run, one_game, tmp_path, statement, named):
    db = damaged(one_game, tmp_path, statement)
    result = run("rerun", one_game[1], "--db", str(db))
    one_line_error(result, "cannot be rerun on this version of arena", named)
