"""Leaderboards and titles."""

from __future__ import annotations

import pytest

from arena.record import BotIdentity
from arena.store import Store, StoreError, queries


def test_titles_lists_titles_with_games(store: Store, make_game, bots) -> None:
    assert store.titles() == []
    store.save_game(make_game("g1", [(bots.alpha, 1), (bots.beta, 2)], title="hearts"))
    store.save_game(
        make_game("g2", [(bots.alpha, 1), (bots.beta, 2)], title="corruption", status="aborted")
    )
    assert store.titles() == ["corruption", "hearts"], "aborted games count: the title has games"


def test_titles_seek_the_index_title_by_title(store: Store, make_game, bots) -> None:
    # Interleaved titles, several games each: every title once, sorted, as DISTINCT gives.
    for i, title in enumerate(["intrigue", "corruption", "paranoia", "corruption"] * 3):
        store.save_game(make_game(f"g{i}", [(bots.alpha, 1), (bots.beta, 2)], title=title))
    assert store.titles() == ["corruption", "intrigue", "paranoia"]
    # ...read by one index seek per title, never a scan of the games (every report page
    # that lists the titles asks).
    plan = [
        row[3] for row in store.db.execute("EXPLAIN QUERY PLAN " + queries.TITLES_SQL).fetchall()
    ]
    assert not [step for step in plan if step.startswith("SCAN games")], plan
    # (the plan's wording differs between SQLite versions; these two words do not)
    assert any(step.startswith("SEARCH games") and "games_by_title" in step for step in plan), plan


def test_leaderboard_orders_by_conservative_rating(store: Store, make_game, bots) -> None:
    # alpha wins everything; gamma plays once and wins (high mu, high sigma); beta loses a lot.
    for i in range(4):
        store.save_game(make_game(f"a{i}", [(bots.alpha, 1), (bots.beta, 2)]))
    store.save_game(make_game("g0", [(bots.gamma, 1), (bots.beta, 2)]))
    rows = store.leaderboard("corruption")
    assert [row.label for row in rows] == ["alpha@1.0", "gamma@0.1", "beta@2.0"]
    for row in rows:
        assert row.conservative == pytest.approx(row.mu - 3 * row.sigma)
    assert [row.conservative for row in rows] == sorted(
        (row.conservative for row in rows), reverse=True
    )
    beta = rows[2]
    assert max(rows, key=lambda r: r.mu).name == "alpha"
    assert beta.games == 5 and beta.wins == 0


def test_leaderboard_wins_are_counted_per_seat(store: Store, make_game, bots) -> None:
    """A bot in two seats of a game can win twice (a shared first place) and lose once: wins
    and seats count seats, so wins never exceed seats and wins / seats is a win rate."""
    store.save_game(make_game("g1", [(bots.beta, 1), (bots.beta, 1), (bots.alpha, 3)]))
    store.save_game(make_game("g2", [(bots.beta, 1), (bots.beta, 3), (bots.alpha, 2)]))
    by_name = {row.name: row for row in store.leaderboard("corruption")}
    beta, alpha = by_name["beta"], by_name["alpha"]
    assert (beta.games, beta.seats, beta.wins) == (2, 4, 3)
    assert (alpha.games, alpha.seats, alpha.wins) == (2, 2, 0)


def test_leaderboard_fields(store: Store, make_game, bots) -> None:
    store.save_game(make_game("g1", [(bots.alpha, 1), (bots.beta, 2)], scores=[10, 4]))
    store.save_game(  # a shared first place counts as a win for both
        make_game("g2", [(bots.alpha, 1), (bots.beta, 1)], scores=[6, 6], faults={1: "timeout"})
    )
    store.save_game(  # beta in two seats: one game, one win, both seats in the mean score
        make_game(
            "g3",
            [(bots.beta, 1), (bots.alpha, 2), (bots.beta, 3)],
            scores=[9, 5, 1],
            faults={2: "illegal"},
        )
    )
    store.save_game(  # aborted: counted apart, not in games / wins / score / faults
        make_game("g4", [(bots.alpha, 1), (bots.beta, 2)], status="aborted", faults={0: "crash"})
    )
    store.save_game(make_game("h1", [(bots.alpha, 2), (bots.beta, 1)], title="hearts"))
    by_name = {row.name: row for row in store.leaderboard("corruption")}
    alpha, beta = by_name["alpha"], by_name["beta"]
    assert (alpha.version, alpha.digest) == ("1.0", "a1a1")
    assert (alpha.games, alpha.seats, alpha.wins, alpha.faults, alpha.aborted) == (3, 3, 2, 0, 1)
    assert alpha.mean_score == pytest.approx((10 + 6 + 5) / 3)
    assert (beta.games, beta.seats, beta.wins, beta.faults, beta.aborted) == (3, 4, 2, 2, 1)
    assert beta.mean_score == pytest.approx((4 + 6 + 9 + 1) / 4)
    rated = {
        row[0]: row[1:]
        for row in store.db.execute(
            "SELECT bot_id, mu, sigma FROM ratings WHERE title = 'corruption'"
        )
    }
    assert (alpha.mu, alpha.sigma) == rated[alpha.bot_id]


def test_leaderboard_tells_apart_bots_with_the_same_label(store: Store, make_game, bots) -> None:
    edited = BotIdentity("alpha", "1.0", "ffff")
    store.save_game(make_game("g1", [(bots.alpha, 1), (edited, 2)]))
    rows = store.leaderboard("corruption")
    assert [(row.label, row.digest) for row in rows] == [
        ("alpha@1.0", "a1a1"),
        ("alpha@1.0", "ffff"),
    ]


def test_leaderboard_of_an_unknown_title_names_the_known_ones(
    store: Store, make_game, bots
) -> None:
    with pytest.raises(
        StoreError, match=r"no games of 'hearts' in the database \(titles with games: none yet\)"
    ):
        store.leaderboard("hearts")
    store.save_game(make_game("g1", [(bots.alpha, 1), (bots.beta, 2)]))
    with pytest.raises(StoreError, match=r"titles with games: corruption\)"):
        store.leaderboard("corrupton")
