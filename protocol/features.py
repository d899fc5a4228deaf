"""Wire features (SPEC.md §13): optional, negotiated changes to what the referee sends a seat.

The referee's hello lists what it offers (``"features": [...]``); a bot's hello may ask for
some of them. Those asked for and offered are in force for the whole process; a bot that asks
for nothing receives exactly protocol v1's plain messages. Stdlib only: the SDK uses this.
"""

from __future__ import annotations

from typing import Any

VIEW_PATCH = "view-patch"
"""Requests carry ``view_patch`` (an RFC 6902 JSON Patch against the last view this seat was
sent in this game) instead of ``view``."""
GAME_ID_ONCE = "game-id-once"
"""Events and requests leave out ``game_id`` (games are sequential: it is the last
game_start's); game_start and game_over still carry it."""
EVENT_BATCH = "event-batch"
"""The events sent between two other messages come as one ``events`` message, a list of
event bodies, instead of one ``event`` message each."""
CHOICE_PRODUCTS = "choice-products"
"""A ``choice`` may describe many of its options as ``products`` (every combination of a few
lists of values) instead of listing each one."""

TALK = "talk"
"""Not a wire form but a way of playing (SPEC.md §14): the seat is asked ``talk`` decisions in
a title's talk windows and reads the messages sent to it. A seat that does not ask for it is
never asked to talk and never told of any."""

WIRE: tuple[str, ...] = (VIEW_PATCH, GAME_ID_ONCE, EVENT_BATCH, CHOICE_PRODUCTS)
"""The features that change only the form of what is sent, never the game."""
OFFERED: tuple[str, ...] = (*WIRE, TALK)
"""Every feature this referee offers, in the order its hello lists them."""


class FeatureError(ValueError):
    """A bot's hello whose "features" is not an array of strings; says what to send instead."""


def requested(hello: dict[str, Any]) -> frozenset[str]:
    """The features a bot's hello asks for that this referee offers (unknown names ignored).

    Absent means none. Anything but an array of strings is a FeatureError: a bot that meant to
    ask for features and got the shape wrong should hear about it, not play a different wire.
    Bounded work whatever the bot sent (a line is at most 1 MiB).
    """
    asked = hello.get("features", [])
    if not isinstance(asked, list):
        raise FeatureError(
            '"features" must be an array of feature names (strings), e.g. ["view-patch"]'
        )
    granted = set()
    for index, name in enumerate(asked):
        if not isinstance(name, str):
            raise FeatureError(
                f'"features" must hold only strings (feature names); item {index} is not one'
            )
        if name in OFFERED:
            granted.add(name)
    return frozenset(granted)


def granted(offered: Any, wanted: list[str]) -> list[str]:
    """The bot side: of the features a bot can use (wanted), those the referee's hello offers.

    ``offered`` is the hello's value as received: anything but a list offers nothing.
    """
    if not isinstance(offered, list):
        return []
    return [name for name in wanted if name in offered]
