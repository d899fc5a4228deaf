"""Game options: parsing and canonical form."""

from __future__ import annotations

from typing import Any

from arena.games.base import BadOptions
from arena.games.corruption.cards import SCHEDULE_VARIANTS, Variant

KNOWN_VARIANTS: tuple[str, ...] = tuple(sorted(v.value for v in Variant))
"""Variant names accepted in options["variants"], sorted."""


def normalize_options(options: dict[str, Any] | None) -> dict[str, Any]:
    """``{"variants": [...]}`` with the names sorted and unique; raises BadOptions naming the fix."""
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise BadOptions(f'options must be a JSON object like {{"variants": []}}, not {options!r}')
    unknown_keys = sorted(set(options) - {"variants"})
    if unknown_keys:
        raise BadOptions(f"unknown option(s) {unknown_keys}; the only option is 'variants'")
    raw = options.get("variants", [])
    if not isinstance(raw, (list, tuple)) or not all(isinstance(name, str) for name in raw):
        raise BadOptions(f"'variants' must be a list of names from {list(KNOWN_VARIANTS)}")
    unknown = sorted(set(raw) - set(KNOWN_VARIANTS))
    if unknown:
        raise BadOptions(f"unknown variant(s) {unknown}; known variants: {list(KNOWN_VARIANTS)}")
    names = sorted(set(raw))
    exclusive = sorted(set(names) & {v.value for v in SCHEDULE_VARIANTS})
    if len(exclusive) > 1:
        raise BadOptions(
            f"variants {exclusive} cannot be combined: down-the-river, stud-libre and closed each "
            "set which cards are face up, so pick at most one (little-black-book combines with any)"
        )
    return {"variants": names}


def parse_variants(options: dict[str, Any]) -> frozenset[Variant]:
    """The variants of already-normalized options."""
    return frozenset(Variant(name) for name in normalize_options(options)["variants"])
