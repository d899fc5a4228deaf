"""Corruption games played from a script, and their twins: the same game with one seat's
hidden cards changed (the differential leak tests of the referee and of the replay page)."""

from __future__ import annotations

import itertools
import random
from typing import Any

from arena.games import get_game
from arena.inprocess import InProcessBot
from arena.record import BotIdentity, GameRecord
from arena.referee import SeatedBot, play_game
from arena.replay import replay
from protocol import codec, legal

GAME = get_game("corruption")
BRIBES = ["bribe-1000", "bribe-2000", "bribe-4000", "bribe-6000", "bribe-8000", "bribe-10000"]


def play_scripted(
    players: int,
    seed: int,
    variants: list[str],
    script: list[Any] | None,
    wanted: frozenset[str] = frozenset(),
):
    """Play a game whose actions come from `script` (or are random when script is None);
    return the record and, per seat, the exact bytes the referee sent it, one line each (in
    the wire form of a bot that negotiated the wire features `wanted`)."""
    rng = random.Random(seed)
    actions = iter(script) if script is not None else None

    def decide(view: dict[str, Any], legal_desc: dict[str, Any]) -> Any:
        return next(actions) if actions is not None else legal.random_action(legal_desc, rng)

    bots = [InProcessBot(decide, wanted) for _ in range(players)]
    for bot in bots:
        bot.keep_messages = bot.keep_lines = True
    record = play_game(
        GAME,
        [SeatedBot(BotIdentity(f"s{i}", "", "-"), bot) for i, bot in enumerate(bots)],
        seed=seed,
        options={"variants": variants},
        game_id="twin",
        bot_seed_key=b"test-key",
    )
    if wanted:
        return record, [bot.lines for bot in bots]
    return record, [[codec.encode(m) for m in bot.received] for bot in bots]


Swap = tuple[dict[int, str], int, int, frozenset[int]]
"""(decision index -> the card placed instead, seat, round, seats that peeked a changed card)"""


def hidden_swaps(record: GameRecord) -> list[Swap]:
    """Every way to change one seat's hidden cards in one round, keeping its moves legal:
    a face-down bribe replaced by a bribe the seat kept in hand all round, or two of its
    face-down bribes exchanged (the only kind possible in Closed, where all six are placed)."""
    placed: dict[tuple[int, int], list[tuple[int, dict[str, Any]]]] = {}
    peekers: dict[int, set[int]] = {}
    for index, step in enumerate(replay(record)):
        for event in step.events:
            body = event.truth()
            if body["kind"] == "placed":
                placed.setdefault((body["seat"], body["round"]), []).append((index - 1, body))
            elif body["kind"] == "peeked":
                peekers.setdefault(body["placement"], set()).add(body["seat"])
    swaps: list[Swap] = []
    for (seat, round_no), bodies in placed.items():
        used = {body["card"] for _, body in bodies}
        unused = [b for b in BRIBES if b not in used]
        hidden = [(i, b) for i, b in bodies if not b["face_up"] and b["card"] in BRIBES]
        for index, body in hidden:
            seen = frozenset(peekers.get(body["placement"], ()))
            if unused:
                swaps.append(({index: unused[0]}, seat, round_no, seen))
        for (i, a), (j, b) in itertools.pairwise(hidden):
            seen = frozenset(peekers.get(a["placement"], ())) | frozenset(
                peekers.get(b["placement"], ())
            )
            swaps.append(({i: b["card"], j: a["card"]}, seat, round_no, seen))
    return swaps
