"""What a seat (or the table) may know, built from nothing.

Public: every troubleshooter's clearance, clones, hand *count*, wounds and treason; the chain,
the table, every card played or discarded; the mission and its counters; the supply. A seat's
view adds its own hand and, if it holds one, its secret role; the table view adds every hand,
the decks' order and the role's holder (STYLE.md: built, never copied and filtered).

Each view carries ``cards``: the definition of every card the seat can see (its hand, the
chain, the table, the mission), so a bot in any language needs nothing but the view.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import TYPE_CHECKING, Any

from arena.games.paranoia.vocabulary import ActionCard, Effect, Mission

if TYPE_CHECKING:
    from arena.games.paranoia.state import ParanoiaState


def seat_view(state: ParanoiaState, seat: int) -> dict[str, Any]:
    """Everything ``seat`` may know now."""
    view = _public(state, seat)
    hand = state.ts[seat].hand
    view["hand"] = list(hand)
    holder = state.secret_holder
    view["secret_role"] = _role(state) if holder == seat else None
    view["cards"] = _cards(state, hand)
    return view


def table_view(state: ParanoiaState) -> dict[str, Any]:
    """Everything, hidden or not."""
    view = _public(state, None)
    view["hands"] = [list(t.hand) for t in state.ts]
    view["secret_role"] = _role(state) if state.secret_holder is not None else None
    view["action_deck"] = list(state.actions.cards)
    view["mission_deck"] = list(state.missions.cards)
    view["cards"] = _cards(state, [c for t in state.ts for c in t.hand])
    return view


def _role(state: ParanoiaState) -> dict[str, Any]:
    assert state.mission is not None
    return {"role": state.mission.secret_role, "holder": state.secret_holder}


def _public(state: ParanoiaState, seat: int | None) -> dict[str, Any]:
    mission = state.mission
    decision = state.pending()
    return {
        "seat": seat,
        "players": state.players,
        "mission_number": state.mission_number,
        "mission_cap": state.mission_cap,
        "mission": None if mission is None else mission.id,
        "mission_has_secret_role": mission is not None and mission.secret_role is not None,
        # enum codes read as _value_: .value is a slow property on Python 3.11, and this
        # view is built at every decision
        "counters": {c._value_: v for c, v in state.counters.items()},
        "phase": state.phase._value_,
        "team_leader": state.leader,
        "turn": state.turn,
        "turns_taken": state.turns_taken,
        "troubleshooters": _troubleshooters(state),
        "chain": [p.public() for p in state.chain],
        "table": [c.public() for c in state.table],
        "action_deck": len(state.actions.cards),
        "discards": _discard_counts(state.actions.discards),
        "supply": state.clearances.supply(),
        "decision": (
            state.context if decision is not None and seat in (None, decision.seat) else None
        ),
    }


_last_discards: tuple[list[str], dict[str, int]] = ([], {})
"""The discard pile last counted and its counts: the pile changes a few times a mission
while the view is built at every decision, and counting it (a Counter, then sorting) was a
fifth of the view's time. Compared by content, so it is right whatever the game."""


def _discard_counts(discards: list[str]) -> dict[str, int]:
    """How many of each card the discard pile holds, by card id (a fresh dict per view)."""
    global _last_discards
    pile, counts = _last_discards
    if discards != pile:
        counts = dict(sorted(Counter(discards).items()))
        _last_discards = (list(discards), counts)
    return dict(counts)


def _troubleshooters(state: ParanoiaState) -> list[dict[str, Any]]:
    # Hot (five rows per view, one view per decision): the clearance row is looked up once
    # per troubleshooter, and the loop is one call, not one per troubleshooter.
    clearances = state.clearances
    rows, traitor = clearances.rows, clearances.traitor
    shown = []
    for t in state.ts:
        row = rows[t.rank]
        shown.append(
            {
                "seat": t.seat,
                "clearance": row.name,
                "clones": t.clones,
                "alive": t.alive,
                "hand": len(t.hand),
                "wounds": t.wounds,
                "treason": t.treason,
                "max_wounds": row.max_wounds,
                "max_treason": row.max_treason,
                "hand_size": row.hand_size,
                "traitor": traitor(t),
                "skips": t.skips,
            }
        )
    return shown


def _cards(state: ParanoiaState, hand: list[str]) -> dict[str, Any]:
    ids = dict.fromkeys(hand)
    ids.update(dict.fromkeys(p.card.id for p in state.chain))
    ids.update(dict.fromkeys(c.play.card.id for c in state.table))
    by_id = _action_json_by_id(state.actions_by_id)
    cards: dict[str, Any] = {i: by_id[i] for i in ids}
    if state.mission is not None:
        cards[state.mission.id] = mission_json(state.mission)
    return cards


_last_card_set: tuple[dict[str, ActionCard], dict[str, dict[str, Any]]] = ({}, {})
"""The game's action cards by id, as last asked for, and their JSON by id: a card's JSON was
found through action_json's cache, which hashes the card (a Python call) for every card of
every view. Kept while the same game (the same dict object, held here) asks again."""


def _action_json_by_id(actions_by_id: dict[str, ActionCard]) -> dict[str, dict[str, Any]]:
    global _last_card_set
    if _last_card_set[0] is not actions_by_id:
        _last_card_set = (actions_by_id, {i: action_json(c) for i, c in actions_by_id.items()})
    return _last_card_set[1]


def _effect_json(effect: Effect) -> dict[str, Any]:
    fields = {
        "op": effect.op.value,
        "target": effect.target,
        "amount": effect.amount,
        "counter": effect.counter,
        "choice": effect.choice,
        "optional": effect.optional or None,
        "cancels": list(effect.cancels) or None,
        "when": effect.when,
    }
    return {k: (v.value if hasattr(v, "value") else v) for k, v in fields.items() if v is not None}


@cache
def action_json(card: ActionCard) -> dict[str, Any]:
    """An action card as bots see it (built once per card; never mutated)."""
    return {
        "type": "action",
        "name": card.name,
        "tags": list(card.tags),
        "sections": [
            {"kind": s.kind.value, "effects": [_effect_json(e) for e in s.effects]}
            for s in card.sections
        ],
    }


@cache
def mission_json(mission: Mission) -> dict[str, Any]:
    """A mission card as bots see it."""
    return {
        "type": "mission",
        "name": mission.name,
        "secret_role": mission.secret_role,
        "success_when": [
            {
                k: (v.value if hasattr(v, "value") else v)
                for k, v in (("test", c.test), ("counter", c.counter), ("value", c.value))
                if v is not None
            }
            for c in mission.success_when
        ],
        "success": [_effect_json(e) for e in mission.success],
        "failure": None if mission.failure is None else [_effect_json(e) for e in mission.failure],
    }
