"""One conformance suite that every game title passes (STYLE.md): random playouts (with
talking seats too, for the titles that have table talk) with the game's own invariants checked
after every decision, well-formed requests and views, events
whose per-seat versions are consistent, same-seed determinism, and replay from the record."""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import orjson
import pytest

from arena.games import get_game, titles
from arena.games.base import BadOptions, Game
from protocol import legal


def variant_sets(game: Game) -> list[list[str]]:
    """Every combination of variants the game accepts."""
    sets = []
    for size in range(len(game.variants) + 1):
        for combo in itertools.combinations(game.variants, size):
            try:
                sets.append(game.normalize_options({"variants": list(combo)})["variants"])
            except BadOptions:
                continue
    return sets


def playout(game: Game, players: int, seed: int, options: dict[str, Any], rng: random.Random):
    """Play to the end with random legal actions, checking every step; return a transcript."""
    state, events = game.start(players, seed, options)
    transcript: list[Any] = [[e.truth() for e in events]]
    decisions = 0
    while (decision := state.pending()) is not None:
        assert 0 <= decision.seat < players, f"decision for seat {decision.seat} of {players}"
        assert legal.is_legal(decision.legal, legal.default_action(decision.legal)), (
            "the referee's default action must be legal"
        )
        view = state.view(decision.seat)
        orjson.dumps(view)  # JSON-ready, nothing the wire cannot carry
        action = legal.random_action(decision.legal, rng)
        caused = state.apply(action)
        decisions += 1
        assert decisions <= game.max_decisions, "more decisions than the game's declared bound"
        broken = state.invariants()
        assert not broken, f"after decision {decisions} ({decision.kind}): {broken}"
        for event in caused:
            for seat in range(players):
                body = event.for_seat(seat)
                if body is not None:
                    assert body["kind"] == event.kind
                    orjson.dumps(body)
            if event.seen_by is not None:
                assert event.seen_by <= set(range(players)), "seen_by names real seats"
            told = {
                seat: body
                for seats, body in event.audiences(list(range(players)))
                for seat in seats
            }
            each = {seat: event.for_seat(seat) for seat in range(players)}
            assert told == {seat: body for seat, body in each.items() if body is not None}, (
                "the referee's grouped delivery tells each seat what for_seat gives it"
            )
        transcript.append([decision.seat, action, [e.truth() for e in caused]])
    outcome = state.outcome()
    assert len(outcome.scores) == len(outcome.ranks) == players
    assert min(outcome.ranks) == 1 and max(outcome.ranks) <= players
    transcript.append([list(outcome.scores), list(outcome.ranks), state.table_view()])
    return transcript


def cases(game: Game) -> list[tuple[int, list[str]]]:
    """(players, variants) pairs covering every table size and every variant set twice."""
    sizes = list(range(game.min_players, game.max_players + 1))
    sets = variant_sets(game)
    count = max(len(sizes), 2 * len(sets))
    return [(sizes[i % len(sizes)], sets[i % len(sets)]) for i in range(count)]


def case(title: str, players: int, setting: Any) -> Any:
    """One (title, players, setting) case. Paranoia's largest tables cost about 2 s of CPU
    each: the quick run (-m "not slow") keeps its tables of up to 5 and every other case, the
    full run all of them."""
    slow = title == "paranoia" and players > 5
    return pytest.param(title, players, setting, marks=[pytest.mark.slow] if slow else [])


CASES = [
    case(title, players, variants)
    for title in titles()
    for players, variants in cases(get_game(title))
]


@pytest.mark.parametrize("title,players,variants", CASES)
def test_random_playouts_keep_every_invariant_and_replay_identically(title, players, variants):
    game = get_game(title)
    options = game.normalize_options({"variants": variants})
    for seed in range(3):
        first = playout(game, players, seed, options, random.Random(seed))
        again = playout(game, players, seed, options, random.Random(seed))
        assert json.dumps(first) == json.dumps(again), "same seed and decisions: same game"


TALK_CASES = [
    # the titles whose seats may talk (table talk: messages, proposals, deals), with every seat
    # talking and with two of them, at the smallest and the largest table
    case(title, players, talkers)
    for title in titles()
    if getattr(get_game(title), "supports_talk", False)
    for players in (get_game(title).min_players, get_game(title).max_players)
    for talkers in (list(range(players)), [0, players - 1])
]


@pytest.mark.parametrize("title,players,talkers", TALK_CASES)
def test_playouts_with_talking_seats_keep_every_invariant_and_replay_identically(
    title, players, talkers
):
    game = get_game(title)
    options = game.normalize_options({"talk": talkers})
    seed = players  # one game per case (a PARANOIA game with talk costs a second of CPU)
    first = playout(game, players, seed, options, random.Random(seed))
    again = playout(game, players, seed, options, random.Random(seed))
    assert json.dumps(first) == json.dumps(again), "same seed and decisions: same game"
    talked = [step for step in first[1:-1] if isinstance(step[1], dict) and "act" in step[1]]
    assert {seat for seat, _, _ in talked} == set(talkers), "every talker was asked to talk"


def test_the_talk_cases_cover_every_title_that_talks():
    talking = {title for title in titles() if getattr(get_game(title), "supports_talk", False)}
    assert talking == {"intrigue", "paranoia"}
    assert {case.values[0] for case in TALK_CASES} == talking


@pytest.mark.parametrize("title", titles())
def test_options_are_normalized_idempotently_and_nonsense_is_refused(title):
    game = get_game(title)
    for variants in variant_sets(game):
        once = game.normalize_options({"variants": variants})
        assert game.normalize_options(once) == once
    with pytest.raises(BadOptions):
        game.normalize_options({"variants": ["no-such-variant"]})
    with pytest.raises(BadOptions):
        game.normalize_options({"no-such-option": 1})


@pytest.mark.parametrize("title", titles())
def test_table_sizes_outside_the_box_are_refused(title):
    game = get_game(title)
    options = game.normalize_options({})
    for players in (game.min_players - 1, game.max_players + 1):
        with pytest.raises(BadOptions):
            game.start(players, 0, options)


@pytest.mark.parametrize("title", titles())
def test_a_different_seed_deals_a_different_game(title):
    game = get_game(title)
    options = game.normalize_options({})
    views = {
        orjson.dumps(game.start(game.min_players, seed, options)[0].table_view())
        for seed in range(5)
    }
    assert len(views) > 1
