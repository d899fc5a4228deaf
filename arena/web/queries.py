"""What the report's pages read from the database: paginated, through the schema's indexes, so
a page of a 100,000-game database is read in well under a second (`make bench` measures it).

The leaderboard's rows are arena.store.queries.leaderboard's, the very rows `arena ratings
--json` prints, with the per-seat figures the text table has no room for added beside them.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Generator, Iterable
from dataclasses import dataclass, field
from typing import Any

from sqlite_utils import Database

from arena.faults import Fault
from arena.store.queries import LeaderboardRow, leaderboard
from arena.web.paths import GameFilter, safe_file_name

PAGE_SIZE = 50
"""Games per page of a list."""
CHART_POINTS = 300
"""At most this many points per line of a rating chart: a picture of 100,000 games needs no
more, and the page stays small."""
HISTOGRAM_BINS = 20
TIMED_SEATS = 2000
"""A bot's time per decision is shown over at most this many of its seats."""


@dataclass(frozen=True)
class BotKey:
    """One bot (bots.id): a name, a version and the digest of its files."""

    bot_id: int
    name: str
    version: str
    digest: str
    display: str
    """name@version, with ~ and a digest prefix when another bot shares both (the way
    leagues.standings labels it)."""
    file_name: str
    """Its page's file name: ``display``, made safe."""

    @property
    def label(self) -> str:
        """name@version: what `arena games --bot` and the games list filter by."""
        return f"{self.name}@{self.version}" if self.version else self.name


def bot_keys(db: Database) -> dict[int, BotKey]:
    """Every stored bot by id."""
    rows = db.execute("SELECT id, name, version, digest FROM bots ORDER BY id").fetchall()
    shared = Counter((name, version) for _, name, version, _ in rows)
    keys = {}
    for bot_id, name, version, digest in rows:
        label = f"{name}@{version}" if version else name
        if shared[(name, version)] > 1:
            label = f"{label}~{digest[:6]}"
        keys[bot_id] = BotKey(bot_id, name, version, digest, label, safe_file_name(label))
    return keys


def latest_seq(db: Database) -> int:
    """The save order of the newest game (0 when none): it changes exactly when a game is
    saved, so a live page compares it to know when to refresh."""
    (seq,) = db.execute("SELECT coalesce(max(seq), 0) FROM games").fetchone()
    return int(seq)


@dataclass(frozen=True)
class BoardRow:
    """A leaderboard row and the per-seat figures beside it."""

    row: LeaderboardRow
    key: BotKey
    mean_rank: float | None
    wall_ms_per_decision: float | None
    cpu_ms_per_decision: float | None
    """None when no seat of it was measured (in-process bots, older databases)."""


def board(
    db: Database, title: str, keys: dict[int, BotKey], name: str | None = None
) -> list[BoardRow]:
    """The title's leaderboard (best first by mu - 3 sigma) with mean rank and time per
    decision over its seats in complete games (arena.store.seat_sums); ``name``: only the
    versions of that bot."""
    per_bot = {
        row[0]: row[1:]
        for row in db.execute(
            """
            SELECT bot_id, 1.0 * sum(rank_sum) / nullif(sum(seats), 0),
                   sum(time_ms) / nullif(sum(decisions), 0),
                   sum(cpu_ms) / nullif(sum(cpu_decisions), 0)
            FROM title_bot_seat_sums WHERE title = ? GROUP BY bot_id
            """,
            [title],
        )
    }
    return [
        BoardRow(row, keys[row.bot_id], *per_bot.get(row.bot_id, (None, None, None)))
        for row in leaderboard(db, title)
        if name is None or row.name == name
    ]


def rating_chart(db: Database, title: str, rows: list[BoardRow]) -> dict[str, Any]:
    """Each bot's mu (and mu ± 3 sigma) after the title's games, in save order (x: the game's
    seq), for the chart. Up to CHART_POINTS games it is every game; beyond, only the games
    whose seq is a multiple of k are read (a picture of 100,000 games needs no more, and
    reading them all takes seconds): a line then moves at the sampled games its bot sat in,
    and ends at its current rating."""
    (games,) = db.execute("SELECT count(*) FROM games WHERE title = ?", [title]).fetchone()
    stretch = max(1, math.ceil(games / CHART_POINTS))
    latest: dict[int, tuple[float, float]] = {}
    xs: list[int] = []
    points: dict[int, list[tuple[float, float] | None]] = {r.row.bot_id: [] for r in rows}
    number = None
    for game_number, bot_id, mu, sigma in db.execute(
        """
        SELECT g.seq, rh.bot_id, rh.mu_after, rh.sigma_after
        FROM games g JOIN rating_history rh ON rh.game_id = g.id
        WHERE g.title = :title AND g.seq % :stretch = 0 ORDER BY g.seq
        """,
        {"title": title, "stretch": stretch},
    ):
        if game_number != number and number is not None:
            _sample(xs, points, latest, number)
        number = game_number
        latest[bot_id] = (mu, sigma)
    if number is not None:
        _sample(xs, points, latest, number)
    (last,) = db.execute("SELECT max(seq) FROM games WHERE title = ?", [title]).fetchone()
    if last is not None and (not xs or xs[-1] != last):  # end where the leaderboard stands
        latest.update({r.row.bot_id: (r.row.mu, r.row.sigma) for r in rows})
        _sample(xs, points, latest, last)
    series = []
    for board_row in rows:
        values = points[board_row.row.bot_id]
        series.append(
            {
                "label": board_row.key.display,
                "mu": [None if p is None else round(p[0], 3) for p in values],
                "low": [None if p is None else round(p[0] - 3 * p[1], 3) for p in values],
                "high": [None if p is None else round(p[0] + 3 * p[1], 3) for p in values],
            }
        )
    return {
        "x": xs,
        "series": series,
        "xlabel": "games recorded (save order)"
        + (f", every {stretch}th shown" if stretch > 1 else ""),
        "ylabel": "μ ± 3σ",
        "integers": True,
    }


def _sample(
    xs: list[int],
    points: dict[int, list[tuple[float, float] | None]],
    latest: dict[int, tuple[float, float]],
    number: int,
) -> None:
    xs.append(number)
    for bot_id, values in points.items():
        values.append(latest.get(bot_id))


@dataclass(frozen=True)
class SeatCell:
    seat: int
    key: BotKey
    rank: int
    score: float
    fault: str
    fault_reason: str | None


@dataclass(frozen=True)
class GameRow:
    id: str
    title: str
    finished_at: str
    status: str
    termination: str
    decisions: int
    seats: list[SeatCell] = field(default_factory=list)

    @property
    def faulted(self) -> bool:
        return any(seat.fault != Fault.OK for seat in self.seats)

    @property
    def by_rank(self) -> list[SeatCell]:
        """The seats, best rank first (seat order among equals), as the games table shows
        them: sorted here rather than by a template filter, which cost more than the sort."""
        return sorted(self.seats, key=_rank)


@dataclass(frozen=True)
class GamesPage:
    rows: list[GameRow]
    page: int
    pages: int
    total: int


def _where(shown: GameFilter) -> tuple[str, list[Any]]:
    """The SQL condition on games g that ``shown`` asks for."""
    if shown.kind == "title":
        return "g.title = ?", [shown.value]
    if shown.kind == "bot":
        return (
            "EXISTS (SELECT 1 FROM seats s JOIN bots b ON b.id = s.bot_id WHERE s.game_id = g.id"
            " AND (b.name || '@' || b.version = ? OR (b.version = '' AND b.name = ?)))",
            [shown.value, shown.value],
        )
    if shown.kind == "league":
        return (
            "g.id IN (SELECT lg.game_id FROM league_games lg JOIN leagues l"
            " ON l.id = lg.league_id WHERE l.name = ?)",
            [shown.value],
        )
    if shown.kind == "fault":
        # the literal 'ok' lets SQLite read the index of faulted seats (m011) alone
        return "g.id IN (SELECT game_id FROM seats WHERE fault <> 'ok')", []
    return "1", []


def games_page(
    db: Database, shown: GameFilter, page: int, keys: dict[int, BotKey], size: int | None = None
) -> GamesPage:
    """Page ``page`` (from 1) of the games ``shown`` picks, newest saved first; ``size`` games
    a page (default PAGE_SIZE, read at each call)."""
    size = size or PAGE_SIZE
    where, args = _where(shown)
    total = _count(db, where, args)
    rows = _select_games(db, where, args, keys, size, (page - 1) * size)
    return GamesPage(rows, page, _pages(total, size), total)


def games_pages(
    db: Database, shown: GameFilter, keys: dict[int, BotKey], size: int | None = None
) -> Generator[GamesPage]:
    """Every page of the games ``shown`` picks, in order, read with one query: what the
    static site writes. Its statement stays open until the last page is read, or until the
    generator is closed (a read stopped early). Page by page, games_page would read all the
    games before each page (OFFSET) and, for a bot or a league, test every game: a
    20,000-game report spent four minutes there."""
    size = size or PAGE_SIZE
    where, args = _where(shown)
    total = _count(db, where, args)
    found = db.execute(f"{_GAMES} WHERE {where} {_NEWEST}", args)
    pages = _pages(total, size)
    try:
        for page in range(1, pages + 1):
            rows = _game_rows(found.fetchmany(size))
            if page == pages:
                found.close()  # read to the end: no lock held while the caller goes on
            _fill_seats(db, rows, keys)
            yield GamesPage(rows, page, pages, total)
    finally:
        found.close()  # a statement left open holds a read lock (stopped early: close())


_GAMES = "SELECT g.id, g.title, g.finished_at, g.status, g.termination, g.decisions FROM games g"
_NEWEST = "ORDER BY g.seq DESC"


def _count(db: Database, where: str, args: list[Any]) -> int:
    return int(db.execute(f"SELECT count(*) FROM games g WHERE {where}", args).fetchone()[0])


def _pages(total: int, size: int) -> int:
    return max(1, math.ceil(total / size))


def _game_rows(found: Iterable[Any]) -> list[GameRow]:
    return [GameRow(*row) for row in found]


def _select_games(
    db: Database, where: str, args: list[Any], keys: dict[int, BotKey], limit: int, offset: int
) -> list[GameRow]:
    found = db.execute(f"{_GAMES} WHERE {where} {_NEWEST} LIMIT ? OFFSET ?", [*args, limit, offset])
    rows = _game_rows(found)
    _fill_seats(db, rows, keys)
    return rows


def _rank(seat: SeatCell) -> int:
    return seat.rank


def _fill_seats(db: Database, rows: list[GameRow], keys: dict[int, BotKey]) -> None:
    by_id = {row.id: row for row in rows}
    for game_id, seat, bot_id, rank, score, fault, reason in db.execute(
        "SELECT game_id, seat, bot_id, rank, score, fault, fault_reason FROM seats"
        f" WHERE game_id IN ({','.join('?' * len(by_id))}) ORDER BY game_id, seat",
        list(by_id),
    ):
        by_id[game_id].seats.append(SeatCell(seat, keys[bot_id], rank, score, fault, reason))


@dataclass(frozen=True)
class BotReport:
    """Everything the bot page shows of one bot in one title."""

    key: BotKey
    title: str
    recent: list[GameRow]
    by_seat: list[dict[str, Any]]
    by_opponent: list[dict[str, Any]]
    fault_counts: list[tuple[str, int]]
    recent_faults: list[dict[str, Any]]
    timing: dict[str, Any]
    versions: list[BoardRow]


def bot_report(db: Database, key: BotKey, title: str, keys: dict[int, BotKey]) -> BotReport:
    seats_of_bot = (
        "FROM seats s JOIN games g ON g.id = s.game_id WHERE s.bot_id = :bot AND g.title = :title"
    )
    args = {"bot": key.bot_id, "title": title}
    by_seat = list(
        db.query(
            """
            SELECT seat, seats, wins, 1.0 * rank_sum / seats AS mean_rank,
                   score_sum / seats AS mean_score, faults
            FROM title_bot_seat_sums WHERE title = :title AND bot_id = :bot ORDER BY seat
            """,
            args,
        )
    )
    by_opponent = [
        {**row, "key": keys[row["opponent"]]}
        for row in db.query(
            """
            SELECT opponent_id AS opponent, meetings, ahead, ties FROM title_bot_opponents
            WHERE title = :title AND bot_id = :bot ORDER BY meetings DESC, opponent_id
            """,
            args,
        )
    ]
    # Faults through the index of faulted seats (m011: the literal 'ok' is what lets SQLite
    # use it); times from a sample of the bot's seats (the first TIMED_SEATS in the index's
    # order, which is the games' ids', not their dates), so the page reads a bounded number
    # of rows however many games the bot has played.
    faulted = f"{seats_of_bot} AND s.fault <> 'ok'"
    faults = Counter(
        dict(db.execute(f"SELECT s.fault, count(*) {faulted} GROUP BY s.fault", args).fetchall())
    )
    recent_faults = list(
        db.query(
            f"SELECT g.id AS game_id, s.seat, s.fault, s.fault_reason {faulted}"
            " ORDER BY g.seq DESC LIMIT 20",
            args,
        )
    )
    wall: list[float] = []
    cpu: list[float] = []
    for decisions, time_ms, cpu_ms in db.execute(
        f"SELECT s.decisions, s.time_ms, s.cpu_ms {seats_of_bot} AND s.decisions > 0 LIMIT :sample",
        {**args, "sample": TIMED_SEATS},
    ):
        wall.append(time_ms / decisions)
        if cpu_ms is not None:
            cpu.append(cpu_ms / decisions)
    recent = _select_games(
        db,
        # +title: walk the games newest first (seq) rather than sort all of the title's
        "+g.title = ? AND EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.bot_id = ?)",
        [title, key.bot_id],
        keys,
        limit=20,
        offset=0,
    )
    versions = board(db, title, keys, name=key.name)
    return BotReport(
        key=key,
        title=title,
        recent=recent,
        by_seat=by_seat,
        by_opponent=by_opponent,
        fault_counts=faults.most_common(),
        recent_faults=recent_faults,
        timing=timing_histogram(wall, cpu),
        versions=versions,
    )


def timing_histogram(wall: list[float], cpu: list[float]) -> dict[str, Any]:
    """Games per bin of milliseconds per decision, wall clock and CPU on the same bins."""
    values = wall + cpu
    if not values:
        return {"x": [], "series": [], "count": 0}
    low, high = min(values), max(values)
    width = (high - low) / HISTOGRAM_BINS or 1.0

    def counts(of: list[float]) -> list[int]:
        binned = [0] * HISTOGRAM_BINS
        for value in of:
            binned[min(HISTOGRAM_BINS - 1, int((value - low) / width))] += 1
        return binned

    series = [{"label": "wall ms per decision", "values": counts(wall)}]
    if cpu:
        series.append({"label": "CPU ms per decision", "values": counts(cpu)})
    return {
        "x": [round(low + (i + 0.5) * width, 3) for i in range(HISTOGRAM_BINS)],
        "series": series,
        "count": len(wall),
        "wall_mean": sum(wall) / len(wall) if wall else None,
        "cpu_mean": sum(cpu) / len(cpu) if cpu else None,
        "xlabel": "ms per decision (mean over a game)",
        "ylabel": "games",
    }


def bot_titles(db: Database) -> dict[str, list[int]]:
    """Per title, the bots that sat in one of its games."""
    found: dict[str, list[int]] = defaultdict(list)
    for title, bot_id in db.execute(
        "SELECT DISTINCT title, bot_id FROM title_bot_totals ORDER BY title, bot_id"
    ):
        found[title].append(bot_id)
    return dict(found)
