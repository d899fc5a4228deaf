"""Hypothesis strategies for what a hostile bot sends: valid or near-valid JSON lines built to
break a referee (deep nesting, huge numbers, lone surrogates as escapes and as raw bytes,
control and format characters), and an independent oracle of what the protocol allows.

Shared by the codec fuzzers (tests/protocol) and the referee fuzzers (tests/arena). Lines are
written by hand rather than by json.dumps, which can write neither a 5,000-digit integer nor a
raw surrogate, nor nest 1,000 levels (it recurses).
"""

from __future__ import annotations

import json
import math
import unicodedata
from typing import Any

from hypothesis import strategies as st

REFUSED_CATEGORIES = {"Cc", "Cf", "Zl", "Zp", "Cs"}
JOINERS = {"\u200c", "\u200d"}
"""Cf characters a bot may send: emoji sequences and many scripts need them."""

SPECIAL_CHARACTERS = [
    "\x00",
    "\x07",
    "\t",
    "\n",
    "\r",
    "\x1b",
    "\x7f",
    "\x85",
    "\x9b",
    "\u00ad",
    "\u200b",
    "\u200c",
    "\u200d",
    "\u200e",
    "\u2028",
    "\u2029",
    "\u202a",
    "\u202e",
    "\u2066",
    "\u2069",
    "\ufeff",
    "\U000e0041",
    "\ud800",
    "\udbff",
    "\udc80",
    "\udfff",
    "\U0001f600",
    "\u00e9",
    "\u00a0",
    "[",
    "]",
    "/",
    '"',
    "\\",
    "a",
    " ",
]

hostile_text = st.text(
    alphabet=st.sampled_from(SPECIAL_CHARACTERS)
    | st.characters(categories=["Cc", "Cf", "Zl", "Zp", "Cs", "Zs", "So", "Ll", "Mn", "Lo"]),
    max_size=10,
)
"""Strings a bot might send: controls, format characters, lone surrogates, markup, emoji."""

number_literals = st.one_of(
    st.integers(-(2**70), 2**70).map(str),
    st.builds(
        lambda sign, digits: sign + "9" * digits,
        st.sampled_from(["", "-"]),
        st.integers(15, 5000),
    ),
    st.sampled_from(
        [
            "9223372036854775807",
            "9223372036854775808",
            "-9223372036854775807",
            "-9223372036854775808",
            "18446744073709551615",
            "18446744073709551616",
            "1e308",
            "1e309",
            "-1e400",
            "9.2e18",
            "9.3e18",
            "-0",
            "0.0",
            "1E2",
            "NaN",
            "Infinity",
            "-Infinity",
            "01",
        ]
    ),
    st.floats().map(repr),
)
"""Number tokens, valid JSON or not: 64-bit edges, thousands of digits, NaN and Infinity."""


class Token(str):
    """A JSON token written as is (a number literal)."""


class Text(str):
    """A string to write between quotes, and how: 'ascii' (every non-ASCII character and
    surrogate as a \\u escape), 'utf8' (raw UTF-8, surrogates as their raw 3-byte forms),
    or 'raw' (no escaping at all, control characters and quotes included)."""

    mode = "ascii"


def _text(value: str, mode: str) -> Text:
    text = Text(value)
    text.mode = mode
    return text


texts = st.builds(_text, hostile_text, st.sampled_from(["ascii", "ascii", "utf8", "raw"]))
leaves = st.none() | st.booleans() | number_literals.map(Token) | texts
trees = st.recursive(
    leaves,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(texts, children, max_size=4),
    max_leaves=10,
)


def write(value: Any) -> str:
    """A tree of lists, dicts, Tokens, Texts, None and booleans as JSON text (which may hold
    surrogates: encode it with "surrogatepass")."""
    if isinstance(value, Token):
        return str(value)
    if isinstance(value, Text):
        if value.mode == "raw":
            return f'"{value}"'
        return json.dumps(str(value), ensure_ascii=value.mode == "ascii")
    if isinstance(value, dict):
        return "{" + ",".join(f"{write(k)}:{write(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(write(v) for v in value) + "]"
    return json.dumps(value)


def nest(inner: str, depth: int, kind: str) -> str:
    """inner wrapped in depth arrays or objects (or alternately both), without recursion."""
    if kind == "array":
        return "[" * depth + inner + "]" * depth
    if kind == "object":
        return '{"k":' * depth + inner + "}" * depth
    opening = "".join("[" if i % 2 else '{"k":' for i in range(depth))
    closing = "".join("]" if i % 2 else "}" for i in reversed(range(depth)))
    return opening + inner + closing


nested_values = st.builds(
    nest,
    trees.map(write),
    st.integers(0, 40) | st.integers(0, 1100),
    st.sampled_from(["array", "object", "mixed"]),
)
"""A value nested around the protocol's depth limit (32), or around orjson's (1024)."""

hostile_values = trees.map(write) | nested_values
"""JSON text of a hostile value (write()'s output)."""


def _encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


def action_line(request_id: int, action_text: str) -> bytes:
    """An action message around an action written as JSON text."""
    return _encode(f'{{"type":"action","id":{request_id},"action":{action_text}}}')


hostile_action_lines = st.builds(action_line, st.just(1), hostile_values)
"""Answers to request 1 whose action is hostile."""

hostile_hello_lines = st.builds(
    lambda name, version: _encode(
        f'{{"type":"hello","protocol":1,"name":{write(name)},"version":{write(version)}}}'
    ),
    texts | leaves,
    texts | leaves,
)

hostile_lines = st.one_of(
    hostile_action_lines,
    hostile_hello_lines,
    hostile_values.map(_encode),
    st.builds(lambda body: _encode("{" + body[1:-1] + "}"), hostile_values),
)
"""Any hostile line: actions, hellos, bare values, objects spliced from arrays."""


def problems(value: Any, depth: int = 1) -> list[str]:
    """What the protocol refuses in a decoded value, found independently of protocol.codec:
    recursively (fine: only called on values the codec accepted, or shallow ones), by Unicode
    category. Empty when the value is one a bot may send."""
    found: list[str] = []
    if isinstance(value, dict | list):
        if depth > 32:
            found.append(f"depth {depth}")
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in items:
            if isinstance(value, dict):
                found += _string_problems(key) if isinstance(key, str) else ["key type"]
            found += problems(item, depth + 1)
    elif isinstance(value, bool) or value is None:
        pass
    elif isinstance(value, int):
        if abs(value) > 2**63 - 1:
            found.append(f"integer of {value.bit_length()} bits")
    elif isinstance(value, float):
        if not math.isfinite(value) or abs(value) >= 2**63:
            found.append(f"number {value!r}")
    elif isinstance(value, str):
        found += _string_problems(value)
    else:
        found.append(f"type {type(value).__name__}")
    return found


def _string_problems(text: str) -> list[str]:
    return [
        f"U+{ord(c):04X}"
        for c in text
        if unicodedata.category(c) in REFUSED_CATEGORIES and c not in JOINERS
    ]


# --- answers an in-process bot hands the referee: near-valid for the request, or odd Python ---


class Odd:
    """An object of no JSON type."""


ODD_KEYS = [0, 1, None, True, 2.5, (1, 2), frozenset(), "\x1b[31m", "\udc80", "", "kind"]
BIG_NUMBERS = [2**63, -(2**63), 2**64, 10**5000, -(10**5000), float("nan"), float("inf"), 1e300]


def deep(value: Any, depth: int) -> Any:
    """value inside depth one-element lists, built without recursion."""
    for _ in range(depth):
        value = [value]
    return value


def _leaf_mutations(base: Any) -> st.SearchStrategy[Any]:
    return st.one_of(
        st.sampled_from(BIG_NUMBERS),
        st.sampled_from([None, True, False, 1.0, "1", "", [], {}]),
        st.sampled_from([set(), frozenset(), b"x", 1j, Odd(), (1,), bytearray(b"a")]),
        hostile_text,
        st.integers(0, 1100).map(lambda d: deep(base, d)),
        st.builds(lambda k: {k: base}, st.sampled_from(ODD_KEYS)),
        st.just(list(range(100_000))),
    )


def near_valid(desc: dict[str, Any], base: Any) -> st.SearchStrategy[Any]:
    """Answers close to base, a legal answer to desc: each kind's own near misses (a range's
    edges and 64-bit limits, a text's refused characters, a record's odd keys, missing and
    mistyped fields, recursively), plus generic ones (odd types, deep nesting, huge numbers)."""
    kind = desc["kind"]
    generic = _leaf_mutations(base)
    if kind == "choice":
        options = desc["options"]
        own = st.one_of(
            st.sampled_from(options),
            st.sampled_from(options).map(lambda o: [o]),
            st.sampled_from(options).map(_loosen),
            st.sampled_from(options).flatmap(
                lambda o: (
                    st.builds(lambda k, v: {**o, k: v}, st.sampled_from(ODD_KEYS), generic)
                    if isinstance(o, dict)
                    else st.just(o)
                )
            ),
        )
    elif kind == "range":
        low, high, step = desc["min"], desc["max"], desc["step"]
        own = st.sampled_from(
            [low - 1, high + 1, low + step // 2 if step > 1 else low, float(low), str(low)]
            + [True, -low, 2**63 - 1, -(2**63 - 1), low + 2**64, [low], {"min": low}]
        )
    elif kind == "text":
        limit = desc["max_length"]
        own = st.one_of(
            hostile_text,
            st.sampled_from(["ok\x1b[2J", "a\u202eb", "\udc80", "\ud83d", "x" * (limit + 1)]),
            st.sampled_from(["[red]boo[/]", "\u200d", "\U0001f600" * limit]),
        )
    elif kind == "record":
        fields = desc["fields"]
        base_dict = base if isinstance(base, dict) else {}
        names = sorted(fields)
        field_miss = st.sampled_from(names).flatmap(
            lambda n: near_valid(fields[n], base_dict.get(n)).map(lambda v: {**base_dict, n: v})
        )
        own = st.one_of(
            st.builds(lambda k, v: {**base_dict, k: v}, st.sampled_from(ODD_KEYS), generic),
            st.sampled_from(names).map(lambda n: {k: v for k, v in base_dict.items() if k != n}),
            *[field_miss] * 4,  # a record's fields are where the other kinds live
            st.just({f"k{i}": i for i in range(50_000)}),
        )
    else:
        raise ValueError(kind)
    return st.one_of(own, own, generic)


def _loosen(option: Any) -> Any:
    """A look-alike of a choice option: 1.0 for 1, True for 1, keys reordered."""
    if isinstance(option, bool):
        return int(option)
    if isinstance(option, int):
        return float(option)
    if isinstance(option, dict):
        return {k: _loosen(v) for k, v in reversed(option.items())}
    return option
