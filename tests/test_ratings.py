"""TrueSkill updates against golden numbers, and the rules arena adds on top."""

from __future__ import annotations

import math

import pytest
import trueskill
from hypothesis import given
from hypothesis import strategies as st

from arena import ratings

ENV = ratings.default_env()


def approx3(value):
    return pytest.approx(value, abs=5e-4)


def test_environment_is_the_published_default() -> None:
    assert (ENV.mu, ENV.sigma, ENV.beta, ENV.tau, ENV.draw_probability) == pytest.approx(
        (25.0, 25 / 3, 25 / 6, 25 / 300, 0.10)
    )


def test_1v1_win_golden() -> None:
    # The published TrueSkill numbers for a first game between two new players (draw 10%).
    after = ratings.update(ENV, {}, [("winner", 1), ("loser", 2)])
    assert after["winner"] == approx3((29.396, 7.171))
    assert after["loser"] == approx3((20.604, 7.171))


def test_1v1_draw_golden() -> None:
    after = ratings.update(ENV, {}, [("a", 1), ("b", 1)])
    assert after["a"] == approx3((25.000, 6.458))
    assert after["b"] == approx3((25.000, 6.458))


def test_three_player_free_for_all_golden() -> None:
    # Three new players finishing 1st, 2nd, 3rd. These match Moserware's published
    # ThreePlayerTestNotDrawn (31.675/6.656, 25.000/6.208, 18.325/6.656): the middle player
    # beat one and lost to one, so its mu stays put while its sigma shrinks the most.
    after = ratings.update(ENV, {}, [("a", 1), ("b", 2), ("c", 3)])
    assert after["a"] == approx3((31.675, 6.656))
    assert after["b"] == approx3((25.000, 6.208))
    assert after["c"] == approx3((18.325, 6.656))


def test_tie_for_first_golden() -> None:
    # Seats a and b share first place, c is third (computed once with trueskill 0.4.5 and
    # checked to be symmetric under swapping the tied seats). TrueSkill only compares
    # neighbours in the finishing order: a draws with b, and b (the tied seat listed last)
    # beats c. So a learns about c only through b and moves slightly less: a 27.552/5.974,
    # b 27.557/5.972. Their order among equal ranks is the seat order, fixed per game.
    after = ratings.update(ENV, {}, [("a", 1), ("b", 1), ("c", 3)])
    assert after["a"] == approx3((27.552, 5.974))
    assert after["b"] == approx3((27.557, 5.972))
    assert after["c"] == approx3((19.891, 6.735))
    swapped = ratings.update(ENV, {}, [("b", 1), ("a", 1), ("c", 3)])
    assert swapped["b"] == after["a"] and swapped["a"] == after["b"]


def test_priors_are_used_and_missing_ones_default() -> None:
    prior = {"a": (30.0, 4.0), "b": (22.0, 6.0)}
    after = ratings.update(ENV, prior, [("a", 2), ("b", 1)])
    (ra,), (rb,) = ENV.rate(
        [(ENV.create_rating(30.0, 4.0),), (ENV.create_rating(22.0, 6.0),)], ranks=[2, 1]
    )
    assert after == {"a": (ra.mu, ra.sigma), "b": (rb.mu, rb.sigma)}
    # the upset moves the underdog far: 22 -> 27.707
    assert after["b"] == approx3((27.707, 4.914))
    newcomer = ratings.update(ENV, {"a": (30.0, 4.0)}, [("a", 1), ("new", 2)])
    (_,), (rn,) = ENV.rate([(ENV.create_rating(30.0, 4.0),), (ENV.create_rating(),)], ranks=[1, 2])
    assert newcomer["new"] == (rn.mu, rn.sigma)


def test_a_bot_in_several_seats_averages_its_seats() -> None:
    # random sits in seats 0 and 2. Each seat is rated from random's prior; random's new mu
    # is prior + mean of the two deltas, its new sigma the mean of the two new sigmas.
    seats = [("random", 1), ("alpha", 2), ("random", 3)]
    prior = {"random": (20.0, 5.0), "alpha": (26.0, 3.0)}
    (s0,), (s1,), (s2,) = ENV.rate(
        [(ENV.create_rating(*prior[key]),) for key, _ in seats], ranks=[1, 2, 3]
    )
    after = ratings.update(ENV, prior, seats)
    assert after["random"] == pytest.approx(
        (20.0 + ((s0.mu - 20.0) + (s2.mu - 20.0)) / 2, (s0.sigma + s2.sigma) / 2), abs=1e-12
    )
    assert after["alpha"] == (s1.mu, s1.sigma)
    # From the default prior: seats 1st and 3rd of three (31.675 and 18.325) cancel out.
    even = ratings.update(ENV, {}, [("r", 1), ("a", 2), ("r", 3)])
    assert even["r"] == approx3((25.000, 6.656))


def test_fewer_than_two_distinct_bots_is_no_update() -> None:
    assert ratings.update(ENV, {}, [("solo", 1)]) == {}
    assert ratings.update(ENV, {}, [("random", 1), ("random", 2)]) == {}
    assert ratings.update(ENV, {}, []) == {}


def test_global_environment_is_not_touched() -> None:
    before = trueskill.global_env()
    env = trueskill.TrueSkill(mu=100, sigma=10, draw_probability=0.0)
    ratings.update(env, {}, [("a", 1), ("b", 2)])
    after = trueskill.global_env()
    assert (after.mu, after.sigma, after.draw_probability) == (
        before.mu,
        before.sigma,
        before.draw_probability,
    )


game = st.integers(min_value=2, max_value=6).flatmap(
    lambda n: st.tuples(
        st.lists(st.tuples(st.floats(0, 50), st.floats(1, 25 / 3)), min_size=n, max_size=n),
        st.permutations(list(range(1, n + 1))),
    )
)


@given(game)
def test_free_for_all_properties(case) -> None:
    priors, ranks = case
    keys = [f"bot{i}" for i in range(len(priors))]
    prior = dict(zip(keys, priors))
    first = ratings.update(ENV, prior, list(zip(keys, ranks)))
    again = ratings.update(ENV, prior, list(zip(keys, ranks)))
    assert first == again, "deterministic"
    for key, rank in zip(keys, ranks):
        mu0, sigma0 = prior[key]
        mu, sigma = first[key]
        assert math.isfinite(mu) and math.isfinite(sigma)
        assert 0 < sigma <= math.hypot(sigma0, ENV.tau) + 1e-9, "a game never adds uncertainty"
        # (up to rounding: a winner far above the field gains ~0 and may land 1e-14 below)
        if rank == 1:
            assert mu >= mu0 - 1e-9, "the sole winner never goes down"
        if rank == len(keys):
            assert mu <= mu0 + 1e-9, "the sole loser never goes up"
