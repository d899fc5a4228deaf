"""What one seat is sent, as bytes: the referee's messages in the wire form that seat negotiated.

A bot that asked for no wire feature (protocol.features, SPEC.md §13) is sent every message
exactly as the referee built it. For one that did: requests carry a patch against the last
view this seat was sent instead of the whole view; ``game_id`` is left out where the game is
implied; the events between two other messages come as one ``events`` message; a choice's
options may be written as products. A SeatWire belongs to one seat's bot and only ever sees
that seat's messages: a patch is computed from this seat's own views, so it reveals nothing
the whole views would not.
"""

from __future__ import annotations

from typing import Any

import orjson

from arena.viewdiff import diff
from protocol import codec, products
from protocol.features import CHOICE_PRODUCTS, EVENT_BATCH, GAME_ID_ONCE, VIEW_PATCH

PLAIN, NO_GAME_ID, BODY = 0, 1, 2
"""The forms an event is encoded in: the whole message, without game_id, its body alone."""


class Shared(dict[str, Any]):
    """An event message sent unchanged to several seats: encoded once per wire form, not once
    per seat. Never changed once built (its encodings are kept)."""

    # No __init__ of its own: dict's copies the message, and the encodings' dict is made at
    # the first encoding (a Python __init__ was a frame more per event, and in-process
    # transports never encode).
    __slots__ = ("_lines",)
    _lines: dict[int, bytes]

    def encoded(self, form: int) -> bytes:
        try:
            lines = self._lines
        except AttributeError:
            lines = self._lines = {}
        line = lines.get(form)
        if line is None:
            line = lines[form] = _event_form(self, form)
        return line


def _event_form(message: dict[str, Any], form: int) -> bytes:
    if form == BODY:
        return codec.encode(message["event"])[:-1]
    if form == NO_GAME_ID:
        return codec.encode({k: v for k, v in message.items() if k != "game_id"})
    return codec.encode(message)


class SeatWire:
    """Turns the referee's messages into the lines one seat's bot is sent, in order."""

    def __init__(self, features: frozenset[str] = frozenset()) -> None:
        self.features = features
        self._patch = VIEW_PATCH in features
        self._no_game_id = GAME_ID_ONCE in features
        self._batch = EVENT_BATCH in features
        self._products = CHOICE_PRODUCTS in features
        self._view: Any = None
        """The last view this seat was sent in the current game, as the bot decoded it."""
        self._events: list[bytes] = []
        """Event bodies held for the next ``events`` message (event-batch)."""
        self._events_game = ""

    def line(self, message: dict[str, Any]) -> bytes:
        """The bytes this seat is sent for message, newline included; b"" for an event held
        for the next batch, which goes out just before the next other message (or flush)."""
        kind = message.get("type")
        if kind == "event":
            return self._event(message)
        if not self.features:
            return codec.encode(message)
        held = self.flush()
        if kind == "request":
            return held + codec.encode(self._request(message))
        if kind == "game_start" and self._patch:
            self._view = _decoded(message["view"])
        elif kind == "game_over":
            self._view = None
        return held + codec.encode(message)

    def flush(self) -> bytes:
        """The held events as one ``events`` line (b"" when none are held)."""
        if not self._events:
            return b""
        game = b"" if self._no_game_id else b'"game_id":' + orjson.dumps(self._events_game) + b","
        line = b'{"type":"events",' + game + b'"events":[' + b",".join(self._events) + b"]}\n"
        self._events.clear()
        return line

    def _event(self, message: dict[str, Any]) -> bytes:
        form = BODY if self._batch else NO_GAME_ID if self._no_game_id else PLAIN
        line = message.encoded(form) if isinstance(message, Shared) else _event_form(message, form)
        if form != BODY:
            return line
        if not self._events:
            self._events_game = message.get("game_id", "")
        self._events.append(line)
        return b""

    def _request(self, message: dict[str, Any]) -> dict[str, Any]:
        sent: dict[str, Any] = {}
        for key, value in message.items():
            if key == "game_id" and self._no_game_id:
                continue
            if key == "view" and self._patch and self._view is not None:
                view = _decoded(value)
                sent["view_patch"] = diff(self._view, view)
                self._view = view
            elif key == "legal" and self._products:
                sent["legal"] = products.compact(value)
            else:
                sent[key] = value
        return sent


def _decoded(view: Any) -> Any:
    """The view as the bot reads it (JSON: str keys, lists), and a snapshot the game cannot
    change afterwards: encoding and decoding costs microseconds, a wrong diff a game."""
    return orjson.loads(codec.encode(view))
