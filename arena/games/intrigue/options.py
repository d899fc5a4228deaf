"""Game options: parsing and canonical form."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from arena.games import talk


class Variant(StrEnum):
    """Variants accepted in options["variants"]."""

    FREE_REPLACEMENT = "free-replacement"
    """After a replacement, the newcomer may take any free section, not only the vacated one."""


KNOWN_VARIANTS: tuple[str, ...] = tuple(sorted(v.value for v in Variant))
"""Variant names accepted in options["variants"], sorted."""


def normalize_options(options: dict[str, Any] | None) -> dict[str, Any]:
    """``{"variants": [...]}`` with the names sorted and unique, and the talking seats the
    referee set (``"talk"``, SPEC.md §14); raises BadOptions naming the fix."""
    return talk.normalize_options(options, KNOWN_VARIANTS)


def parse_variants(options: dict[str, Any]) -> frozenset[Variant]:
    """The variants of (possibly not yet normalized) options."""
    return frozenset(Variant(name) for name in normalize_options(options)["variants"])
