"""Legal-action descriptions: what a seat may answer to a request.

Every request carries one description, so a bot never has to know a game's rules to
answer legally. Four kinds, nestable (stdlib only, shared by the referee and the SDK):

- ``{"kind": "choice", "options": [a, b, ...]}`` -- answer exactly one of the options
  (any JSON values; compared by value).
- ``{"kind": "range", "min": m, "max": n, "step": s}`` -- an integer m <= x <= n with
  (x - m) divisible by s.
- ``{"kind": "text", "max_length": n}`` -- a string of at most n characters.
- ``{"kind": "record", "fields": {name: description, ...}, "optional": [name, ...]}`` --
  a JSON object with exactly those keys (the optional ones may be left out), each
  answered by its own description.
"""

from __future__ import annotations

import heapq
import random
import reprlib
from typing import Any

KINDS = ("choice", "range", "text", "record")


def choice(options: list[Any]) -> dict[str, Any]:
    """One of an enumerated list of actions (the list must not be empty)."""
    if not options:
        raise ValueError("a choice needs at least one option")
    return {"kind": "choice", "options": options}


def int_range(minimum: int, maximum: int, step: int = 1) -> dict[str, Any]:
    """An integer from minimum to maximum in steps of step."""
    if maximum < minimum or step < 1:
        raise ValueError(f"empty range {minimum}..{maximum} step {step}")
    return {"kind": "range", "min": minimum, "max": maximum, "step": step}


def text(max_length: int) -> dict[str, Any]:
    """A free-text string of at most max_length characters."""
    return {"kind": "text", "max_length": max_length}


def record(fields: dict[str, dict[str, Any]], optional: list[str] | None = None) -> dict[str, Any]:
    """A JSON object whose fields are each answered by their own description."""
    return {"kind": "record", "fields": fields, "optional": list(optional or [])}


def why_illegal(desc: dict[str, Any], action: Any) -> str | None:
    """None when action is legal under desc, else a sentence a bot author can act on."""
    kind = desc["kind"]
    if kind == "choice":
        if find_option(desc["options"], action) >= 0:
            return None
        return f"{_short(action)} is not one of the {len(desc['options'])} legal options"
    if kind == "range":
        if isinstance(action, bool) or not isinstance(action, int):
            return f"{_short(action)} is not an integer (the legal range is {_range_text(desc)})"
        if not desc["min"] <= action <= desc["max"] or (action - desc["min"]) % desc["step"]:
            return f"{_short(action)} is outside the legal range {_range_text(desc)}"
        return None
    if kind == "text":
        if not isinstance(action, str):
            return f"{_short(action)} is not a string"
        if len(action) > desc["max_length"]:
            return f"the text has {len(action)} characters, more than {desc['max_length']}"
        return None
    if kind == "record":
        if not isinstance(action, dict):
            return f"{_short(action)} is not a JSON object with fields {sorted(desc['fields'])}"
        unknown = set(action) - set(desc["fields"])
        if unknown:
            # keys of any type may come from in-process callers: sort by repr, show a few
            shown = _short(heapq.nsmallest(8, unknown, key=repr))
            return f"unknown field(s) {shown}; the fields are {sorted(desc['fields'])}"
        for name, sub in desc["fields"].items():
            if name not in action:
                if name in desc.get("optional", ()):
                    continue
                return f"field {name!r} is missing"
            reason = why_illegal(sub, action[name])
            if reason:
                return f"field {name!r}: {reason}"
        return None
    raise ValueError(f"unknown legal-action kind {kind!r}")


def find_option(options: list[Any], action: Any) -> int:
    """The index of the option equal to action as a JSON value, or -1.

    Python's == says True == 1; JSON does not, so a candidate found by the fast == scan is
    confirmed by a type-aware comparison (and the slow scan runs only if that fails).
    """
    try:
        index = options.index(action)
    except ValueError:
        return -1
    if json_equal(options[index], action):
        return index
    for index, option in enumerate(options):
        if option == action and json_equal(option, action):
            return index
    return -1


def json_equal(a: Any, b: Any) -> bool:
    """Equality of JSON values: booleans are not numbers; 1 and 1.0 are the same number."""
    if a is b:  # the common case once an answer has been canonicalised: the option itself
        return True
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, dict):
        return (
            isinstance(b, dict) and a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
        )
    if isinstance(a, list):
        return (
            isinstance(b, list) and len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b))
        )
    return a == b


def canonical(desc: dict[str, Any], action: Any) -> Any:
    """A legal action in the description's own form: for a choice, the option itself, so a
    look-alike (3.0 for 3) never reaches a game or a record. Only for legal actions."""
    kind = desc["kind"]
    if kind == "choice":
        return desc["options"][find_option(desc["options"], action)]
    if kind == "record":
        return {k: canonical(sub, action[k]) for k, sub in desc["fields"].items() if k in action}
    return action


def is_legal(desc: dict[str, Any], action: Any) -> bool:
    """True when action is one of the actions desc allows."""
    return why_illegal(desc, action) is None


def default_action(desc: dict[str, Any]) -> Any:
    """The action the referee plays for a seat that cannot: the first option, the minimum,
    the empty text; for a record, the default of every required field."""
    kind = desc["kind"]
    if kind == "choice":
        return desc["options"][0]
    if kind == "range":
        return desc["min"]
    if kind == "text":
        return ""
    if kind == "record":
        optional = set(desc.get("optional", ()))
        return {k: default_action(v) for k, v in desc["fields"].items() if k not in optional}
    raise ValueError(f"unknown legal-action kind {kind!r}")


def random_action(desc: dict[str, Any], rng: random.Random) -> Any:
    """A uniformly drawn legal action (for a record, each field drawn independently)."""
    kind = desc["kind"]
    if kind == "choice":
        return rng.choice(desc["options"])
    if kind == "range":
        steps = (desc["max"] - desc["min"]) // desc["step"]
        return desc["min"] + desc["step"] * rng.randint(0, steps)
    if kind == "text":
        return ""
    if kind == "record":
        return {k: random_action(v, rng) for k, v in desc["fields"].items()}
    raise ValueError(f"unknown legal-action kind {kind!r}")


def _range_text(desc: dict[str, Any]) -> str:
    step = f" in steps of {desc['step']}" if desc["step"] != 1 else ""
    return f"{desc['min']}..{desc['max']}{step}"


_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxstring, _REPR.maxother = 4, 60, 60
_REPR.maxlist = _REPR.maxdict = 8


def _short(value: Any, limit: int = 80) -> str:
    """A bot's answer quoted in a reason: bounded work and length whatever its size (a
    megabyte list, a 5,000-digit integer, which repr() refuses to convert)."""
    try:
        text_ = _REPR.repr(value)
    except ValueError:  # an integer beyond the int-to-str digit limit
        text_ = f"<an integer of {value.bit_length()} bits>"
    return text_ if len(text_) <= limit else text_[: limit - 3] + "..."
