"""Did-you-mean hints for a name the user typed that matches nothing known: one rule for the
command line and the config files (league files, bot.toml, cards.toml)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def closest(word: str, known: Iterable[str]) -> str | None:
    """The known name closest to a mistyped ``word``, if one is close enough to suggest."""
    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    return close[0] if close else None


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """`did you mean 'x'? ` for the closest known name, or "" when none is close."""
    close = closest(name, known)
    return f"did you mean {close!r}? " if close else ""
