"""The bundled corruption-greedy bot beats random bots clearly (in-process, deterministic seeds).

The figures over 200 games with real subprocesses are in the issue notes (`arena play`);
this is a fast regression guard on the same decide function.
"""

from __future__ import annotations

import statistics

from arena.games import get_game
from arena.inprocess import InProcessBot, random_decider
from arena.record import BotIdentity
from arena.referee import SeatedBot, play_game
from tests.support.bundled import load_greedy


def ranks_of_greedy(pattern: str, games: int) -> list[int]:
    greedy = load_greedy()
    ranks = []
    for index in range(games):
        seats = pattern[index % len(pattern) :] + pattern[: index % len(pattern)]
        entrants = [
            SeatedBot(
                BotIdentity(kind, "", "-"),
                InProcessBot(greedy.decide if kind == "g" else random_decider(index * 10 + seat)),
            )
            for seat, kind in enumerate(seats)
        ]
        record = play_game(get_game("corruption"), entrants, seed=index, options={})
        assert all(s.fault == "ok" for s in record.seats)
        ranks += [record.seats[s].rank for s, kind in enumerate(seats) if kind == "g"]
    return ranks


def test_greedy_beats_four_random_bots_clearly():
    ranks = ranks_of_greedy("grrrr", 40)
    win_rate = sum(r == 1 for r in ranks) / len(ranks)
    assert win_rate >= 0.8, f"win rate {win_rate:.0%} (expected about 97%)"
    assert statistics.mean(ranks) < 1.5


def test_two_greedy_bots_share_the_table_instead_of_ruining_each_other():
    ranks = ranks_of_greedy("ggrrr", 40)
    assert sum(r == 1 for r in ranks) / 40 >= 0.8, "between them they should win most games"
