"""Real recorded games, rated through arena.trueskill_ffa as they are saved, give exactly the
ratings the trueskill library itself gives: live ratings, their history and league standings."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
import trueskill

from arena import trueskill_ffa
from arena.games import get_game
from arena.inprocess import InProcessBot, random_decider
from arena.record import BotIdentity
from arena.referee import SeatedBot, play_game
from arena.store import Store, open_store
from leagues import tally
from leagues.store import LeagueStore

TITLES = {
    "corruption": (range(3, 8), 3),
    "intrigue": (range(3, 6), 3),
    "paranoia": (range(3, 9), 1),
}
"""Every player count each game allows, and games at each (PARANOIA's are the slow ones)."""
ENTRANTS = [BotIdentity(f"random-{i}", "inprocess", "-") for i in range(6)]
"""Fewer than PARANOIA's eight seats: the biggest games seat a bot twice."""


def play_seeded_leagues(store: Store) -> list[int]:
    """One league per title, every table size, seeded; returns the league ids."""
    leagues = LeagueStore(store)
    ids = []
    seed = itertools.count()
    for title, (sizes, games_per_size) in TITLES.items():
        league = leagues.register(
            name=f"exact-{title}", title=title, fingerprint=title, games=0, path="(test)"
        )
        ids.append(league.id)
        for task, players in enumerate(p for p in sizes for _ in range(games_per_size)):
            n = next(seed)
            seated = [
                SeatedBot(
                    ENTRANTS[(n + s) % len(ENTRANTS)], InProcessBot(random_decider(n * 10 + s))
                )
                for s in range(players)
            ]
            record = play_game(get_game(title), seated, seed=n, options={}, bot_seed_key=b"exact")
            leagues.save_game(record, league.id, task)
    return ids


def rated_tables(store: Store) -> tuple[list[tuple], ...]:
    db = store.db
    return tuple(
        [tuple(row) for row in db.execute(query)]
        for query in (
            "SELECT * FROM ratings ORDER BY title, bot_id",
            "SELECT * FROM rating_history ORDER BY game_id, bot_id",
            "SELECT * FROM league_bot_tally ORDER BY league_id, bot_id",
        )
    )


def test_live_ratings_of_real_games_are_the_librarys_to_the_bit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    library_rate = trueskill.TrueSkill.rate
    calls: list[int] = []

    def counted(self, *args, **kwargs):
        calls.append(1)
        return library_rate(self, *args, **kwargs)

    monkeypatch.setattr(trueskill.TrueSkill, "rate", counted)
    with open_store(tmp_path / "arena.db", create=True) as store:
        league_ids = play_seeded_leagues(store)
        live = rated_tables(store)
        assert calls == [], "every game was rated on the fast path"
        ranks = [
            [rank for (rank,) in store.db.execute("SELECT rank FROM seats WHERE game_id = ?", [g])]
            for (g,) in store.db.execute("SELECT id FROM games WHERE status = 'complete'")
        ]
        assert any(len(set(r)) < len(r) for r in ranks), "some game ended in a tie"
        assert {len(r) for r in ranks} == set(range(3, 9))

        # Now rate everything again with the library alone.
        monkeypatch.setattr(trueskill_ffa, "fast_path_for", lambda env: None)
        assert store.recompute_ratings() == len(ranks)
        for league_id in league_ids:
            with store.db.conn:
                tally.rebuild(store.db, league_id)
        assert len(calls) == 2 * len(ranks), "the library rated every game, for both tables"
        library = rated_tables(store)
    assert all(library), "something was rated"
    assert bits(live) == bits(library)


def bits(tables: tuple[list[tuple], ...]) -> list[list[tuple]]:
    """The tables with every float as its exact hex (== alone would not tell -0.0 from 0.0)."""
    return [
        [tuple(x.hex() if isinstance(x, float) else x for x in row) for row in table]
        for table in tables
    ]
