"""Hypothesis strategies for the protocol tests: JSON values, legal descriptions, illegal
answers."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from protocol import legal

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**9), max_value=10**9)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
)
json_values = st.recursive(
    json_scalars,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=12,
)
json_objects = st.dictionaries(st.text(max_size=8), json_values, max_size=5)

field_names = st.text(min_size=1, max_size=6)

choices = st.lists(json_values, min_size=1, max_size=6).map(legal.choice)
ranges = st.builds(
    lambda low, width, step: legal.int_range(low, low + width, step),
    st.integers(min_value=-1000, max_value=1000),
    st.integers(min_value=0, max_value=2000),
    st.integers(min_value=1, max_value=50),
)
texts = st.integers(min_value=0, max_value=40).map(legal.text)


def _record(fields: dict[str, dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
    if not fields:
        return st.just(legal.record({}))
    optional = st.lists(st.sampled_from(sorted(fields)), unique=True)
    return optional.map(lambda names: legal.record(fields, names))


legal_descriptions = st.recursive(
    choices | ranges | texts,
    lambda children: st.dictionaries(field_names, children, max_size=4).flatmap(_record),
    max_leaves=10,
)
"""Any legal-action description legal.py can build, records nested."""

non_integers = (
    st.none()
    | st.booleans()
    | st.floats(allow_nan=False)
    | st.text(max_size=4)
    | st.lists(st.integers(), max_size=2)
)


def illegal_actions(desc: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Answers that are not legal under desc (by the wire's rules, SPEC.md §6)."""
    kind = desc["kind"]
    if kind == "choice":
        # Python's `in` is looser than JSON equality (True == 1): what it rejects is illegal
        # under either; test_protocol_legal covers true-versus-1 explicitly.
        return json_values.filter(lambda value: value not in desc["options"])
    if kind == "range":
        low, high, step = desc["min"], desc["max"], desc["step"]
        outside = st.integers(max_value=low - 1) | st.integers(min_value=high + 1)
        strategies: list[st.SearchStrategy[Any]] = [outside, non_integers]
        if step > 1:
            strategies.append(
                st.integers(min_value=low, max_value=high).filter(lambda x: (x - low) % step)
            )
        return st.one_of(strategies)
    if kind == "text":
        too_long = st.text(min_size=desc["max_length"] + 1, max_size=desc["max_length"] + 5)
        return too_long | json_values.filter(lambda value: not isinstance(value, str))
    if kind == "record":
        fields = desc["fields"]
        required = [name for name in fields if name not in desc.get("optional", ())]
        base = legal.default_action(desc)
        strategies = [
            json_values.filter(lambda value: not isinstance(value, dict)),
            field_names.filter(lambda name: name not in fields).map(lambda name: {**base, name: 0}),
        ]
        if required:
            strategies.append(
                st.sampled_from(required).map(
                    lambda name: {k: v for k, v in base.items() if k != name}
                )
            )
            strategies.append(
                st.sampled_from(required).flatmap(
                    lambda name: illegal_actions(fields[name]).map(lambda bad: {**base, name: bad})
                )
            )
        return st.one_of(strategies)
    raise ValueError(kind)
