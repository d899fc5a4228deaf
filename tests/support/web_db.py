"""A small arena database for the web report's tests, built in a few seconds: in-process bots
played through the real referee and saved through the real store (arena.store, leagues.store),
with a fault, a league with a disqualification, two versions of one bot, and a bot whose name is
HTML (the protocol refuses such a name from a bot, but a hand-edited database may hold one)."""

from __future__ import annotations

from pathlib import Path

from arena.games import get_game
from arena.inprocess import InProcessBot, random_decider
from arena.record import BotIdentity
from arena.referee import SeatedBot, play_game
from arena.store import open_store
from leagues.store import LeagueStore

XSS_NAME = "<script>alert(1)</script>"
RANDOM_A = BotIdentity("random-a", "1.0", "aaaa1111", "/bots/a")
RANDOM_A2 = BotIdentity("random-a", "2.0", "aaaa2222", "/bots/a")
RANDOM_B = BotIdentity("random-b", "1.0", "bbbb1111", "/bots/b")
HOSTILE = BotIdentity(XSS_NAME, "6.6", "eeee6666", "/bots/x")
BROKEN = BotIdentity("broken", "0.1", "dddd0001", "/bots/broken")
LEAGUE = "web-league"


def _illegal(view: object, legal: object) -> object:
    return {"not": "an action"}  # every answer illegal: the seat faults at once


def build(path: Path, games: int = 12) -> Path:
    """Write the database to ``path``: ``games`` Corruption games (a third of them filed under a
    league), four Intrigue games, and one game where `broken` faults."""
    corruption, intrigue = get_game("corruption"), get_game("intrigue")
    lineup = [RANDOM_A, RANDOM_B, HOSTILE, RANDOM_A2]
    with open_store(path, create=True) as store:
        leagues = LeagueStore(store)
        league = leagues.register(
            name=LEAGUE, title="corruption", fingerprint="test", games=games, path="test.toml"
        )
        for number in range(games):
            seated = [
                SeatedBot(lineup[(number + s) % 4], InProcessBot(random_decider(number * 7 + s)))
                for s in range(4)
            ]
            record = play_game(
                corruption, seated, seed=number, options={}, game_id=f"c{number:04d}"
            )
            if number % 3 == 0:
                leagues.save_game(record, league.id, number)
            else:
                store.save_game(record)
        for number in range(4):
            seated = [
                SeatedBot(bot, InProcessBot(random_decider(100 + number * 3 + s)))
                for s, bot in enumerate([RANDOM_A, RANDOM_B, HOSTILE])
            ]
            store.save_game(
                play_game(intrigue, seated, seed=number, options={}, game_id=f"i{number:04d}")
            )
        seated = [
            SeatedBot(BROKEN, InProcessBot(_illegal)),
            *(SeatedBot(bot, InProcessBot(random_decider(s))) for s, bot in enumerate(lineup[:3])),
        ]
        store.save_game(play_game(corruption, seated, seed=99, options={}, game_id="fault0001"))
        leagues.disqualify(league.id, entrant=2, label=HOSTILE.label, games=4, faults=3)
    return path
