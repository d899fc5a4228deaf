"""TrueSkill ratings per game title, through one explicit environment.

Every game is a free-for-all: each seat is its own one-player team and the game's ranks
(1 = best, equal ranks = a draw between those seats) are the result. The library's global
environment (``trueskill.setup`` / ``trueskill.rate``) is never used, so nothing here depends
on what some other module configured.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

import trueskill

from arena import trueskill_ffa

K = TypeVar("K", bound=Hashable)
"""Whatever identifies a bot (the store uses bots.id)."""

Rating = tuple[float, float]
"""(mu, sigma)."""

MU = 25.0
SIGMA = MU / 3
BETA = MU / 6
TAU = MU / 300
DRAW_PROBABILITY = 0.10
CONSERVATIVE_K = 3.0
"""Leaderboards order by mu - 3 sigma (equal to ``env.expose`` for the default env)."""


def default_env() -> trueskill.TrueSkill:
    """The environment arena rates with (the published TrueSkill defaults, pure-Python maths)."""
    return trueskill.TrueSkill(
        mu=MU, sigma=SIGMA, beta=BETA, tau=TAU, draw_probability=DRAW_PROBABILITY, backend=None
    )


def conservative(mu: float, sigma: float) -> float:
    """The skill we are ~99% sure the bot has at least: mu - 3 sigma."""
    return mu - CONSERVATIVE_K * sigma


def update(
    env: trueskill.TrueSkill,
    prior: Mapping[K, Rating],
    seats: Sequence[tuple[K, int]],
) -> dict[K, Rating]:
    """The ratings after one game, for every bot that sat in it.

    ``prior`` holds the bots' ratings before the game (a bot missing from it starts at the
    environment's default); ``seats`` lists (bot, rank) per seat. Bots not in ``seats`` are not
    returned. A game with fewer than two distinct bots (solitaire, or a bot playing only
    itself) says nothing about relative skill and returns ``{}``: no rating changes.

    Deterministic: the same inputs give bit-identical outputs, the very floats the trueskill
    library's ``env.rate`` gives (arena.trueskill_ffa computes them faster).
    """
    bots = list(dict.fromkeys(key for key, _ in seats))
    if len(bots) < 2:
        return {}
    rated = trueskill_ffa.rate(
        env,
        [prior.get(key, (env.mu, env.sigma)) for key, _ in seats],
        [rank for _, rank in seats],
    )

    seat_results: dict[K, list[Rating]] = {key: [] for key in bots}
    for (key, _), after in zip(seats, rated, strict=True):
        seat_results[key].append(after)

    # A bot in several seats (two copies of the random bot) is rated once per seat, each seat
    # from the same prior: each seat is a separate observation of one unknown skill. Adding up
    # the seats' mu deltas, or taking the last sigma, would count one game several times (a
    # bot in four seats would move four times as far as it should, and its sigma would shrink
    # as if it had played four games). Averaging the deltas and the new sigmas makes one game
    # move a bot about as much as any other game does.
    # (mu + mean of the deltas is the mean of the seats' new mus; computed that way it is exact
    # for the usual one-seat case.)
    return {
        key: (
            sum(mu for mu, _ in results) / len(results),
            sum(sigma for _, sigma in results) / len(results),
        )
        for key, results in seat_results.items()
    }
