"""Defence in depth: nothing a seat does raises out of play_game, and when arena itself fails
on an answer (an exception no check foresaw) the seat or the game is dealt with in words that
name the exception, so the bug stays visible instead of hiding behind a bot's fault."""

from __future__ import annotations

from typing import Any

import pytest

from arena.faults import BotCrashed, Fault
from arena.inprocess import InProcessBot
from arena.record import BotIdentity
from arena.referee import REFEREE_ERROR, FaultPolicy, SeatedBot, play_game
from protocol import legal
from tests.support import toygame
from tests.support.toygame import GAME as TOY


def first(view: dict[str, Any], desc: dict[str, Any]) -> Any:
    return legal.default_action(desc)


def entrants(*decides: Any) -> list[SeatedBot]:
    return [
        SeatedBot(BotIdentity(f"bot{seat}", "1", f"d{seat}"), InProcessBot(decide))
        for seat, decide in enumerate(decides)
    ]


@pytest.mark.parametrize(
    ("answer", "words"),
    [
        ({1: 2}, "a key is not a string (int)"),
        ({(1, 2): 2}, "a key is not a string (tuple)"),
        ({1, 2}, "a set is not a JSON value"),
        (object(), "a object is not a JSON value"),
        (float("nan"), "out of range"),
        (10**5000, "integer of 16610 bits"),
        ("\udc80", "lone surrogate"),
        ("\x1b[2J", "U+001B"),
        ([[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[0]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]], "nest more than 32"),
    ],
    ids=["int-key", "tuple-key", "set", "object", "nan", "huge-int", "surrogate", "esc", "deep"],
)
def test_an_in_process_answer_that_is_not_wire_json_is_a_malformed_fault(answer, words):
    """In-process bots skip the codec; the referee checks their answers the same way."""
    record = play_game(TOY, entrants(first, lambda v, d: answer, first), seed=3, options={})
    seat = record.seats[1]
    assert seat.fault == "malformed" and words in (seat.fault_reason or ""), seat.fault_reason
    assert record.status == "complete"


def test_an_answer_equal_to_an_option_as_json_is_applied_and_recorded_as_the_option():
    """The choice is searched once (issue 12): a look-alike (2.0 for 2) is still accepted, and
    what the game and the record get is the option itself; a boolean is still no number."""
    record = play_game(
        TOY, entrants(first, lambda v, d: 2.0, lambda v, d: True), seed=3, options={}
    )
    assert record.seats[1].fault == Fault.OK
    answered = [d.action for d in record.decisions if d.seat == 1]
    assert answered and all(type(a) is int and a == 2 for a in answered)
    assert record.seats[2].fault == Fault.ILLEGAL


def test_a_transport_that_raises_faults_its_seat_naming_the_exception():
    def broken(view: dict[str, Any], desc: dict[str, Any]) -> Any:
        raise RuntimeError("the pipe fell off")

    record = play_game(TOY, entrants(first, broken, first), seed=3, options={})
    seat = record.seats[1]
    assert seat.fault == "illegal"
    assert seat.fault_reason is not None
    assert seat.fault_reason.startswith(f"{REFEREE_ERROR} while handling the answer to request 1")
    assert "RuntimeError: the pipe fell off" in seat.fault_reason
    assert record.status == "complete" and [s.fault for s in record.seats] == [
        "ok",
        "illegal",
        "ok",
    ]


class PickyState(toygame.ToyState):
    """A toy game whose legal description is looser than its rules (it refuses 2), or whose
    apply breaks outright (raises KeyError on 1): the referee's guards against game bugs."""

    def apply(self, action: Any) -> list[Any]:
        if action == 2:
            raise toygame.IllegalAction("2 is not allowed after all")
        if action == 1:
            raise KeyError("secret")
        return super().apply(action)


class PickyGame(toygame.ToyGame):
    def start(self, players: int, seed: int, options: dict[str, Any]):
        _, events = super().start(players, seed, options)
        return PickyState(players, seed, options["rounds"]), events


def test_a_legal_answer_the_game_refuses_faults_the_seat_and_plays_its_default():
    record = play_game(PickyGame(), entrants(first, lambda v, d: 2, first), seed=3, options={})
    seat = record.seats[1]
    assert seat.fault == "illegal"
    assert REFEREE_ERROR in (seat.fault_reason or "")
    assert "2 is not allowed after all" in (seat.fault_reason or "")
    assert record.status == "complete"
    seat1 = [d for d in record.decisions if d.seat == 1]
    assert [d.action for d in seat1] == [0, 0, 0] and all(d.by_referee for d in seat1)


@pytest.mark.parametrize("policy", list(FaultPolicy))
def test_a_game_that_raises_is_aborted_naming_the_exception(policy):
    record = play_game(
        PickyGame(), entrants(first, lambda v, d: 1, first), seed=3, options={}, fault_policy=policy
    )
    assert record.status == "aborted"
    assert record.termination.startswith(REFEREE_ERROR)
    assert "KeyError" in record.termination and "seat 1" in record.termination


def test_an_aborted_game_tells_the_other_seats_who_faulted_but_not_the_bots_output():
    """A fault's reason quotes the faulted bot (the end of its stderr, a preview of its
    line): the record keeps it for its author, the other seats are told only who and how."""

    def leaky(view: dict[str, Any], desc: dict[str, Any]) -> Any:
        raise BotCrashed("exited with code 3; last stderr: my hand is the 7 of cups")

    witness = InProcessBot(first)
    witness.keep_messages = True
    seats = entrants(first, leaky, first)
    seats[0] = SeatedBot(seats[0].identity, witness)
    record = play_game(TOY, seats, seed=3, options={}, fault_policy=FaultPolicy.ABORT)
    assert record.status == "aborted"
    assert "7 of cups" in record.termination
    (over,) = [m for m in witness.received if m["type"] == "game_over"]
    assert over["reason"] == "seat 1 (bot1@1) faulted: crash"
