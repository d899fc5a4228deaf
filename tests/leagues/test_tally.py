"""The standings and leaderboards kept up to date as games are saved (leagues.tally,
arena.store.totals) say what a full replay of the stored games says, a recompute in one pass
rates as the games were rated when saved, and a database written before all this (schema
m005) is migrated with its games, leaderboards and standings intact."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from pathlib import Path

import pytest

from arena.games import get_game
from arena.inprocess import InProcessBot, random_decider
from arena.record import BotIdentity, GameRecord, GameStatus
from arena.referee import SeatedBot, play_game
from arena.store import Store, open_store, totals
from arena.store.decisions import unpack
from leagues import tally
from leagues.standings import Standings
from leagues.store import LeagueRow, LeagueStore
from tests.support.schemas import SCHEMA_M005, mark_as_migrated_to_m005
from tests.support.standings_reference import compute_standings

BOTS = [BotIdentity(name, "1", name[0] * 4, f"/bots/{name}") for name in ("ann", "bob", "cy")]
TWIN = BotIdentity("ann", "1", "ffff", "/elsewhere/ann")
"""Same name and version as ann, other files: a different bot, labelled with its digest."""


def league_games() -> list[GameRecord]:
    """Corruption games among in-process random bots: tables of 3 to 5, some seating two
    copies of one bot, and one game recorded as aborted."""
    game = get_game("corruption")
    lineups = [
        [BOTS[0], BOTS[1], BOTS[2]],
        [BOTS[2], BOTS[0], TWIN, BOTS[1]],
        [BOTS[1], BOTS[1], BOTS[0], BOTS[2], TWIN],  # bob twice at one table
        [TWIN, BOTS[2], BOTS[0]],
    ]
    records = []
    for index in range(12):
        lineup = lineups[index % len(lineups)]
        seated = [
            SeatedBot(bot, InProcessBot(random_decider(index * 10 + seat)))
            for seat, bot in enumerate(lineup)
        ]
        records.append(
            play_game(
                game, seated, seed=index, options={}, bot_seed_key=b"k", game_id=f"g{index:02}"
            )
        )
    records[5] = dataclasses.replace(records[5], status=GameStatus.ABORTED, termination="aborted")
    return records


@pytest.fixture(scope="module")
def records() -> list[GameRecord]:
    return league_games()


def saved_league(path: Path, records: list[GameRecord]) -> tuple[Store, LeagueRow]:
    store = open_store(path, create=True)
    leagues = LeagueStore(store)
    league = leagues.register(
        name="t", title="corruption", fingerprint="f", games=len(records) + 3, path="t.toml"
    )
    for task, record in enumerate(records):
        leagues.save_game(record, league.id, task)
    return store, league


def replayed(store: Store, league: LeagueRow) -> Standings:
    """The standings by a full replay of the stored seats, as computed before the tallies."""
    return compute_standings(
        LeagueStore(store).seats(league.id),
        name=league.name,
        title=league.title,
        scheduled=league.games,
    )


def assert_same(kept: Standings, full: Standings) -> None:
    """Equal, except that a mean and its interval from sums may differ in the last bits."""
    assert (kept.name, kept.title, kept.scheduled, kept.complete, kept.aborted) == (
        full.name,
        full.title,
        full.scheduled,
        full.complete,
        full.aborted,
    )
    assert kept.head_to_head == full.head_to_head
    assert [b.label for b in kept.bots] == [b.label for b in full.bots]
    for a, b in zip(kept.bots, full.bots, strict=True):
        assert (a.games, a.seats, a.mu, a.sigma, a.wins, a.faults) == (
            b.games,
            b.seats,
            b.mu,
            b.sigma,
            b.wins,
            b.faults,
        )
        for x, y in ((a.rank, b.rank), (a.score, b.score)):
            assert x.mean == pytest.approx(y.mean, rel=1e-12)
            assert x.half_width == pytest.approx(y.half_width, rel=1e-9)


def test_kept_standings_match_a_full_replay(tmp_path: Path, records) -> None:
    store, league = saved_league(tmp_path / "a.db", records)
    with store:
        kept = LeagueStore(store).standings(league)
        assert_same(kept, replayed(store, league))
        assert kept.complete == 11 and kept.aborted == 1
        assert {b.label for b in kept.bots} == {"ann@1~aaaa", "ann@1~ffff", "bob@1", "cy@1"}


def test_rebuilding_the_tallies_gives_what_was_kept_game_by_game(tmp_path: Path, records) -> None:
    store, league = saved_league(tmp_path / "a.db", records)
    with store:
        kept = LeagueStore(store).standings(league)
        leaderboard = store.leaderboard("corruption")
        totals_rows = list(store.db.execute("SELECT * FROM title_bot_totals ORDER BY bot_id"))
        with store.db.conn:
            tally.rebuild(store.db, league.id)
            totals.rebuild(store.db)
        assert LeagueStore(store).standings(league) == kept
        assert list(store.db.execute("SELECT * FROM title_bot_totals ORDER BY bot_id")) == (
            totals_rows
        )
        assert store.leaderboard("corruption") == leaderboard
        assert [row.seats for row in leaderboard] != [0] * len(leaderboard)


def test_recompute_in_one_pass_gives_the_ratings_saved_game_by_game(
    tmp_path: Path, records
) -> None:
    store, _ = saved_league(tmp_path / "a.db", records)
    with store:
        tables = ("ratings ORDER BY title, bot_id", "rating_history ORDER BY game_id, bot_id")
        saved = [list(store.db.execute(f"SELECT * FROM {t}")) for t in tables]
        assert store.recompute_ratings() == 11
        assert [list(store.db.execute(f"SELECT * FROM {t}")) for t in tables] == saved


def as_written_by_m005(current: Path, old: Path) -> None:
    """Copy a database into the schema arena wrote before m007: decisions as JSON text."""
    with sqlite3.connect(old) as conn:
        conn.executescript(SCHEMA_M005.read_text())
        conn.execute("ATTACH DATABASE ? AS current", [str(current)])
        for table in (
            "bots",
            "games",
            "seats",
            "ratings",
            "rating_history",
            "meta",
            "leagues",
            "league_games",
        ):
            columns = ", ".join(row[1] for row in conn.execute(f"PRAGMA main.table_info({table})"))
            conn.execute(
                f"INSERT INTO main.{table} ({columns}) SELECT {columns} FROM current.{table}"
            )
        conn.executemany(
            "INSERT INTO main.game_decisions (game_id, decisions) VALUES (?, ?)",
            [
                (game_id, json.dumps(unpack(packed), separators=(",", ":"), ensure_ascii=False))
                for game_id, packed in conn.execute(
                    "SELECT game_id, decisions FROM current.game_decisions"
                ).fetchall()
            ],
        )
        mark_as_migrated_to_m005(conn)
    conn.close()


def test_an_older_database_is_migrated_with_its_games_intact(tmp_path: Path, records) -> None:
    store, league = saved_league(tmp_path / "current.db", records)
    with store:
        standings = LeagueStore(store).standings(league)
        leaderboard = store.leaderboard("corruption")
        listed = store.list_games(limit=None)
    as_written_by_m005(tmp_path / "current.db", tmp_path / "old.db")
    with open_store(tmp_path / "old.db", create=False) as migrated:
        for record in records:
            # m005 kept no clock or fault policy (m006 added them): those load as unknown
            as_m005_kept = dataclasses.replace(record, time_control=None, fault_policy=None)
            assert migrated.load_game(record.game_id) == as_m005_kept
        assert migrated.leaderboard("corruption") == leaderboard
        assert migrated.list_games(limit=None) == listed
        assert LeagueStore(migrated).standings(league) == standings
