"""Sums over the seats of complete games, kept by SQLite triggers as seats are inserted: per
(title, bot, seat) the counts behind mean rank, win rate by seat and time per decision; per
(title, bot, opponent) how often the bot finished ahead of the opponent at one table; and an
index of the seats that faulted.

Triggers rather than code in save_game: every path that inserts seats (save_game, the bulk
copies of leagues.bench_store) counts them, and nothing can forget to. A game's row is
inserted before its seats, so its status is known when they arrive. ``rebuild`` recounts
from the stored seats (the migration that made the tables uses it).
"""

from __future__ import annotations

from sqlite_utils import Database

CREATE = [
    """
    CREATE TABLE title_bot_seat_sums (
        title TEXT NOT NULL,
        bot_id INTEGER NOT NULL REFERENCES bots (id),
        seat INTEGER NOT NULL,
        seats INTEGER NOT NULL,            -- seats it played in complete games
        wins INTEGER NOT NULL,             -- of those, ranked 1
        rank_sum INTEGER NOT NULL,
        score_sum REAL NOT NULL,
        faults INTEGER NOT NULL,           -- seats with a fault other than ok
        decisions INTEGER NOT NULL,
        time_ms REAL NOT NULL,             -- wall clock over those decisions
        cpu_decisions INTEGER NOT NULL,    -- decisions of the seats whose CPU was measured
        cpu_ms REAL NOT NULL,
        PRIMARY KEY (title, bot_id, seat)
    ) STRICT
    """,
    """
    CREATE TABLE title_bot_opponents (
        title TEXT NOT NULL,
        bot_id INTEGER NOT NULL REFERENCES bots (id),
        opponent_id INTEGER NOT NULL REFERENCES bots (id),
        meetings INTEGER NOT NULL,         -- seat against seat, in complete games
        ahead INTEGER NOT NULL,            -- bot ranked better than opponent
        ties INTEGER NOT NULL,
        PRIMARY KEY (title, bot_id, opponent_id)
    ) STRICT, WITHOUT ROWID
    """,
    # The faulted seats alone (few): a bot's faults and the games list's fault filter read
    # them without visiting every seat.
    "CREATE INDEX seats_faulted ON seats (bot_id, game_id) WHERE fault <> 'ok'",
    """
    CREATE TRIGGER seat_sums_after_insert AFTER INSERT ON seats
    BEGIN
        INSERT INTO title_bot_seat_sums
            (title, bot_id, seat, seats, wins, rank_sum, score_sum, faults, decisions,
             time_ms, cpu_decisions, cpu_ms)
        SELECT g.title, NEW.bot_id, NEW.seat, 1, NEW.rank = 1, NEW.rank, NEW.score,
               NEW.fault <> 'ok', NEW.decisions, NEW.time_ms,
               CASE WHEN NEW.cpu_ms IS NULL THEN 0 ELSE NEW.decisions END,
               coalesce(NEW.cpu_ms, 0.0)
        FROM games g WHERE g.id = NEW.game_id AND g.status = 'complete'
        ON CONFLICT (title, bot_id, seat) DO UPDATE SET
            seats = seats + 1, wins = wins + excluded.wins,
            rank_sum = rank_sum + excluded.rank_sum, score_sum = score_sum + excluded.score_sum,
            faults = faults + excluded.faults, decisions = decisions + excluded.decisions,
            time_ms = time_ms + excluded.time_ms,
            cpu_decisions = cpu_decisions + excluded.cpu_decisions,
            cpu_ms = cpu_ms + excluded.cpu_ms;
        -- each pair once, when its second seat arrives, in both directions
        INSERT INTO title_bot_opponents (title, bot_id, opponent_id, meetings, ahead, ties)
        SELECT g.title, pair.a, pair.b, 1, pair.a_rank < pair.b_rank, pair.a_rank = pair.b_rank
        FROM games g JOIN (
            SELECT NEW.bot_id AS a, NEW.rank AS a_rank, o.bot_id AS b, o.rank AS b_rank
            FROM seats o WHERE o.game_id = NEW.game_id AND o.seat <> NEW.seat
                AND o.bot_id <> NEW.bot_id
            UNION ALL
            SELECT o.bot_id, o.rank, NEW.bot_id, NEW.rank
            FROM seats o WHERE o.game_id = NEW.game_id AND o.seat <> NEW.seat
                AND o.bot_id <> NEW.bot_id
        ) AS pair
        WHERE g.id = NEW.game_id AND g.status = 'complete'
        ON CONFLICT (title, bot_id, opponent_id) DO UPDATE SET
            meetings = meetings + 1, ahead = ahead + excluded.ahead, ties = ties + excluded.ties;
    END
    """,
]


def rebuild(db: Database) -> None:
    """Recount both tables from the stored seats of complete games."""
    db.execute("DELETE FROM title_bot_seat_sums")
    db.execute("DELETE FROM title_bot_opponents")
    db.execute(
        """
        INSERT INTO title_bot_seat_sums
            (title, bot_id, seat, seats, wins, rank_sum, score_sum, faults, decisions,
             time_ms, cpu_decisions, cpu_ms)
        SELECT g.title, s.bot_id, s.seat, count(*), sum(s.rank = 1), sum(s.rank),
               total(s.score), sum(s.fault <> 'ok'), sum(s.decisions), total(s.time_ms),
               sum(CASE WHEN s.cpu_ms IS NULL THEN 0 ELSE s.decisions END), total(s.cpu_ms)
        FROM seats s JOIN games g ON g.id = s.game_id
        WHERE g.status = 'complete'
        GROUP BY g.title, s.bot_id, s.seat
        """
    )
    db.execute(
        """
        INSERT INTO title_bot_opponents (title, bot_id, opponent_id, meetings, ahead, ties)
        SELECT g.title, s.bot_id, o.bot_id, count(*), sum(s.rank < o.rank),
               sum(s.rank = o.rank)
        FROM seats s JOIN seats o ON o.game_id = s.game_id AND o.seat <> s.seat
            AND o.bot_id <> s.bot_id
        JOIN games g ON g.id = s.game_id
        WHERE g.status = 'complete'
        GROUP BY g.title, s.bot_id, o.bot_id
        """
    )
