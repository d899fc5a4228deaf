"""The Intrigue bots that talk: intrigue-trusty keeps its promises and stops trusting an owner
that broke one to it; intrigue-liar promises sections it does not give and scholars it does not
spare (in-process, seeded games through the referee, each talking bot seated in talk as
sdk.run(talk=...) would be). Everything is read from the events the seats were sent."""

from __future__ import annotations

import statistics
from collections import Counter
from typing import Any, NamedTuple

import pytest

from tests.support.intrigue_tables import (
    Board,
    Logged,
    Played,
    load,
    play,
    play_logged,
    ranks_of,
    spare_sends,
    window_labels,
)


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
    """Nonsense in, a legal answer out (silence): the SDK's safe wrapper's doing (a view this
    bare makes the windows' code raise, and safe answers for it). The windows' own code on real
    views is held by the test above, which fails on anything a bot writes to stderr."""
    chat = type(load(kind).PLAYER)().chat
    legal = {"kind": "record", "fields": {"act": {"kind": "choice", "options": ["pass"]}}}
    assert chat({}, legal) == {"act": "pass"}
    for window in ("send", "negotiation", "conflict"):
        assert chat({"seat": 0, "talk": {"window": window}}, legal) == {"act": "pass"}


def test_the_mute_control_plays_trusty_without_talk():
    """Letter m seats intrigue-trusty without the talk feature: the control that tells what
    talk itself changes (same bot, same deals, talk off)."""
    for _, record, events in play("mmhh", 2):
        assert "talk" not in record.options
        assert not any(event["kind"] == "said" for event in events)


def spoken(logged: Logged) -> Counter[tuple[str, str]]:
    """(kind of bot, window label) -> messages it said there (read in its own events)."""
    said: Counter[tuple[str, str]] = Counter()
    for seats, _, logs in logged:
        for seat, events in enumerate(logs):
            labels = window_labels(events)
            for event in events:
                if event["kind"] == "said" and event["from"] == seat:
                    said[(seats[seat], labels[event["window"]])] += 1
    return said


class SidePayment(NamedTuple):
    """A side payment carried out, as its payee read it."""

    payer: str
    """The kind of bot that paid."""
    payee: str
    window: str
    """The window's label."""
    event: dict[str, Any]
    """The ``side-paid`` event."""
    decided: dict[str, Any]
    """The owner's decision that followed (``admitted`` or ``kept``: whose scholar won)."""


def side_payments(logged: Logged) -> list[SidePayment]:
    """Every side payment carried out (``side-paid``), once each."""
    found = []
    for seats, _, logs in logged:
        for seat, events in enumerate(logs):
            labels = window_labels(events)
            for at, event in enumerate(events):
                if event["kind"] == "side-paid" and event["to"] == seat:
                    after = (e for e in events[at:] if e["kind"] in ("admitted", "kept"))
                    window = labels[event["window"]]
                    found.append(
                        SidePayment(seats[event["from"]], seats[seat], window, event, next(after))
                    )
    return found


def test_both_talkers_speak_in_every_window_and_side_payments_are_made():
    """Each talker speaks in send, negotiation and conflict windows; side payments are made in
    conflict windows, by both kinds (trusty to owners it trusts, the liar its token)."""
    logged = play_logged("tltl", 16) + play_logged("tttt", 4)
    said = spoken(logged)
    for kind in ("t", "l"):
        for window in ("send", "negotiation", "conflict"):
            assert said[(kind, window)] >= 10, (kind, window, said)
    payments = side_payments(logged)
    assert {p.window for p in payments} == {"conflict"}
    payers = Counter(p.payer for p in payments)
    payees = Counter(p.payee for p in payments)
    assert min(payers["t"], payers["l"], payees["t"], payees["l"]) >= 10, (payers, payees)


def test_an_owner_takes_side_payments_trusty_decides_for_its_payer_the_liar_not_always():
    """Trusty accepts a side payment only from the player it makes the best paid, and decides
    for that player's scholar; the liar takes the largest offered and decides on bribes
    alone (its "your scholar wins" binds nobody)."""
    payments = side_payments(play_logged("tltl", 16))
    honoured = Counter((p.payee, p.decided["applicant"] == p.event["from"]) for p in payments)
    assert honoured[("t", True)] >= 10 and honoured[("t", False)] == 0, honoured
    assert honoured[("l", False)] >= 5, honoured


def test_trusty_keeps_every_spare_promise_and_the_liar_breaks_some():
    """A seat that promised {"spare": true} in a send window sends against a spared seat's
    scholar (of its type, waiting at or sitting in the palace it is sent to) that turn: never
    trusty (it promises only what two sends can keep), the liar often, and not only when
    every send it had would have broken it."""
    totals: dict[str, Counter[str]] = {"t": Counter(), "l": Counter()}
    for seats, record, logs in play_logged("tltl", 16):
        for seat, events in enumerate(logs):
            totals[seats[seat]].update(spare_sends(record, events, seat)._asdict())
    trusty, liar = totals["t"], totals["l"]
    assert trusty["sends"] >= 50 and liar["sends"] >= 50, totals
    assert trusty["broken"] == 0, totals
    assert liar["avoidable"] >= 10, totals


def against_me(board: Board, sent: dict[str, Any], me: int) -> bool:
    return board.against(sent["palace"], sent["type"], me)


def test_trusty_promises_no_spare_to_a_seat_that_broke_its_word():
    """Once a seat broke a promise to trusty in a game (sent against trusty's scholar in a
    turn it had promised to spare it, or gave a lower section than it promised), trusty
    promises it no spare for the rest of that game."""
    promised_to_liars = turns_with_liars = 0
    for seats, record, logs in play_logged("ttll", 24):
        talkers = set(record.options["talk"])
        for me, events in enumerate(logs):
            if seats[me] != "t":
                continue
            board, liars = Board(record.players), set()
            sparing: set[int] = set()
            seat_at: dict[int, int] = {}
            for event in events:
                kind, terms = event["kind"], event.get("terms")
                if kind == "turn-start":
                    sparing = set()
                    turns_with_liars += event["seat"] == me and bool(liars)
                elif kind == "said" and event["from"] == me and terms == {"spare": True}:
                    to = talkers - {me} if event["to"] == "all" else {event["to"]}
                    promised_to_liars += bool(to & liars)
                elif kind == "said" and event["to"] in (me, "all") and terms == {"spare": True}:
                    sparing.add(event["from"])
                elif kind == "said" and event["to"] == me and isinstance(terms, dict):
                    if "seat_at" in terms:
                        seat_at[event["from"]] = terms["seat_at"]
                elif kind == "placed" and event["applicant"] == me:
                    if event["given_section"] < seat_at.pop(event["palace"], 0):
                        liars.add(event["palace"])
                elif kind == "sent" and event["seat"] in sparing and against_me(board, event, me):
                    liars.add(event["seat"])
                board.on_event(event)
    assert turns_with_liars >= 10, turns_with_liars
    assert promised_to_liars == 0, promised_to_liars


def test_the_liar_never_sends_against_its_own_scholars():
    """Its sends may challenge anyone's scholar but its own (it would pay twice to compete
    with itself)."""
    sends = 0
    for seats, record, logs in play_logged("tltl", 16):
        for seat, events in enumerate(logs):
            if seats[seat] != "l":
                continue
            board = Board(record.players)
            for event in events:
                if event["kind"] == "sent" and event["seat"] == seat:
                    sends += 1
                    assert not board.against(event["palace"], event["type"], seat), event
                board.on_event(event)
    assert sends >= 100, sends


def trusty_at(seat: int) -> Any:
    """A fresh intrigue-trusty seated at ``seat`` of a 4-player game, as the SDK starts it."""
    player = type(load("t").PLAYER)()
    player.on_game_start("g", {"seat": seat, "players": 4})
    return player


def test_trusty_distrusts_an_owner_that_took_its_side_payment_and_chose_another():
    """A side payment binds only the payer. (In the seeded tables above trusty stops trusting
    the liars before it ever pays one, so this is driven by events directly.)"""
    decided = {"palace": 2, "scholar": 7, "type": "doctor"}
    kept_word, pocketed = trusty_at(0), trusty_at(0)
    for player, applicant in ((kept_word, 0), (pocketed, 3)):
        player.on_event("g", {"kind": "side-paid", "from": 0, "to": 2, "amount": 2000})
        player.on_event("g", {"kind": "admitted", **decided, "applicant": applicant})
    assert not kept_word.lied(2)
    assert pocketed.lied(2) and not pocketed.lied(3)


def test_trusty_counts_only_side_payments_made_to_it():
    """As a conflict's owner it weighs the payment it accepted, never one between two other
    seats in the same window (a public proposal accepted by another)."""
    owner = trusty_at(2)
    owner.window = 5  # it accepted seat 1's payment in window 5
    owner.on_event("g", {"kind": "side-paid", "from": 1, "to": 2, "amount": 3000, "window": 5})
    owner.on_event("g", {"kind": "side-paid", "from": 3, "to": 0, "amount": 9000, "window": 5})
    assert owner.side == {1: 3000}
