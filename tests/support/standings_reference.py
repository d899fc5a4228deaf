"""The standings as leagues.standings computed them before leagues.tally kept them up to date:
a full replay of the league's stored seat rows. Kept as the oracle the tallies are checked
against (tests/leagues/test_tally.py)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from arena import ratings
from arena.faults import Fault
from arena.record import GameStatus
from leagues.standings import BotStanding, HeadToHead, Interval, Standings
from leagues.standings import labels_of as _labels


def compute_standings(
    rows: Iterable[dict[str, Any]], *, name: str, title: str, scheduled: int
) -> Standings:
    """Standings from the league's seat rows (leagues.store.LeagueStore.seats), in save order."""
    games: dict[str, list[dict[str, Any]]] = defaultdict(list)
    status: dict[str, str] = {}
    for row in rows:
        games[row["game_id"]].append(row)
        status[row["game_id"]] = row["status"]
    keys = {(r["name"], r["version"], r["digest"]) for seats in games.values() for r in seats}
    labels = _labels(keys)
    env = ratings.default_env()
    rating: dict[tuple[str, str, str], tuple[float, float]] = {}
    ranks: dict[str, list[float]] = defaultdict(list)
    scores: dict[str, list[float]] = defaultdict(list)
    played: dict[str, int] = defaultdict(int)
    wins: dict[str, int] = defaultdict(int)
    faults: dict[str, int] = defaultdict(int)
    meetings: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])
    complete = 0
    for game_id, seats in games.items():  # dicts keep save order
        if status[game_id] != GameStatus.COMPLETE:
            continue
        complete += 1
        seat_keys = [((s["name"], s["version"], s["digest"]), s["rank"]) for s in seats]
        rating.update(ratings.update(env, rating, seat_keys))
        for key in {k for k, _ in seat_keys}:
            played[labels[key]] += 1
        for seat in seats:
            label = labels[(seat["name"], seat["version"], seat["digest"])]
            ranks[label].append(seat["rank"])
            scores[label].append(seat["score"])
            wins[label] += seat["rank"] == 1
            faults[label] += seat["fault"] != Fault.OK
        for x in seats:
            for y in seats:
                a = labels[(x["name"], x["version"], x["digest"])]
                b = labels[(y["name"], y["version"], y["digest"])]
                if a == b:
                    continue
                tally = meetings[(a, b)]
                tally[0] += 1
                tally[1] += x["rank"] < y["rank"]
                tally[2] += x["rank"] == y["rank"]
    default = (env.mu, env.sigma)
    bots = [
        BotStanding(
            label=labels[key],
            games=played[labels[key]],
            seats=len(ranks[labels[key]]),
            mu=rating.get(key, default)[0],
            sigma=rating.get(key, default)[1],
            wins=wins[labels[key]],
            rank=Interval.of(ranks[labels[key]]),
            score=Interval.of(scores[labels[key]]),
            faults=faults[labels[key]],
        )
        for key in keys
        if ranks[labels[key]]
    ]
    bots.sort(key=lambda b: (-b.conservative, b.label))
    head = [HeadToHead(a, b, *tally) for (a, b), tally in sorted(meetings.items())]
    return Standings(name, title, scheduled, complete, len(games) - complete, bots, head)
