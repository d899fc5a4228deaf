"""Leagues in the arena database: their tables, which league a game belongs to, which of its
games are done, and who is disqualified.

arena.store keeps games, bots and ratings; the league tables live in the same file and are
created by the migrations below, registered in arena's migration set under the ids existing
databases already record (m002_leagues, m004_league_strikes); m009_league_tally adds the
standings leagues.tally keeps. Importing this module registers them; arena.cli.app (the
composition root) names it in arena.schema_extensions, so that arena.store imports it before
opening any database.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlite_utils import Database

from arena.faults import Fault
from arena.record import GameRecord
from arena.store import Store, StoreError
from arena.store.db import translate_errors, write_transaction
from arena.store.migrations import migrations
from leagues import tally
from leagues.standings import Standings


@migrations()
def m002_leagues(db: Database) -> None:
    for statement in _LEAGUES:
        db.execute(statement)


_LEAGUES = [
    """
    CREATE TABLE leagues (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        title TEXT NOT NULL,
        fingerprint TEXT NOT NULL,         -- leagues.schedule.schedule_fingerprint
        games INTEGER NOT NULL,            -- games scheduled
        path TEXT NOT NULL,                -- the league file it was first run from
        created_at TEXT NOT NULL
    ) STRICT
    """,
    """
    CREATE TABLE league_games (
        league_id INTEGER NOT NULL REFERENCES leagues (id),
        task INTEGER NOT NULL,             -- GameTask.index
        game_id TEXT NOT NULL UNIQUE REFERENCES games (id),
        PRIMARY KEY (league_id, task)
    ) STRICT
    """,
]


@migrations()
def m004_league_strikes(db: Database) -> None:
    db.execute(
        """
        CREATE TABLE league_disqualified (
            league_id INTEGER NOT NULL REFERENCES leagues (id),
            entrant INTEGER NOT NULL,          -- index into the league's entrants
            label TEXT NOT NULL,
            games INTEGER NOT NULL,            -- league games it had played
            faults INTEGER NOT NULL,           -- of which it faulted in
            at TEXT NOT NULL,
            PRIMARY KEY (league_id, entrant)
        ) STRICT
        """
    )


@migrations()
def m009_league_tally(db: Database) -> None:
    # Standings kept up to date as league games are saved (leagues.tally); recorded leagues
    # are replayed into them once, here.
    for statement in tally.CREATE:
        db.execute(statement)
    for (league_id,) in db.execute("SELECT id FROM leagues").fetchall():
        tally.rebuild(db, league_id)


class LeagueChanged(StoreError):
    """A league is being run again from a file whose schedule differs from the recorded one."""


@dataclass(frozen=True)
class LeagueRow:
    """A league as recorded."""

    id: int
    name: str
    title: str
    fingerprint: str
    """What determines the schedule (leagues.schedule.schedule_fingerprint)."""
    games: int
    """Games scheduled."""
    path: str


class LeagueStore:
    """The leagues recorded in an open arena database. Like Store's, every method turns the
    sqlite errors a user can cause into StoreErrors that say what to do."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def register(
        self, *, name: str, title: str, fingerprint: str, games: int, path: str
    ) -> LeagueRow:
        """The recorded league of this name, created if new.

        Raises LeagueChanged, changing nothing, when the name is recorded with another
        schedule: resuming would mix two different leagues' games.
        """
        db = self.store.db
        with translate_errors(self.store.path):
            with write_transaction(db):
                row = _by_name(db, name)
                if row is None:
                    db.table("leagues").insert(
                        {
                            "name": name,
                            "title": title,
                            "fingerprint": fingerprint,
                            "games": games,
                            "path": path,
                            "created_at": _now(),
                        }
                    )
                    row = _by_name(db, name)
                    assert row is not None
            if row.fingerprint != fingerprint:
                done = len(_done_tasks(db, row.id))
                raise LeagueChanged(
                    f"league {name!r} is already recorded ({done} of {row.games} games played, "
                    f"from {row.path}) with a different schedule: the file now asks for other "
                    "bots, games, table sizes, options or seed, or another --seed-key (or an "
                    "older arena, with other deal seeds, recorded it). Undo the change to resume "
                    "it, or give the league a new `name` (or use another --db) to start a new one."
                )
        return row

    def find(self, name: str) -> LeagueRow | None:
        """The recorded league of this name, if any."""
        with translate_errors(self.store.path):
            return _by_name(self.store.db, name)

    def save_game(self, record: GameRecord, league_id: int, task: int) -> None:
        """Store a game (Store.save_game) and file it as the league's task, in one
        transaction, so a rerun knows exactly which of the league's games are done."""
        with translate_errors(self.store.path), write_transaction(self.store.db):
            self.store.save_game(record)  # nests as a savepoint in this transaction
            self.store.db.table("league_games").insert(
                {"league_id": league_id, "task": task, "game_id": record.game_id}
            )
            seats = self.store.db.execute(
                "SELECT bot_id, rank, score, fault FROM seats WHERE game_id = ? ORDER BY seat",
                [record.game_id],
            ).fetchall()
            tally.add_game(self.store.db, league_id, record.status, seats)

    def done(self, league_id: int) -> set[int]:
        """Task indices of the league whose game is stored."""
        with translate_errors(self.store.path):
            return _done_tasks(self.store.db, league_id)

    def seats(self, league_id: int) -> list[dict[str, Any]]:
        """Every seat of the league's stored games, game by game in the order they were
        saved: game_id, status, players, seat, name, version, digest, rank, score, fault."""
        with translate_errors(self.store.path):
            return list(
                self.store.db.query(
                    """
                    SELECT g.id AS game_id, g.status, g.players, s.seat, b.name, b.version,
                           b.digest, s.rank, s.score, s.fault
                    FROM league_games lg
                    JOIN games g ON g.id = lg.game_id
                    JOIN seats s ON s.game_id = g.id
                    JOIN bots b ON b.id = s.bot_id
                    WHERE lg.league_id = ?
                    ORDER BY g.seq, s.seat
                    """,
                    [league_id],
                )
            )

    def standings(self, league: LeagueRow) -> Standings:
        """The league's standings as recorded so far, with its disqualifications."""
        with translate_errors(self.store.path):
            result = tally.standings(
                self.store.db,
                league.id,
                name=league.name,
                title=league.title,
                scheduled=league.games,
            )
        result.disqualified.extend(self.disqualified(league.id).values())
        return result

    def seat_faults(self, league_id: int) -> list[tuple[int, int, Fault]]:
        """(task index, seat, fault) for every seat of the league's stored games."""
        with translate_errors(self.store.path):
            return [
                (row[0], row[1], Fault(row[2]))
                for row in self.store.db.execute(
                    "SELECT lg.task, s.seat, s.fault FROM league_games lg "
                    "JOIN seats s ON s.game_id = lg.game_id WHERE lg.league_id = ?",
                    [league_id],
                )
            ]

    def disqualify(
        self, league_id: int, *, entrant: int, label: str, games: int, faults: int
    ) -> None:
        """Record that an entrant is struck out of the league (idempotent; see
        leagues.strikes)."""
        with translate_errors(self.store.path), write_transaction(self.store.db):
            self.store.db.execute(
                "INSERT OR IGNORE INTO league_disqualified "
                "(league_id, entrant, label, games, faults, at) VALUES (?, ?, ?, ?, ?, ?)",
                [league_id, entrant, label, games, faults, _now()],
            )

    def disqualified(self, league_id: int) -> dict[int, str]:
        """Entrant index -> why it was disqualified, for the league."""
        with translate_errors(self.store.path):
            return {
                row[0]: f"{row[1]} faulted in {row[3]} of {row[2]} games"
                for row in self.store.db.execute(
                    "SELECT entrant, label, games, faults FROM league_disqualified "
                    "WHERE league_id = ?",
                    [league_id],
                )
            }


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _done_tasks(db: Database, league_id: int) -> set[int]:
    return {
        row[0]
        for row in db.execute("SELECT task FROM league_games WHERE league_id = ?", [league_id])
    }


def _by_name(db: Database, name: str) -> LeagueRow | None:
    rows = list(
        db.query(
            "SELECT id, name, title, fingerprint, games, path FROM leagues WHERE name = ?", [name]
        )
    )
    return LeagueRow(**rows[0]) if rows else None
