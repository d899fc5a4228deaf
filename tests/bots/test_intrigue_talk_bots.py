"""The Intrigue bots that talk: intrigue-trusty keeps its promises and stops trusting an owner
that broke one to it; intrigue-liar promises sections it does not give (in-process, seeded
games through the referee, each talking bot seated in talk as sdk.run(talk=...) would be)."""

from __future__ import annotations

import statistics
from typing import Any

import pytest

from tests.support.intrigue_tables import Played, load, play, ranks_of


def promises_kept(played: Played, owner_kind: str) -> tuple[int, int]:
    """(promises kept, promises tested) by owners of this kind: a seat_at promise seat 0 read,
    made to seat 0, and the section then given to seat 0's scholar at that owner's palace."""
    kept = tested = 0
    for seats, _, events in played:
        promised: dict[int, int] = {}
        for event in events:
            terms = event.get("terms")
            if event["kind"] == "said" and isinstance(terms, dict) and "seat_at" in terms:
                if event["to"] == 0 and seats[event["from"]] == owner_kind:
                    promised[event["from"]] = terms["seat_at"]
            elif event["kind"] == "placed" and event["applicant"] == 0:
                section = promised.pop(event["palace"], None)
                if section is not None:
                    tested += 1
                    kept += event["given_section"] >= section
    return kept, tested


@pytest.mark.parametrize("kind", ["t", "l"])
def test_each_talker_beats_three_random_bots(kind):
    ranks = ranks_of(kind, play(kind + "rrr", 20))
    assert statistics.mean(ranks) < 1.6, ranks


def test_trusty_keeps_its_promises_and_the_liar_breaks_them():
    played = play("tltl", 16)
    trusty_kept, trusty_tested = promises_kept(played, "t")
    liar_kept, liar_tested = promises_kept(played, "l")
    assert trusty_tested >= 10 and liar_tested >= 10, (trusty_tested, liar_tested)
    assert trusty_kept / trusty_tested >= 0.9, (trusty_kept, trusty_tested)
    assert liar_kept / liar_tested <= 0.3, (liar_kept, liar_tested)


def offers_to(played: Played, applicant: str, owner: str, step: str) -> list[dict[str, Any]]:
    """Offers seat 0 saw from seats of one kind to palaces of another, in one step."""
    return [
        event
        for seats, _, events in played
        for event in events
        if event["kind"] == "offered"
        and event["step"] == step
        and seats[event["applicant"]] == applicant
        and seats[event["palace"]] == owner
    ]


def test_trusty_stops_trusting_a_liar_once_lied_to():
    """Trusty pays for a promised section; once an owner has broken a promise to it in a game,
    it sends its scholars elsewhere, and offers that owner the minimum if it must."""
    played = play("ttll", 24)
    sends_after = to_liar_after = 0
    paid_before: list[int] = []
    offered_after: list[int] = []
    for seats, _, events in played:
        if seats[0] != "t":
            continue
        promised: dict[int, int] = {}
        liars: set[int] = set()
        for event in events:
            terms = event.get("terms")
            kind = event["kind"]
            if kind == "said" and isinstance(terms, dict) and "seat_at" in terms:
                promised[event["from"]] = terms["seat_at"]
            elif kind == "placed" and event["applicant"] == 0 and event["palace"] in promised:
                if event["given_section"] < promised.pop(event["palace"]):
                    liars.add(event["palace"])
            elif kind == "sent" and event["seat"] == 0 and liars:
                sends_after += 1
                to_liar_after += event["palace"] in liars
            elif kind == "offered" and event["applicant"] == 0 and seats[event["palace"]] == "l":
                if event["step"] != "no-conflict":
                    continue
                (offered_after if event["palace"] in liars else paid_before).append(event["amount"])
    assert paid_before and sends_after >= 10, (paid_before, sends_after)
    assert statistics.mean(paid_before) > 1500, "a promised section is paid for"
    assert to_liar_after / sends_after <= 0.2, (to_liar_after, sends_after)
    assert all(amount == 1000 for amount in offered_after), offered_after


def test_a_talker_among_bots_that_do_not_talk_plays_without_talk(capfd):
    """With one talker at the table nobody talks (two are needed); the talkers still play
    every decision themselves, with and without others to talk to."""
    for pattern in ("thrr", "tlhs", "tltl"):
        play(pattern, 3)
    assert capfd.readouterr().err == ""


@pytest.mark.parametrize("kind", ["t", "l"])
def test_talk_is_total(kind):
    """Nonsense in, a legal answer out (silence)."""
    chat = type(load(kind).PLAYER)().chat
    legal = {"kind": "record", "fields": {"act": {"kind": "choice", "options": ["pass"]}}}
    assert chat({}, legal) == {"act": "pass"}


def test_the_mute_control_plays_trusty_without_talk():
    """Letter m seats intrigue-trusty without the talk feature: the control that tells what
    talk itself changes (same bot, same deals, talk off)."""
    for _, record, events in play("mmhh", 2):
        assert "talk" not in record.options
        assert not any(event["kind"] == "said" for event in events)
