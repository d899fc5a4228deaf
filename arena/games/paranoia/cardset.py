"""The PARANOIA card set as typed values: the clearance table, missions and action cards.

The data lives in ``cards.toml`` next to this module; the effect vocabulary it may use is
documented in ``CARDS.md``. Provenance (as in RULES.md and CARDS.md, kept next to the
data on purpose): the clearance supply and RED's max treason are sourced; the names and partial
effects of eleven action cards and three missions are known; everything else, including every
card count, is **designed** for this project. ``load_cardset`` checks all of it and raises
``CardSetError`` naming the card and the field at fault.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from arena.configfile import read_toml, unknown_key
from arena.games.paranoia.vocabulary import (
    BOX_BUDGET,
    CLEARANCES,
    DISCARD_CHOICES,
    KNOWN_ACTION_NAMES,
    KNOWN_MISSION_NAMES,
    PARAMS,
    RESULT_OPS,
    SECRET_ROLES,
    SOURCED_MAX_TREASON,
    SOURCED_SUPPLY,
    TAGS,
    TARGETED_KINDS,
    ActionCard,
    CardSet,
    CardSetError,
    Check,
    Clearance,
    ClearanceProvenance,
    Condition,
    Effect,
    Mission,
    MissionCounter,
    Op,
    Provenance,
    Section,
    SectionKind,
    Target,
    When,
)

DEFAULT_PATH = Path(__file__).with_name("cards.toml")
"""The shipped card set."""


def _norm(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


KNOWN = {_norm(n) for n in KNOWN_ACTION_NAMES + KNOWN_MISSION_NAMES}


def _bad(where: str, field: str, why: str) -> CardSetError:
    return CardSetError(f"{where}: field {field!r}: {why}")


def _enum(cls: Any, raw: Any, where: str, field: str) -> Any:
    if raw not in {m.value for m in cls}:
        raise _bad(where, field, f"{raw!r} is not one of {', '.join(m.value for m in cls)}")
    return cls(raw)


def _int(raw: Any, where: str, field: str, minimum: int = 1) -> int:
    if not isinstance(raw, int) or isinstance(raw, bool) or raw < minimum:
        raise _bad(where, field, f"expected an integer >= {minimum}, got {raw!r}")
    return raw


def _table(raw: Any, where: str, field: str, keys: frozenset[str]) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise _bad(where, field, f"expected a table, got {raw!r}")
    if unknown := sorted(set(raw) - keys):
        raise _bad(
            where, field, unknown_key(unknown[0], sorted(keys), at_top=field == "(top level)")
        )
    return raw


def _effect(raw: Any, where: str, field: str, kind: SectionKind | None) -> Effect:
    """One effect; ``kind`` is its section's kind, or None in a mission result."""
    op = _enum(Op, raw.get("op") if isinstance(raw, dict) else None, where, f"{field}.op")
    required, optional = PARAMS[op]
    raw = _table(raw, where, f"{field} ({op})", required | optional | {"op"})
    if missing := required - set(raw):
        raise _bad(where, field, f"op {op} needs {sorted(missing)}")
    values: dict[str, Any] = {"op": op}
    for key, cls in (("target", Target), ("counter", MissionCounter), ("when", When)):
        if key in raw:
            values[key] = _enum(cls, raw[key], where, f"{field}.{key}")
    if "amount" in raw:
        signed = op is Op.MISSION_COUNTER
        values["amount"] = _int(raw["amount"], where, f"{field}.amount", -99 if signed else 1)
        if values["amount"] == 0:
            raise _bad(where, f"{field}.amount", "must not be 0")
    if raw.get("choice", "random") not in DISCARD_CHOICES:
        raise _bad(where, f"{field}.choice", f"must be one of {DISCARD_CHOICES}")
    values["choice"] = raw.get("choice")
    if not isinstance(values.setdefault("optional", raw.get("optional", False)), bool):
        raise _bad(where, f"{field}.optional", "must be true or false")
    cancels = raw.get("cancels", [])
    if not isinstance(cancels, list) or (op is Op.CANCEL and not cancels):
        raise _bad(where, f"{field}.cancels", "must be a non-empty list of selectors")
    effect = Effect(**values, cancels=tuple(cancels))
    if why := _misplaced(effect, kind):
        raise _bad(where, field, why)
    return effect


def _misplaced(effect: Effect, kind: SectionKind | None) -> str | None:
    """Why this effect cannot stand where it is, or None."""
    if kind is None:  # a mission result
        if effect.op not in RESULT_OPS:
            return f"op {effect.op} cannot be a mission result ({', '.join(sorted(RESULT_OPS))})"
        if effect.target is not Target.SELF or effect.when is not None:
            return "a mission result acts on target 'self' only, with no 'when'"
        return None
    targeted = kind in TARGETED_KINDS
    if effect.target is Target.TARGET and not targeted:
        return f"target 'target' does not exist in a {kind} section"
    if effect.target is Target.ANSWERED and kind is not SectionKind.ANYTIME:
        return "target 'answered' exists only in an anytime section"
    if (effect.op is Op.STEAL or effect.when is not None) and not targeted:
        return f"op {effect.op} (or 'when') needs a section with a target, not {kind}"
    if effect.op in (Op.CANCEL, Op.NEGATE_WOUNDS) and kind is not SectionKind.ANYTIME:
        return f"op {effect.op} answers a card, so it belongs in an anytime section"
    if effect.op in (Op.STAY_ON_TABLE, Op.GUARD) and kind is SectionKind.ANYTIME:
        return f"op {effect.op} cannot be in an anytime section"
    return None


def _section(raw: Any, where: str, field: str) -> Section:
    raw = _table(raw, where, field, frozenset({"kind", "effects"}))
    kind = _enum(SectionKind, raw.get("kind"), where, f"{field}.kind")
    effects = raw.get("effects")
    if not isinstance(effects, list) or not effects:
        raise _bad(where, f"{field}.effects", "expected a non-empty list")
    parsed = tuple(_effect(e, where, f"{field}.effects[{i}]", kind) for i, e in enumerate(effects))
    if {Op.GUARD, Op.STAY_ON_TABLE} & {e.op for e in parsed} == {Op.GUARD}:
        raise _bad(where, f"{field}.effects", "guard needs stay_on_table in the same section")
    return Section(kind, parsed)


_COMMON = frozenset({"id", "name", "count", "provenance", "note"})
_ACTION_KEYS = _COMMON | {"tags", "sections"}
_MISSION_KEYS = _COMMON | {"secret_role", "success_when", "success", "failure"}


def _common(raw: Any, table: str, index: int, seen: set[str]) -> tuple[str, dict[str, Any]]:
    """The card's label for errors and its id, name, count, provenance and note, checked."""
    where = f"{table}[{index}]"
    card_id = raw.get("id") if isinstance(raw, dict) else None
    if not isinstance(card_id, str) or not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", card_id):
        raise _bad(where, "id", f"expected a kebab-case id, got {card_id!r}")
    where = f"{table} {card_id!r}"
    raw = _table(raw, where, "(top level)", _ACTION_KEYS if table == "action" else _MISSION_KEYS)
    if card_id in seen:
        raise _bad(where, "id", "duplicate id")
    seen.add(card_id)
    for key in ("name", "note"):
        if not isinstance(raw.get(key), str) or not raw[key].strip() or "\n" in raw[key]:
            raise _bad(where, key, f"expected a one-line non-empty string, got {raw.get(key)!r}")
    values = {"id": card_id, "name": raw["name"], "note": raw["note"]}
    values["count"] = _int(raw.get("count"), where, "count")
    values["provenance"] = _enum(Provenance, raw.get("provenance"), where, "provenance")
    known = _norm(raw["name"]) in KNOWN
    if values["provenance"] is Provenance.DESIGNED and known:
        raise _bad(where, "name", f"{raw['name']!r} is published; a designed card needs its own")
    if values["provenance"] is not Provenance.DESIGNED and not known:
        raise _bad(where, "provenance", f"{raw['name']!r} is not a known published card")
    return where, values


def _action(raw: Any, index: int, seen: set[str]) -> ActionCard:
    where, values = _common(raw, "action", index, seen)
    tags = raw.get("tags", [])
    if not isinstance(tags, list) or any(t not in TAGS for t in tags):
        raise _bad(where, "tags", f"{tags!r}; known tags: {', '.join(TAGS)}")
    sections = raw.get("sections")
    if not isinstance(sections, list) or not sections:
        raise _bad(where, "sections", "expected a non-empty list")
    parsed = tuple(_section(s, where, f"sections[{i}]") for i, s in enumerate(sections))
    kinds = [s.kind for s in parsed]
    if SectionKind.MISSION not in kinds:
        raise _bad(where, "sections", "no mission section (every action card has one)")
    if len(set(kinds)) != len(kinds):
        raise _bad(where, "sections", "a section kind appears twice")
    plain = {SectionKind.TROUBLESHOOTER, SectionKind.ANOTHER} & set(kinds)
    if len(plain) > 1 or (plain and {SectionKind.HIGHER, SectionKind.EQUAL_OR_LOWER} & set(kinds)):
        raise _bad(where, "sections", "troubleshooter, another, higher/equal_or_lower exclude")
    return ActionCard(**values, tags=tuple(tags), sections=parsed)


def _condition(raw: Any, where: str, field: str, role: str | None) -> Condition:
    raw = _table(raw, where, field, frozenset({"test", "counter", "value"}))
    test = _enum(Check, raw.get("test"), where, f"{field}.test")
    bounded = test in (Check.MISSION_COUNTER_AT_LEAST, Check.MISSION_COUNTER_AT_MOST)
    if set(raw) != ({"test", "counter", "value"} if bounded else {"test"}):
        raise _bad(where, field, f"test {test} takes {'counter and value' if bounded else 'none'}")
    if test is Check.SECRET_OFFICER_ALIVE and role is None:
        raise _bad(where, field, f"test {test} needs a secret_role on the mission")
    if not bounded:
        return Condition(test)
    counter = _enum(MissionCounter, raw["counter"], where, f"{field}.counter")
    return Condition(test, counter, _int(raw["value"], where, f"{field}.value", 0))


def _mission(raw: Any, index: int, seen: set[str]) -> Mission:
    where, values = _common(raw, "mission", index, seen)
    role = raw.get("secret_role")
    if role is not None and role not in SECRET_ROLES:
        raise _bad(where, "secret_role", f"{role!r}; known: {', '.join(SECRET_ROLES)}")
    tests = raw.get("success_when")
    if not isinstance(tests, list) or not tests:
        raise _bad(where, "success_when", "expected a non-empty list of tests")
    conditions = tuple(
        _condition(t, where, f"success_when[{i}]", role) for i, t in enumerate(tests)
    )
    results: dict[str, tuple[Effect, ...] | None] = {"failure": None}
    for key in ("success", "failure"):
        if (key not in raw and key == "success") or not isinstance(raw.get(key, []), list):
            raise _bad(where, key, "expected a list of effects")
        if key in raw:
            results[key] = tuple(
                _effect(e, where, f"{key}[{i}]", None) for i, e in enumerate(raw[key])
            )
    if results["failure"] is None and any(c.test is not Check.ALIVE for c in conditions):
        raise _bad(where, "failure", "missing (everyone alive succeeds), so only 'alive' may test")
    success = results.get("success")
    assert success is not None  # checked above: success is required
    return Mission(
        **values,
        secret_role=role,
        success_when=conditions,
        success=success,
        failure=results["failure"],
    )


_FIELDS = ("supply", "hand_size", "max_wounds", "max_treason")
_SOURCED = {"supply": SOURCED_SUPPLY, "max_treason": SOURCED_MAX_TREASON}


def _clearances(raw: Any) -> tuple[Clearance, ...]:
    names = [r.get("name") if isinstance(r, dict) else r for r in raw or []]
    if not isinstance(raw, list) or names != list(CLEARANCES):
        raise _bad("clearance table", "name", f"expected {list(CLEARANCES)} in order, got {names}")
    rows: list[Clearance] = []
    for rank, row in enumerate(raw):
        where = f"clearance {row['name']}"
        _table(row, where, "(row)", frozenset({"name", "provenance", *_FIELDS}))
        prov = _table(row.get("provenance"), where, "provenance", frozenset(_FIELDS))
        prov = {f: _enum(Provenance, prov.get(f), where, f"provenance.{f}") for f in _FIELDS}
        values = {f: _int(row.get(f), where, f) for f in _FIELDS}
        for f in _FIELDS:
            truth = _SOURCED.get(f, {}).get(row["name"])
            if truth != (values[f] if prov[f] is Provenance.SOURCED else None):
                raise _bad(where, f, f"{values[f]} marked {prov[f]}; sourced value: {truth}")
            if rows and f != "supply" and values[f] < getattr(rows[-1], f):
                raise _bad(where, f, "must not fall below the clearance beneath")
        rows.append(Clearance(row["name"], rank, **values, provenance=ClearanceProvenance(**prov)))
    return tuple(rows)


def load_cardset(path: Path = DEFAULT_PATH) -> CardSet:
    """Parse and check a card set TOML file; raises CardSetError on any fault."""
    data = read_toml(Path(path), CardSetError, "fix the syntax (CARDS.md shows the format)").data
    _table(data, str(path), "(top level)", frozenset({"clearance", "mission", "action"}))
    seen: set[str] = set()
    clearances = _clearances(data.get("clearance"))
    missions = tuple(_mission(m, i, seen) for i, m in enumerate(data.get("mission", [])))
    actions = tuple(_action(a, i, seen) for i, a in enumerate(data.get("action", [])))
    selectors = {"any", "cancel", *TAGS, *(a.id for a in actions)}
    for card in actions:
        for effect in (e for s in card.sections for e in s.effects):
            if unknown := set(effect.cancels) - selectors:
                raise _bad(f"action {card.id!r}", "cancels", f"unknown selectors {unknown}")
    cards = CardSet(clearances, missions, actions)
    if not missions or not actions:
        raise CardSetError(f"{path}: totals: the mission and the action deck both need cards")
    if (total := cards.mission_count + cards.action_count) > BOX_BUDGET:
        raise CardSetError(f"{path}: totals: {total} cards exceed the box's {BOX_BUDGET}")
    return cards
