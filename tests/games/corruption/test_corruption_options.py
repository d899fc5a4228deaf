"""Static facts, options and the contract table."""

from __future__ import annotations

import itertools
import json

import pytest

from arena.games import get_game
from arena.games.base import BadOptions
from arena.games.corruption import GAME, contracts
from arena.games.corruption.cards import Card, Variant, starting_hand

SCHEDULE = ["closed", "down-the-river", "stud-libre"]


def test_game_static_facts() -> None:
    assert get_game("corruption") is GAME
    assert GAME.title == "corruption"
    assert (GAME.min_players, GAME.max_players) == (3, 7)
    assert GAME.variants == ("closed", "down-the-river", "little-black-book", "stud-libre")
    assert GAME.max_decisions >= 4 * (1 + 42 + 42) + 14


def test_missing_variants_key_means_no_variant() -> None:
    assert GAME.normalize_options({}) == {"variants": []}


def test_variants_are_sorted_and_unique() -> None:
    options = {"variants": ["little-black-book", "down-the-river", "little-black-book"]}
    assert GAME.normalize_options(options) == {"variants": ["down-the-river", "little-black-book"]}


def test_normalized_options_are_a_fixed_point() -> None:
    once = GAME.normalize_options({"variants": ["stud-libre", "little-black-book"]})
    assert GAME.normalize_options(once) == once


def test_unknown_variant_is_rejected_naming_the_known_ones() -> None:
    with pytest.raises(BadOptions) as err:
        GAME.normalize_options({"variants": ["texas-holdem"]})
    for name in GAME.variants:
        assert name in str(err.value)
    assert "texas-holdem" in str(err.value)


def test_unknown_option_key_is_rejected() -> None:
    with pytest.raises(BadOptions, match="rounds"):
        GAME.normalize_options({"variants": [], "rounds": 3})


def test_variants_must_be_a_list_of_names() -> None:
    with pytest.raises(BadOptions):
        GAME.normalize_options({"variants": "closed"})
    with pytest.raises(BadOptions):
        GAME.normalize_options({"variants": [1]})


@pytest.mark.parametrize("pair", list(itertools.combinations(SCHEDULE, 2)) + [tuple(SCHEDULE)])
def test_schedule_variants_are_mutually_exclusive(pair: tuple[str, ...]) -> None:
    with pytest.raises(BadOptions, match="cannot be combined"):
        GAME.normalize_options({"variants": list(pair)})


@pytest.mark.parametrize("other", SCHEDULE)
def test_little_black_book_combines_with_any_variant(other: str) -> None:
    options = GAME.normalize_options({"variants": [other, "little-black-book"]})
    assert set(options["variants"]) == {other, "little-black-book"}
    GAME.start(3, 0, options)


@pytest.mark.parametrize("players", [0, 2, 8, True])
def test_player_count_outside_3_to_7_is_rejected(players: int) -> None:
    with pytest.raises(BadOptions):
        GAME.start(players, 0, {"variants": []})


def test_the_24_contracts_match_the_rules_table() -> None:
    table = contracts.CONTRACTS
    assert [c.id for c in table] == list(range(1, 25))
    assert (table[0].name, table[0].value) == ("Elementary School", 100_000)
    assert (table[23].name, table[23].value) == ("Hydro-Electric Dam", 1_200_000)
    values = [c.value for c in table]
    assert values == sorted(values)
    assert sum(values) == 11_950_000
    assert "designed" in (contracts.__doc__ or "") and "Provenance" in (contracts.__doc__ or "")


def test_each_player_has_ten_cards_or_six_bribes_when_closed() -> None:
    full = starting_hand(closed=False)
    assert full.total() == 10
    assert (full[Card.DISTRICT_ATTORNEY], full[Card.REPORTER], full[Card.HIT_MAN]) == (1, 2, 1)
    closed = starting_hand(closed=True)
    assert closed.total() == 6 and all(card.value.startswith("bribe-") for card in closed)


def test_start_views_show_full_hands() -> None:
    state, _ = GAME.start(4, 1, {"variants": []})
    for seat in range(4):
        assert len(state.view(seat)["hand"]) == 10
    closed, _ = GAME.start(4, 1, {"variants": ["closed"]})
    assert closed.view(0)["hand"] == [f"bribe-{v}" for v in (1000, 2000, 4000, 6000, 8000, 10000)]


def test_views_and_events_are_json_ready() -> None:
    state, events = GAME.start(5, 3, {"variants": [v.value for v in (Variant.LITTLE_BLACK_BOOK,)]})
    json.dumps(state.view(0))
    json.dumps(state.table_view())
    for event in events:
        json.dumps(event.truth())
