"""The referee's side of wire feature "view-patch": an RFC 6902 JSON Patch from one view of a
seat to its next (protocol/viewpatch.py applies it).

Small and cheap rather than minimal: objects are compared member by member, arrays index by
index with appends at the end (how views grow: cards placed, events logged), and wherever the
operations for a subtree would be longer than the subtree itself, the subtree is replaced
whole. Equality is JSON's, not Python's (True is not 1, 1 is not 1.0): unchanged subtrees are
recognised by Python's fast ``==`` and confirmed by comparing their encodings.
"""

from __future__ import annotations

from typing import Any

import orjson

Patch = list[dict[str, Any]]


def diff(old: Any, new: Any) -> Patch:
    """Operations that turn ``old`` into ``new`` (both plain JSON values: str keys, lists)."""
    ops: Patch = []
    if not _same(old, new):
        _diff(old, new, "", ops)
    return ops


def _same(a: Any, b: Any) -> bool:
    if a is b:
        return True
    if type(a) is not type(b) or a != b:
        return False
    # == holds; it also holds for True vs 1 and 1 vs 1.0 nested inside: the bytes decide
    return type(a) not in (dict, list) or orjson.dumps(a) == orjson.dumps(b)


def _diff(a: Any, b: Any, path: str, ops: Patch) -> None:
    """Append the operations turning a into b at path (a and b differ)."""
    sub: Patch = []
    if type(a) is dict and type(b) is dict:
        for key in a:
            if key not in b:
                sub.append({"op": "remove", "path": f"{path}/{_escape(key)}"})
        for key, value in b.items():
            if key not in a:
                sub.append({"op": "add", "path": f"{path}/{_escape(key)}", "value": value})
            elif not _same(a[key], value):
                _diff(a[key], value, f"{path}/{_escape(key)}", sub)
    elif type(a) is list and type(b) is list:
        common = min(len(a), len(b))
        for index in range(common):
            if not _same(a[index], b[index]):
                _diff(a[index], b[index], f"{path}/{index}", sub)
        for index in range(len(a) - 1, common - 1, -1):  # from the end: indexes stay valid
            sub.append({"op": "remove", "path": f"{path}/{index}"})
        sub.extend({"op": "add", "path": f"{path}/-", "value": v} for v in b[common:])
    else:
        ops.append({"op": "replace", "path": path, "value": b})
        return
    if len(sub) > 1:
        whole = {"op": "replace", "path": path, "value": b}
        if len(orjson.dumps(whole)) < len(orjson.dumps(sub)):
            ops.append(whole)
            return
    ops.extend(sub)


def _escape(key: str) -> str:
    """A member name as a JSON Pointer reference token (RFC 6901)."""
    return key.replace("~", "~0").replace("/", "~1") if "~" in key or "/" in key else key
