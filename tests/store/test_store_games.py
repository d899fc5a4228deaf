"""Saving, loading and listing games."""

from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest
import sqlite_utils.db

from arena.conditions import FaultPolicy, TimeControl
from arena.faults import Fault
from arena.record import BotIdentity, DecisionRecord, GameRecord, GameStatus, SeatRecord
from arena.store import (
    DuplicateGame,
    GameNotFound,
    Store,
    UnknownName,
    decisions,
    open_store,
    rating_updates,
)


def rich_record(bots) -> GameRecord:
    """A record using every field, with JSON values of every kind as actions."""
    return GameRecord(
        game_id="0f3a9c-rich",
        title="corruption",
        options={"variants": ["swiss"], "rounds": 3, "nested": {"a": [1, 2.5, None, True]}},
        seed=2**63 - 1,
        seats=(
            SeatRecord(0, bots.alpha, 12.5, 1, Fault.OK, None, 153.25, 7),
            SeatRecord(1, bots.beta, -3.0, 3, Fault.TIMEOUT, "no answer within 1000 ms", 2001.0, 6),
            SeatRecord(2, bots.random, 4.0, 2, "ok", None, 0.125, 7),
            SeatRecord(3, bots.random, 4.0, 2, "illegal", "played 9; legal: 1..4", 3.0, 2),
        ),
        decisions=(
            DecisionRecord(0, 3, False, 1.5),
            DecisionRecord(1, [1, 2], False, 0.1 + 0.2),
            DecisionRecord(2, {"bid": 4, "pass": False}, False, 12.0),
            DecisionRecord(3, "pass", True, 0.0),
            DecisionRecord(1, None, True),
            DecisionRecord(0, 2.75, False, 1e-9),
            DecisionRecord(2, "ünïcode ♠", False, 3.0),
        ),
        status="complete",
        termination="normal",
        started_at="2025-03-01T10:00:00.123Z",
        finished_at="2025-03-01T10:00:04.456Z",
        detail={"contracts": {"0": 2, "1": 0}, "note": "fine"},
        # seconds that are not exact binary fractions, as options and league files give them
        time_control=TimeControl(decision_s=0.3, bank_s=0.0, startup_s=2.0005, game_s=90.1),
        fault_policy=FaultPolicy.ABORT,
    )


def test_round_trip_equals_the_original(store: Store, bots) -> None:
    record = rich_record(bots)
    store.save_game(record)
    assert store.load_game(record.game_id) == record


def test_round_trip_survives_reopening(db_path, bots) -> None:
    record = rich_record(bots)
    with open_store(db_path, create=True) as store:
        store.save_game(record)
    with open_store(db_path, create=False) as store:
        assert store.load_game(record.game_id) == record


def test_the_clock_is_stored_in_milliseconds(store: Store, bots) -> None:
    store.save_game(rich_record(bots))
    clock, policy = store.db.execute("SELECT time_control, fault_policy FROM games").fetchone()
    assert json.loads(clock) == {
        "decision_ms": 300,
        "bank_ms": 0,
        "startup_ms": 2000.5,
        "game_ms": 90100,
    }
    assert policy == "abort"


def test_a_record_without_clock_or_policy_loads_without_them(store: Store, bots) -> None:
    """As a game recorded before m006 reads: NULL columns, None fields (rerun then says so)."""
    record = replace(rich_record(bots), time_control=None, fault_policy=None)
    store.save_game(record)
    assert store.db.execute("SELECT time_control, fault_policy FROM games").fetchone() == (
        None,
        None,
    )
    assert store.load_game(record.game_id) == record


def test_decisions_are_stored_compactly(store: Store, bots) -> None:
    record = rich_record(bots)
    store.save_game(record)
    (stored,) = store.db.execute("SELECT decisions FROM game_decisions").fetchone()
    rows = [[d.seat, d.action, int(d.by_referee), d.ms] for d in record.decisions]
    assert decisions.unpack(stored) == rows
    assert len(stored) < len(json.dumps(rows, separators=(",", ":")).encode())


def test_load_by_unique_prefix(store: Store, make_game, bots) -> None:
    store.save_game(make_game("abc123", [(bots.alpha, 1), (bots.beta, 2)]))
    store.save_game(make_game("abd456", [(bots.alpha, 2), (bots.beta, 1)]))
    assert store.load_game("abc").game_id == "abc123"
    assert store.load_game("abd456").game_id == "abd456"
    with pytest.raises(
        GameNotFound, match=r"'ab' is the start of several game ids \(abc123, abd456\)"
    ):
        store.load_game("ab")
    with pytest.raises(GameNotFound, match="no game 'zz' in the database"):
        store.load_game("zz")
    with pytest.raises(GameNotFound, match="give a game id"):
        store.load_game("")


def test_a_prefix_is_not_a_pattern(store: Store, make_game, bots) -> None:
    store.save_game(make_game("a_b%c", [(bots.alpha, 1), (bots.beta, 2)]))
    store.save_game(make_game("axbyc", [(bots.alpha, 1), (bots.beta, 2)]))
    assert store.load_game("a_").game_id == "a_b%c"
    with pytest.raises(GameNotFound):
        store.load_game("a%")


def test_duplicate_game_id_is_refused_and_changes_nothing(
    store: Store, make_game, bots, table_rows
) -> None:
    store.save_game(make_game("g1", [(bots.alpha, 1), (bots.beta, 2)]))
    before = table_rows(store)
    different = make_game("g1", [(bots.gamma, 1), (bots.beta, 2)], title="other")
    with pytest.raises(
        DuplicateGame, match=r"game g1 is already in the database.*nothing was changed"
    ):
        store.save_game(different)
    assert table_rows(store) == before


def boom(*args, **kwargs):
    raise RuntimeError("simulated crash in the middle of save_game")


original_insert_all = sqlite_utils.db.Table.insert_all


def insert_all_but_seats(self, records, *args, **kwargs):
    """Inserts work (a new bot, the games row) until the seats: a crash after the first inserts."""
    if self.name == "seats":
        boom()
    return original_insert_all(self, records, *args, **kwargs)


@pytest.mark.parametrize(
    "target, attribute, replacement",
    [
        (sqlite_utils.db.Table, "insert_all", insert_all_but_seats),
        (rating_updates.ratings, "update", boom),  # the rating step, after everything else
    ],
    ids=["at-seats-after-bot-and-game-rows", "in-rating-update"],
)
def test_save_is_atomic(
    store: Store, make_game, bots, table_rows, monkeypatch, target, attribute, replacement
) -> None:
    store.save_game(make_game("g0", [(bots.alpha, 1), (bots.beta, 2)]))
    before = table_rows(store)
    game = make_game("g1", [(bots.gamma, 1), (bots.alpha, 2)])
    inserted: list[str] = []
    with (
        store.db.tracer(lambda sql, params: inserted.append(sql.split("(")[0].strip())),
        monkeypatch.context() as patch,
    ):
        patch.setattr(target, attribute, replacement)
        with pytest.raises(RuntimeError, match="simulated crash"):
            store.save_game(game)
    assert any(s.startswith('INSERT INTO "games"') for s in inserted), (
        f"the crash came after the games row was written: {inserted}"
    )
    assert table_rows(store) == before, "nothing of the failed game (not even its new bot)"
    assert not store.db.conn.in_transaction
    store.save_game(game)  # nothing half-written stands in the way of saving it again
    assert store.load_game("g1") == game


def test_save_is_atomic_under_keyboard_interrupt(
    store: Store, make_game, bots, table_rows, monkeypatch
) -> None:
    def interrupt(*args, **kwargs):
        raise KeyboardInterrupt

    before = table_rows(store)
    monkeypatch.setattr(rating_updates.ratings, "update", interrupt)
    with pytest.raises(KeyboardInterrupt):
        store.save_game(make_game("g1", [(bots.alpha, 1), (bots.beta, 2)]))
    assert table_rows(store) == before


def test_bad_records_are_refused_before_writing(store: Store, make_game, bots, table_rows) -> None:
    good = make_game("g1", [(bots.alpha, 1), (bots.beta, 2)])
    bad = [
        (GameRecord(**{**good.__dict__, "status": "finished"}), "status must be one of"),
        (GameRecord(**{**good.__dict__, "seats": ()}), "at least one seat"),
        (
            GameRecord(**{**good.__dict__, "seats": (replace(good.seats[0], fault="oops"),)}),
            "seat 0 fault must be one of ok, timeout",
        ),
        (GameRecord(**{**good.__dict__, "seats": good.seats[:1] * 2}), "seat numbers repeat"),
        (GameRecord(**{**good.__dict__, "seed": 2**64}), "64-bit"),
        (
            GameRecord(**{**good.__dict__, "decisions": (DecisionRecord(0, {1, 2}),)}),
            "decisions cannot be stored as JSON",
        ),
        (GameRecord(**{**good.__dict__, "options": {"x": float("nan")}}), "options cannot be"),
    ]
    before = table_rows(store)
    for record, message in bad:
        with pytest.raises(ValueError, match=message):
            store.save_game(record)
    assert table_rows(store) == before


def test_the_schema_check_on_game_status_lists_exactly_the_game_statuses(store: Store) -> None:
    # The CHECK is in a shipped migration (never edited), so this is what keeps the enum and the
    # schema from drifting apart: a new GameStatus needs a migration that widens the CHECK.
    (schema,) = store.db.execute("SELECT sql FROM sqlite_master WHERE name = 'games'").fetchone()
    match = re.search(r"CHECK \(status IN \(([^)]*)\)\)", schema)
    assert match, schema
    allowed = {value.strip().strip("'") for value in match.group(1).split(",")}
    assert allowed == {status.value for status in GameStatus}


def test_bots_are_looked_up_by_name_version_and_digest(store: Store, make_game, bots) -> None:
    edited = BotIdentity(bots.alpha.name, bots.alpha.version, "ffff", "/elsewhere")
    store.save_game(make_game("g1", [(bots.alpha, 1), (bots.beta, 2)]))
    store.save_game(make_game("g2", [(bots.beta, 1), (bots.alpha, 2)]))
    store.save_game(make_game("g3", [(edited, 1), (bots.beta, 2)]))
    rows = list(store.db.execute("SELECT name, version, digest, path FROM bots ORDER BY id"))
    assert rows == [
        ("alpha", "1.0", "a1a1", "/bots/alpha"),
        ("beta", "2.0", "b2b2", "/bots/beta"),
        ("alpha", "1.0", "ffff", "/elsewhere"),
    ], "an edited bot (new digest) is a new identity; a known one is reused"


def test_aborted_games_are_stored_but_not_rated(store: Store, make_game, bots) -> None:
    aborted = make_game(
        "g1", [(bots.alpha, 1), (bots.beta, 2)], status="aborted", faults={0: "crash"}
    )
    store.save_game(aborted)
    assert store.load_game("g1") == aborted
    assert store.db.execute("SELECT count(*) FROM ratings").fetchone()[0] == 0
    assert store.db.execute("SELECT count(*) FROM rating_history").fetchone()[0] == 0
    assert store.leaderboard("corruption") == []
    assert store.recompute_ratings() == 0


def test_list_games_filters_and_order(store: Store, make_game, bots) -> None:
    other_alpha = BotIdentity("alpha", "2.0", "a2a2")
    store.save_game(make_game("g1", [(bots.alpha, 1), (bots.beta, 2)], finished_at="2025-01-01"))
    store.save_game(
        make_game("g2", [(bots.beta, 1), (bots.gamma, 2)], finished_at="2025-01-02", title="hearts")
    )
    store.save_game(
        make_game(
            "g3",
            [(other_alpha, 2), (bots.gamma, 1)],
            finished_at="2025-01-03",
            status="aborted",
            faults={0: "timeout"},
        )
    )
    store.save_game(make_game("g4", [(bots.gamma, 1), (bots.beta, 1)], finished_at="2025-01-04"))

    def ids(**filters) -> list[str]:
        return [game.id for game in store.list_games(**filters)]

    assert ids() == ["g4", "g3", "g2", "g1"], "newest first"
    assert ids(title="corruption") == ["g4", "g3", "g1"]
    assert ids(title="hearts") == ["g2"]
    assert ids(title="chess") == []
    assert ids(bot="alpha") == ["g3", "g1"], "a bare name matches every version"
    assert ids(bot="alpha@1.0") == ["g1"]
    assert ids(bot="alpha@2.0") == ["g3"]
    assert ids(bot="gamma", title="corruption") == ["g4", "g3"]
    assert ids(status="aborted") == ["g3"]
    assert ids(limit=2) == ["g4", "g3"]
    assert ids(limit=None) == ["g4", "g3", "g2", "g1"]
    with pytest.raises(
        UnknownName,
        match=r"no bot 'alpah' in the database; did you mean 'alpha'\? bots: alpha@1.0, alpha@2.0",
    ):
        store.list_games(bot="alpah")
    with pytest.raises(ValueError, match="status must be one of"):
        store.list_games(status="done")


def test_list_games_rows_carry_seats(store: Store, make_game, bots) -> None:
    store.save_game(
        make_game(
            "g1",
            [(bots.alpha, 2), (bots.random, 1), (bots.random, 3)],
            faults={2: "illegal"},
            scores=[5, 9, 0],
        )
    )
    (game,) = store.list_games()
    assert (game.id, game.title, game.players, game.status, game.decisions) == (
        "g1",
        "corruption",
        3,
        "complete",
        9,
    )
    assert game.finished_at == "2025-01-01T00:00:00Z"
    assert [(s.seat, s.bot, s.rank, s.score, s.fault) for s in game.seats] == [
        (0, "alpha@1.0", 2, 5.0, "ok"),
        (1, "random@1", 1, 9.0, "ok"),
        (2, "random@1", 3, 0.0, "illegal"),
    ]


def test_has_game(store: Store, make_game, bots) -> None:
    assert not store.has_game("g1")
    store.save_game(make_game("g1", [(bots.alpha, 1), (bots.beta, 2)]))
    assert store.has_game("g1")
    assert not store.has_game("g"), "has_game wants the exact id"
