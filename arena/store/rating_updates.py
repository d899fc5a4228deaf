"""Applying a game's rating update to the ratings tables, and replaying all of them.

One order serves both: save order (games.seq). A game is rated in the transaction that saves
it, against the ratings of every game saved before it, so a recompute that replays in seq
order gives bit-identical ratings. Finished order would not do: two league workers can
deliver their games out of it, and the live update cannot wait for a game still being played.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

import trueskill
from sqlite_utils import Database

from arena import ratings
from arena.record import GameStatus
from arena.store.db import write_transaction


def rate_game(
    db: Database,
    env: trueskill.TrueSkill,
    *,
    game_id: str,
    title: str,
    seats: Sequence[tuple[int, int]],
    when: str,
) -> None:
    """Update ``title``'s ratings for one complete game; ``seats`` is (bot_id, rank) in seat
    order. Writes one rating_history row per bot. Call inside the game's transaction."""
    bot_ids = sorted({bot_id for bot_id, _ in seats})
    prior = {
        row["bot_id"]: (row["mu"], row["sigma"])
        for row in db.query(
            "SELECT bot_id, mu, sigma FROM ratings"
            " WHERE title = ? AND bot_id IN (SELECT value FROM json_each(?))",
            [title, _json_list(bot_ids)],
        )
    }
    after = ratings.update(env, prior, seats)
    for bot_id, (mu, sigma) in after.items():
        mu_before, sigma_before = prior.get(bot_id, (env.mu, env.sigma))
        db.execute(
            """
            INSERT INTO ratings (title, bot_id, mu, sigma, games, updated_at)
            VALUES (?, ?, ?, ?, 1, ?)
            ON CONFLICT (title, bot_id) DO UPDATE SET
                mu = excluded.mu, sigma = excluded.sigma,
                games = games + 1, updated_at = excluded.updated_at
            """,
            [title, bot_id, mu, sigma, when],
        )
        db.execute(
            "INSERT INTO rating_history (game_id, title, bot_id, mu_before, sigma_before,"
            " mu_after, sigma_after) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [game_id, title, bot_id, mu_before, sigma_before, mu, sigma],
        )


def recompute(db: Database, env: trueskill.TrueSkill, title: str | None = None) -> int:
    """Forget ``title``'s ratings (all titles' when None) and replay every complete game in
    save order, the order they were rated in when saved, in one transaction. Returns the
    number of games replayed.

    One pass: every seat is read in a single query and the ratings are kept in memory, then
    written in bulk, which gives exactly what rate_game, game by game, would have written.
    """
    only = "" if title is None else " AND title = ?"
    params = [] if title is None else [title]
    current: dict[tuple[str, int], tuple[float, float, int, str]] = {}
    """(title, bot_id) -> (mu, sigma, rating updates, finished_at of the last one)."""
    history: list[tuple[str, str, int, float, float, float, float]] = []
    with write_transaction(db):
        db.execute("DELETE FROM rating_history WHERE 1" + only, params)
        db.execute("DELETE FROM ratings WHERE 1" + only, params)
        games = 0
        for game, seats in _complete_games(db, only, params):
            game_id, game_title, when = game
            games += 1
            prior = {
                bot_id: current[(game_title, bot_id)][:2]
                for bot_id, _ in seats
                if (game_title, bot_id) in current
            }
            for bot_id, (mu, sigma) in ratings.update(env, prior, seats).items():
                mu_before, sigma_before = prior.get(bot_id, (env.mu, env.sigma))
                updates = current.get((game_title, bot_id), (0, 0, 0, ""))[2]
                current[(game_title, bot_id)] = (mu, sigma, updates + 1, when)
                history.append((game_id, game_title, bot_id, mu_before, sigma_before, mu, sigma))
        db.conn.executemany(
            "INSERT INTO ratings (title, bot_id, mu, sigma, games, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            [(key[0], key[1], *value) for key, value in current.items()],
        )
        # In primary-key order (game_id, bot_id): game ids are random, so save order would
        # insert all over the table's B-tree; sorted, each insert goes next to the last one.
        history.sort()
        db.conn.executemany(
            "INSERT INTO rating_history (game_id, title, bot_id, mu_before, sigma_before,"
            " mu_after, sigma_after) VALUES (?, ?, ?, ?, ?, ?, ?)",
            history,
        )
    return games


def _complete_games(
    db: Database, only: str, params: list[str]
) -> Iterator[tuple[tuple[str, str, str], list[tuple[int, int]]]]:
    """((game id, title, finished_at), [(bot_id, rank) in seat order]) of every complete game
    (of the title, if ``only`` restricts it), in save order."""
    rows = db.execute(
        "SELECT g.id, g.title, g.finished_at, s.bot_id, s.rank"
        " FROM games g JOIN seats s ON s.game_id = g.id"
        " WHERE g.status = ?" + only.replace("title", "g.title") + " ORDER BY g.seq, s.seat",
        [GameStatus.COMPLETE, *params],
    )
    for game, seats in itertools.groupby(rows, key=lambda row: row[:3]):
        yield game, [(row[3], row[4]) for row in seats]


def _json_list(values: Sequence[int]) -> str:
    return "[" + ",".join(str(int(v)) for v in values) + "]"
