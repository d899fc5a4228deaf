"""protocol.legal: random and default actions are legal, illegal answers get a reason."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from protocol_strategies import illegal_actions, legal_descriptions

from protocol import legal


@given(desc=legal_descriptions, seed=st.integers())
def test_a_random_action_is_always_legal(desc, seed):
    action = legal.random_action(desc, random.Random(seed))
    assert legal.why_illegal(desc, action) is None, (desc, action)


@given(desc=legal_descriptions)
def test_the_default_action_is_always_legal(desc):
    action = legal.default_action(desc)
    assert legal.is_legal(desc, action), (desc, action, legal.why_illegal(desc, action))


@given(data=st.data(), desc=legal_descriptions)
def test_an_illegal_action_gets_a_reason(data, desc):
    action = data.draw(illegal_actions(desc))
    reason = legal.why_illegal(desc, action)
    assert isinstance(reason, str) and reason, (desc, action)
    assert not legal.is_legal(desc, action)


@pytest.mark.parametrize(
    ("desc", "action", "reason"),
    [
        (legal.choice(["a", "b"]), "c", "'c' is not one of the 2 legal options"),
        (legal.int_range(1, 5, 2), 4, "4 is outside the legal range 1..5 in steps of 2"),
        (legal.int_range(0, 9), 10, "10 is outside the legal range 0..9"),
        (legal.int_range(0, 9), 3.0, "3.0 is not an integer (the legal range is 0..9)"),
        (legal.int_range(0, 9), True, "True is not an integer (the legal range is 0..9)"),
        (legal.text(2), "abc", "the text has 3 characters, more than 2"),
        (legal.text(2), 5, "5 is not a string"),
        (
            legal.record({"a": legal.text(1)}),
            {"a": "", "b": 1},
            "unknown field(s) ['b']; the fields are ['a']",
        ),
        (legal.record({"a": legal.text(1)}), {}, "field 'a' is missing"),
        (
            legal.record({"a": legal.record({"b": legal.int_range(0, 1)})}),
            {"a": {"b": 2}},
            "field 'a': field 'b': 2 is outside the legal range 0..1",
        ),
    ],
)
def test_reasons_tell_the_author_what_is_wrong(desc, action, reason):
    assert legal.why_illegal(desc, action) == reason


def test_optional_record_fields_may_be_left_out_and_are_not_defaulted():
    desc = legal.record({"a": legal.int_range(2, 3), "b": legal.text(5)}, optional=["b"])
    assert legal.default_action(desc) == {"a": 2}
    assert legal.is_legal(desc, {"a": 3})
    assert legal.is_legal(desc, {"a": 3, "b": "hi"})


def test_text_length_counts_code_points():
    assert legal.is_legal(legal.text(1), "\U0001f600")  # one code point, two UTF-16 units


def test_choice_options_compare_by_value_whatever_the_key_order():
    desc = legal.choice([{"card": 3, "to": 0}, "pass"])
    assert legal.is_legal(desc, {"to": 0, "card": 3})


@pytest.mark.parametrize(
    "builder",
    [lambda: legal.choice([]), lambda: legal.int_range(3, 2), lambda: legal.int_range(0, 5, 0)],
)
def test_builders_refuse_empty_descriptions(builder):
    with pytest.raises(ValueError):
        builder()


@pytest.mark.parametrize(
    "function", [legal.why_illegal, lambda desc, _: legal.default_action(desc)]
)
def test_an_unknown_kind_is_an_error_not_a_verdict(function):
    with pytest.raises(ValueError, match="unknown legal-action kind"):
        function({"kind": "dice"}, 1)


@pytest.mark.parametrize(
    ("options", "action"),
    [([1], True), ([0], False), ([{"a": 1}], {"a": True}), ([[True]], [1]), (["1"], 1)],
)
def test_a_choice_compares_json_values_so_true_is_not_1(options, action):
    assert not legal.json_equal(options[0], action)
    assert legal.why_illegal(legal.choice(options), action) is not None


@pytest.mark.parametrize(
    ("a", "b"),
    [(1, 1.0), ({"x": [1, True]}, {"x": [1.0, True]}), (None, None), ("é", "é")],
)
def test_json_equal_holds_for_equal_json_values(a, b):
    assert legal.json_equal(a, b) and legal.json_equal(b, a)


def test_spec_number_rule_a_range_refuses_3_0_a_choice_matches_it_by_value():
    """SPEC §2 states one rule: an integer a range requires must be written 3, while a choice
    compares numbers by value and the referee keeps the option as listed."""
    assert legal.why_illegal(legal.int_range(1, 9), 3.0) is not None
    options = legal.choice([{"contract": 3}, {"contract": 4}])
    assert legal.why_illegal(options, {"contract": 3.0}) is None
    kept = legal.canonical(options, {"contract": 3.0})
    assert kept == {"contract": 3} and type(kept["contract"]) is int
