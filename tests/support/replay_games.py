"""Games for the replay tests: played in-process (fast), every message each seat was sent kept."""

from __future__ import annotations

import random
from typing import Any

from arena.games import get_game
from arena.inprocess import InProcessBot
from arena.record import BotIdentity, GameRecord
from arena.referee import SeatedBot, play_game
from protocol import legal

TITLES = {"corruption": 4, "intrigue": 4, "paranoia": 3}
"""Each title and the table size its replay tests play at (PARANOIA at 3: its games are long,
and the browser tests step through each one twice)."""


def played(
    title: str,
    players: int,
    seed: int = 3,
    *,
    names: list[str] | None = None,
    faulty_seat: int | None = None,
    variants: list[str] | None = None,
) -> tuple[GameRecord, list[list[dict[str, Any]]]]:
    """A game of random bots and, per seat, every message the referee sent it. The bot in
    ``faulty_seat`` answers its third request with an illegal action (and is faulted)."""
    bots = []
    for seat in range(players):
        rng = random.Random(seed * 100 + seat)
        asked = [0]

        def decide(
            view: dict[str, Any], legal_desc: dict[str, Any], seat=seat, rng=rng, asked=asked
        ):
            asked[0] += 1
            if seat == faulty_seat and asked[0] == 3:
                return {"not": "an action"}
            return legal.random_action(legal_desc, rng)

        bot = InProcessBot(decide)
        bot.keep_messages = True
        bots.append(bot)
    labels = names or [f"bot{seat}" for seat in range(players)]
    record = play_game(
        get_game(title),
        [SeatedBot(BotIdentity(labels[s], "1.0", "-"), bot) for s, bot in enumerate(bots)],
        seed=seed,
        options={"variants": variants or []},
        game_id=f"{title}-{seed}",
        bot_seed_key=b"test-key",
    )
    return record, [bot.received for bot in bots]
