"""paranoia-loyal: paranoia-survivor's play, with table talk, keeping its word.

As each mission ends it proposes a pact (neither targets the other next mission) privately to
one talker, in turn, and accepts the pacts other talkers propose; it never targets a seat that
gave it its word for the mission (a kept pact or a promise to spare it). It remembers who lied
(hurt it in a mission it had its word for): it makes no more pacts with a liar, refuses the
liar's, denounces it once to the table with a threat, and is readier to hurt it.
"""

from __future__ import annotations

from typing import Any

from protocol import talk
from protocol.paranoia_play import decide as play
from protocol.paranoia_word import Word, Words, other_talkers, pact_with

NAME = "paranoia-loyal"
VERSION = "1.0"

KEEP = -100.0
"""Regard for a seat it gave its word to: never target it while another choice is left."""
GRUDGE = 1.5
"""Regard for a liar: each wound or treason given to it is worth this much more."""

WORDS = Words()


def regard(word: Word) -> dict[int, float]:
    kept = {seat: KEEP for seat in word.bound if word.bound_now(seat)}
    return {**kept, **dict.fromkeys(word.liars, GRUDGE)}


def decide(view: dict[str, Any], legal: dict[str, Any], ctx: Any) -> Any:
    return play(view, legal, regard=regard(WORDS.of(ctx.game)))


def chat(view: dict[str, Any], legal: dict[str, Any], ctx: Any) -> dict[str, Any]:
    word = WORDS.of(ctx.game)
    for proposal in talk.open_proposals(legal, view):
        if (proposal.get("terms") or {}).get("spare") == word.me:
            act = "reject" if proposal["from"] in word.liars else "accept"
            return talk.reply(proposal, act)
    fresh = sorted(word.liars - word.denounced)
    if fresh:
        word.denounced.add(fresh[0])
        text = f"seat {fresh[0]} broke its word to me"
        return talk.say("threat", terms={"target": fresh[0]}, text=text)
    window = view.get("talk") or {}
    if window.get("window") == "mission-end" and window.get("round") == 1:
        partners = [s for s in other_talkers(ctx.game) if s not in word.liars]
        if partners:
            partner = partners[word.mission % len(partners)]
            return {**pact_with(partner), "text": "pact: neither of us targets the other"}
    return talk.SILENCE


if __name__ == "__main__":
    WORDS.run(decide, chat, name=NAME, version=VERSION)
