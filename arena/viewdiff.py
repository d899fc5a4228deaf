"""The referee's side of wire feature "view-patch": an RFC 6902 JSON Patch from one view of a
seat to its next (protocol/viewpatch.py applies it).

Small and cheap rather than minimal: objects are compared member by member, arrays index by
index with appends at the end (how views grow: cards placed, events logged), and wherever the
operations for a subtree would be longer than the subtree itself, the subtree is replaced
whole. Equality is JSON's, not Python's (True is not 1, 1 is not 1.0): unchanged subtrees are
recognised by Python's fast ``==``, and all the subtrees it found unchanged are confirmed
together at the end by one encoding of each side (not two encodings per subtree). Should those
bytes disagree, which takes a look-alike such as 1 turning into true, the walk is done again
confirming each subtree by its own encoding.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson

Patch = list[dict[str, Any]]
Confirm = Callable[[Any, Any], bool]
"""Says whether two values Python's == found equal (same type) are equal as JSON too."""

_LOOK_ALIKE = frozenset((dict, list, float))
"""The types whose == can hold while their JSON differs: containers (True == 1 inside them,
1 == 1.0) and floats (0.0 == -0.0)."""


def diff(old: Any, new: Any) -> Patch:
    """Operations that turn ``old`` into ``new`` (both plain JSON values: str keys, lists)."""
    held_old: list[Any] = []
    held_new: list[Any] = []

    def hold(a: Any, b: Any) -> bool:
        # equal as far as == knows: taken as equal, and the bytes of all held pairs compared
        # at once below (one encoding of each side however many subtrees were held)
        held_old.append(a)
        held_new.append(b)
        return True

    ops = _changes(old, new, hold)
    if held_old and orjson.dumps(held_old) != orjson.dumps(held_new):
        ops = _changes(old, new, _same_bytes)
    return ops


def _same_bytes(a: Any, b: Any) -> bool:
    return orjson.dumps(a) == orjson.dumps(b)


def _changes(old: Any, new: Any, confirm: Confirm) -> Patch:
    ops: Patch = []
    if not _same(old, new, confirm):
        _diff(old, new, "", ops, confirm)
    return ops


def _same(a: Any, b: Any, confirm: Confirm) -> bool:
    if a is b:
        return True
    kind = type(a)
    return kind is type(b) and a == b and (kind not in _LOOK_ALIKE or confirm(a, b))


def _diff(a: Any, b: Any, path: str, ops: Patch, confirm: Confirm) -> int:
    """Append the operations turning a into b at path (a and b differ); return the length of
    their encodings, summed (so that no level encodes again what a deeper one appended)."""
    sub: Patch = []
    size = 0
    if type(a) is dict and type(b) is dict:
        for key in a:
            if key not in b:
                size += _put(sub, {"op": "remove", "path": f"{path}/{_escape(key)}"})
        for key, value in b.items():
            if key not in a:
                size += _put(sub, {"op": "add", "path": f"{path}/{_escape(key)}", "value": value})
                continue
            if not _same(a[key], value, confirm):
                size += _diff(a[key], value, f"{path}/{_escape(key)}", sub, confirm)
    elif type(a) is list and type(b) is list:
        common = min(len(a), len(b))
        for index in range(common):
            if not _same(a[index], b[index], confirm):
                size += _diff(a[index], b[index], f"{path}/{index}", sub, confirm)
        for index in range(len(a) - 1, common - 1, -1):  # from the end: indexes stay valid
            size += _put(sub, {"op": "remove", "path": f"{path}/{index}"})
        for value in b[common:]:
            size += _put(sub, {"op": "add", "path": f"{path}/-", "value": value})
    else:
        return _put(ops, {"op": "replace", "path": path, "value": b})
    if len(sub) > 1:
        whole = {"op": "replace", "path": path, "value": b}
        whole_size = len(orjson.dumps(whole))
        if whole_size < size + len(sub) + 1:  # sub encoded: its ops, commas and brackets
            ops.append(whole)
            return whole_size
    ops.extend(sub)
    return size


def _put(ops: Patch, op: dict[str, Any]) -> int:
    """Append one operation; return the length of its encoding."""
    ops.append(op)
    return len(orjson.dumps(op))


def _escape(key: str) -> str:
    """A member name as a JSON Pointer reference token (RFC 6901)."""
    return key.replace("~", "~0").replace("/", "~1") if "~" in key or "/" in key else key
