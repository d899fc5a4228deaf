"""The one rule for bot names and versions, wherever a bot states them (its hello, bot.toml).

A name and a version end up in tables, log file names, command lines (``--bot NAME``), the
database and CI reports, and a bot chooses them: so both are short plain ASCII words that need
no quoting or escaping anywhere. A name is 1 to 40 characters from ASCII letters, digits and
``. _ + -``, beginning with a letter or a digit (so it is never taken for a command-line flag or
a hidden file); a version is 0 to 32 characters from the same set (``""`` is no version).

Each check returns what is wrong, in words for the bot's author, or None when the text is fine;
the caller wraps the problem in its own error (a handshake fault, a manifest error).
"""

from __future__ import annotations

import re

NAME_MAX = 40
VERSION_MAX = 32
CHARSET = "ASCII letters, digits and . _ + -"
"""The allowed characters, in words (for messages)."""

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+\-]*")
_VERSION = re.compile(r"[A-Za-z0-9._+\-]*")
_ALLOWED = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-")


def check_bot_name(text: object) -> str | None:
    """None when text is a valid bot name, else what is wrong with it."""
    if not isinstance(text, str):
        return f"the name must be a string, not {type(text).__name__}"
    if not text:
        return f"the name is empty; use 1 to {NAME_MAX} characters: {CHARSET}"
    if len(text) > NAME_MAX:
        return f"the name has {len(text)} characters, more than {NAME_MAX}"
    if not _NAME.fullmatch(text):
        bad = _first_bad(text)
        if bad is None:
            return f"the name must begin with a letter or a digit, not {text[0]!r}"
        return f"the name contains {bad}; use only {CHARSET}"
    return None


def check_bot_version(text: object) -> str | None:
    """None when text is a valid bot version ("" included), else what is wrong with it."""
    if not isinstance(text, str):
        return f"the version must be a string, not {type(text).__name__}"
    if len(text) > VERSION_MAX:
        return f"the version has {len(text)} characters, more than {VERSION_MAX}"
    if not _VERSION.fullmatch(text):
        return f"the version contains {_first_bad(text)}; use only {CHARSET}"
    return None


def _first_bad(text: str) -> str | None:
    """The first character outside the set, described safely (its code point, and the
    character itself only when it is printable ASCII, so the message is safe to print)."""
    for index, char in enumerate(text):
        if char not in _ALLOWED:
            shown = f"{char!r} " if " " <= char <= "~" else ""
            return f"the character {shown}U+{ord(char):04X} at position {index + 1}"
    return None
