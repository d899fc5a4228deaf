"""Rating updates as stored: one per complete game, in the game's transaction, replayable."""

from __future__ import annotations

import random

import pytest

from arena import ratings
from arena.store import Store, open_store, rating_updates


def rating_of(store: Store, title: str, bot) -> tuple[float, float, int]:
    return store.db.execute(
        "SELECT r.mu, r.sigma, r.games FROM ratings r JOIN bots b ON b.id = r.bot_id"
        " WHERE r.title = ? AND b.name = ? AND b.version = ?",
        [title, bot.name, bot.version],
    ).fetchone()


def ratings_tables(store: Store) -> tuple[list, list]:
    return (
        list(store.db.execute("SELECT * FROM ratings ORDER BY title, bot_id")),
        list(store.db.execute("SELECT * FROM rating_history ORDER BY game_id, bot_id")),
    )


def many_games(make_game, bots, n: int = 40, seed: int = 7):
    """A reproducible mix: two titles, 2-4 players, ties, a bot in two seats, aborted games."""
    rng = random.Random(seed)
    pool = [bots.alpha, bots.beta, bots.gamma, bots.random]
    games = []
    for i in range(n):
        players = rng.randint(2, 4)
        seated = [rng.choice(pool) for _ in range(players)]
        ranks = [rng.randint(1, players) for _ in range(players)]
        games.append(
            make_game(
                f"g{i:03d}",
                list(zip(seated, ranks)),
                title=rng.choice(["corruption", "hearts"]),
                status="aborted" if rng.random() < 0.15 else "complete",
                finished_at=f"2025-01-01T00:{i // 60:02d}:{i % 60:02d}Z",
            )
        )
    return games


def test_a_complete_game_updates_ratings_and_history(store: Store, make_game, bots) -> None:
    store.save_game(make_game("g1", [(bots.alpha, 1), (bots.beta, 2)], finished_at="T1"))
    alpha = rating_of(store, "corruption", bots.alpha)
    beta = rating_of(store, "corruption", bots.beta)
    assert alpha[:2] == pytest.approx((29.396, 7.171), abs=1e-3)
    assert beta[:2] == pytest.approx((20.604, 7.171), abs=1e-3)
    assert alpha[2] == beta[2] == 1
    history = list(
        store.db.execute(
            "SELECT game_id, title, mu_before, sigma_before, mu_after, sigma_after"
            " FROM rating_history ORDER BY bot_id"
        )
    )
    assert history == [
        ("g1", "corruption", 25.0, 25 / 3, alpha[0], alpha[1]),
        ("g1", "corruption", 25.0, 25 / 3, beta[0], beta[1]),
    ]
    assert store.db.execute("SELECT DISTINCT updated_at FROM ratings").fetchall() == [("T1",)]


def test_later_games_start_from_the_stored_rating(store: Store, make_game, bots) -> None:
    store.save_game(make_game("g1", [(bots.alpha, 1), (bots.beta, 2)]))
    store.save_game(make_game("g2", [(bots.alpha, 2), (bots.beta, 1)]))
    env = ratings.default_env()
    first = ratings.update(env, {}, [("a", 1), ("b", 2)])
    second = ratings.update(env, first, [("a", 2), ("b", 1)])
    assert rating_of(store, "corruption", bots.alpha) == (*second["a"], 2)
    assert rating_of(store, "corruption", bots.beta) == (*second["b"], 2)


def test_titles_are_rated_separately(store: Store, make_game, bots) -> None:
    store.save_game(make_game("g1", [(bots.alpha, 1), (bots.beta, 2)], title="corruption"))
    store.save_game(make_game("g2", [(bots.alpha, 1), (bots.beta, 2)], title="hearts"))
    assert rating_of(store, "corruption", bots.alpha) == rating_of(store, "hearts", bots.alpha)
    assert rating_of(store, "hearts", bots.alpha)[2] == 1


def test_a_bot_in_two_seats_gets_one_combined_update(store: Store, make_game, bots) -> None:
    store.save_game(make_game("g1", [(bots.random, 1), (bots.alpha, 2), (bots.random, 3)]))
    mu, sigma, games = rating_of(store, "corruption", bots.random)
    expected = ratings.update(ratings.default_env(), {}, [("r", 1), ("a", 2), ("r", 3)])["r"]
    assert (mu, sigma) == expected
    assert games == 1, "one game is one rating update, whatever the number of seats"
    assert store.db.execute("SELECT count(*) FROM rating_history").fetchone()[0] == 2


def test_self_play_changes_no_rating(store: Store, make_game, bots) -> None:
    store.save_game(make_game("g1", [(bots.random, 1), (bots.random, 2)]))
    assert ratings_tables(store) == ([], [])


def test_recompute_gives_exactly_the_incremental_ratings(store: Store, make_game, bots) -> None:
    for game in many_games(make_game, bots):
        store.save_game(game)
    incremental = ratings_tables(store)
    assert len(incremental[0]) == 8, "4 bots x 2 titles were rated"
    complete = store.db.execute("SELECT count(*) FROM games WHERE status = 'complete'").fetchone()
    assert store.recompute_ratings() == complete[0]
    assert ratings_tables(store) == incremental, "bit-identical, history included"
    assert store.recompute_ratings("hearts") > 0
    assert ratings_tables(store) == incremental


def test_recompute_of_one_title_leaves_the_others_alone(
    store: Store, make_game, bots, monkeypatch
) -> None:
    for game in many_games(make_game, bots):
        store.save_game(game)
    before = ratings_tables(store)
    store.db.execute("UPDATE ratings SET mu = 0 WHERE title = 'hearts'")  # a damaged title
    store.recompute_ratings("hearts")
    assert ratings_tables(store) == before
    store.db.execute("UPDATE ratings SET mu = 0 WHERE title = 'hearts'")
    store.recompute_ratings("corruption")
    assert {row[0] for row in store.db.execute("SELECT title FROM ratings WHERE mu = 0")} == {
        "hearts"
    }


def test_recompute_replays_in_save_order_whatever_the_finish_times(
    tmp_path, make_game, bots
) -> None:
    early = make_game("finished-first", [(bots.alpha, 1), (bots.beta, 2)], finished_at="2025-01-01")
    late = make_game("finished-last", [(bots.alpha, 2), (bots.beta, 1)], finished_at="2025-01-02")
    with open_store(tmp_path / "in-order.db", create=True) as in_order:
        in_order.save_game(early)
        in_order.save_game(late)
        in_finished_order = ratings_tables(in_order)
    with open_store(tmp_path / "out-of-order.db", create=True) as out_of_order:
        out_of_order.save_game(late)  # e.g. a slow worker delivered the earlier game last
        out_of_order.save_game(early)
        live = ratings_tables(out_of_order)
        assert live[0] != in_finished_order[0], "the order matters to TrueSkill"
        out_of_order.recompute_ratings()
        assert ratings_tables(out_of_order) == live, "a recompute changes nothing"


def test_recompute_is_one_transaction(store: Store, make_game, bots, monkeypatch) -> None:
    for game in many_games(make_game, bots, n=10):
        store.save_game(game)
    before = ratings_tables(store)
    calls = 0
    real = rating_updates.ratings.update

    def fail_on_third(*args, **kwargs):
        nonlocal calls
        calls += 1
        if calls == 3:  # the old ratings are deleted by then
            raise RuntimeError("simulated crash during recompute")
        return real(*args, **kwargs)

    monkeypatch.setattr(rating_updates.ratings, "update", fail_on_third)
    with pytest.raises(RuntimeError, match="simulated crash"):
        store.recompute_ratings()
    assert ratings_tables(store) == before, "a failed recompute keeps the old ratings"
