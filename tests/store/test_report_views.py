"""The SQL views (m010) that make arena.db meaningful in sqlite-utils or Datasette, and the seat
sums (m011) the web report reads: present in every database, old ones included, and saying
what arena itself says."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from typer.testing import CliRunner

from arena.cli.app import app
from arena.faults import Fault
from arena.record import GameStatus
from arena.store import open_store, seat_sums
from tests.support.schemas import MIGRATION_IDS, SCHEMA_M009, SCHEMA_M011, mark_as_migrated


def _m009_database(path: Path) -> None:
    with sqlite3.connect(path) as conn:
        conn.executescript(SCHEMA_M009.read_text())
        conn.execute("INSERT INTO meta (key, value) VALUES ('bot_seed_key', '00')")
        mark_as_migrated(conn, MIGRATION_IDS[: MIGRATION_IDS.index("m009_league_tally") + 1])


def test_a_database_from_before_the_views_gets_them(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    _m009_database(db)
    with open_store(db, create=False) as store:
        views = {
            row[0] for row in store.db.execute("SELECT name FROM sqlite_master WHERE type = 'view'")
        }
    assert views == {"leaderboard", "bot_games"}
    assert "CREATE VIEW leaderboard" in SCHEMA_M011.read_text()


def test_the_leaderboard_view_is_what_ratings_json_prints(
    store, db_path: Path, make_game, bots
) -> None:
    for number in range(4):
        store.save_game(
            make_game(
                f"g{number}",
                [(bots.alpha, 1 + number % 2), (bots.beta, 2 - number % 2), (bots.gamma, 3)],
            )
        )
    store.close()
    printed = CliRunner().invoke(app, ["ratings", "corruption", "--json", "--db", str(db_path)])
    assert printed.exit_code == 0, printed.output
    expected = json.loads(printed.output)["corruption"]
    with open_store(db_path, create=False) as reopened:
        rows = list(reopened.db.query("SELECT * FROM leaderboard WHERE title = 'corruption'"))
    assert [row["bot"] for row in rows] == [row["bot"] for row in expected]
    for row, want in zip(rows, expected, strict=True):
        for column in ("games", "seats", "mu", "sigma", "mu_minus_3sigma", "wins", "faults"):
            assert row[column] == want[column], column


def test_bot_games_lists_each_seat_of_a_bot(store, make_game, bots) -> None:
    store.save_game(make_game("g1", [(bots.alpha, 1), (bots.beta, 2)]))
    store.save_game(make_game("g2", [(bots.beta, 1), (bots.gamma, 2)]))
    rows = list(
        store.db.query(
            "SELECT game_id, seat, rank FROM bot_games WHERE bot = 'beta@2.0' ORDER BY seq"
        )
    )
    assert rows == [
        {"game_id": "g1", "seat": 1, "rank": 2},
        {"game_id": "g2", "seat": 0, "rank": 1},
    ]


def test_seat_sums_kept_by_triggers_equal_a_recount(store, make_game, bots) -> None:
    """m011: what the triggers count game by game is what rebuild counts from scratch, aborted
    games and faults included (both left out of the sums like the leaderboard leaves them)."""
    lineups = [
        [(bots.alpha, 1), (bots.beta, 2), (bots.gamma, 3)],
        [(bots.beta, 1), (bots.beta, 1), (bots.alpha, 3)],  # a bot twice; a tie
        [(bots.gamma, 1), (bots.alpha, 2)],
    ]
    for number in range(9):
        store.save_game(
            make_game(
                f"g{number}",
                lineups[number % 3],
                status=GameStatus.ABORTED if number == 4 else GameStatus.COMPLETE,
                faults={0: Fault.TIMEOUT} if number == 5 else None,
            )
        )

    def tables() -> list[list[tuple]]:
        return [
            sorted(store.db.execute(f"SELECT * FROM {table}").fetchall())
            for table in ("title_bot_seat_sums", "title_bot_opponents")
        ]

    kept = tables()
    seat_sums.rebuild(store.db)
    assert kept == tables()
    assert sum(row[3] for row in kept[0]) == 21  # the seats of the 8 complete games
