"""What a seat (or the table) may know, built from nothing.

Everything on the board is public (scholars in hand, waiting, inside, on the island; every
negotiation); only cash is secret, and a seat's view adds its own cash and nobody else's
(STYLE.md: views are built, never copied and filtered). The public members that cost most to
build are parts kept in the state's ViewParts while their inputs are unchanged (view_parts.py);
none of them depends on the seat.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from arena.games.intrigue.scholars import COLOURS, all_scholars
from arena.games.view_parts import ViewParts

if TYPE_CHECKING:
    from arena.games.base import Decision
    from arena.games.intrigue.board import Board
    from arena.games.intrigue.negotiation import Negotiation
    from arena.games.intrigue.options import Variant
    from arena.games.intrigue.receiving import Receiving
    from arena.games.intrigue.state import IntrigueState


def seat_view(state: IntrigueState, seat: int) -> dict[str, Any]:
    """Everything ``seat`` may know now: the public table and its own cash."""
    view = _public(state, seat, state.view_parts)
    view["cash"] = state.ledger.cash[seat]
    if seat in state.talkers:  # only seats that talk have the key (SPEC.md §14)
        view["talk"] = state.talk.view(seat)
    return view


def table_view(state: IntrigueState) -> dict[str, Any]:
    """Everything, hidden or not: the public table plus every seat's money."""
    view = _public(state, None, state.view_parts)
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


def _public(state: IntrigueState, seat: int | None, parts: ViewParts) -> dict[str, Any]:
    """Everything public. None of it depends on the seat but "seat", so what costs most to
    build is kept between decisions while its inputs are unchanged (view_parts.py): the board,
    the receiving's summary, the settled deals."""
    decision = state.pending()
    receiving = state.receiving
    about = receiving.current() if receiving is not None else None  # built once, used twice
    negotiation = receiving.negotiation() if receiving is not None else None
    board = _board_json(parts, state.board)
    return {
        "seat": seat,
        "players": state.players,
        "variants": parts.get("variants", state.variants, _codes, state.variants),
        "round": state.round,
        "start_player": state.start_player,
        "turn": state.current if decision is not None else None,  # whose turn, not who decides
        "phase": state.phase._value_,  # not .value: a slow property on 3.11
        "step": about["step"] if about is not None else None,
        "decision": None if decision is None else _decision(state, decision, about),
        # the negotiation in progress changes at most decisions: built every time
        "negotiation": negotiation.json() if negotiation is not None else None,
        "receiving": _receiving_json(parts, receiving) if receiving is not None else None,
        "deals": _deals_json(parts, receiving) if receiving is not None else [],
        "palaces": board["palaces"],
        "island": board["island"],
    }


def _codes(variants: frozenset[Variant]) -> list[str]:
    return sorted(v._value_ for v in variants)


def _deals_json(parts: ViewParts, receiving: Receiving) -> list[dict[str, Any]]:
    """The turn's settled negotiations, kept while the same deals stand unchanged (one is
    added each time a negotiation settles). A negotiation changes only through its
    ``resolve``, which counts its calls in ``moves``."""
    deals = receiving.deals.values()
    key = (tuple(deals), tuple(map(_moves, deals)))
    return parts.get("deals", key, _built_deals, parts, deals)


def _built_deals(parts: ViewParts, deals: Iterable[Negotiation]) -> list[dict[str, Any]]:
    """Each deal's JSON, kept from the previous list while that deal is unchanged."""
    return [parts.get(("deal", deal.scholar.id), (deal, deal.moves), deal.json) for deal in deals]


_moves = attrgetter("moves")


def _receiving_json(parts: ViewParts, receiving: Receiving) -> dict[str, Any]:
    """The conflicts found when the current receiving began (fixed for the whole step)."""
    r = receiving
    key = (r.owner, r.no_conflict, r.external, r.internal)
    return parts.get("receiving", key, r.summary)


def _board_json(parts: ViewParts, board: Board) -> dict[str, Any]:
    """The "palaces" and "island" members, kept while no scholar moves (most decisions move
    none); when some do, only the palaces whose scholars moved are built again."""
    key = (board.players, board.sections, board.waiting, board.hands, board.island)
    return parts.get("board", key, _built_board, parts, board, snapshot=_copied_board)


def _copied_board(key: tuple[Any, ...]) -> tuple[Any, ...]:
    players, sections, waiting, hands, island = key
    return players, [*map(dict, sections)], [*map(list, waiting)], [*map(list, hands)], [*island]


def _built_board(parts: ViewParts, board: Board) -> dict[str, Any]:
    scholars = _scholar_json(board.players)  # each figure's JSON built once per table size
    palaces = [
        parts.get(
            ("palace", palace),
            (board.players, board.sections[palace], board.waiting[palace], board.hands[palace]),
            _palace_json,
            board,
            palace,
            snapshot=_copied_palace,
        )
        for palace in range(board.players)
    ]
    return {"palaces": palaces, "island": [scholars[sid] for sid in board.island]}


def _copied_palace(key: tuple[Any, ...]) -> tuple[Any, ...]:
    players, sections, waiting, hand = key
    return players, dict(sections), [*waiting], [*hand]


def _palace_json(board: Board, palace: int) -> dict[str, Any]:
    """One palace: built again only when one of its scholars (inside, waiting in front of it,
    or in its owner's hand) moved."""
    scholars = _scholar_json(board.players)
    return {
        "seat": palace,
        "colour": COLOURS[palace],
        "sections": [
            {"value": value, "scholar": None if sid is None else scholars[sid]}
            for value, sid in board.sections[palace].items()
        ],
        "waiting": [scholars[sid] for sid in board.waiting[palace]],
        "hand": board.hand_counts(palace),
    }


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
