"""Helpers for bots that talk (SPEC.md §14): build a message, read what was said.

A talk request's legal description is a ``record`` (act, and optionally to, terms, ref, text);
these helpers build answers that satisfy it and read the ``talk`` part of a view. With the SDK,
talking is one function::

    from protocol import sdk, talk

    def chat(view, legal, ctx):
        for proposal in talk.open_proposals(legal, view):
            return talk.reply(proposal, "accept")
        return talk.say("promise", terms=..., text="I keep my word")

    sdk.run(decide, name="mybot", talk=chat)

Stdlib only, like the SDK.
"""

from __future__ import annotations

from typing import Any

ALL = "all"
"""``to`` of a public message: every seat that talks reads it."""
SILENCE: dict[str, Any] = {"act": "pass"}
"""The answer that says nothing (also the default action)."""


def say(
    act: str,
    *,
    to: int | str = ALL,
    terms: Any = None,
    ref: dict[str, int] | None = None,
    text: str = "",
) -> dict[str, Any]:
    """A message: ``act`` (propose, accept, reject, promise, threat, tell), to one seat or
    ``"all"``, with the game's structured ``terms``, the ``ref`` of the proposal it answers and
    a free ``text`` (at most 140 characters). Fields left at their defaults are left out."""
    message: dict[str, Any] = {"act": act}
    if to != ALL:
        message["to"] = to
    if terms is not None:
        message["terms"] = terms
    if ref is not None:
        message["ref"] = ref
    if text:
        message["text"] = text
    return message


def reply(proposal: dict[str, Any], act: str, *, text: str = "") -> dict[str, Any]:
    """Accept or reject (or answer otherwise) a message as read in a view: privately to its
    sender when it was private, to everyone when it was public (SPEC.md §14 requires it)."""
    to = ALL if proposal.get("to") == ALL else proposal["from"]
    return say(act, to=to, ref=ref_of(proposal), text=text)


def ref_of(message: dict[str, Any]) -> dict[str, int]:
    """How to name a message read in a view (a reply's ``ref``)."""
    return {"round": message["round"], "from": message["from"]}


def messages(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The messages of the current (or last) window this seat could read, oldest first; []
    when the view has no talk."""
    talk = view.get("talk")
    if not isinstance(talk, dict):
        return []
    return [m for m in talk.get("messages", []) if isinstance(m, dict)]


def open_proposals(legal: dict[str, Any], view: dict[str, Any]) -> list[dict[str, Any]]:
    """The proposals this seat may still accept or reject now: those the request's ``ref``
    field offers, as read in the view (with their terms and text)."""
    ref = legal.get("fields", {}).get("ref")
    if not isinstance(ref, dict):
        return []
    names = [option for option in ref.get("options", []) if isinstance(option, dict)]
    return [m for m in messages(view) if ref_of(m) in names]


def allowed_terms(legal: dict[str, Any]) -> list[Any]:
    """The structured terms this seat may use now (the options of the ``terms`` field when it
    is a choice; [] when the request offers none)."""
    terms = legal.get("fields", {}).get("terms")
    if not isinstance(terms, dict) or terms.get("kind") != "choice":
        return []
    return list(terms.get("options", []))
