"""Game options: parsing and canonical form."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from arena.games.base import BadOptions


class Variant(StrEnum):
    """Variants accepted in options["variants"]."""

    FREE_REPLACEMENT = "free-replacement"
    """After a replacement, the newcomer may take any free section, not only the vacated one."""


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
    return {"variants": sorted(set(raw))}


def parse_variants(options: dict[str, Any]) -> frozenset[Variant]:
    """The variants of (possibly not yet normalized) options."""
    return frozenset(Variant(name) for name in normalize_options(options)["variants"])
