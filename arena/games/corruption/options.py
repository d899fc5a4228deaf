"""Game options: parsing and canonical form."""

from __future__ import annotations

from typing import Any

from arena.games.base import BadOptions, normalize_variants
from arena.games.corruption.cards import SCHEDULE_VARIANTS, Variant

KNOWN_VARIANTS: tuple[str, ...] = tuple(sorted(v.value for v in Variant))
"""Variant names accepted in options["variants"], sorted."""


def normalize_options(options: dict[str, Any] | None) -> dict[str, Any]:
    """``{"variants": [...]}`` with the names sorted and unique; raises BadOptions naming the fix."""
    names = normalize_variants(options, KNOWN_VARIANTS)
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
