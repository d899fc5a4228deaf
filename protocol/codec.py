"""JSON-lines codec: one JSON object per line, UTF-8, newline-terminated.

The reading side is defensive (STYLE.md): bytes are split on ``\\n``, a trailing ``\\r`` is
stripped, a line longer than the cap is refused before it is decoded, and anything that is
not a UTF-8 JSON object is a :class:`DecodeError` whose message names what is wrong.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

MAX_LINE_BYTES = 1 << 20
"""Default cap on one line from a bot (1 MiB): a line longer than this is a fault."""


class DecodeError(ValueError):
    """A line that is not a UTF-8 JSON object; the message says why, for the bot's author."""


def encode(message: dict[str, Any]) -> bytes:
    """One message as a compact UTF-8 JSON line, newline included.

    orjson, because encoding every view and event is the referee's largest cost per decision
    (about 5x faster than the json module here); its output is the same compact JSON.
    """
    return orjson.dumps(message, option=orjson.OPT_APPEND_NEWLINE | orjson.OPT_NON_STR_KEYS)


def decode(line: bytes) -> dict[str, Any]:
    """One line (without its newline) as a JSON object."""
    if line.endswith(b"\r"):
        line = line[:-1]
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DecodeError(f"line is not valid UTF-8 (byte {exc.start}): {_preview(line)}") from None
    try:
        value = json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        raise DecodeError(
            f"line is not JSON ({exc.msg} at column {exc.colno}): {_preview(line)}"
        ) from None
    if not isinstance(value, dict):
        raise DecodeError(f"line is JSON but not an object: {_preview(line)}")
    return value


def _refuse_constant(name: str) -> None:
    # Python's json accepts NaN and Infinity; JSON does not, and neither does the protocol.
    raise json.JSONDecodeError(f"{name} is not JSON", name, 0)


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
