"""Game titles. Each title is a module exposing a ``GAME`` object (see base.Game)."""

from __future__ import annotations

from arena.games.base import Game


def titles() -> tuple[str, ...]:
    """Names of the titles this arena can referee."""
    return ("corruption", "intrigue", "paranoia")


def get_game(title: str) -> Game:
    """The Game object for a title; raises KeyError naming the known titles."""
    if title == "corruption":
        from arena.games.corruption import GAME

        return GAME
    if title == "intrigue":
        from arena.games.intrigue import GAME as INTRIGUE

        return INTRIGUE
    if title == "paranoia":
        from arena.games.paranoia import GAME as PARANOIA

        return PARANOIA
    raise KeyError(f"unknown game {title!r}; known games: {', '.join(titles())}")
