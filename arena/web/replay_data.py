"""The replay document of a recorded game: what the replay viewer draws, as JSON.

Built by replaying the record (arena.replay) and asking the game itself what each side knew:
``table_view()`` for the table, ``view(seat)`` and ``Event.for_seat`` for a seat — the same
calls the referee makes, so the viewer never has its own idea of what a seat may see.

Views repeat a lot from one decision to the next, so each side's views are stored as the first
view and, per later step, a patch against the one before (:func:`view_patch`); replay.js
rebuilds them. Patches, large values they set and event texts are each stored once in a pool
and named by index (:class:`Pool`): most are the same for every side. A seat's document (``only_seat``) holds nothing but that seat's views, the
events it was sent and its own decisions: it is the page a bot author may share.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

from arena.faults import Fault
from arena.printable import visible
from arena.record import DecisionRecord, GameRecord, SeatRecord
from arena.replay import Step, _replay, describer, seat_events

TABLE = "table"
"""The side that sees everything (the table view); a seat's side is its number as a string."""
FORMAT = 1
"""The document's version, for replay.js (bumped when the shape changes)."""

Path = list[str | int]
Patch = list[list[Any]]
"""[[path, value], ...] sets a value; [[path], ...] removes a key (see view_patch)."""


def replay_document(record: GameRecord, *, only_seat: int | None = None) -> dict[str, Any]:
    """The replay of ``record`` from every side (the table and each seat), or, with
    ``only_seat``, from that seat alone, without anything it was not sent.

    Raises arena.replay.ReplayError if the record does not replay on this arena.
    """
    describe = describer(record)
    seats: list[int | None] = [None, *range(record.players)] if only_seat is None else [only_seat]
    faulted_at = _fault_steps(record)
    steps: list[dict[str, Any]] = []
    sides = [_side(seat) for seat in seats]
    views: dict[str, dict[str, Any]] = {side: {"first": None, "patches": []} for side in sides}
    events: dict[str, list[list[int]]] = {side: [] for side in sides}
    patches, values, texts = Pool(), Pool(), Pool()
    last: dict[str, Any] = {}
    for number, (state, step) in enumerate(_replay(record)):
        told = {seat: seat_events(step, seat) for seat in seats}
        if only_seat is not None and number > 0 and not _concerns(step, only_seat, told):
            continue  # the seat was neither asked nor told anything: it never saw this step
        steps.append(_step_json(number, step, faulted_at, record, only_seat))
        for seat, side in zip(seats, sides):
            view = state.table_view() if seat is None else state.view(seat)
            if side in last:
                patch = _pooled_values(view_patch(last[side], view), values)
                views[side]["patches"].append(patches.add(patch))
            else:
                views[side]["first"] = view
            last[side] = view
            events[side].append([texts.add(visible(describe(body))) for body in told[seat]])
    return {
        "format": FORMAT,
        "game": _game_json(record),
        "seats": [_seat_json(s, only_seat, faulted_at.get(s.seat)) for s in record.seats],
        "sides": sides,
        "only_seat": only_seat,
        "steps": steps,
        "views": views,
        "events": events,
        "patches": patches.items,
        "values": values.items,
        "texts": texts.items,
    }


class Pool:
    """Distinct JSON values, each stored once and named by its index: most changes and
    events are the same for every side, and a card's definition enters many views."""

    def __init__(self) -> None:
        self.items: list[Any] = []
        self._index: dict[bytes, int] = {}

    def add(self, value: Any) -> int:
        key = orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
        if key not in self._index:
            self._index[key] = len(self.items)
            self.items.append(value)
        return self._index[key]


POOLED_CHARS = 40
"""A value set by a patch is pooled (stored once, referred to by index) from this size up."""


def _pooled_values(patch: Patch, values: Pool) -> Patch:
    """The patch with each large value set replaced by [path, None, index into values]."""
    return [
        [change[0], None, values.add(change[1])]
        if len(change) == 2 and _large(change[1])
        else change
        for change in patch
    ]


def _large(value: Any) -> bool:
    """True if ``value``'s JSON has POOLED_CHARS characters or more. Most values set are
    numbers, true, false or null: measured without encoding them (a number's JSON is its
    repr, NaN and the infinities aside, which are short)."""
    if value is None or isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return len(repr(value)) >= POOLED_CHARS
    return len(json.dumps(value)) >= POOLED_CHARS


def document_json(document: dict[str, Any]) -> str:
    """The document as compact JSON (no spaces: it is embedded in the page)."""
    return json.dumps(document, separators=(",", ":"), ensure_ascii=False)


def view_patch(old: Any, new: Any) -> Patch:
    """The changes that turn view ``old`` into ``new``: [path, value] replaces the value at
    path (keys and list indexes from the root; [] is the whole view), [path] removes a key.
    Lists of the same length are compared item by item, others are replaced whole."""
    patch: Patch = []
    _diff(old, new, [], patch)
    return patch


def side_views(document: dict[str, Any], side: str) -> list[Any]:
    """Every view of ``side``, step by step, rebuilt from the document as replay.js does:
    tests use it to prove the patches rebuild each view exactly."""
    view = document["views"][side]["first"]
    rebuilt = [view]
    for patch_id in document["views"][side]["patches"]:
        view = json.loads(json.dumps(view))  # a fresh copy: each step keeps its own
        for change in document["patches"][patch_id]:
            value = document["values"][change[2]] if len(change) == 3 else change[-1]
            path = change[0]
            if not path:
                view = json.loads(json.dumps(value))
                continue
            parent = view
            for key in path[:-1]:
                parent = parent[key]
            if len(change) == 1:
                del parent[path[-1]]
            else:
                parent[path[-1]] = json.loads(json.dumps(value))
        rebuilt.append(view)
    return rebuilt


def _diff(old: Any, new: Any, path: Path, patch: Patch) -> None:
    if old is new:  # a part the game kept from one view to the next (view_parts.py)
        return
    if old == new and type(old) is type(new):  # 1 == 1.0 == True in Python, not on the page
        return
    if isinstance(old, dict) and isinstance(new, dict):
        for key in old:
            if key not in new:
                patch.append([[*path, key]])
        for key, value in new.items():
            if key in old:
                _diff(old[key], value, [*path, key], patch)
            else:
                patch.append([[*path, key], value])
    elif isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for index, (before, after) in enumerate(zip(old, new)):
            _diff(before, after, [*path, index], patch)
    else:
        patch.append([path, new])


def _side(seat: int | None) -> str:
    return TABLE if seat is None else str(seat)


def _concerns(step: Step, seat: int, told: dict[int | None, list[dict[str, Any]]]) -> bool:
    return bool(told[seat]) or (step.decision is not None and step.decision.seat == seat)


def _fault_steps(record: GameRecord) -> dict[int, int]:
    """seat -> the step at which its fault shows: its first decision the referee played for
    it (a fault is found when the seat is asked, and that decision is the default)."""
    faulted = {s.seat for s in record.seats if s.fault != Fault.OK}
    found: dict[int, int] = {}
    for number, decision in enumerate(record.decisions, start=1):
        if decision.seat in faulted and decision.by_referee and decision.seat not in found:
            found[decision.seat] = number
    return found


def _step_json(
    number: int,
    step: Step,
    faulted_at: dict[int, int],
    record: GameRecord,
    only_seat: int | None,
) -> dict[str, Any]:
    decision = step.decision
    shown = decision is not None and (only_seat is None or decision.seat == only_seat)
    fault = None
    if decision is not None and faulted_at.get(decision.seat) == number and shown:
        fault = _fault_json(record.seats[decision.seat])
    return {
        "number": number,
        "decision": _decision_json(decision, step.kind) if shown and decision else None,
        "fault": fault,
    }


def _decision_json(decision: DecisionRecord, kind: str) -> dict[str, Any]:
    return {
        "seat": decision.seat,
        "kind": kind,
        "action": decision.action,
        "ms": decision.ms,
        "by_referee": decision.by_referee,
    }


def _fault_json(seat: SeatRecord) -> dict[str, Any]:
    return {"fault": str(seat.fault), "reason": visible(seat.fault_reason or "")}


def _game_json(record: GameRecord) -> dict[str, Any]:
    return {
        "id": record.game_id,
        "title": record.title,
        "seed": record.seed,
        "players": record.players,
        "variants": list(record.options.get("variants", [])),
        "status": str(record.status),
        "termination": visible(record.termination),
        "started_at": record.started_at,
    }


def _seat_json(seat: SeatRecord, only_seat: int | None, faulted_at: int | None) -> dict[str, Any]:
    mine = only_seat is None or seat.seat == only_seat
    return {
        # the referee stops a faulted seat's bot: from this decision on it was sent nothing
        # (its side still shows what it would have been told, as `arena show --seat` does)
        "faulted_at": faulted_at if mine else None,
        "seat": seat.seat,
        "bot": visible(seat.bot.label),
        "score": seat.score,
        "rank": seat.rank,
        "fault": str(seat.fault),
        # a fault's reason may quote the faulted bot's output: not for another seat's page
        "fault_reason": visible(seat.fault_reason or "") if mine else "",
        "time_ms": seat.time_ms if mine else None,
        "decisions": seat.decisions,
    }
