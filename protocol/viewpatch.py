"""Applying a view patch (wire feature "view-patch", SPEC.md §13): RFC 6902 JSON Patch.

The referee writes only ``add``, ``remove`` and ``replace`` operations; any JSON Patch library
applies them too (jsonpatch in Python, fast-json-patch in JavaScript, ...). This is the small
applier the SDK uses, stdlib only. The referee's side, the differ, is arena/viewdiff.py.
"""

from __future__ import annotations

from typing import Any


class PatchError(ValueError):
    """A patch that does not apply to the document (a bug on one side of the wire)."""


def apply(document: Any, patch: list[dict[str, Any]]) -> Any:
    """The document with every operation applied in order; changed in place where it can be
    (a replaced root is returned), so pass a copy to keep the original."""
    for operation in patch:
        op, path = operation.get("op"), operation.get("path")
        if not isinstance(path, str):
            raise PatchError(f"an operation without a string path: {operation!r:.80}")
        if path == "":
            if op in ("add", "replace"):
                document = operation["value"]
                continue
            raise PatchError(f"cannot {op} the whole document")
        parent, key = _parent(document, path)
        if op == "add":
            if isinstance(parent, list):
                parent.insert(_index(parent, key, appending=True), operation["value"])
            else:
                parent[key] = operation["value"]
        elif op == "replace":
            if isinstance(parent, list):
                parent[_index(parent, key)] = operation["value"]
            elif key in parent:
                parent[key] = operation["value"]
            else:
                raise PatchError(f"replace: no member {key!r} at {path}")
        elif op == "remove":
            try:
                del parent[_index(parent, key) if isinstance(parent, list) else key]
            except KeyError:
                raise PatchError(f"remove: nothing at {path}") from None
        else:
            raise PatchError(f"operation {op!r} is not one a referee sends (add, remove, replace)")
    return document


def _parent(document: Any, path: str) -> tuple[Any, str]:
    """The container holding what path points at, and the last reference token."""
    if not path.startswith("/"):
        raise PatchError(f"a JSON Pointer starts with '/': {path!r:.80}")
    tokens = [_unescape(token) for token in path[1:].split("/")]
    node = document
    for token in tokens[:-1]:
        try:
            node = node[_index(node, token)] if isinstance(node, list) else node[token]
        except (KeyError, TypeError):
            raise PatchError(f"no such path: {path!r:.80}") from None
    if not isinstance(node, list | dict):
        raise PatchError(f"{path!r:.80} is inside a value that is not an object or array")
    return node, tokens[-1]


def _index(array: list[Any], token: str, appending: bool = False) -> int:
    if appending and token == "-":
        return len(array)
    if not token.isdigit() or (token != "0" and token.startswith("0")):
        raise PatchError(f"{token!r:.40} is not an array index")
    index = int(token)
    if index > len(array) or (index == len(array) and not appending):
        raise PatchError(f"array index {index} is out of range (length {len(array)})")
    return index


def _unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~") if "~" in token else token
