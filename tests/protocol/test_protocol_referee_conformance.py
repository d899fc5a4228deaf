"""What the real referee sends, game by game and title by title, is what the spec promises:
every message valid against its schema (the wire's integers) and plain JSON."""

from __future__ import annotations

import json
from typing import Any

import pytest
from protocol_testkit import ROOT, spec_minimal_bot

from arena.games import get_game, titles
from arena.inprocess import InProcessBot, random_decider
from arena.manifest import load_bot
from arena.match import MatchPlan, play_match
from arena.record import BotIdentity, GameRecord
from arena.referee import FaultPolicy, SeatedBot, play_game


def illegal(view: dict[str, Any], desc: dict[str, Any]) -> Any:
    return {"not": "an option"}


def seats(count: int, seed: int, illegal_seat: int | None = None) -> list[InProcessBot]:
    bots = []
    for seat in range(count):
        bot = InProcessBot(illegal if seat == illegal_seat else random_decider(seed * 10 + seat))
        bot.keep_messages = True
        bots.append(bot)
    return bots


def play(
    title: str, players: int, seed: int, **kwargs: Any
) -> tuple[list[InProcessBot], GameRecord]:
    bots = seats(players, seed, kwargs.pop("illegal_seat", None))
    entrants = [SeatedBot(BotIdentity(f"b{i}", "0", "-"), bot) for i, bot in enumerate(bots)]
    record = play_game(get_game(title), entrants, seed=seed, options={}, **kwargs)
    return bots, record


def assert_valid(schemas, bot: InProcessBot) -> None:
    for number, message in enumerate(bot.received):
        json.dumps(message, allow_nan=False)  # plain JSON: no NaN, no Python-only values
        validator = schemas.for_message("to_bot", message)
        errors = [f"{e.json_path}: {e.message}" for e in validator.iter_errors(message)]
        assert not errors, f"message {number} ({message['type']}): {errors[:3]}"


@pytest.mark.parametrize("title", titles())
@pytest.mark.parametrize("seed", [1, 2])
def test_every_message_of_a_game_is_valid(schemas, title, seed):
    game = get_game(title)
    bots, _ = play(title, game.min_players + seed - 1, seed)
    for bot in bots:
        kinds = [m["type"] for m in bot.received]
        assert kinds[0] == "game_start" and kinds[-1] == "game_over"
        assert "request" in kinds
        assert_valid(schemas, bot)


@pytest.mark.parametrize("title", titles())
def test_an_aborted_game_tells_the_others_in_valid_messages(schemas, title):
    game = get_game(title)
    bots, record = play(title, game.min_players, 3, illegal_seat=0, fault_policy=FaultPolicy.ABORT)
    assert record.status == "aborted"
    for bot in bots[1:]:
        assert bot.received[-1]["status"] == "aborted"
        assert_valid(schemas, bot)


def test_the_random_bot_and_the_spec_minimal_bot_play_real_games_without_fault(tmp_path):
    """Bots written from the spec alone, as real processes, under the real referee."""
    minimal = tmp_path / "minimal"
    minimal.mkdir()
    (minimal / "bot.py").write_text(spec_minimal_bot())
    (minimal / "bot.toml").write_text(
        'name = "minimal"\nversion = "1"\ncommand = ["{python}", "bot.py"]\n'
    )
    random_bot = load_bot(ROOT / "bots" / "random")
    bots = (random_bot, load_bot(minimal), random_bot)
    records: list[GameRecord] = []
    plan = MatchPlan(
        game=get_game("corruption"),
        bots=bots,
        games=3,
        seed=5,
        options={},
        log_dir=tmp_path / "logs",
    )
    assert play_match(plan, lambda index, record: records.append(record)) == 3
    for record in records:
        assert record.status == "complete"
        faults = [(s.bot.name, s.fault, s.fault_reason) for s in record.seats if s.fault != "ok"]
        assert not faults, faults
