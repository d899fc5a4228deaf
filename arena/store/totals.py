"""Per title and bot, the counts a leaderboard shows beside the rating (games, seats, wins,
score, faults, aborted games), kept up to date as each game is saved, so a leaderboard reads
one row per bot instead of aggregating every seat of the title (seconds at 100,000 games).

``rebuild`` computes them from the stored games: the migration that created the table uses
it, and so can anything that writes games other than through ``save_game``.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlite_utils import Database

from arena.faults import Fault
from arena.record import GameStatus

CREATE = """
    CREATE TABLE title_bot_totals (
        title TEXT NOT NULL,
        bot_id INTEGER NOT NULL REFERENCES bots (id),
        games INTEGER NOT NULL,            -- complete games it sat in (once, whatever its seats)
        seats INTEGER NOT NULL,            -- seats it played in complete games
        wins INTEGER NOT NULL,             -- of those, seats ranked 1 (shared firsts count)
        score_sum REAL NOT NULL,           -- over those seats
        faults INTEGER NOT NULL,           -- complete games where one of its seats faulted
        aborted INTEGER NOT NULL,          -- aborted games it sat in
        PRIMARY KEY (title, bot_id)
    ) STRICT
"""


def add_game(
    db: Database, *, title: str, status: GameStatus, seats: Sequence[tuple[int, int, float, str]]
) -> None:
    """Count one saved game; ``seats`` is (bot_id, rank, score, fault) per seat. Call inside
    the game's transaction."""
    complete = status == GameStatus.COMPLETE
    per_bot: dict[int, list[float]] = {}
    for bot_id, rank, score, fault in seats:
        tally = per_bot.setdefault(bot_id, [0, 0, 0.0, 0])
        tally[0] += 1
        tally[1] += rank == 1
        tally[2] += score
        tally[3] = max(tally[3], fault != Fault.OK)
    for bot_id, (seat_count, first_seats, score_sum, faulted) in per_bot.items():
        row = (
            [1, seat_count, first_seats, score_sum, faulted, 0]
            if complete
            else [0, 0, 0, 0.0, 0, 1]
        )
        db.execute(
            """
            INSERT INTO title_bot_totals
                (title, bot_id, games, seats, wins, score_sum, faults, aborted)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (title, bot_id) DO UPDATE SET
                games = games + excluded.games, seats = seats + excluded.seats,
                wins = wins + excluded.wins, score_sum = score_sum + excluded.score_sum,
                faults = faults + excluded.faults, aborted = aborted + excluded.aborted
            """,
            [title, bot_id, *row],
        )


def rebuild(db: Database) -> None:
    """Recount every title's totals from the stored seats."""
    db.execute("DELETE FROM title_bot_totals")
    db.execute(
        """
        INSERT INTO title_bot_totals
            (title, bot_id, games, seats, wins, score_sum, faults, aborted)
        WITH per_game AS (            -- one row per (bot, game), whatever its number of seats
            SELECT g.title, s.bot_id, g.status = :complete AS complete,
                   sum(s.rank = 1) AS first_seats, sum(s.score) AS score_sum,
                   count(*) AS seat_count, max(s.fault <> :ok) AS faulted
            FROM seats s JOIN games g ON g.id = s.game_id
            GROUP BY s.bot_id, s.game_id
        )
        SELECT title, bot_id, sum(complete),
               sum(CASE WHEN complete THEN seat_count ELSE 0 END),
               sum(CASE WHEN complete THEN first_seats ELSE 0 END),
               total(CASE WHEN complete THEN score_sum END),
               sum(complete AND faulted), sum(NOT complete)
        FROM per_game GROUP BY title, bot_id
        """,
        {"complete": GameStatus.COMPLETE, "ok": Fault.OK},
    )
