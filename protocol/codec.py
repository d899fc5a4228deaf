"""JSON-lines codec: one JSON object per line, UTF-8, newline-terminated.

The reading side is defensive (STYLE.md): bytes are split on ``\\n``, a trailing ``\\r`` is
stripped, a line longer than the cap is refused before it is decoded, and anything that is
not a UTF-8 JSON object is a :class:`DecodeError` whose message names what is wrong. What a
line may hold is bounded too (SPEC.md §2): nesting, numbers, the characters of its strings;
so whatever a bot sends, decode returns a value every later step can walk, compare, quote,
re-encode and store, or raises DecodeError, and nothing else.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

import orjson

MAX_LINE_BYTES = 1 << 20
"""Default cap on one line from a bot (1 MiB): a line longer than this is a fault."""


class DecodeError(ValueError):
    """A line that is not a UTF-8 JSON object; the message says why, for the bot's author."""


MAX_SENT_INT = 2**53 - 1
"""Every integer the referee sends is within ±MAX_SENT_INT (SPEC.md §2): what a double holds
exactly, so a bot whose JSON reader parses numbers as doubles (JavaScript's) reads it right."""


def encode(message: dict[str, Any]) -> bytes:
    """One message as a compact UTF-8 JSON line, newline included.

    orjson, because encoding every view and event is the referee's largest cost per decision
    (about 5x faster than the json module here); its output is the same compact JSON. Its
    OPT_STRICT_INTEGER refuses (orjson.JSONEncodeError, a TypeError) any integer beyond
    ±MAX_SENT_INT, at no extra cost: a message a bot could misread is never sent.
    """
    return orjson.dumps(
        message,
        option=orjson.OPT_APPEND_NEWLINE | orjson.OPT_NON_STR_KEYS | orjson.OPT_STRICT_INTEGER,
    )


def decode(line: bytes) -> dict[str, Any]:
    """One line (without its newline) as a JSON object the rest of the referee can trust.

    Beyond JSON itself (orjson: strict UTF-8, no NaN or Infinity, no lone surrogate), every
    value in it is checked by :func:`check_value` (nesting, number range, characters of every
    string and key); anything refused is a DecodeError that says what and where.
    """
    if line.endswith(b"\r"):
        line = line[:-1]
    try:
        value = orjson.loads(line)
    except orjson.JSONDecodeError as exc:
        raise DecodeError(_why_not_json(line, exc)) from None
    if not isinstance(value, dict):
        raise DecodeError(f"line is JSON but not an object: {_preview(line)}")
    # Raw control bytes cannot be inside a JSON string, so a line without a backslash, a
    # DEL or a non-ASCII byte holds no refused character: its strings need no look.
    plain = line.isascii() and b"\\" not in line and b"\x7f" not in line
    check_value(value, strings=not plain)
    return value


def check_value(value: Any, *, depth: int = 0, strings: bool = True) -> None:
    """DecodeError unless value is a JSON value a bot may send (SPEC.md §2): objects with
    string keys, arrays, strings, integers, finite floats, booleans, null; at most MAX_DEPTH
    arrays and objects deep (counting ``depth`` levels already around value); every number
    smaller than 2**63 in magnitude; no refused character in any string or key (not looked
    for when strings is False: decode knows when the raw line cannot hold one).

    One iterative walk (no recursion, so no nesting can exhaust the stack). It is a cost a
    hostile bot makes the referee pay on every line, so it allocates next to nothing per
    value: scalars are checked in their container's loop, only non-empty containers go on
    the stack, and where a problem sits (the path in the message) is worked out only once
    one is found.
    """
    top = [value]
    try:
        _walk(top, depth, strings)
    except _Refused as refused:
        place = _path(top, refused.container, refused.item)
        raise DecodeError(f"at {place}: {refused.problem}") from None


class _Refused(Exception):
    """A problem _walk found: in which container, at which item (or _KEYS), and what."""

    def __init__(self, container: Any, item: Any, problem: str) -> None:
        super().__init__(problem)
        self.container, self.item, self.problem = container, item, problem


_KEYS = object()
"""_Refused.item when the problem is one of the container's keys."""
_TOO_DEEP = (
    "arrays and objects nest more than 32 levels deep (the line's own object is the first level)"
)


def _walk(top: list[Any], depth: int, strings: bool) -> None:
    stack: list[tuple[Any, int]] = [(top, depth)]
    pop, push = stack.pop, stack.append
    while stack:
        container, level = pop()
        if isinstance(container, dict):
            for key in container:
                if type(key) is not str:
                    kind_name = type(key).__name__
                    raise _Refused(container, _KEYS, f"a key is not a string ({kind_name})")
                if strings and not key.isprintable():
                    _check_text(key, container, _KEYS, "key")
            items: Any = container.values()
        else:
            items = container
        for item in items:
            kind = type(item)
            if kind is str:
                # isprintable() is False for every refused character (and for a few allowed
                # ones, such as U+00A0): a quick pass before the exact search.
                if strings and not item.isprintable():
                    _check_text(item, container, item, "string")
            elif kind is int:
                if not -MAX_INT <= item <= MAX_INT:
                    raise _Refused(container, item, _int_problem(item))
            elif kind is dict or kind is list:
                if level >= MAX_DEPTH:
                    raise _Refused(container, item, _TOO_DEEP)
                if item:
                    push((item, level + 1))
            elif kind is float:
                if not -_FLOAT_LIMIT < item < _FLOAT_LIMIT:  # also false for NaN
                    raise _Refused(container, item, _float_problem(item))
            elif item is None or kind is bool:
                pass
            else:
                _check_subclass(container, item, level, push, strings)


def _check_subclass(container: Any, item: Any, level: int, push: Any, strings: bool) -> None:
    """Subclasses of the JSON types (a str enum, an int enum) from in-process callers count
    as their base type; anything else is not JSON. (orjson.loads never produces these.)"""
    if isinstance(item, bool):
        return
    if isinstance(item, str):
        if strings and not item.isprintable():
            _check_text(str(item), container, item, "string")
    elif isinstance(item, int):
        if not -MAX_INT <= item <= MAX_INT:
            raise _Refused(container, item, _int_problem(int(item)))
    elif isinstance(item, float):
        if not -_FLOAT_LIMIT < item < _FLOAT_LIMIT:
            raise _Refused(container, item, _float_problem(float(item)))
    elif isinstance(item, dict | list):
        if level >= MAX_DEPTH:
            raise _Refused(container, item, _TOO_DEEP)
        push((item, level + 1))
    else:
        raise _Refused(container, item, f"a {type(item).__name__} is not a JSON value")


def _int_problem(number: int) -> str:
    # str() of an integer of more than 4300 digits raises ValueError: describe big ones.
    shown = str(number) if abs(number) < 10**30 else f"of {number.bit_length()} bits"
    return (
        f"the integer {shown} is out of range: integers are 64-bit, from -(2**63 - 1) to 2**63 - 1"
    )


def _float_problem(number: float) -> str:
    return (
        f"the number {number!r} is out of range: numbers must be finite and smaller than 2**63 "
        f"in magnitude"
    )


MAX_DEPTH = 32
"""Arrays and objects a line may nest, the line's own object included. The deepest answer any
game accepts is a handful of levels ({"action": {"field": [..]}}); 32 leaves room for new
games, and keeps every recursive walk of an answer downstream (legal.json_equal, repr, orjson
when the record is stored, which stops at 255 levels) far inside Python's 1000-frame limit."""
MAX_INT = 2**63 - 1
"""The largest integer magnitude a bot may send: 64-bit, what every JSON reader can hold."""
_FLOAT_LIMIT = 2.0**63
"""Floats must be smaller than this in magnitude. orjson reads an integer too large for 64
bits as a float (20-digit and longer literals), so this refuses those too."""

_REFUSED = re.compile(
    "[\x00-\x1f\x7f-\x9f"  # Cc: C0 and C1 controls (ESC, CR, LF, BEL, CSI ...)
    "\u2028\u2029"  # Zl, Zp: line and paragraph separators
    "\ud800-\udfff"  # Cs: surrogates, only ever lone in a str
    # Cf, format characters (Unicode 14), except U+200C/U+200D, the joiners emoji and many
    # scripts need: soft hyphen, Arabic marks, zero-width space, bidi marks, embeddings,
    # overrides and isolates, invisible operators, BOM, interlinear annotation, tags ...
    "\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b\u200e\u200f"
    "\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd"
    "\U00013430-\U00013438\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001"
    "\U000e0020-\U000e007f]"
)
"""The characters no string from a bot may hold (test_protocol_codec checks this class
against unicodedata)."""


def refused_character(text: str) -> int | None:
    """The index of the first character of text a bot may not send, or None."""
    found = _REFUSED.search(text)
    return None if found is None else found.start()


def _check_text(text: str, container: Any, item: Any, what: str) -> None:
    index = refused_character(text)
    if index is None:
        return
    char = text[index]
    if "\ud800" <= char <= "\udfff":
        problem = (
            f"a lone surrogate U+{ord(char):04X}: send valid Unicode (cutting a character "
            f"such as an emoji in half leaves one)"
        )
    else:
        problem = (
            f"the control or format character U+{ord(char):04X} "
            f"({unicodedata.name(char, 'a control character')}); strings a bot sends may not "
            f"hold control characters (newline and tab included), format characters such as "
            f"bidi overrides, or line separators"
        )
    if what == "key":
        what = f"key {_safe_repr(text[:24])}"
    raise _Refused(container, item, f"the {what} holds, at character {index + 1}, {problem}")


def _path(top: list[Any], container: Any, item: Any) -> str:
    """Where item sits in container, as '.action.bids[1].note' (shortened: keys come from the
    bot), found by walking again from the top: the walk itself keeps no paths. The list
    check_value wraps the value in is not part of the path; the value itself is 'the top'."""
    stack: list[tuple[Any, list[str]]] = [(top, [])]
    while stack:
        current, steps = stack.pop()
        if current is container:
            break
        pairs = current.items() if isinstance(current, dict) else enumerate(current)
        stack.extend(
            (child, [*steps, _step(key)]) for key, child in pairs if isinstance(child, dict | list)
        )
    else:
        return "?"
    if item is not _KEYS:
        pairs = container.items() if isinstance(container, dict) else enumerate(container)
        steps = steps + [_step(key) for key, child in pairs if child is item][:1]
    path = "".join(steps[1:])  # steps[0] is the wrapper's [0]
    if len(path) > 80:
        path = "..." + path[-77:]
    return path or "the top"


def _step(key: Any) -> str:
    if isinstance(key, int):
        return f"[{key}]"
    text = str(key)
    if text.isascii() and text.isidentifier():
        return f".{text[:24]}"
    return f"[{_safe_repr(text[:24])}]"


def _safe_repr(text: str) -> str:
    """repr with every non-printable-ASCII character escaped (the message may be printed)."""
    return repr(text).encode("ascii", "backslashreplace").decode("ascii")


def _why_not_json(line: bytes, exc: orjson.JSONDecodeError) -> str:
    """The reason a line is not JSON, in words (orjson's messages, sharpened where vague)."""
    msg = exc.msg
    if "UTF-8" in msg:  # orjson says "surrogates not allowed" for any bad byte
        try:
            line.decode("utf-8")
        except UnicodeDecodeError as bad:
            at = line[bad.start : bad.start + 3]
            if len(at) >= 2 and at[0] == 0xED and 0xA0 <= at[1] <= 0xBF:
                return (
                    f"line is not valid UTF-8: bytes {at!r} at byte {bad.start} encode a "
                    f"surrogate, which UTF-8 forbids (send valid Unicode; cutting a character "
                    f"such as an emoji in half leaves one): {_preview(line)}"
                )
            return f"line is not valid UTF-8 (byte {bad.start}): {_preview(line)}"
        return f"line is not valid UTF-8: {_preview(line)}"
    if "surrogate" in msg:
        return (
            f"line holds a lone surrogate escape ({msg} at column {exc.colno}): a \\uD800-"
            f"\\uDFFF escape must be one half of a pair (cutting a character such as an emoji "
            f"in half leaves one): {_preview(line)}"
        )
    if "depth limit" in msg:
        return (
            f"line is nested too deep (arrays and objects may nest at most {MAX_DEPTH} "
            f"levels): {_preview(line)}"
        )
    if "infinity" in msg:
        return (
            f"line is not JSON the referee accepts (a number at column {exc.colno} is too large "
            f"for a 64-bit float; integers must be within -(2**63 - 1)..2**63 - 1): "
            f"{_preview(line)}"
        )
    return f"line is not JSON ({msg} at column {exc.colno}): {_preview(line)}"


class LineSplitter:
    """Accumulates bytes read from a pipe and hands out complete lines, refusing long ones."""

    def __init__(self, max_line_bytes: int = MAX_LINE_BYTES) -> None:
        self.max_line_bytes = max_line_bytes
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[bytes]:
        """Add data; return the complete lines it finished (newlines removed).

        Raises DecodeError when a line (finished or not) exceeds the cap.
        """
        self._buffer += data
        lines: list[bytes] = []
        start = 0
        while True:
            end = self._buffer.find(b"\n", start)
            if end < 0:
                break
            if end - start > self.max_line_bytes:
                raise DecodeError(
                    f"line of {end - start} bytes exceeds the {self.max_line_bytes}-byte cap"
                )
            lines.append(bytes(self._buffer[start:end]))
            start = end + 1
        del self._buffer[:start]
        if len(self._buffer) > self.max_line_bytes:
            raise DecodeError(
                f"more than {self.max_line_bytes} bytes without a newline (line cap exceeded)"
            )
        return lines

    @property
    def pending(self) -> int:
        """Bytes held that do not yet end a line."""
        return len(self._buffer)


def _preview(line: bytes, limit: int = 60) -> str:
    shown = line[:limit]
    return repr(shown) + ("..." if len(line) > limit else "")
