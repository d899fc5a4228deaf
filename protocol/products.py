"""Wire feature "choice-products" (SPEC.md §13): a choice's options written as products.

A ``choice`` may carry ``"products"``: a list of objects mapping each key to a non-empty list
of values. Its legal answers are then every combination of each product (one value per key:
``{"card": ["a", "b"], "contract": [7, 9]}`` stands for four objects) followed by the
``options`` listed, which may be empty. Expanded in that order (products in turn, the first key
varying slowest), the first answer is the default action, the same one the referee plays.

Only the wire changes: the referee keeps checking answers against the options it built, so
what is legal is exactly what it was. Stdlib only: the SDK expands with this module.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

MIN_GROUP = 4
"""Fewer options than this with the same keys are left listed: a product would not be shorter."""


def compact(desc: dict[str, Any]) -> dict[str, Any]:
    """The description with each choice's options written as products where they form them.

    Options that are objects with the same keys (in the same order), every value a string or
    an integer, form a product when they are exactly every combination of their values. The
    description is returned unchanged when its first option (the default action) would not
    be the first combination of the first product.
    """
    kind = desc.get("kind")
    if kind == "record":
        fields = {name: compact(sub) for name, sub in desc["fields"].items()}
        return {**desc, "fields": fields}
    if kind != "choice" or len(desc["options"]) < MIN_GROUP:
        return desc
    groups: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    listed: list[Any] = []
    for option in desc["options"]:  # a loop, not all(...): it runs for every option sent
        if type(option) is dict and option:
            for value in option.values():
                if type(value) is not str and type(value) is not int:
                    break
            else:
                keys = tuple(option)
                group = groups.get(keys)
                if group is None:
                    group = groups[keys] = []
                group.append(option)
                continue
        listed.append(option)
    products = []
    for keys, members in groups.items():
        product = _product(keys, members)
        if product is None:
            listed.extend(members)
        else:
            products.append(product)
    first = desc["options"][0]
    if not products or type(first) is not dict or tuple(first) not in groups:
        return desc
    if list(products[0].keys()) != list(first) or any(
        products[0][key][0] != value for key, value in first.items()
    ):
        return desc  # the first option's group is not a product: the default would move
    return {**desc, "options": listed, "products": products}


def _product(keys: tuple[str, ...], members: list[dict[str, Any]]) -> dict[str, list[Any]] | None:
    """{key: values} when members are exactly every combination of their values, else None."""
    if len(members) < MIN_GROUP:
        return None
    values = {key: list(dict.fromkeys([m[key] for m in members])) for key in keys}
    if math.prod(len(v) for v in values.values()) != len(members):
        return None
    if len({tuple(m.values()) for m in members}) != len(members):
        return None  # a repeated option: the count matched by accident
    return values


def expand(desc: dict[str, Any]) -> dict[str, Any]:
    """The description with every product written out as options (the plain v1 form)."""
    kind = desc.get("kind")
    if kind == "record":
        return {**desc, "fields": {name: expand(sub) for name, sub in desc["fields"].items()}}
    if kind != "choice" or "products" not in desc:
        return desc
    options = [
        dict(zip(product, combination))
        for product in desc["products"]
        for combination in itertools.product(*product.values())
    ]
    plain = {key: value for key, value in desc.items() if key != "products"}
    plain["options"] = options + list(desc.get("options", []))
    return plain
