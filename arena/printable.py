"""Text a bot chose, made safe to print: every command, report and live display uses this.

A bot chooses its name and version, the lines its stderr ends with, the garbage quoted in a
fault's reason, the promises it makes in Intrigue; old databases hold names from before names
were checked (protocol/names.py). Printed raw, such text can rewrite the terminal (ANSI escape
sequences), forge lines (CR, LF: a fake "1st FAKE-WINNER"), reorder what a reader sees (bidi
overrides), or, through rich, be read as markup (``[red]``, ``[/]``: a stray closing tag
crashes the command, on every run for as long as the database holds it).

- :func:`visible` replaces every control, format and separator character (and any lone
  surrogate) with a visible escape, like Python's repr: ESC becomes ``\\x1b``, a newline
  ``\\n``, a right-to-left override ``\\u202e``. For plain output: files, CSV, XML, JSON.
- :func:`shown` is visible() with rich markup escaped too, for text inside a markup string
  given to ``console.print``.
- :func:`cell` is a rich Text of visible(), never parsed as markup or emoji: for Table cells,
  column headers and titles (a str there is parsed as markup).
"""

from __future__ import annotations

import re

from rich.markup import escape
from rich.text import Text

_UNSAFE = re.compile(
    "[\x00-\x1f\x7f-\x9f"  # Cc: C0 and C1 controls
    "\u2028\u2029"  # Zl, Zp
    "\ud800-\udfff"  # Cs: surrogates
    # Cf: format characters, the joiners U+200C/U+200D included (invisible)
    "\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f"
    "\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd"
    "\U00013430-\U00013438\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001"
    "\U000e0020-\U000e007f"
    "\ufffe\uffff]"  # noncharacters XML 1.0 cannot hold
)
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(found: re.Match[str]) -> str:
    char = found.group()
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def visible(text: object, *, keep_newlines: bool = False) -> str:
    """text with every control, format or separator character as a visible escape.

    keep_newlines: leave "\\n" as a line break (for messages arena itself writes on several
    lines; never for a bot's text)."""
    text = str(text)
    if text.isprintable():  # fast path: nothing to replace (isprintable is False for all)
        return text
    if keep_newlines:
        return "\n".join(_UNSAFE.sub(_escape, line) for line in text.split("\n"))
    return _UNSAFE.sub(_escape, text)


def shown(text: object, *, keep_newlines: bool = False) -> str:
    """visible(text) with rich markup escaped: safe inside a string console.print parses."""
    return escape(visible(text, keep_newlines=keep_newlines))


def cell(text: object) -> Text:
    """visible(text) as a rich Text: a table cell, header or title that is never markup."""
    return Text(visible(text))
