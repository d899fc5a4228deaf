"""No seat is ever sent another seat's cash: proved on the bytes the referee sends.

Differential test: play a game through the real referee, then its twin in which one seat
started with more ducats and made the very same decisions. Everything another seat may see
(the board, every negotiation, every payment) is the same in both games, so every byte sent to
every other seat must be the same until the final scores; the rich seat's own stream differs
(its view shows its cash), which proves the test can fail.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import pytest

from arena.games.base import Event
from arena.games.intrigue import state as intrigue_state
from arena.games.intrigue.board import Ledger
from arena.games.intrigue.game import IntrigueGame
from arena.games.intrigue.options import parse_variants
from arena.games.intrigue.scholars import START_CASH
from arena.inprocess import InProcessBot
from arena.record import BotIdentity, GameRecord
from arena.referee import SeatedBot, play_game
from protocol import codec, features, legal


@dataclass
class TwinGame(IntrigueGame):
    """Intrigue where one seat starts with ``bonus`` more ducats (test only)."""

    rich: int = 0
    """The seat with the bonus."""
    bonus: int = 0
    """Extra starting ducats."""

    def start(
        self, players: int, seed: int, options: dict[str, Any]
    ) -> tuple[intrigue_state.IntrigueState, list[Event]]:
        cash = [START_CASH] * players
        cash[self.rich] += self.bonus
        state = intrigue_state.IntrigueState(players, seed, parse_variants(options))
        state.ledger = Ledger(cash)
        return intrigue_state.begin(state)


def cash_blind(rng: random.Random):
    """The rich seat's policy: small offers, a demand paid only if small (else it walks away),
    everything else at random — the same answers whatever its cash, legal in both games."""

    def decide(view: dict[str, Any], desc: dict[str, Any]) -> Any:
        if desc["kind"] == "record":  # an offer
            amount = desc["fields"]["amount"]
            low = amount["min"] if amount["min"] > 0 else 1000 * rng.randint(0, 2)
            section = rng.choice(desc["fields"]["section"]["options"])
            return {"amount": low, "section": section, "promise": f"I pay {low}"}
        opts = desc["options"]
        if {"refuse": True} in opts:  # a reply to a demand: its options depend on the cash
            return opts[0] if opts[0].get("pay", 3001) <= 3000 else {"refuse": True}
        return rng.choice(opts)

    return decide


def play(
    players: int, seed: int, variants: list[str], rich: int, bonus: int
) -> tuple[GameRecord, list[list[bytes]], list[list[dict[str, Any]]]]:
    """One refereed game; returns its record and, per seat, the bytes and messages it was sent."""
    bots = []
    for seat in range(players):
        rng = random.Random(seed * 10 + seat)
        if seat == rich:
            decide = cash_blind(rng)
        else:

            def decide(view, desc, rng=rng):
                return legal.random_action(desc, rng)

        bot = InProcessBot(decide)
        bot.keep_messages = True
        bots.append(bot)
    record = play_game(
        TwinGame(rich=rich, bonus=bonus),
        [SeatedBot(BotIdentity(f"s{i}", "", "-"), bot) for i, bot in enumerate(bots)],
        seed=seed,
        options={"variants": variants},
        game_id="twin",
        bot_seed_key=b"test-key",
    )
    return (
        record,
        [[codec.encode(m) for m in bot.received] for bot in bots],
        [list(bot.received) for bot in bots],
    )


def until_scores(lines: list[bytes]) -> list[bytes]:
    """Everything sent before the final scores (which are every seat's final cash)."""
    for position, line in enumerate(lines):
        if b'"kind":"game-end"' in line:
            return lines[:position]
    raise AssertionError("the game never ended")


CASES = [
    (seed, players, variants)
    for seed in range(4)
    for players in (3, 4, 5)
    for variants in ([], ["free-replacement"])
]


@pytest.mark.parametrize("seed,players,variants", CASES)
def test_other_seats_receive_identical_bytes_whatever_a_seats_cash_is(seed, players, variants):
    rich = seed % players
    record, sent, _ = play(players, seed, variants, rich, 0)
    twin, twin_sent, _ = play(players, seed, variants, rich, 17000)
    assert record.status == twin.status == "complete"
    assert [(d.seat, d.action) for d in record.decisions] == [
        (d.seat, d.action) for d in twin.decisions
    ], "the twin game is played with the very same decisions"
    assert twin.detail["final_cash"][rich] == record.detail["final_cash"][rich] + 17000
    assert until_scores(sent[rich]) != until_scores(twin_sent[rich]), (
        "the rich seat is told its own cash, so its stream must differ (the test can fail)"
    )
    for observer in range(players):
        if observer != rich:
            assert until_scores(sent[observer]) == until_scores(twin_sent[observer]), (
                f"seat {observer} was sent something that depends on seat {rich}'s cash"
            )


def find_cash(value: Any, path: str = "") -> list[str]:
    """Paths of every "cash" key inside a JSON value."""
    found = []
    if isinstance(value, dict):
        for key, sub in value.items():
            if key == "cash":
                found.append(f"{path}.{key}")
            found += find_cash(sub, f"{path}.{key}")
    elif isinstance(value, list):
        for index, sub in enumerate(value):
            found += find_cash(sub, f"{path}[{index}]")
    return found


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_seat_is_sent_its_own_cash_only_in_its_views_and_nobody_elses_anywhere(players):
    record, _, received = play(players, players, [], 0, 0)
    for seat, messages in enumerate(received):
        requests = 0
        for message in messages:
            paths = find_cash(message)
            if message["type"] in ("game_start", "request"):
                assert paths == [".view.cash"], f"seat {seat}: cash at {paths}"
                assert isinstance(message["view"]["cash"], int)
            else:
                assert paths == [], f"seat {seat} was sent a cash figure at {paths}: {message}"
            if message["type"] == "request":
                requests += 1
                if message["legal"]["kind"] == "record":  # its own offer: capped at its cash
                    top = message["legal"]["fields"]["amount"]["max"]
                    assert top <= max(message["view"]["cash"], 1000)
        assert requests == record.seats[seat].decisions


def play_talk_twin(seed: int, words: str) -> tuple[GameRecord, list[list[bytes]]]:
    """A 4-seat game where every seat talks: seat 0 tells seat 1 ``words`` privately at its
    first chance and passes after; every other talk is silence, every game decision random."""
    bots = []
    for seat in range(4):
        rng = random.Random(seed * 10 + seat)
        told = [False]

        def decide(view, desc, rng=rng, seat=seat, told=told):
            if view.get("decision", {}).get("kind") != "talk":
                return legal.random_action(desc, rng)
            if seat == 0 and not told[0] and 1 in desc["fields"]["to"]["options"]:
                told[0] = True
                return {"act": "tell", "to": 1, "text": words}
            return {"act": "pass"}

        bot = InProcessBot(decide, frozenset({features.TALK}))
        bot.keep_messages = True
        bots.append(bot)
    record = play_game(
        IntrigueGame(),
        [SeatedBot(BotIdentity(f"s{i}", "", "-"), bot) for i, bot in enumerate(bots)],
        seed=seed,
        options={},
        game_id="talk-twin",
        bot_seed_key=b"test-key",
    )
    return record, [[codec.encode(m) for m in bot.received] for bot in bots]


@pytest.mark.parametrize("seed", range(3))
def test_a_private_message_reaches_only_its_addressee(seed):
    """Twin games differing only in what seat 0 privately told seat 1: seats 2 and 3 are sent
    the very same bytes, views and events alike, from the first message to the last."""
    record, sent = play_talk_twin(seed, "I will seat you at 10,000")
    twin, twin_sent = play_talk_twin(seed, "Do not trust seat 2")
    assert record.options["talk"] == [0, 1, 2, 3]
    assert [(d.seat, d.action) for d in record.decisions] != [
        (d.seat, d.action) for d in twin.decisions
    ], "seat 0's message differs"
    assert sent[1] != twin_sent[1], "seat 1 reads the message, so the test can fail"
    assert sent[2] == twin_sent[2] and sent[3] == twin_sent[3]
    assert any(b'"kind":"said"' in line for line in sent[1])
