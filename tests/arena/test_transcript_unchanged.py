"""What seats are sent, byte for byte, in seeded games: pinned by digest.

A guard for work on the referee's speed (issue #12): views, events and requests may be built
faster, but a bot must receive exactly the bytes it received before. If a change to the wire
format is *meant*, print the new digests (run this file's ``transcripts`` for each case) and
update them with the change, saying so in its commit message.
"""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from arena.games import get_game
from arena.inprocess import InProcessBot, random_decider
from arena.record import BotIdentity
from arena.referee import SeatedBot, play_game
from protocol import codec

CASES: list[tuple[str, int, dict[str, Any], str]] = [
    ("corruption", 5, {}, "736db7f16b883c763d9f26b3564254f0e2fa91223fca8ddc32c0e0cd563eafb5"),
    (
        "corruption",
        4,
        {"variants": ["little-black-book", "stud-libre"]},
        "62e872993566296d353ee236f258ccd660a0739842c823e7c5cd053aad44ccaf",
    ),
    ("intrigue", 4, {}, "1d30cd030cb10866ca9efd24a2c71ea90f342dce1a66f70b6057a6e039ab76b1"),
    ("paranoia", 5, {}, "537c0d57d7dd70a7eccd87d0155402c61c3cf15481a4bd09693d6fbbbdfbfb40"),
]


def transcripts(title: str, players: int, options: dict[str, Any], games: int = 3) -> str:
    """SHA-256 over every line every seat was sent in a few seeded games, and each decision."""
    digest = hashlib.sha256()
    for seed in range(games):
        bots = [InProcessBot(random_decider(seed * 10 + seat)) for seat in range(players)]
        for bot in bots:
            bot.keep_messages = True
        record = play_game(
            get_game(title),
            [SeatedBot(BotIdentity("random", "1", "-"), bot) for bot in bots],
            seed=seed,
            options=options,
            game_id=f"game-{seed}",
            bot_seed_key=b"transcript",
        )
        for seat, bot in enumerate(bots):
            digest.update(f"seat {seat}\n".encode())
            for message in bot.received:
                digest.update(codec.encode(message))
        for decision in record.decisions:
            digest.update(codec.encode({"seat": decision.seat, "action": decision.action}))
    return digest.hexdigest()


@pytest.mark.parametrize(("title", "players", "options", "expected"), CASES)
def test_seats_are_sent_the_same_bytes(
    title: str, players: int, options: dict[str, Any], expected: str
) -> None:
    assert transcripts(title, players, options) == expected
