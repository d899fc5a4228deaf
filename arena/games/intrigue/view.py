"""What a seat (or the table) may know, built from nothing.

Everything on the board is public (scholars in hand, waiting, inside, on the island; every
negotiation); only cash is secret, and a seat's view adds its own cash and nobody else's
(STYLE.md: views are built, never copied and filtered).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from arena.games.intrigue.scholars import COLOURS, all_scholars

if TYPE_CHECKING:
    from arena.games.base import Decision
    from arena.games.intrigue.board import Board
    from arena.games.intrigue.state import IntrigueState


def seat_view(state: IntrigueState, seat: int) -> dict[str, Any]:
    """Everything ``seat`` may know now: the public table and its own cash."""
    view = _public(state, seat)
    view["cash"] = state.ledger.cash[seat]
    if seat in state.talkers:  # only seats that talk have the key (SPEC.md §14)
        view["talk"] = state.talk.view(seat)
    return view


def table_view(state: IntrigueState) -> dict[str, Any]:
    """Everything, hidden or not: the public table plus every seat's money."""
    view = _public(state, None)
    ledger = state.ledger
    view["cash"] = list(ledger.cash)
    if state.talkers:
        view["talk"] = state.talk.table()
    view["money"] = [
        {
            "seat": s,
            "start": ledger.start[s],
            "income": ledger.income[s],
            "bribes_received": ledger.received[s],
            "bribes_paid": ledger.paid[s],
            "bank_bribes": ledger.bank_bribes[s],
            "side_paid": ledger.side_paid[s],
            "side_received": ledger.side_received[s],
        }
        for s in range(state.players)
    ]
    return view


def _public(state: IntrigueState, seat: int | None) -> dict[str, Any]:
    board = state.board
    decision = state.pending()
    receiving = state.receiving
    about = receiving.current() if receiving is not None else None  # built once, used twice
    negotiation = receiving.negotiation() if receiving is not None else None
    return {
        "seat": seat,
        "players": state.players,
        "variants": sorted(v._value_ for v in state.variants),
        "round": state.round,
        "start_player": state.start_player,
        "turn": state.current if decision is not None else None,  # whose turn, not who decides
        "phase": state.phase._value_,  # not .value: a slow property on 3.11
        "step": about["step"] if about is not None else None,
        "decision": None if decision is None else _decision(state, decision, about),
        "negotiation": negotiation.json() if negotiation is not None else None,
        "receiving": receiving.summary() if receiving is not None else None,
        "deals": [deal.json() for deal in receiving.deals.values()] if receiving else [],
        **_board_json(board),
    }


_last_board: tuple[tuple[Any, ...], dict[str, Any]] = ((), {})
"""Where the scholars were when the board's JSON was last built, and that JSON: scholars move
a few times a round while a view is built at every decision (most are negotiations), and
comparing where they are costs far less than building it. Compared by content, so it is right
whatever the game; shared by the views built while it holds (nothing changes a view once
built)."""


def _board_json(board: Board) -> dict[str, Any]:
    """The palaces and the island as views show them (the "palaces" and "island" members)."""
    global _last_board
    where = (
        board.players,
        tuple(map(tuple, board.hands)),
        tuple(map(tuple, board.waiting)),
        tuple(map(tuple, map(dict.items, board.sections))),
        tuple(board.island),
    )
    if where == _last_board[0]:
        return _last_board[1]
    scholars = _scholar_json(board.players)  # each figure's JSON built once per table size
    built = {
        "palaces": [
            {
                "seat": palace,
                "colour": COLOURS[palace],
                "sections": [
                    {"value": value, "scholar": None if sid is None else scholars[sid]}
                    for value, sid in board.sections[palace].items()
                ],
                "waiting": [scholars[sid] for sid in board.waiting[palace]],
                "hand": board.hand_counts(palace),
            }
            for palace in range(board.players)
        ],
        "island": [scholars[sid] for sid in board.island],
    }
    _last_board = (where, built)
    return built


@cache
def _scholar_json(players: int) -> tuple[dict[str, Any], ...]:
    """Every scholar's JSON by id, built once per table size and shared by every view (a
    scholar never changes, and nothing changes a view once built)."""
    return tuple(scholar.json() for scholar in all_scholars(players))


def _decision(
    state: IntrigueState, decision: Decision, about: dict[str, Any] | None
) -> dict[str, Any]:
    """Who decides what, and what it is about (public; about: the receiving's current())."""
    seat, kind = decision.seat, decision.kind
    if kind == "send":
        return {"seat": seat, "kind": kind, "sends_left": state.sends_left}
    if kind == "talk":  # only a window's talkers are asked, and see this
        window = state.talk.open
        return {"seat": seat, "kind": kind, "window": window.label if window else None}
    assert state.receiving is not None
    return {"seat": seat, "kind": kind, "palace": state.current, **(about or {})}
