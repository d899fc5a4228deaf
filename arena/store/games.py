"""Saving, loading and listing games."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, TypeVar

import trueskill
from sqlite_utils import Database

from arena.conditions import FaultPolicy, TimeControl
from arena.faults import Fault
from arena.record import BotIdentity, DecisionRecord, GameRecord, GameStatus, SeatRecord
from arena.store import decisions, totals
from arena.store.db import (
    DamagedRecord,
    DuplicateGame,
    GameNotFound,
    UnknownName,
    write_transaction,
)
from arena.store.rating_updates import rate_game
from arena.suggest import did_you_mean

_Value = TypeVar("_Value", bound=StrEnum)
_Decoded = TypeVar("_Decoded")
_INT64 = range(-(2**63), 2**63)


@dataclass(frozen=True)
class SeatSummary:
    """One seat of a listed game."""

    seat: int
    bot: str
    """The bot's label, name@version."""
    rank: int
    score: float
    fault: Fault


@dataclass(frozen=True)
class GameSummary:
    """One row of ``list_games``."""

    id: str
    title: str
    started_at: str
    finished_at: str
    players: int
    status: GameStatus
    termination: str
    decisions: int
    seats: tuple[SeatSummary, ...]


def save_game(
    db: Database,
    env: trueskill.TrueSkill,
    record: GameRecord,
) -> None:
    """Store a game with its seats, bots, decisions and (if complete) its rating update, in one
    transaction: after a failure or an interruption none of it is there.

    Raises DuplicateGame, changing nothing, if the game id is already stored; ValueError for a
    record that cannot be stored faithfully (checked before anything is written).
    """
    game_row, seat_rows, packed_decisions = _encode(record)
    with write_transaction(db):
        if has_game(db, record.game_id):
            raise DuplicateGame(
                f"game {record.game_id} is already in the database; it was not saved again "
                "(nothing was changed)"
            )
        (seq,) = db.execute("SELECT coalesce(max(seq), 0) + 1 FROM games").fetchone()
        now = datetime.now(UTC).isoformat(timespec="seconds")
        bot_ids = {seat.bot: _bot_id(db, seat.bot, now) for seat in record.seats}
        db.table("games").insert({**game_row, "seq": seq})
        db.table("seats").insert_all(
            {**row, "bot_id": bot_ids[seat.bot]} for seat, row in zip(record.seats, seat_rows)
        )
        db.execute(
            "INSERT INTO game_decisions (game_id, decisions) VALUES (?, ?)",
            [record.game_id, packed_decisions],
        )
        totals.add_game(
            db,
            title=record.title,
            status=record.status,
            seats=[(bot_ids[s.bot], s.rank, float(s.score), s.fault) for s in record.seats],
        )
        if record.status == GameStatus.COMPLETE:
            rate_game(
                db,
                env,
                game_id=record.game_id,
                title=record.title,
                seats=[
                    (bot_ids[s.bot], s.rank) for s in sorted(record.seats, key=lambda s: s.seat)
                ],
                when=record.finished_at,
            )


def has_game(db: Database, game_id: str) -> bool:
    """Whether a game with exactly this id is stored (a rerun uses it to skip finished games)."""
    return db.execute("SELECT 1 FROM games WHERE id = ?", [game_id]).fetchone() is not None


def resolve_game_id(db: Database, id_or_prefix: str) -> str:
    """The stored game id that is ``id_or_prefix`` or uniquely starts with it."""
    if not id_or_prefix:
        raise GameNotFound("give a game id, or the first characters of one")
    if has_game(db, id_or_prefix):
        return id_or_prefix
    matches = [
        row[0]
        for row in db.execute(
            "SELECT id FROM games WHERE id >= ? AND substr(id, 1, ?) = ? ORDER BY id LIMIT 6",
            [id_or_prefix, len(id_or_prefix), id_or_prefix],
        )
    ]
    if not matches:
        raise GameNotFound(
            f"no game {id_or_prefix!r} in the database — list the stored games to find its id"
        )
    if len(matches) > 1:
        shown = ", ".join(matches[:5]) + (", ..." if len(matches) > 5 else "")
        raise GameNotFound(
            f"{id_or_prefix!r} is the start of several game ids ({shown}) — give more of it"
        )
    return matches[0]


def load_game(db: Database, id_or_prefix: str) -> GameRecord:
    """The stored game, as the GameRecord that was saved; DamagedRecord if a stored value
    cannot be read."""
    game_id = resolve_game_id(db, id_or_prefix)
    (game,) = db.query("SELECT * FROM games WHERE id = ?", [game_id])

    def read(what: str, decode: Callable[[Any], _Decoded], value: Any) -> _Decoded:
        return _read(game_id, what, decode, value)

    seats = tuple(
        SeatRecord(
            seat=row["seat"],
            bot=BotIdentity(
                name=row["name"], version=row["version"], digest=row["digest"], path=row["path"]
            ),
            score=row["score"],
            rank=row["rank"],
            fault=read(f"seat {row['seat']}'s fault", Fault, row["fault"]),
            fault_reason=row["fault_reason"],
            time_ms=row["time_ms"],
            decisions=row["decisions"],
            bot_seed=row["bot_seed"],
            cpu_ms=row["cpu_ms"],
        )
        for row in db.query(
            "SELECT s.*, b.name, b.version, b.digest, b.path"
            " FROM seats s JOIN bots b ON b.id = s.bot_id WHERE s.game_id = ? ORDER BY s.seat",
            [game_id],
        )
    )
    stored_decisions = db.execute(
        "SELECT decisions FROM game_decisions WHERE game_id = ?", [game_id]
    ).fetchone()
    return GameRecord(
        game_id=game["id"],
        title=game["title"],
        options=read("options", _json_object, game["options"]),
        seed=game["seed"],
        seats=seats,
        decisions=read("decisions", _decisions, stored_decisions),
        status=read("status", GameStatus, game["status"]),
        termination=game["termination"],
        started_at=game["started_at"],
        finished_at=game["finished_at"],
        detail=read("detail", _json_object, game["detail"]),
        sandboxed=None if game["sandboxed"] is None else bool(game["sandboxed"]),
        time_control=read("time control", _time_control, game["time_control"]),
        fault_policy=read("fault policy", _optional(FaultPolicy), game["fault_policy"]),
    )


def _read(game_id: str, what: str, decode: Callable[[Any], _Decoded], value: Any) -> _Decoded:
    """``decode(value)``, or DamagedRecord saying which stored value of which game is bad."""
    try:
        return decode(value)
    except (ValueError, TypeError, KeyError, IndexError) as exc:
        raise DamagedRecord(
            f"game {game_id}: its stored {what} cannot be read ({exc}): the database was "
            "written by a newer arena or edited by hand. Use that newer arena, or a copy of "
            "the database from before the edit; nothing was changed."
        ) from None


def _json_object(stored: str) -> dict[str, Any]:
    value = json.loads(stored)
    if not isinstance(value, dict):
        raise ValueError(f"a JSON object was expected, not {type(value).__name__}")
    return value


def _decisions(row: tuple[bytes] | None) -> tuple[DecisionRecord, ...]:
    if row is None:
        raise ValueError("they are missing")
    listed = decisions.unpack(row[0])
    made = []
    for seat, action, by_referee, ms in listed:
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise ValueError(f"a seat number was expected, not {seat!r}")
        made.append(DecisionRecord(seat, action, bool(by_referee), float(ms)))
    return tuple(made)


def _time_control(stored: str | None) -> TimeControl | None:
    return None if stored is None else TimeControl.from_ms(json.loads(stored))


def _optional(kind: type[_Value]) -> Callable[[str | None], _Value | None]:
    """A decoder of ``kind`` values that reads NULL as None (recorded before the column)."""
    return lambda stored: None if stored is None else kind(stored)


def list_games(
    db: Database,
    *,
    title: str | None = None,
    bot: str | None = None,
    status: GameStatus | None = None,
    limit: int | None = 50,
) -> list[GameSummary]:
    """Stored games, newest first; ``bot`` is a name (any version) or name@version.

    Raises UnknownName if ``bot`` names no stored bot (a typo would otherwise look like "no
    games").
    """
    if limit is not None and limit < 0:
        raise ValueError(f"limit must be >= 0, not {limit}")
    if status is not None:
        status = _checked(GameStatus, status, "status")
    if bot is not None:
        _check_bot_exists(db, bot)
    games = list(
        db.query(
            """
            SELECT * FROM games g
            WHERE (:title IS NULL OR g.title = :title)
              AND (:status IS NULL OR g.status = :status)
              AND (:bot IS NULL OR EXISTS (
                    SELECT 1 FROM seats s JOIN bots b ON b.id = s.bot_id
                    WHERE s.game_id = g.id
                      AND (b.name = :bot OR b.name || '@' || b.version = :bot)))
            ORDER BY g.finished_at DESC, g.seq DESC
            LIMIT :limit
            """,
            {"title": title, "status": status, "bot": bot, "limit": -1 if limit is None else limit},
        )
    )
    seats: dict[str, list[SeatSummary]] = {game["id"]: [] for game in games}
    for row in db.query(
        """
        SELECT s.game_id, s.seat, s.rank, s.score, s.fault, b.name, b.version
        FROM seats s JOIN bots b ON b.id = s.bot_id
        WHERE s.game_id IN (SELECT value FROM json_each(:ids))
        ORDER BY s.game_id, s.seat
        """,
        {"ids": json.dumps(list(seats))},
    ):
        label = BotIdentity(row["name"], row["version"], "").label
        fault = _read(row["game_id"], f"seat {row['seat']}'s fault", Fault, row["fault"])
        seats[row["game_id"]].append(
            SeatSummary(row["seat"], label, row["rank"], row["score"], fault)
        )
    return [
        GameSummary(
            id=game["id"],
            title=game["title"],
            started_at=game["started_at"],
            finished_at=game["finished_at"],
            players=game["players"],
            status=_read(game["id"], "status", GameStatus, game["status"]),
            termination=game["termination"],
            decisions=game["decisions"],
            seats=tuple(seats[game["id"]]),
        )
        for game in games
    ]


def _check_bot_exists(db: Database, bot: str) -> None:
    found = db.execute(
        "SELECT 1 FROM bots WHERE name = ? OR name || '@' || version = ? LIMIT 1", [bot, bot]
    ).fetchone()
    if found:
        return
    labels = sorted(
        {
            BotIdentity(row[0], row[1], "").label
            for row in db.execute("SELECT name, version FROM bots")
        }
    )
    known = ", ".join(labels[:10]) + (", ..." if len(labels) > 10 else "") or "none yet"
    hint = did_you_mean(bot, labels + [label.split("@")[0] for label in labels])
    raise UnknownName(
        f"no bot {bot!r} in the database; {hint}bots: {known} (give name or name@version)"
    )


def _bot_id(db: Database, bot: BotIdentity, now: str) -> int:
    row = db.execute(
        "SELECT id FROM bots WHERE name = ? AND version = ? AND digest = ?",
        [bot.name, bot.version, bot.digest],
    ).fetchone()
    if row:
        return int(row[0])
    table = db.table("bots").insert(
        {
            "name": bot.name,
            "version": bot.version,
            "digest": bot.digest,
            "path": bot.path,
            "first_seen": now,
        }
    )
    assert table.last_pk is not None
    return int(table.last_pk)


def _encode(record: GameRecord) -> tuple[dict[str, Any], list[dict[str, Any]], bytes]:
    """The rows for a record, checked; raises ValueError before anything is written."""
    where = f"game {record.game_id!r}"
    if not record.game_id:
        raise ValueError("a game record needs a game_id")
    _checked(GameStatus, record.status, f"{where}: status")
    if not record.seats:
        raise ValueError(f"{where}: a game record needs at least one seat")
    numbers = [seat.seat for seat in record.seats]
    if len(set(numbers)) != len(numbers):
        raise ValueError(f"{where}: seat numbers repeat: {numbers}")
    if record.seed not in _INT64:
        raise ValueError(f"{where}: seed {record.seed} does not fit a signed 64-bit integer")
    for seat in record.seats:
        _checked(Fault, seat.fault, f"{where}: seat {seat.seat} fault")
        if not (math.isfinite(seat.score) and math.isfinite(seat.time_ms)):
            raise ValueError(f"{where}: seat {seat.seat} has a non-finite score or time")
    game_row = {
        "id": record.game_id,
        "title": record.title,
        "options": _json(record.options, where, "options"),
        "seed": record.seed,
        "players": record.players,
        "status": record.status,
        "termination": record.termination,
        "started_at": record.started_at,
        "finished_at": record.finished_at,
        "decisions": len(record.decisions),
        "detail": _json(record.detail, where, "detail"),
        "sandboxed": None if record.sandboxed is None else int(record.sandboxed),
        "time_control": None
        if record.time_control is None
        else _json(record.time_control.in_ms(), where, "time control"),
        "fault_policy": None
        if record.fault_policy is None
        else str(_checked(FaultPolicy, record.fault_policy, f"{where}: fault policy")),
    }
    seat_rows = [
        {
            "game_id": record.game_id,
            "seat": seat.seat,
            "score": float(seat.score),
            "rank": seat.rank,
            "fault": str(seat.fault),
            "fault_reason": seat.fault_reason,
            "time_ms": float(seat.time_ms),
            "decisions": seat.decisions,
            "bot_seed": seat.bot_seed,
            "cpu_ms": None if seat.cpu_ms is None else float(seat.cpu_ms),
        }
        for seat in record.seats
    ]
    try:
        packed = decisions.pack(
            [[d.seat, d.action, int(d.by_referee), d.ms] for d in record.decisions]
        )
    except (TypeError, ValueError) as e:
        raise ValueError(f"{where}: decisions cannot be stored as JSON: {e}") from e
    return game_row, seat_rows, packed


def _checked(kind: type[_Value], value: str, what: str) -> _Value:
    """``value`` as a member of ``kind``; a ValueError naming the allowed values for anything
    else (a caller that is not type-checked may pass any string, and a stored value that is not
    a member could not be loaded again)."""
    try:
        return kind(value)
    except ValueError:
        allowed = ", ".join(kind)
        raise ValueError(f"{what} must be one of {allowed}, not {value!r}") from None


def _json(value: Any, where: str, what: str) -> str:
    try:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as e:
        raise ValueError(f"{where}: {what} cannot be stored as JSON: {e}") from e
