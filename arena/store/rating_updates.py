"""Applying a game's rating update to the ratings tables, and replaying all of them.

One order serves both: save order (games.seq). A game is rated in the transaction that saves
it, against the ratings of every game saved before it, so a recompute that replays in seq
order gives bit-identical ratings. Finished order would not do: two league workers can
deliver their games out of it, and the live update cannot wait for a game still being played.
"""

from __future__ import annotations

from collections.abc import Sequence

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
    number of games replayed."""
    only = "" if title is None else " AND title = ?"
    params = [] if title is None else [title]
    with write_transaction(db):
        db.execute("DELETE FROM rating_history WHERE 1" + only, params)
        db.execute("DELETE FROM ratings WHERE 1" + only, params)
        games = list(
            db.query(
                "SELECT id, title, finished_at FROM games WHERE status = ?"
                + only
                + " ORDER BY seq",
                [GameStatus.COMPLETE, *params],
            )
        )
        for game in games:
            seats = [
                (row["bot_id"], row["rank"])
                for row in db.query(
                    "SELECT bot_id, rank FROM seats WHERE game_id = ? ORDER BY seat", [game["id"]]
                )
            ]
            rate_game(
                db,
                env,
                game_id=game["id"],
                title=game["title"],
                seats=seats,
                when=game["finished_at"],
            )
    return len(games)


def _json_list(values: Sequence[int]) -> str:
    return "[" + ",".join(str(int(v)) for v in values) + "]"
