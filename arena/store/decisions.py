"""How a game's decisions are kept on disk: by column (every seat, then every action, every
by-referee flag, every time in ms) as compact JSON, zlib-compressed.

The decisions are most of a game's bytes (about 7 KB as a JSON list of rows for a 5-player
Corruption game) and repeat themselves: the same action shapes and card names, seat numbers
cycling. Grouping each column together lets zlib find those repeats, bringing a game to about
700 bytes. Lossless: unpack gives back exactly the values packed, so a replay (`arena show`,
`arena rerun`) sees what was recorded.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Sequence
from typing import Any

LEVEL = 9
"""Best compression: a game is compressed once, when it is saved, and read many times."""

Row = Sequence[Any]
"""[seat, action, by_referee 0/1, ms] of one decision."""


def pack(rows: Sequence[Row]) -> bytes:
    """The stored form of a game's decision rows. TypeError or ValueError when a value cannot
    be JSON (a non-finite number, an object JSON has no form for)."""
    columns = [list(column) for column in zip(*rows, strict=True)] if rows else []
    text = json.dumps(columns, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return zlib.compress(text.encode(), LEVEL)


def unpack(stored: bytes) -> list[list[Any]]:
    """The decision rows that ``pack`` was given; ValueError (or TypeError) if ``stored`` is
    not what pack makes (a damaged or hand-edited database)."""
    try:
        text = zlib.decompress(stored)
    except zlib.error as exc:
        raise ValueError(f"not compressed decisions: {exc}") from None
    return [list(row) for row in zip(*json.loads(text), strict=True)]
