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
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from arena.games.paranoia.vocabulary import ActionCard, Effect, Mission
from arena.games.view_parts import ViewParts

if TYPE_CHECKING:
    from arena.games.paranoia.state import ParanoiaState


def seat_view(state: ParanoiaState, seat: int) -> dict[str, Any]:
    """Everything ``seat`` may know now."""
    parts = state.view_parts
    view = _public(state, seat, parts)
    hand = state.ts[seat].hand
    view["hand"] = list(hand)
    holder = state.secret_holder
    view["secret_role"] = _role(state) if holder == seat else None
    view["cards"] = _cards(state, hand, parts)
    return view


def table_view(state: ParanoiaState) -> dict[str, Any]:
    """Everything, hidden or not."""
    parts = state.view_parts
    view = _public(state, None, parts)
    view["hands"] = [list(t.hand) for t in state.ts]
    view["secret_role"] = _role(state) if state.secret_holder is not None else None
    view["action_deck"] = list(state.actions.cards)
    view["mission_deck"] = list(state.missions.cards)
    view["cards"] = _cards(state, [c for t in state.ts for c in t.hand], parts)
    return view


def _role(state: ParanoiaState) -> dict[str, Any]:
    assert state.mission is not None
    return {"role": state.mission.secret_role, "holder": state.secret_holder}


def _public(state: ParanoiaState, seat: int | None, parts: ViewParts) -> dict[str, Any]:
    """Everything public. None of it depends on the seat but "seat" and "decision", so what
    costs most to build is kept between decisions while its inputs are unchanged
    (view_parts.py): the supply, the discard pile's counts. (The troubleshooters' rows
    cost little more to build than a key of what they show.)"""
    ranks = tuple(map(_rank, state.ts))
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
        "discards": parts.get(
            "discards",
            state.actions.discards,
            _discard_counts,
            state.actions.discards,
            snapshot=list,
        ),
        # the clearances count the state's own troubleshooters (state.py builds them on ts)
        "supply": parts.get("supply", (state.clearances.rows, ranks), state.clearances.supply),
        "decision": (
            state.context if decision is not None and seat in (None, decision.seat) else None
        ),
    }


_rank = attrgetter("rank")


def _discard_counts(discards: list[str]) -> dict[str, int]:
    """How many of each card the discard pile holds, by card id (it changes a few times a
    mission; counting it was a fifth of the view's time)."""
    return dict(sorted(Counter(discards).items()))


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


def _cards(state: ParanoiaState, hand: list[str], parts: ViewParts) -> dict[str, Any]:
    """The definitions of the cards the viewer sees: its hand, the chain, the table, the
    mission. Built at every view (the asked seat's hand or the chain has nearly always
    changed since its last one), from each card's JSON built once per game."""
    by_id = parts.get("card set", (state.actions_by_id,), _action_json_by_id, state.actions_by_id)
    ids = dict.fromkeys(hand)
    ids.update(dict.fromkeys([p.card.id for p in state.chain]))
    ids.update(dict.fromkeys([c.play.card.id for c in state.table]))
    cards: dict[str, Any] = dict(zip(ids, map(by_id.__getitem__, ids)))
    mission = state.mission
    if mission is not None:  # kept: mission_json's cache hashes the whole mission
        cards[mission.id] = parts.get("mission", (mission,), mission_json, mission)
    return cards


def _action_json_by_id(actions_by_id: dict[str, ActionCard]) -> dict[str, dict[str, Any]]:
    return {i: action_json(c) for i, c in actions_by_id.items()}


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
