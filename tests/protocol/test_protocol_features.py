"""Wire features (SPEC.md §13) at the protocol level: what a hello may ask for, and
choice-products, whose compact choices stand for exactly the options they replace."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from protocol import features, legal, products

ALL = list(features.OFFERED)


@pytest.mark.parametrize(
    ("asked", "granted"),
    [
        (None, set()),  # no "features": a plain v1 bot
        ([], set()),
        (["view-patch"], {"view-patch"}),
        (ALL + ["telepathy", "VIEW-PATCH", ""], set(ALL)),  # unknown names are ignored
        (["view-patch"] * 60_000, {"view-patch"}),
        (["x" * 1_000_000], set()),
    ],
)
def test_a_bot_is_granted_what_it_asks_for_and_the_referee_offers(asked, granted):
    hello = {"type": "hello", "protocol": 1, "name": "b"}
    if asked is not None:
        hello["features"] = asked
    assert features.requested(hello) == granted


@pytest.mark.parametrize(
    ("asked", "words"),
    [
        ("view-patch", "must be an array"),
        ({"view-patch": True}, "must be an array"),
        (None, "must be an array"),
        (["view-patch", 1], "item 1 is not one"),
        ([["view-patch"]], "item 0 is not one"),
        ([{"a": [{"b": {}}]}], "item 0 is not one"),
        ([True], "item 0 is not one"),
    ],
)
def test_features_that_are_not_an_array_of_strings_are_refused_clearly(asked, words):
    with pytest.raises(features.FeatureError, match=words):
        features.requested({"type": "hello", "features": asked})


def test_the_bot_side_asks_only_for_what_is_offered():
    assert features.granted(ALL, ["view-patch", "telepathy"]) == ["view-patch"]
    assert features.granted(None, ALL) == []  # a referee that offers nothing
    assert features.granted("view-patch", ALL) == []


def corruption_like(cards: list[str], contracts: list[int], peeks: list[int]) -> list[Any]:
    options: list[Any] = []
    for card in cards:
        options += [{"card": card, "contract": c} for c in contracts]
        if card.startswith("bribe"):
            options += [{"card": card, "swiss": g} for g in ("city", "county", "state")]
    return options + [{"peek": p} for p in peeks]


def test_a_corruption_placement_is_written_as_two_products_and_the_peeks():
    options = corruption_like(["bribe-1", "bribe-2", "reporter"], [7, 17, 22, 15], [3, 4, 8, 9])
    compact = products.compact(legal.choice(options))
    assert compact == {
        "kind": "choice",
        "options": [],
        "products": [
            {"card": ["bribe-1", "bribe-2", "reporter"], "contract": [7, 17, 22, 15]},
            {"card": ["bribe-1", "bribe-2"], "swiss": ["city", "county", "state"]},
            {"peek": [3, 4, 8, 9]},
        ],
    }
    assert len(json.dumps(compact)) * 3 < len(json.dumps(legal.choice(options)))
    assert_same_choice(legal.choice(options), compact)


def assert_same_choice(plain: dict[str, Any], compact: dict[str, Any]) -> None:
    """The compact form stands for exactly the plain one's options, default first."""
    expanded = products.expand(compact)
    key = lambda option: json.dumps(option, sort_keys=True)  # noqa: E731
    assert Counter(map(key, expanded["options"])) == Counter(map(key, plain["options"]))
    assert legal.default_action(expanded) == legal.default_action(plain)
    assert set(expanded) == set(plain)


OPTION = st.one_of(
    st.fixed_dictionaries({"a": st.sampled_from([1, 2, 3]), "b": st.sampled_from(["x", "y"])}),
    st.fixed_dictionaries({"b": st.sampled_from(["x", "y"])}),
    st.fixed_dictionaries({"a": st.sampled_from([1, True, 1.0, "1"])}),
    st.sampled_from(["pass", 3, None, [1], {}]),
)


@given(options=st.lists(OPTION, min_size=1, max_size=40))
def test_compacting_any_choice_keeps_its_options_and_its_default(options):
    plain = legal.choice(options)
    compact = products.compact(plain)
    assert_same_choice(plain, compact)
    for value in compact.get("products", []):
        assert all(type(v) in (str, int) for values in value.values() for v in values)


def test_records_are_compacted_field_by_field_and_small_choices_left_alone():
    big = legal.choice([{"x": i, "y": j} for i in range(3) for j in range(3)])
    desc = legal.record({"move": big, "say": legal.text(5), "n": legal.choice([1, 2])})
    compact = products.compact(desc)
    assert compact["fields"]["move"]["products"] == [{"x": [0, 1, 2], "y": [0, 1, 2]}]
    assert compact["fields"]["n"] == desc["fields"]["n"]
    assert products.expand(compact) == desc  # in this case even the order is kept
