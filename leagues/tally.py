"""League standings kept up to date as each league game is saved, so reading them costs one
row per bot and per pair of bots, not a replay of every game (minutes at 100,000 games).

Per league and bot: its TrueSkill rating over the league's own games, updated in save order
(the order a replay of the stored games would use, so the figures are the same), and the sums
the means and confidence intervals need. Per league and ordered pair of bots: meetings, how
often the first finished ahead, and ties. Only complete games count, as in the standings.

``rebuild`` replays a league's stored games through ``add_game``: the migration that created
these tables uses it for leagues recorded before them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from sqlite_utils import Database

from arena import ratings
from arena.faults import Fault
from arena.record import GameStatus
from leagues.standings import BotStanding, HeadToHead, Interval, Standings, labels_of

CREATE = [
    """
    CREATE TABLE league_bot_tally (
        league_id INTEGER NOT NULL REFERENCES leagues (id),
        bot_id INTEGER NOT NULL REFERENCES bots (id),
        games INTEGER NOT NULL,            -- complete league games it sat in
        seats INTEGER NOT NULL,            -- seats it played in them
        mu REAL NOT NULL,                  -- TrueSkill over the league's games only
        sigma REAL NOT NULL,
        wins INTEGER NOT NULL,             -- seats ranked 1
        rank_sum INTEGER NOT NULL,
        rank_squares INTEGER NOT NULL,
        score_sum REAL NOT NULL,
        score_squares REAL NOT NULL,
        faults INTEGER NOT NULL,           -- seats that faulted
        PRIMARY KEY (league_id, bot_id)
    ) STRICT
    """,
    """
    CREATE TABLE league_head_to_head (
        league_id INTEGER NOT NULL REFERENCES leagues (id),
        bot_id INTEGER NOT NULL REFERENCES bots (id),
        opponent_id INTEGER NOT NULL REFERENCES bots (id),
        meetings INTEGER NOT NULL,         -- seat against seat
        ahead INTEGER NOT NULL,            -- bot ranked better than opponent
        ties INTEGER NOT NULL,
        PRIMARY KEY (league_id, bot_id, opponent_id)
    ) STRICT
    """,
]

Seat = tuple[int, int, float, str]
"""(bot_id, rank, score, fault) of one seat."""


def add_game(db: Database, league_id: int, status: str, seats: Sequence[Seat]) -> None:
    """Count one saved league game; ``seats`` in seat order. Call inside its transaction."""
    if status != GameStatus.COMPLETE:
        return
    env = ratings.default_env()
    bots = sorted({seat[0] for seat in seats})
    prior = {
        row[0]: (row[1], row[2])
        for row in db.execute(
            "SELECT bot_id, mu, sigma FROM league_bot_tally WHERE league_id = ?"
            " AND bot_id IN (SELECT value FROM json_each(?))",
            [league_id, "[" + ",".join(map(str, bots)) + "]"],
        )
    }
    rated = ratings.update(env, prior, [(bot_id, rank) for bot_id, rank, _, _ in seats])
    sums: dict[int, list[Any]] = {bot: [0, 0, 0, 0, 0.0, 0.0, 0] for bot in bots}
    for bot_id, rank, score, fault in seats:
        tally = sums[bot_id]
        tally[0] += 1
        tally[1] += rank == 1
        tally[2] += rank
        tally[3] += rank * rank
        tally[4] += score
        tally[5] += score * score
        tally[6] += fault != Fault.OK
    for bot_id, tally in sums.items():
        mu, sigma = rated.get(bot_id) or prior.get(bot_id) or (env.mu, env.sigma)
        db.execute(
            """
            INSERT INTO league_bot_tally (league_id, bot_id, games, seats, mu, sigma, wins,
                rank_sum, rank_squares, score_sum, score_squares, faults)
            VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (league_id, bot_id) DO UPDATE SET
                games = games + 1, seats = seats + excluded.seats,
                mu = excluded.mu, sigma = excluded.sigma, wins = wins + excluded.wins,
                rank_sum = rank_sum + excluded.rank_sum,
                rank_squares = rank_squares + excluded.rank_squares,
                score_sum = score_sum + excluded.score_sum,
                score_squares = score_squares + excluded.score_squares,
                faults = faults + excluded.faults
            """,
            [league_id, bot_id, *tally[:1], mu, sigma, *tally[1:]],
        )
    meetings: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0, 0])
    for a, a_rank, _, _ in seats:
        for b, b_rank, _, _ in seats:
            if a != b:
                tally = meetings[(a, b)]
                tally[0] += 1
                tally[1] += a_rank < b_rank
                tally[2] += a_rank == b_rank
    db.conn.executemany(
        """
        INSERT INTO league_head_to_head (league_id, bot_id, opponent_id, meetings, ahead, ties)
        VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT (league_id, bot_id, opponent_id) DO UPDATE SET
            meetings = meetings + excluded.meetings, ahead = ahead + excluded.ahead,
            ties = ties + excluded.ties
        """,
        [(league_id, a, b, *tally) for (a, b), tally in meetings.items()],
    )


def rebuild(db: Database, league_id: int) -> None:
    """Recount a league from its stored games, replayed in save order."""
    db.execute("DELETE FROM league_bot_tally WHERE league_id = ?", [league_id])
    db.execute("DELETE FROM league_head_to_head WHERE league_id = ?", [league_id])
    game_id, status, seats = None, "", []
    for row in db.execute(
        """
        SELECT g.id, g.status, s.bot_id, s.rank, s.score, s.fault
        FROM league_games lg JOIN games g ON g.id = lg.game_id
        JOIN seats s ON s.game_id = g.id
        WHERE lg.league_id = ? ORDER BY g.seq, s.seat
        """,
        [league_id],
    ).fetchall():
        if row[0] != game_id and game_id is not None:
            add_game(db, league_id, status, seats)
            seats = []
        game_id, status = row[0], row[1]
        seats.append(row[2:])
    if game_id is not None:
        add_game(db, league_id, status, seats)


def standings(db: Database, league_id: int, *, name: str, title: str, scheduled: int) -> Standings:
    """The league's standings from its tallies (disqualifications are the caller's)."""
    counts = dict(
        db.execute(
            "SELECT g.status, count(*) FROM league_games lg JOIN games g ON g.id = lg.game_id"
            " WHERE lg.league_id = ? GROUP BY g.status",
            [league_id],
        ).fetchall()
    )
    rows = list(
        db.query(
            "SELECT t.*, b.name, b.version, b.digest FROM league_bot_tally t"
            " JOIN bots b ON b.id = t.bot_id WHERE t.league_id = ?",
            [league_id],
        )
    )
    keys = {row["bot_id"]: (row["name"], row["version"], row["digest"]) for row in rows}
    labels = labels_of(set(keys.values()))
    label = {bot_id: labels[key] for bot_id, key in keys.items()}
    bots = [
        BotStanding(
            label=label[row["bot_id"]],
            games=row["games"],
            seats=row["seats"],
            mu=row["mu"],
            sigma=row["sigma"],
            wins=row["wins"],
            rank=Interval.of_sums(row["seats"], row["rank_sum"], row["rank_squares"]),
            score=Interval.of_sums(row["seats"], row["score_sum"], row["score_squares"]),
            faults=row["faults"],
        )
        for row in rows
    ]
    bots.sort(key=lambda b: (-b.conservative, b.label))
    head = sorted(
        (
            HeadToHead(label[a], label[b], meetings, ahead, ties)
            for a, b, meetings, ahead, ties in db.execute(
                "SELECT bot_id, opponent_id, meetings, ahead, ties FROM league_head_to_head"
                " WHERE league_id = ?",
                [league_id],
            )
        ),
        key=lambda h: (h.a, h.b),
    )
    complete = counts.get(GameStatus.COMPLETE, 0)
    return Standings(name, title, scheduled, complete, sum(counts.values()) - complete, bots, head)
