"""The view differ (wire feature view-patch): its patch turns the old value into the new one,
exactly as JSON (True is not 1, 1 is not 1.0), applied by a standard library or by the SDK's."""

from __future__ import annotations

import copy
from typing import Any

import jsonpatch
import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena import viewdiff
from arena.viewdiff import diff
from protocol import viewpatch
from tests.support.examples import examples

SCALARS = st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(max_size=6)
ANY_JSON = st.recursive(
    SCALARS | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=4), inner, max_size=5)
    ),
    max_leaves=30,
)
# Values that collide often: few keys (JSON Pointer's escapes among them), and look-alikes
# Python's == confuses (0, False, 0.0; 1, True, 1.0).
CLOSE_KEYS = st.sampled_from(["a", "b", "~", "/", "0", "-", ""])
CLOSE_SCALARS = st.sampled_from([0, 1, 2, True, False, 0.0, 1.0, None, "x", ""])
CLOSE_JSON = st.recursive(
    CLOSE_SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(CLOSE_KEYS, inner, max_size=4),
    max_leaves=20,
)


def exact(value: Any) -> bytes:
    """JSON-exact identity: sorted keys, and 1 / 1.0 / true written apart."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def check(old: Any, new: Any) -> None:
    patch = diff(old, new)
    before = copy.deepcopy(old)
    assert exact(jsonpatch.apply_patch(copy.deepcopy(old), patch)) == exact(new)
    assert exact(viewpatch.apply(copy.deepcopy(old), patch)) == exact(new)
    assert exact(old) == exact(before), "diffing must not change the old view"
    assert all(op["op"] in ("add", "remove", "replace") for op in patch)


@settings(max_examples=examples(150))
@given(old=ANY_JSON, new=ANY_JSON)
def test_a_patch_turns_any_json_value_into_any_other(old, new):
    check(old, new)


@settings(max_examples=examples(150))
@given(old=CLOSE_JSON, new=CLOSE_JSON)
def test_a_patch_is_exact_where_pythons_equality_is_not(old, new):
    check(old, new)


def test_equal_views_give_an_empty_patch_and_look_alikes_do_not():
    view = {"hand": [1, 2], "face_up": False, "seat": {"cash": 1.5}}
    assert diff(view, copy.deepcopy(view)) == []
    assert diff({"a": [1]}, {"a": [True]}) == [{"op": "replace", "path": "/a/0", "value": True}]
    assert diff({"a": 1}, {"a": 1.0}) == [{"op": "replace", "path": "/a", "value": 1.0}]


def test_a_view_that_grows_is_patched_by_appends_and_member_changes():
    rules = {"contracts": list(range(100))}  # what does not change: most of a view
    old = {"rules": rules, "cards": [{"id": 1}], "cash": 100, "gone": 1}
    new = {"rules": rules, "cards": [{"id": 1}, {"id": 2}], "cash": 90, "new/key~": 2}
    assert diff(old, new) == [
        {"op": "remove", "path": "/gone"},
        {"op": "add", "path": "/cards/-", "value": {"id": 2}},
        {"op": "replace", "path": "/cash", "value": 90},
        {"op": "add", "path": "/new~1key~0", "value": 2},
    ]


def test_a_subtree_whose_changes_outweigh_it_is_replaced_whole():
    rules = {"contracts": list(range(100))}
    old = {"rules": rules, "seats": [{"a": 1, "b": 2, "c": 3}, {"a": 0}]}
    new = {"rules": rules, "seats": [{"a": 4, "b": 5, "c": 6}, {"a": 0}]}
    assert diff(old, new) == [{"op": "replace", "path": "/seats/0", "value": new["seats"][0]}]


@pytest.mark.parametrize(
    "patch",
    [
        [{"op": "move", "from": "/a", "path": "/b"}],
        [{"op": "replace", "path": "/nope", "value": 1}],
        [{"op": "remove", "path": "/a/5"}],
        [{"op": "add", "path": "a", "value": 1}],
        [{"op": "add", "path": "/a/01", "value": 1}],
        [{"op": "add", "path": "/a/0/x", "value": 1}],
        [{"op": "remove", "path": ""}],
        [{"path": 3}],
    ],
)
def test_the_sdks_applier_refuses_what_does_not_apply(patch):
    with pytest.raises(viewpatch.PatchError):
        viewpatch.apply({"a": [1]}, patch)


@settings(max_examples=examples(200))
@given(old=CLOSE_JSON, new=CLOSE_JSON)
def test_confirming_unchanged_subtrees_together_gives_the_patch_of_confirming_each(old, new):
    """diff takes what == finds unchanged as unchanged and checks all those subtrees' bytes
    at once; its patch must be the one found by checking each subtree's bytes on its own."""
    assert diff(old, new) == viewdiff._changes(old, new, viewdiff._same_bytes)


def test_a_look_alike_deep_in_an_unchanged_looking_subtree_is_patched():
    rules = {"contracts": list(range(50))}
    old = {"rules": rules, "seats": [{"ready": 1, "cash": 2.0}, {"ready": 0}], "n": 1}
    new = {"rules": rules, "seats": [{"ready": True, "cash": 2}, {"ready": 0}], "n": 2}
    patch = diff(old, new)
    assert patch == [
        {"op": "replace", "path": "/seats/0", "value": {"ready": True, "cash": 2}},
        {"op": "replace", "path": "/n", "value": 2},
    ]
    check(old, new)


def test_a_float_changing_sign_at_zero_is_patched():
    assert diff({"a": [0.0]}, {"a": [-0.0]}) == [{"op": "replace", "path": "/a/0", "value": -0.0}]
    assert diff({"a": 0.0}, {"a": -0.0}) == [{"op": "replace", "path": "/a", "value": -0.0}]
