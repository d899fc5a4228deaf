"""Leagues in the database: which league a game belongs to, and which of its games are done."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlite_utils import Database

from arena.faults import Fault
from arena.store.db import StoreError, write_transaction


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


def register_league(
    db: Database, *, name: str, title: str, fingerprint: str, games: int, path: str
) -> LeagueRow:
    """The recorded league of this name, created if new.

    Raises LeagueChanged, changing nothing, when the name is recorded with another schedule:
    resuming would mix two different leagues' games.
    """
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
                    "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
                }
            )
            row = _by_name(db, name)
            assert row is not None
    if row.fingerprint != fingerprint:
        done = len(done_tasks(db, row.id))
        raise LeagueChanged(
            f"league {name!r} is already recorded ({done} of {row.games} games played, from "
            f"{row.path}) with a different schedule: the file now asks for other bots, games, "
            "table sizes, options or seed (or an older arena, with other deal seeds, recorded "
            "it). Undo the edit to resume it, or give the league a new "
            "`name` (or use another --db) to start a new one."
        )
    return row


def find_league(db: Database, name: str) -> LeagueRow | None:
    """The recorded league of this name, if any."""
    return _by_name(db, name)


def done_tasks(db: Database, league_id: int) -> set[int]:
    """Indices of the league's tasks whose game is stored."""
    return {
        row[0]
        for row in db.execute("SELECT task FROM league_games WHERE league_id = ?", [league_id])
    }


def league_seats(db: Database, league_id: int) -> Iterator[dict[str, Any]]:
    """Every seat of the league's stored games, game by game in the order they were saved:
    game_id, status, players, seat, name, version, digest, rank, score, fault."""
    yield from db.query(
        """
        SELECT g.id AS game_id, g.status, g.players, s.seat, b.name, b.version, b.digest,
               s.rank, s.score, s.fault
        FROM league_games lg
        JOIN games g ON g.id = lg.game_id
        JOIN seats s ON s.game_id = g.id
        JOIN bots b ON b.id = s.bot_id
        WHERE lg.league_id = ?
        ORDER BY g.seq, s.seat
        """,
        [league_id],
    )


def seat_faults(db: Database, league_id: int) -> Iterator[tuple[int, int, Fault]]:
    """(task index, seat, fault) for every seat of the league's stored games."""
    for row in db.execute(
        "SELECT lg.task, s.seat, s.fault FROM league_games lg JOIN seats s ON s.game_id = "
        "lg.game_id WHERE lg.league_id = ?",
        [league_id],
    ):
        yield row[0], row[1], Fault(row[2])


def disqualify(
    db: Database, league_id: int, *, entrant: int, label: str, games: int, faults: int
) -> None:
    """Record that an entrant is struck out of the league (idempotent)."""
    with write_transaction(db):
        db.execute(
            "INSERT OR IGNORE INTO league_disqualified (league_id, entrant, label, games, faults, at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            [
                league_id,
                entrant,
                label,
                games,
                faults,
                datetime.now(UTC).isoformat(timespec="seconds"),
            ],
        )


def disqualified(db: Database, league_id: int) -> dict[int, str]:
    """Entrant index -> why it was disqualified, for the league."""
    return {
        row[0]: f"{row[1]} faulted in {row[3]} of {row[2]} games"
        for row in db.execute(
            "SELECT entrant, label, games, faults FROM league_disqualified WHERE league_id = ?",
            [league_id],
        )
    }


def _by_name(db: Database, name: str) -> LeagueRow | None:
    rows = list(
        db.query(
            "SELECT id, name, title, fingerprint, games, path FROM leagues WHERE name = ?", [name]
        )
    )
    return LeagueRow(**rows[0]) if rows else None
