"""paranoia-traitor: paranoia-survivor's play, with table talk, breaking its word.

It proposes pacts to every talker in turn as each mission ends, accepts every pact offered,
and before turns promises one talker after another that it will not target them; then it
plays as if it had said nothing, and a little keener to hurt those who trust it (they will
not see it coming, and a pact partner that keeps its word does not hit back this mission).
"""

from __future__ import annotations

from typing import Any

from protocol import talk
from protocol.paranoia_play import decide as play
from protocol.paranoia_word import Words, other_talkers, pact_with

NAME = "paranoia-traitor"
VERSION = "1.0"

BETRAY = 0.5
"""Regard for a seat that trusts it: each wound or treason given to it is worth this more."""

WORDS = Words()


def decide(view: dict[str, Any], legal: dict[str, Any], ctx: Any) -> Any:
    word = WORDS.of(ctx.game)
    trusting = {seat: BETRAY for seat in word.bound if word.bound_now(seat)}
    return play(view, legal, regard=trusting)


def chat(view: dict[str, Any], legal: dict[str, Any], ctx: Any) -> dict[str, Any]:
    word = WORDS.of(ctx.game)
    for proposal in talk.open_proposals(legal, view):
        return talk.reply(proposal, "accept")
    others = other_talkers(ctx.game)
    if not others:
        return talk.SILENCE
    window = view.get("talk") or {}
    mark = others[(word.mission + window.get("round", 1)) % len(others)]
    if window.get("window") == "mission-end":
        return {**pact_with(mark), "text": "pact: neither of us targets the other"}
    return talk.say("promise", to=mark, terms={"spare": mark}, text="you are safe with me")


if __name__ == "__main__":
    WORDS.run(decide, chat, name=NAME, version=VERSION)
