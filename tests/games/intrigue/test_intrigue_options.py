"""Static facts, options and table sizes."""

from __future__ import annotations

import pytest

from arena.games import get_game, titles
from arena.games.base import BadOptions
from arena.games.intrigue import GAME


def test_game_static_facts() -> None:
    assert "intrigue" in titles()
    assert get_game("intrigue") is GAME
    assert (GAME.title, GAME.min_players, GAME.max_players) == ("intrigue", 3, 5)
    assert GAME.variants == ("free-replacement",)
    # 5 players x 8 scholars: one send, two negotiations of <= 3 decisions, two owner decisions
    # a scholar: send 1, two negotiations of 7, two owner choices; talk among 5 talkers: 920
    assert GAME.max_decisions == 5 * 8 * 17 + 920


def test_missing_variants_key_means_no_variant() -> None:
    assert GAME.normalize_options({}) == {"variants": []}


def test_variants_are_sorted_unique_and_a_fixed_point() -> None:
    once = GAME.normalize_options({"variants": ["free-replacement", "free-replacement"]})
    assert once == {"variants": ["free-replacement"]}
    assert GAME.normalize_options(once) == once


@pytest.mark.parametrize(
    "options",
    [
        {"variants": ["open-bribes"]},
        {"variants": "free-replacement"},
        {"variants": [1]},
        {"rounds": 4},
        ["free-replacement"],
    ],
)
def test_nonsense_options_are_refused(options) -> None:
    with pytest.raises(BadOptions):
        GAME.normalize_options(options)


@pytest.mark.parametrize("players", [2, 6, True, "4"])
def test_table_sizes_outside_the_box_are_refused(players) -> None:
    with pytest.raises(BadOptions):
        GAME.start(players, 0, {"variants": []})
