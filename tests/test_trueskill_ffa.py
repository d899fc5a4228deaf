"""arena.trueskill_ffa gives exactly (every bit, and every exception) what the trueskill library
gives, and hands the library whatever it does not reproduce."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest
import trueskill
from hypothesis import given
from hypothesis import strategies as st
from trueskill import backends

from arena import ratings, trueskill_ffa

ENV = ratings.default_env()
PATH = trueskill_ffa.fast_path_for(ENV)


def library(env: trueskill.TrueSkill, seats: Sequence[tuple[float, float]], ranks: list[int]):
    """The reference: the library's own rate(), one one-player team per seat."""
    rated = env.rate([(env.create_rating(mu, sigma),) for mu, sigma in seats], ranks=ranks)
    return [(after.mu, after.sigma) for (after,) in rated]


def outcome(rate: Callable[[], list[tuple[float, float]]]) -> tuple[str, ...]:
    """Every bit of the result (float.hex tells -0.0 from 0.0), or the exception raised."""
    try:
        return ("rated", *(x.hex() for seat in rate() for x in seat))
    except Exception as error:
        return ("raised", type(error).__name__, str(error))


@pytest.fixture
def library_calls(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the calls to the library's rate() (which still runs)."""
    calls: list[int] = []
    original = trueskill.TrueSkill.rate

    def spy(self, *args, **kwargs):
        calls.append(1)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(trueskill.TrueSkill, "rate", spy)
    return calls


def game(mu: st.SearchStrategy[float], sigma: st.SearchStrategy[float]):
    """(ratings, ranks) of one free-for-all of 2 to 8 seats; ranks 1..n with ties."""
    return st.integers(min_value=2, max_value=trueskill_ffa.MAX_SEATS).flatmap(
        lambda n: st.tuples(
            st.lists(st.tuples(mu, sigma), min_size=n, max_size=n),
            st.lists(st.integers(1, n), min_size=n, max_size=n),
        )
    )


arbitrary = game(
    st.one_of(st.floats(-1e4, 1e4), st.sampled_from([0.0, -0.0, ratings.MU])),
    st.one_of(st.floats(1e-6, 1e4), st.just(ratings.SIGMA)),
)
"""Any finite rating, including ones no game produces (the library may raise on those)."""

realistic = game(st.floats(-25, 75), st.floats(0.5, ratings.SIGMA))
"""Ratings as arena's games leave them: the fast path must rate every such game itself."""


@given(arbitrary)
def test_equal_to_the_library_for_any_ratings_and_ranks(case) -> None:
    seats, ranks = case
    assert outcome(lambda: trueskill_ffa.rate(ENV, seats, ranks)) == outcome(
        lambda: library(ENV, seats, ranks)
    )


@given(realistic)
def test_the_fast_path_itself_rates_realistic_games_exactly(case) -> None:
    seats, ranks = case
    assert PATH is not None
    fast = trueskill_ffa.rate_fast(PATH, seats, ranks)  # OffFastPath would fail the test
    assert outcome(lambda: fast) == outcome(lambda: library(ENV, seats, ranks))


@given(
    game(st.floats(-25, 75), st.floats(0.5, 10)),
    st.floats(0.5, 50),
    st.floats(0.5, 10),
    st.floats(0.0, 0.1),
    st.floats(0.0, 0.9),
)
def test_equal_to_the_library_in_other_environments(case, mu, beta, tau, draw) -> None:
    seats, ranks = case
    env = trueskill.TrueSkill(mu=mu, sigma=mu / 3, beta=beta, tau=tau, draw_probability=draw)
    assert trueskill_ffa.fast_path_for(env) is not None
    assert outcome(lambda: trueskill_ffa.rate(env, seats, ranks)) == outcome(
        lambda: library(env, seats, ranks)
    )


def test_the_library_is_not_called_on_the_fast_path(library_calls) -> None:
    seats = [(25.0, 8.0), (30.0, 2.0), (20.0, 4.0), (26.0, 3.0), (24.0, 5.0)]
    trueskill_ffa.rate(ENV, seats, [2, 1, 3, 3, 5])
    assert library_calls == []


@pytest.mark.parametrize(
    "env",
    [
        # (the same maths, but not the functions the fast path was written from)
        trueskill.TrueSkill(backend=(lambda x: backends.cdf(x), backends.pdf, backends.ppf)),
        trueskill.TrueSkill(draw_probability=lambda a, b, env: 0.2),
        type("Custom", (trueskill.TrueSkill,), {})(),
    ],
    ids=["own-backend-functions", "dynamic-draw-probability", "subclass"],
)
def test_other_environments_go_to_the_library(env, library_calls) -> None:
    assert trueskill_ffa.fast_path_for(env) is None
    seats = [(25.0, 8.0), (30.0, 2.0), (20.0, 4.0)]
    assert trueskill_ffa.rate(env, seats, [1, 2, 2]) == library(env, seats, [1, 2, 2])
    assert len(library_calls) == 2  # ours went to the library, then the reference


def test_more_seats_than_any_game_go_to_the_library(library_calls) -> None:
    seats = [(20.0 + i, 3.0 + i / 2) for i in range(trueskill_ffa.MAX_SEATS + 1)]
    ranks = list(range(len(seats), 0, -1))
    with pytest.raises(trueskill_ffa.OffFastPath):
        trueskill_ffa.rate_fast(PATH, seats, ranks)
    assert trueskill_ffa.rate(ENV, seats, ranks) == library(ENV, seats, ranks)
    assert len(library_calls) == 2


def test_what_the_library_cannot_rate_raises_its_own_error(library_calls) -> None:
    # A winner a hundred of its tiny sigmas below the loser: the library gives up.
    seats, ranks = [(0.0, 0.01), (1000.0, 0.01)], [1, 2]
    with pytest.raises(trueskill_ffa.OffFastPath):
        trueskill_ffa.rate_fast(PATH, seats, ranks)
    with pytest.raises(FloatingPointError, match="mpmath"):
        trueskill_ffa.rate(ENV, seats, ranks)
    assert library_calls == [1]


def test_a_heavy_favourite_winning_teaches_nothing_on_the_fast_path(library_calls) -> None:
    # The win is so certain that the truncation sends a message of precision exactly zero: the
    # library's own branch for it (no division), which the fast path reproduces.
    seats, ranks = [(100.0, 1.0), (0.0, 1.0)], [1, 2]
    assert PATH is not None
    assert outcome(lambda: trueskill_ffa.rate_fast(PATH, seats, ranks)) == outcome(
        lambda: library(ENV, seats, ranks)
    )
    assert library_calls == [1]  # the reference only


def test_another_library_version_goes_to_the_library(monkeypatch: pytest.MonkeyPatch) -> None:
    # Its arithmetic might differ: only the version this was written from is reproduced.
    monkeypatch.setattr(trueskill, "__version__", "0.5.0")
    assert trueskill_ffa.fast_path_for(ENV) is None
