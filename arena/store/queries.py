"""Read-only questions about stored games: titles and leaderboards."""

from __future__ import annotations

from dataclasses import dataclass

from sqlite_utils import Database

from arena.ratings import CONSERVATIVE_K, conservative
from arena.record import BotIdentity
from arena.store.db import StoreError


@dataclass(frozen=True)
class LeaderboardRow:
    """One rated bot in one title."""

    bot_id: int
    name: str
    version: str
    digest: str
    """Tells apart two bots with the same name@version but different files."""
    games: int
    """Complete games of the title it played."""
    mu: float
    sigma: float
    conservative: float
    """mu - 3 sigma: what the table is ordered by."""
    seats: int
    """Seats it played in complete games (a bot in two seats of a game counts two)."""
    wins: int
    """Seats that ranked 1 in complete games (a shared first place counts): counted per seat,
    like ``seats``, so wins <= seats and wins / seats is a win rate even when a bot sits
    twice at a table (per game, a bot in two seats of three would win far more often)."""
    mean_score: float | None
    """Mean score over its seats in complete games."""
    faults: int
    """Complete games in which one of its seats had a fault other than ok."""
    aborted: int
    """Aborted games it sat in (stored, not rated, not in the counts above)."""

    @property
    def label(self) -> str:
        return BotIdentity(self.name, self.version, self.digest).label


def titles(db: Database) -> list[str]:
    """The game titles that have stored games, sorted.

    One index seek per title (the next title after the last, on games_by_title), not the
    whole index that SELECT DISTINCT reads: 23 ms on 100,000 games, paid by every page of
    the report that lists the titles."""
    return [row[0] for row in db.execute(TITLES_SQL)]


TITLES_SQL = (
    "WITH RECURSIVE t(title) AS ("
    " SELECT min(title) FROM games"
    " UNION ALL"
    " SELECT (SELECT min(title) FROM games WHERE title > t.title) FROM t"
    " WHERE t.title IS NOT NULL"
    ") SELECT title FROM t WHERE title IS NOT NULL"
)


def leaderboard(db: Database, title: str) -> list[LeaderboardRow]:
    """Every bot rated in ``title``, best first by mu - 3 sigma (then mu, name, version).

    Raises StoreError if the database has no game of ``title`` (most likely a typo).
    """
    if db.execute("SELECT 1 FROM games WHERE title = ? LIMIT 1", [title]).fetchone() is None:
        known = ", ".join(titles(db)) or "none yet"
        raise StoreError(f"no games of {title!r} in the database (titles with games: {known})")
    rows = db.query(
        """
        SELECT b.id AS bot_id, b.name, b.version, b.digest, r.mu, r.sigma,
               coalesce(t.games, 0) AS games, coalesce(t.seats, 0) AS seats,
               coalesce(t.wins, 0) AS wins, t.score_sum / nullif(t.seats, 0) AS mean_score,
               coalesce(t.faults, 0) AS faults, coalesce(t.aborted, 0) AS aborted
        FROM ratings r
        JOIN bots b ON b.id = r.bot_id
        LEFT JOIN title_bot_totals t ON t.title = r.title AND t.bot_id = r.bot_id
        WHERE r.title = :title
        ORDER BY r.mu - :k * r.sigma DESC, r.mu DESC, b.name, b.version, b.id
        """,
        {"title": title, "k": CONSERVATIVE_K},
    )
    return [
        LeaderboardRow(
            bot_id=row["bot_id"],
            name=row["name"],
            version=row["version"],
            digest=row["digest"],
            games=row["games"],
            seats=row["seats"],
            mu=row["mu"],
            sigma=row["sigma"],
            conservative=conservative(row["mu"], row["sigma"]),
            wins=row["wins"],
            mean_score=row["mean_score"],
            faults=row["faults"],
            aborted=row["aborted"],
        )
        for row in rows
    ]
