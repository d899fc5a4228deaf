"""TrueSkill's ``rate`` for free-for-all games of one-player teams, about ten times faster and
bit-identical to the trueskill library's.

The library builds a generic factor graph of Gaussian objects for every game (about 1.8 ms for
five players, nine tenths of a ratings recompute). Arena only ever rates one-player teams with
the library's own erf-based maths (no mpmath or scipy backend) and a fixed draw probability, so
here the same graph is a handful of float lists and the same message-passing schedule runs over
them. Every floating-point operation is the one the library performs, with the same operands in
the same order (even ``x ** 2`` stays a power, ``0 + x`` stays an addition, since either could
change the last bit or the sign of a zero), so the results are equal to the float.

The library's quiet special cases are reproduced too: a message of precision exactly zero (a
result so certain it teaches nothing, e.g. a heavy favourite winning) and an infinite change.
Where it raises (``FloatingPointError`` when a winner is far too many sigmas below the loser,
a division by zero or math domain error it does not catch) this module stops and the library
rates the game instead, so the same error is raised. Environments, team shapes, sizes or a
library version other than the one this was written from go to the library too (see
``fast_path_for``).

Written from the library's source (trueskill 0.4.5, BSD: ``TrueSkill.rate``, ``run_schedule``,
``factorgraph``, ``backends``); tests/test_trueskill_ffa.py holds it equal to the library.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import trueskill
from trueskill import backends

WRITTEN_FROM = "0.4.5"
"""The trueskill version whose arithmetic this reproduces (its last release, 2016)."""

MAX_SEATS = 8
"""The most seats any game has (PARANOIA); larger games are left to the library, untested here."""

ITERATIONS = 10
"""run_schedule's cap on passes over the chain of neighbour comparisons."""

_INF = math.inf
_exp = math.exp
_sqrt = math.sqrt
_SQRT2 = math.sqrt(2)
_INV_SQRT_2PI = 1 / math.sqrt(2 * math.pi)


class OffFastPath(Exception):
    """The library would raise, or the game is outside the fast path: let the library rate it."""


@dataclass(frozen=True)
class FastPath:
    """The constants one environment's games are rated with."""

    beta_squared: float
    tau_squared: float
    draw_margin: float
    """Of a comparison between two one-player teams (the library's ``calc_draw_margin``)."""


def fast_path_for(env: trueskill.TrueSkill) -> FastPath | None:
    """The constants to rate ``env``'s games here, or None if the library must rate them: a
    subclass (it may override v/w), a statistics backend other than the built-in one, or a draw
    probability that is a function of the ratings; or any environment under a library version
    this was not written from."""
    if (
        trueskill.__version__ != WRITTEN_FROM
        or type(env) is not trueskill.TrueSkill
        or env.cdf is not backends.cdf
        or env.pdf is not backends.pdf
        or env.ppf is not backends.ppf
        or callable(env.draw_probability)
    ):
        return None
    return _fast_path(env.beta, env.tau, env.draw_probability)


@functools.lru_cache(maxsize=16, typed=True)
def _fast_path(beta: float, tau: float, draw_probability: float) -> FastPath:
    """Cached: the draw margin alone costs as much as a tenth of a game's rating."""
    return FastPath(
        beta_squared=beta**2,
        tau_squared=tau**2,
        draw_margin=trueskill.calc_draw_margin(
            draw_probability, 2, trueskill.TrueSkill(beta=beta, draw_probability=draw_probability)
        ),
    )


def rate(
    env: trueskill.TrueSkill, ratings: Sequence[tuple[float, float]], ranks: Sequence[int]
) -> list[tuple[float, float]]:
    """(mu, sigma) after one game per seat, in seat order: exactly what
    ``env.rate([(env.create_rating(mu, sigma),) for ...], ranks=ranks)`` gives (and raises),
    through the fast path whenever it applies. ``ranks``: 1 = best, equal ranks draw."""
    path = fast_path_for(env)
    if path is not None:
        try:
            return rate_fast(path, ratings, ranks)
        except OffFastPath:
            pass
    rated = env.rate([(env.create_rating(mu, sigma),) for mu, sigma in ratings], ranks=ranks)
    return [(after.mu, after.sigma) for (after,) in rated]


def rate_fast(
    path: FastPath, ratings: Sequence[tuple[float, float]], ranks: Sequence[int]
) -> list[tuple[float, float]]:
    """What ``rate`` gives, or OffFastPath where only the library can say."""
    seats = len(ratings)
    if not 2 <= seats <= MAX_SEATS or len(ranks) != seats:
        raise OffFastPath
    # The library sorts the teams by rank, stably; the graph runs in that order.
    order = sorted(range(seats), key=ranks.__getitem__)
    draws = [ranks[order[k]] == ranks[order[k + 1]] for k in range(seats - 1)]
    try:
        after = _run(path, [ratings[seat] for seat in order], draws)
    except (ArithmeticError, ValueError) as error:
        # A zero division, overflow or math domain error: the library either catches it and
        # takes a branch of its own, or raises it. Either way the library must say.
        raise OffFastPath from error
    result: list[tuple[float, float]] = [(0.0, 0.0)] * seats
    for position, seat in enumerate(order):
        result[seat] = after[position]
    return result


def _run(
    path: FastPath, ratings: list[tuple[float, float]], draws: list[bool]
) -> list[tuple[float, float]]:
    """The factor graph of n one-player teams sorted by rank, as the library runs it.

    Variables and messages are (precision pi, precision-adjusted mean tau) pairs held in
    parallel lists. Per player i: its skill's value after the prior (skill_*), the likelihood
    factor's message to its performance (like_*), the performance itself (perf_*), the team
    performance (team_*) and the sum factor's message to it (sum_*). Per neighbouring pair k
    (teams k and k+1): the difference variable (diff_*), the difference factor's message to it
    (down_*) and to each team (left_*: to team k, right_*: to team k+1), and the truncation
    factor's message to it (trunc_*).
    """
    n = len(ratings)
    pairs = n - 1
    skill_pi, skill_tau, like_pi, like_tau = [0.0] * n, [0.0] * n, [0.0] * n, [0.0] * n
    perf_pi, perf_tau = [0.0] * n, [0.0] * n
    team_pi, team_tau, sum_pi, sum_tau = [0.0] * n, [0.0] * n, [0.0] * n, [0.0] * n
    for i, (mu, sigma) in enumerate(ratings):
        # The prior (Rating(mu, sigma), read back through its mu and sigma properties), widened
        # by the dynamics factor tau.
        pi = sigma**-2
        tau = pi * mu
        prior_mu, prior_sigma = tau / pi, math.sqrt(1 / pi)
        widened = math.sqrt(prior_sigma**2 + path.tau_squared)
        skill_pi[i] = pi = widened**-2
        skill_tau[i] = tau = pi * prior_mu
        # Performance = skill + noise of variance beta**2.
        a = 1.0 / (1.0 + path.beta_squared * pi)
        like_pi[i], like_tau[i] = a * pi, a * tau
        perf_pi[i], perf_tau[i] = 0 + like_pi[i], 0 + like_tau[i]
        # The one-player team's performance is its player's (a sum of one term).
        sum_pi[i] = pi = 1.0 / (0 + 1 / perf_pi[i])
        sum_tau[i] = tau = pi * (0 + perf_tau[i] / perf_pi[i])
        team_pi[i], team_tau[i] = 0 + pi, 0 + tau

    diff_pi, diff_tau, down_pi, down_tau = (
        [0.0] * pairs,
        [0.0] * pairs,
        [0.0] * pairs,
        [0.0] * pairs,
    )
    left_pi, left_tau, right_pi, right_tau = (
        [0.0] * pairs,
        [0.0] * pairs,
        [0.0] * pairs,
        [0.0] * pairs,
    )
    trunc_pi, trunc_tau = [0.0] * pairs, [0.0] * pairs
    margin = path.draw_margin

    def difference_down(k: int) -> None:
        """Team k's performance minus team k+1's, less what the difference already sent."""
        p0, t0 = team_pi[k] - left_pi[k], team_tau[k] - left_tau[k]
        p1, t1 = team_pi[k + 1] - right_pi[k], team_tau[k + 1] - right_tau[k]
        mu = (0 + (t0 / p0 if p0 else p0)) - (t1 / p1 if p1 else p1)
        pi = _precision_of_sum(p0, p1)
        tau = pi * mu
        diff_pi[k] = (diff_pi[k] - down_pi[k]) + pi
        diff_tau[k] = (diff_tau[k] - down_tau[k]) + tau
        down_pi[k], down_tau[k] = pi, tau

    def truncate(k: int) -> float:
        """Condition the difference on the result (k ahead of k+1, or a draw); the change."""
        old_pi, old_tau = diff_pi[k], diff_tau[k]
        pi, tau = old_pi - trunc_pi[k], old_tau - trunc_tau[k]
        sqrt_pi = _sqrt(pi)
        diff, scaled_margin = tau / sqrt_pi, margin * sqrt_pi
        v, w = (_v_w_draw if draws[k] else _v_w_win)(diff, scaled_margin)
        denom = 1.0 - w
        new_pi, new_tau = pi / denom, (tau + sqrt_pi * v) / denom
        trunc_pi[k] = (new_pi + trunc_pi[k]) - old_pi
        trunc_tau[k] = (new_tau + trunc_tau[k]) - old_tau
        diff_pi[k], diff_tau[k] = new_pi, new_tau
        pi_delta = abs(old_pi - new_pi)
        if pi_delta == _INF:
            return 0.0  # the library's rule
        change, root = abs(old_tau - new_tau), _sqrt(pi_delta)
        return root if root > change else change  # max(change, root), as the library has it

    def difference_up_to_right(k: int) -> None:
        """Team k+1's performance = team k's minus the difference."""
        p0, t0 = team_pi[k] - left_pi[k], team_tau[k] - left_tau[k]
        p1, t1 = diff_pi[k] - down_pi[k], diff_tau[k] - down_tau[k]
        mu = (0 + (t0 / p0 if p0 else p0)) - (t1 / p1 if p1 else p1)
        pi = _precision_of_sum(p0, p1)
        tau = pi * mu
        team_pi[k + 1] = (team_pi[k + 1] - right_pi[k]) + pi
        team_tau[k + 1] = (team_tau[k + 1] - right_tau[k]) + tau
        right_pi[k], right_tau[k] = pi, tau

    def difference_up_to_left(k: int) -> None:
        """Team k's performance = the difference plus team k+1's."""
        p0, t0 = diff_pi[k] - down_pi[k], diff_tau[k] - down_tau[k]
        p1, t1 = team_pi[k + 1] - right_pi[k], team_tau[k + 1] - right_tau[k]
        mu = (0 + (t0 / p0 if p0 else p0)) + (t1 / p1 if p1 else p1)
        pi = _precision_of_sum(p0, p1)
        tau = pi * mu
        team_pi[k] = (team_pi[k] - left_pi[k]) + pi
        team_tau[k] = (team_tau[k] - left_tau[k]) + tau
        left_pi[k], left_tau[k] = pi, tau

    # run_schedule: sweep the chain of comparisons left to right and back until the largest
    # change is small.
    for _ in range(ITERATIONS):
        if pairs == 1:
            difference_down(0)
            delta: float = truncate(0)
        else:
            delta = 0
            for k in range(pairs - 1):
                difference_down(k)
                change = truncate(k)
                delta = change if change > delta else delta
                difference_up_to_right(k)
            for k in range(pairs - 1, 0, -1):
                difference_down(k)
                change = truncate(k)
                delta = change if change > delta else delta
                difference_up_to_left(k)
        if delta <= trueskill.DELTA:
            break
    difference_up_to_left(0)
    difference_up_to_right(pairs - 1)

    after = []
    for i in range(n):
        # Back up: team performance to the player's performance, performance to skill.
        p0, t0 = team_pi[i] - sum_pi[i], team_tau[i] - sum_tau[i]
        mu = 0 + (t0 / p0 if p0 else p0)
        pi = 1.0 / (0 + 1 / p0 if p0 else _INF)
        tau = pi * mu
        perf_pi[i], perf_tau[i] = (perf_pi[i] - 0.0) + pi, (perf_tau[i] - 0.0) + tau
        message_pi, message_tau = perf_pi[i] - like_pi[i], perf_tau[i] - like_tau[i]
        a = 1.0 / (1.0 + path.beta_squared * message_pi)
        pi = (skill_pi[i] - 0.0) + a * message_pi
        tau = (skill_tau[i] - 0.0) + a * message_tau
        # The skill's mu and sigma, made a Rating and read back through its properties.
        mu, sigma = tau / pi, math.sqrt(1 / pi)
        pi = sigma**-2
        tau = pi * mu
        after.append((tau / pi, math.sqrt(1 / pi)))
    return after


def _precision_of_sum(p0: float, p1: float) -> float:
    """1 / (1/p0 + 1/p1): the precision of a sum (or difference) of two Gaussians, computed as
    the library's sum factor does it. A term of precision zero (nothing known) makes the sum of
    variances infinite and the precision zero, and nothing is added once it is infinite."""
    variance = 0 + 1 / p0 if p0 else _INF
    if variance != _INF:
        variance = variance + 1 / p1 if p1 else _INF
    return 1.0 / variance


def _v_w_win(diff: float, margin: float) -> tuple[float, float]:
    """The library's v_win and w_win: the mean's and the variance's correction for a win."""
    x = diff - margin
    v = _INV_SQRT_2PI * _exp(-(x**2 / 2)) / _cdf(x)  # pdf(x) / cdf(x)
    w = v * (v + x)
    if not 0 < w < 1:
        raise OffFastPath  # the library raises FloatingPointError
    return v, w


def _v_w_draw(diff: float, margin: float) -> tuple[float, float]:
    """The library's v_draw and w_draw: the corrections for a draw."""
    abs_diff = abs(diff)
    a, b = margin - abs_diff, -margin - abs_diff
    denom = _cdf(a) - _cdf(b)
    pdf_a, pdf_b = _pdf(a), _pdf(b)
    v = (pdf_b - pdf_a) / denom
    w = v**2 + (a * pdf_a - b * pdf_b) / denom
    return v * (-1 if diff < 0 else +1), w


def _cdf(x: float) -> float:
    """backends.cdf(x) of the standard normal: 0.5 * erfc(-x / sqrt 2), with the library's
    erfc (Numerical Recipes' erfcc) written out here. Its polynomial is evaluated innermost
    term first, as the library's nested expression is."""
    y = -x / _SQRT2
    z = abs(y)
    t = 1.0 / (1.0 + z / 2.0)
    poly = -0.82215223 + t * 0.17087277
    poly = 1.48851587 + t * poly
    poly = -1.13520398 + t * poly
    poly = 0.27886807 + t * poly
    poly = -0.18628806 + t * poly
    poly = 0.09678418 + t * poly
    poly = 0.37409196 + t * poly
    poly = 1.00002368 + t * poly
    r = t * _exp(-z * z - 1.26551223 + t * poly)
    return 0.5 * (2.0 - r if y < 0 else r)


def _pdf(x: float) -> float:
    """backends.pdf(x) of the standard normal."""
    return _INV_SQRT_2PI * _exp(-(x**2 / 2))
