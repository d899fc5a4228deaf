"""Views built from the parts a state keeps between decisions (arena/games/view_parts.py) are
byte for byte the views built from scratch, for every seat and the table, in random games.

A stale part would show a seat an old board, or another seat's hidden cards: this plays random
games (every table size, variants, talking seats) and, at random decisions, compares each
seat's ``state.view(seat)`` and the table's view with the same views built with the state's
parts replaced by an empty ViewParts. Views are built only at some decisions, in a random seat order, so that parts meet
the changes of several decisions at once and seats in any order.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.games import get_game
from arena.games.base import BadOptions
from arena.games.view_parts import ViewParts
from protocol import legal
from tests.support.examples import examples


@st.composite
def games(draw: st.DrawFn, title: str) -> tuple[int, int, dict[str, Any], float]:
    """(players, seed, options, how often views are compared) for one random game."""
    game = get_game(title)
    players = draw(st.integers(game.min_players, game.max_players))
    variants = (
        draw(st.lists(st.sampled_from(sorted(game.variants)), unique=True)) if game.variants else []
    )
    options: dict[str, Any] = {"variants": variants}
    if getattr(game, "supports_talk", False):
        options["talk"] = draw(st.lists(st.integers(0, players - 1), unique=True))
    try:
        options = game.normalize_options(options)
    except BadOptions:  # a variant set the game refuses: play without variants
        options = game.normalize_options({k: v for k, v in options.items() if k != "variants"})
    seed = draw(st.integers(0, 2**32 - 1))
    return players, seed, options, draw(st.sampled_from([1.0, 0.25]))


def encoded(view: dict[str, Any]) -> bytes:
    """A view's bytes: JSON's equality, not Python's (True is not 1)."""
    return orjson.dumps(view)


def afresh(state: Any, build: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """What ``build`` gives with the state's kept parts set aside (built from scratch)."""
    kept = state.view_parts
    state.view_parts = ViewParts()
    try:
        return build()
    finally:
        state.view_parts = kept


def check_game(title: str, players: int, seed: int, options: dict[str, Any], rate: float) -> int:
    """Play one random game, comparing kept and fresh views; return the comparisons made."""
    state, _ = get_game(title).start(players, seed, options)
    rng = random.Random(seed)
    compared = 0
    while (decision := state.pending()) is not None:
        if compared == 0 or rng.random() < rate:  # the first decision, then at random
            seats = list(range(players))
            rng.shuffle(seats)
            for seat in seats:
                kept = state.view(seat)
                fresh = afresh(state, lambda seat=seat: state.view(seat))
                assert encoded(kept) == encoded(fresh), f"seat {seat}'s view, {decision}"
                compared += 1
            kept_table = state.table_view()
            assert encoded(kept_table) == encoded(afresh(state, state.table_view))
        state.apply(legal.random_action(decision.legal, rng))
    assert encoded(state.table_view()) == encoded(afresh(state, state.table_view))
    return compared


@settings(max_examples=examples(15))
@given(games("intrigue"))
def test_intrigue_views_from_kept_parts_are_views_built_afresh(game: Any) -> None:
    assert check_game("intrigue", *game) > 0


@settings(max_examples=examples(15))
@given(games("corruption"))
def test_corruption_views_from_kept_parts_are_views_built_afresh(game: Any) -> None:
    assert check_game("corruption", *game) > 0


@settings(max_examples=examples(8))
@given(games("paranoia"))
def test_paranoia_views_from_kept_parts_are_views_built_afresh(game: Any) -> None:
    assert check_game("paranoia", *game) > 0
