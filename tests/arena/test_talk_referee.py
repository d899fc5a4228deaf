"""Who talks (SPEC.md §14): the referee seats in talk the seats whose hello asked for it, on
titles that have talk, and records them in the game's options so replays rebuild the talk."""

from __future__ import annotations

from typing import Any

from arena.games import get_game
from arena.inprocess import InProcessBot, random_decider
from arena.record import BotIdentity
from arena.referee import SeatedBot, play_game
from arena.replay import replay
from protocol import features

TALKS = frozenset({features.TALK})


def play(title: str, wants: list[frozenset[str]], options: dict[str, Any] | None = None):
    bots = [InProcessBot(random_decider(seat), wanted) for seat, wanted in enumerate(wants)]
    for bot in bots:
        bot.keep_messages = True
    record = play_game(
        get_game(title),
        [SeatedBot(BotIdentity(f"b{seat}", "", "-"), bot) for seat, bot in enumerate(bots)],
        seed=7,
        options=options or {},
    )
    return record, bots


def start_options(bot: InProcessBot) -> dict[str, Any]:
    return next(m for m in bot.received if m["type"] == "game_start")["options"]


def test_the_seats_that_asked_for_talk_are_the_games_talkers_and_everyone_is_told():
    record, bots = play("intrigue", [TALKS, frozenset(), TALKS, frozenset(features.OFFERED)])
    assert record.options["talk"] == [0, 2, 3]
    assert all(start_options(bot)["talk"] == [0, 2, 3] for bot in bots)
    assert len(list(replay(record))) == len(record.decisions) + 1


def test_one_talker_has_nobody_to_talk_to_so_the_game_has_no_talk():
    record, bots = play("paranoia", [TALKS, frozenset(), frozenset()])
    assert "talk" not in record.options
    assert all("talk" not in start_options(bot) for bot in bots)


def test_a_title_without_talk_never_gets_talkers():
    record, _ = play("corruption", [TALKS] * 4)
    assert "talk" not in record.options


def test_only_the_handshake_decides_who_talks_not_the_options_passed_in():
    record, _ = play("intrigue", [frozenset()] * 3, {"talk": [0, 1, 2]})
    assert "talk" not in record.options
    record, _ = play("intrigue", [TALKS, TALKS, frozenset()], {"talk": [2]})
    assert record.options["talk"] == [0, 1]
