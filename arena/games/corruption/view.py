"""What a seat (or the table) may know, built from nothing.

Every field is added on purpose; the state is never copied and filtered (STYLE.md). A card's
code is written only when ``show`` says so, so a forgotten case hides rather than leaks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from arena.games.corruption.cards import hand_list
from arena.games.corruption.contracts import BY_ID, GOVERNMENTS
from arena.games.corruption.placing import Peek
from arena.games.corruption.table import CardMarks, Placement
from arena.games.view_parts import ViewParts

if TYPE_CHECKING:
    from arena.games.corruption.state import CorruptionState


def seat_view(state: CorruptionState, seat: int) -> dict[str, Any]:
    """Everything ``seat`` may know now: public facts, its own hand, its own peeks."""
    peeked = None if state.table.revealed else state.peeked_by(seat)
    view = _public(state, seat, peeked, state.view_parts)
    view["hand"] = hand_list(state.hands[seat])  # changed since this seat's last view
    view["peeks_left"] = state.peeks_left[seat]
    view["peeked"] = [_peek_json(peek) for peek in state.peeks[seat]]
    return view


def table_view(state: CorruptionState) -> dict[str, Any]:
    """Everything, hidden or not: every card, every hand, every peek, the deck order."""
    view = _public(state, None, None, state.view_parts)
    view["hands"] = [hand_list(hand) for hand in state.hands]
    view["peeks"] = [[_peek_json(peek) for peek in peeks] for peeks in state.peeks]
    view["deck"] = list(state.deck)
    return view


def _public(
    state: CorruptionState, seat: int | None, peeked: set[int] | None, parts: ViewParts
) -> dict[str, Any]:
    """The public part, with the face of each card the viewer may see: every card when
    peeked is None (the table's view, or once the round is revealed), else those face up,
    the viewer's own and those it peeked at."""
    # The hottest code of a refereed game (one view per decision): enum codes are read as
    # ``_value_`` (the member's own attribute; ``.value`` is a property costing ~7x more on
    # Python 3.11), the table's dicts are bound to locals once, not per card, and which
    # faces show is tested inline (a call per card cost a fifth of this function).
    table = state.table
    status, by, assigned = table.status, table.by, table.assigned
    shown_before = table.card_views
    under: dict[int, list[dict[str, Any]]] = {}
    swiss: dict[str, list[dict[str, Any]]] = {g._value_: [] for g in GOVERNMENTS}
    placed = [0] * state.players
    for p in table.placements:
        pid, owner = p.id, p.owner
        placed[owner] += 1
        face = peeked is None or p.face_up or owner == seat or pid in peeked
        marks = (status[pid], by.get(pid), assigned.get(pid))
        # A card looks the same in every view until attribution marks it: built once per
        # face (shown or hidden) and marks, not once per view.
        before = shown_before.get((pid, face))
        if before is not None and before[0] == marks:
            card = before[1]
        else:
            card = _card_json(p, face, marks)
            shown_before[pid, face] = (marks, card)
        if p.contract is None:
            swiss[p.government._value_].append(card)
        elif p.contract in under:
            under[p.contract].append(card)
        else:
            under[p.contract] = [card]
    cancelled = table.cancelled
    governments = [
        {
            "id": g._value_,
            "contracts": [
                {**_CONTRACT_JSON[c], "cancelled": c in cancelled, "cards": under.get(c, [])}
                for c in state.layout[g]
            ],
            "swiss": swiss[g._value_],
        }
        for g in GOVERNMENTS
    ]
    decision = state.pending()
    attribution = state.attribution
    scores = parts.get("scores", tuple(map(tuple, state.won)), state.scores)  # kept: won rarely
    return {
        "seat": seat,
        "players": state.players,
        "variants": sorted(v._value_ for v in state.variants),
        "round": state.round,
        "phase": state.phase._value_,
        "step": attribution.step._value_ if attribution is not None else None,
        "first_player": state.first_player,
        "turn": decision.seat if decision is not None else None,
        "decision": None
        if decision is None
        else {
            "seat": decision.seat,
            "kind": decision.kind,
            "placement": attribution.current if attribution is not None else None,
        },
        "face_up_slots": sorted(state.face_up) if state.face_up is not None else None,
        "revealed": table.revealed,
        "governments": governments,
        "seats": [
            {
                "seat": s,
                "hand_count": sum(state.hands[s].values()),  # Counter.total(), one call less
                "placed": placed[s],
                "contracts_won": list(state.won[s]),
                "score": scores[s],
                "peeks_left": state.peeks_left[s],
            }
            for s in range(state.players)
        ],
        "deck_count": len(state.deck),
    }


_CONTRACT_JSON: dict[int, dict[str, Any]] = {
    c.id: {"id": c.id, "name": c.name, "value": c.value} for c in BY_ID.values()
}
"""Each contract's static fields, built once (a view copies them, never changes them)."""


def _card_json(p: Placement, face: bool, marks: CardMarks) -> dict[str, Any]:
    """A placed card as views show it; its face (its code) only when face is true."""
    status, by, assigned = marks
    card: dict[str, Any] = {
        "placement": p.id,
        "owner": p.owner,
        "slot": p.slot,
        "face_up": p.face_up,
    }
    if face:
        card["card"] = p.card._value_
    card["status"] = status._value_
    card["by"] = by
    if p.contract is None:
        card["assigned"] = assigned
    return card


def _peek_json(peek: Peek) -> dict[str, Any]:
    return {
        "round": peek.round,
        "placement": peek.placement,
        "owner": peek.owner,
        "card": peek.card._value_,
    }
