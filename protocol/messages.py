"""Protocol v1 messages: builders for what the referee sends, checks for what a bot sends.

The normative description is SPEC.md beside this file, with a JSON Schema per message in
``schemas/``. The checks here mirror those schemas by hand (tests hold them to the schemas),
because a hand check is fast on the hot path and its messages can tell a bot author exactly
which field is wrong.
"""

from __future__ import annotations

from typing import Any, TypedDict

from protocol import names
from protocol.features import OFFERED

PROTOCOL_VERSION = 1
"""The protocol version this referee speaks."""

BOT_MESSAGE_TYPES = ("hello", "action")


class SchemaError(ValueError):
    """A bot message that is JSON but not a valid protocol message; says which field and why."""


class TimeControlMs(TypedDict):
    """The clock a seat plays under, in milliseconds, as game_start sends it (SPEC.md §7)."""

    decision_ms: int
    bank_ms: int
    game_ms: int


def hello(arena_version: str, features: tuple[str, ...] = OFFERED) -> dict[str, Any]:
    """The referee's opening line, with the wire features it offers (SPEC.md §13)."""
    return {
        "type": "hello",
        "protocol": PROTOCOL_VERSION,
        "arena": arena_version,
        "features": list(features),
    }


def game_start(
    game_id: str,
    game: str,
    seat: int,
    players: int,
    seed: int,
    options: dict[str, Any],
    time: TimeControlMs,
    view: dict[str, Any],
) -> dict[str, Any]:
    """A new game begins; seat is the receiving bot's seat (0-based), view its first view."""
    return {
        "type": "game_start",
        "game_id": game_id,
        "game": game,
        "seat": seat,
        "players": players,
        "seed": seed,
        "options": options,
        "time": dict(time),
        "view": view,
    }


def event(game_id: str, body: dict[str, Any]) -> dict[str, Any]:
    """Something happened that this seat may know; body has a "kind" and the event's fields."""
    return {"type": "event", "game_id": game_id, "event": body}


def events(game_id: str, bodies: list[dict[str, Any]]) -> dict[str, Any]:
    """Several events at once, for a bot that negotiated the wire feature event-batch (the
    referee writes this line itself, from bodies encoded once: arena/wire.py)."""
    return {"type": "events", "game_id": game_id, "events": bodies}


def request(
    game_id: str,
    request_id: int,
    decision: str,
    view: dict[str, Any],
    legal: dict[str, Any],
    time_left_ms: int,
) -> dict[str, Any]:
    """Ask the seat for one action."""
    return {
        "type": "request",
        "game_id": game_id,
        "id": request_id,
        "decision": decision,
        "view": view,
        "legal": legal,
        "time_left_ms": time_left_ms,
    }


def game_over(
    game_id: str,
    status: str,
    reason: str | None,
    scores: list[float],
    ranks: list[int],
) -> dict[str, Any]:
    """The game has ended; ranks are 1-based, ties share a rank."""
    return {
        "type": "game_over",
        "game_id": game_id,
        "status": status,
        "reason": reason,
        "scores": scores,
        "ranks": ranks,
    }


def bye() -> dict[str, Any]:
    """No more games: the bot should exit."""
    return {"type": "bye"}


def check_bot_hello(message: dict[str, Any]) -> tuple[int, str, str]:
    """Validate a bot's hello; return (protocol, name, version)."""
    _expect_type(message, "hello")
    protocol = message.get("protocol")
    if isinstance(protocol, bool) or not isinstance(protocol, int):
        raise SchemaError('hello needs "protocol": an integer (this referee speaks 1)')
    if "name" not in message:
        raise SchemaError(
            f'hello needs "name": 1 to {names.NAME_MAX} characters ({names.CHARSET}), '
            "beginning with a letter or a digit"
        )
    name = message["name"]
    problem = names.check_bot_name(name)
    if problem is not None:
        raise SchemaError(f'hello "name": {problem}')
    version = message.get("version", "")
    problem = names.check_bot_version(version)
    if problem is not None:
        raise SchemaError(f'hello "version": {problem}')
    return protocol, name, version


def check_bot_action(message: dict[str, Any]) -> tuple[int, Any]:
    """Validate a bot's answer to a request; return (request id, action)."""
    _expect_type(message, "action")
    request_id = message.get("id")
    if isinstance(request_id, bool) or not isinstance(request_id, int):
        raise SchemaError('action needs "id": the integer id of the request it answers')
    if "action" not in message:
        raise SchemaError('action needs "action": one of the legal actions of the request')
    return request_id, message["action"]


def _expect_type(message: dict[str, Any], expected: str) -> None:
    kind = message.get("type")
    if kind != expected:
        if kind in BOT_MESSAGE_TYPES:
            raise SchemaError(f'expected a "{expected}" message here, got "{kind}"')
        raise SchemaError(
            f'expected a "{expected}" message, got type {_short(kind)} '
            f"(a bot sends only {', '.join(BOT_MESSAGE_TYPES)})"
        )


def _short(value: Any, limit: int = 60) -> str:
    """A bot's value quoted in a message, cut short: a "type" may be a megabyte of anything."""
    text = repr(value) if not isinstance(value, list | dict) else f"a JSON {_json_type(value)}"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _json_type(value: Any) -> str:
    return "array" if isinstance(value, list) else "object"
