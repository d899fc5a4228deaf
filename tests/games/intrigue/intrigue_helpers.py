"""Helpers for Intrigue scenario tests: build a position, then play it through ``apply``."""

from __future__ import annotations

import json
import random
from typing import Any

from arena.games.base import Event
from arena.games.intrigue import GAME
from arena.games.intrigue.board import Ledger
from arena.games.intrigue.options import Variant
from arena.games.intrigue.scholars import MIN_BRIBE
from arena.games.intrigue.state import IntrigueState
from protocol.legal import random_action

SCI, DOC, PRI, CLE = "scientist", "doctor", "priest", "clerk"


Piece = tuple[int, str]
"""(owner seat, scholar type): a scholar in a test position."""


def start_position(
    players: int,
    *,
    seat: int = 0,
    start_player: int = 0,
    round_no: int = 1,
    variants: tuple[str, ...] = (),
    cash: list[int] | None = None,
    inside: dict[int, dict[int, Piece]] | None = None,
    waiting: dict[int, list[Piece]] | None = None,
    island: list[Piece] | None = None,
    hands_to_island: bool = False,
    talkers: tuple[int, ...] = (),
) -> tuple[IntrigueState, list[Event]]:
    """A game at the start of ``seat``'s turn in ``round_no`` (before its income),
    with scholars ``inside`` palaces (palace -> section -> piece), ``waiting`` in front of them
    (palace -> pieces in arrival order) and on the ``island``; every other scholar is in hand,
    or on the island too with ``hands_to_island`` (a round-5 position); ``talkers`` talk. Each
    piece takes the
    lowest unused id of its owner and type. Everything after that goes through ``apply``."""
    state = IntrigueState(players, 0, frozenset(Variant(v) for v in variants), frozenset(talkers))
    if cash is not None:
        state.ledger = Ledger(cash)  # before anything is paid: the ledger starts from it
    board = state.board

    def take(piece: Piece) -> int:
        owner, type_ = piece
        scholar = board.first_in_hand(owner, type_)
        assert scholar is not None, f"seat {owner} has no {type_} left for the position"
        board.hands[owner].remove(scholar)
        return scholar

    for palace, sections in (inside or {}).items():
        for section, piece in sections.items():
            board.sections[palace][section] = take(piece)
    for palace, pieces in (waiting or {}).items():
        board.waiting[palace].extend(take(piece) for piece in pieces)
    board.island.extend(take(piece) for piece in island or [])
    if hands_to_island:
        for hand in board.hands:
            board.island.extend(hand)
            hand.clear()
    state.start_player = start_player
    state.round = round_no
    state.turn_index = (seat - start_player) % players
    events: list[Event] = []
    state._begin_turn(events)
    state._advance(events)
    return state, events


def new(players: int = 3, **kwargs: Any) -> tuple[IntrigueState, list[Event]]:
    """A game at the start of a chosen turn in a chosen position (see start_position)."""
    state, events = start_position(players, **kwargs)
    assert state.invariants() == []
    return state, events


def act(state: IntrigueState, seat: int, kind: str, action: Any) -> list[Event]:
    """Answer the pending decision, checking it is the one expected."""
    decision = state.pending()
    assert decision is not None, "the game is over"
    assert (decision.seat, decision.kind) == (seat, kind), (
        f"expected seat {seat} to decide {kind!r}, pending is seat {decision.seat} {decision.kind!r}"
    )
    events = state.apply(action)
    assert state.invariants() == []
    return events


def negotiate(
    state: IntrigueState,
    applicant: int,
    owner: int,
    amount: int,
    *,
    section: int | None = None,
    promise: str | None = None,
    demand: int | None = None,
    reply: dict[str, Any] | None = None,
) -> list[Event]:
    """One negotiation: the offer, then accept (no demand) or the demand, then (when ``reply``
    is given) the applicant's reply. ``amount`` 0 plays a negotiation without agreement (the
    rules' way of paying nothing): the minimum offered, 1,000 more demanded, the applicant walks
    away (not asked when it could not pay anyway)."""
    if amount == 0:
        amount, demand, reply = MIN_BRIBE, MIN_BRIBE + 1000, {"refuse": True}
    offer: dict[str, Any] = {"amount": amount}
    if section is not None:
        offer["section"] = section
    if promise is not None:
        offer["promise"] = promise
    events = act(state, applicant, "offer", offer)
    answer = {"accept": True} if demand is None else {"demand": demand}
    events += act(state, owner, "answer", answer)
    pending = state.pending()
    if reply is not None and pending is not None and pending.kind == "pay":
        events += act(state, applicant, "pay", reply)
    return events


def accept_all(state: IntrigueState, owner: int, amount: int = MIN_BRIBE) -> list[Event]:
    """Every pending negotiation: offer ``amount``, accepted."""
    events: list[Event] = []
    while (decision := state.pending()) is not None and decision.kind == "offer":
        events += negotiate(state, decision.seat, owner, amount)
    return events


def scholar_id(state: IntrigueState, owner: int, type_: str, palace: int) -> int:
    """The id of ``owner``'s scholar of ``type_`` waiting at or inside ``palace``."""
    board = state.board
    ids = [*board.waiting[palace], *(s for s in board.sections[palace].values() if s is not None)]
    for sid in ids:
        scholar = board.scholar(sid)
        if (scholar.owner, scholar.type) == (owner, type_):
            return sid
    raise AssertionError(f"no {type_} of seat {owner} at palace {palace}")


def of_kind(events: list[Event], kind: str) -> list[dict[str, Any]]:
    """The data of every event of this kind."""
    return [e.data for e in events if e.kind == kind]


def kinds(events: list[Event]) -> list[str]:
    """Event kinds in order."""
    return [e.kind for e in events]


def options(state: IntrigueState) -> list[Any]:
    """The options of the pending choice."""
    decision = state.pending()
    assert decision is not None and decision.legal["kind"] == "choice"
    return decision.legal["options"]


def random_game(
    players: int, seed: int, variants: list[str], choices_seed: int | None = None
) -> tuple[IntrigueState, list[Event], list[Any]]:
    """A whole game with random legal answers; returns state, events, actions."""
    state, events = GAME.start(players, seed, GAME.normalize_options({"variants": variants}))
    rng = random.Random(seed if choices_seed is None else choices_seed)
    actions = []
    while (decision := state.pending()) is not None:
        action = random_action(decision.legal, rng)
        actions.append(action)
        events += state.apply(action)
    return state, events, actions


def dump(value: Any) -> str:
    """Canonical JSON, for byte-identical comparisons."""
    return json.dumps(value, separators=(",", ":"))
