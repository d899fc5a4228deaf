"""What every TOML file a user writes for arena shares (league files, bot.toml, cards.toml):
one error type naming the file and line, one did-you-mean helper, unknown keys refused, and
where a key is written in the text (tomllib does not say).

Why not a declarative library (msgspec, pydantic)? Their errors name a path such as
``$.time.decison_ms``, not a line, and suggest nothing; every message users see here says
the file, the line and the fix, so the checks stay hand-written, on these shared pieces.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.suggest import closest


class ConfigFileError(ValueError):
    """A file a user wrote that cannot be used; the message names the file, the line when
    there is one, and the fix. ``str()`` is ``"FILE line N: PROBLEM"`` (or ``"FILE: PROBLEM"``,
    or just the problem when no file is named)."""

    def __init__(self, problem: str, file: str | None = None, line: int | None = None) -> None:
        self.file = file
        """The file as it was given, or None when the problem is not in a file."""
        self.line = line
        """The 1-based line of the mistake, or None when it is not on one line."""
        self.problem = problem
        """What is wrong and what to do, without the file and line."""
        where = file if line is None or file is None else f"{file} line {line}"
        super().__init__(problem if where is None else f"{where}: {problem}")


def unknown_key(
    key: str, known: Iterable[str], where: str = "", *, at_top: bool | None = None
) -> str:
    """The problem for a key that is not allowed: ``unknown key [time] "bank"; did you mean
    "bank_ms"?``, else the list of allowed keys. ``where``: the table, e.g. ``"[time] "``;
    ``at_top``: whether the key is at the file's top level (default: when ``where`` is empty)."""
    known = list(known)
    close = closest(key, known)
    top = not where if at_top is None else at_top
    fix = (
        f'did you mean "{close}"?'
        if close
        else f"the keys allowed {'at the top' if top else 'here'} are: " + ", ".join(known)
    )
    return f'unknown key {where}"{key}"; {fix}'


@dataclass(frozen=True)
class TomlFile:
    """A TOML file read and parsed, with where its keys are written."""

    path: Path
    data: dict[str, Any]
    lines: KeyLines


def read_toml(path: Path, error: type[ConfigFileError], hint: str) -> TomlFile:
    """Read and parse ``path``; raises ``error`` (a ConfigFileError) naming the file and, for
    bad syntax, the line and column, followed by ``hint`` (how to write it right)."""
    file = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise error("no such file; check the path", file) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise error(f"cannot be read ({exc}); it must be UTF-8 TOML text", file) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        found = re.search(r"\s*\(at line (\d+), column (\d+)\)\s*$", message)
        line = int(found.group(1)) if found else getattr(exc, "lineno", None)
        if found:
            message = f"{message[: found.start()]} (column {found.group(2)})"
        raise error(
            f"not valid TOML: {message[:1].lower()}{message[1:]}; {hint}", file, line
        ) from None
    return TomlFile(path, data, KeyLines(text))


# -- where keys are written ----------------------------------------------------------------

_BARE = r"[A-Za-z0-9_-]+"
_QUOTED = r"\"[^\"]*\"|'[^']*'"
_DOTTED = rf"(?:{_BARE}|{_QUOTED})(?:\s*\.\s*(?:{_BARE}|{_QUOTED}))*"
_HEADER = re.compile(rf"^\s*\[\[?\s*({_DOTTED})\s*\]\]?\s*(?:#.*)?$")
_KEY = re.compile(rf"^\s*({_DOTTED})\s*=")
_STRING = re.compile(r"\"(?:\\.|[^\"\\])*\"|'[^']*'")


class KeyLines:
    """Where each key is written, found by scanning the text (tomllib does not say).

    Only lines outside multi-line arrays count, so a list of paths cannot be mistaken for keys.
    """

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.where: dict[tuple[str, ...], int] = {}
        table: tuple[str, ...] = ()
        depth = 0
        for number, line in enumerate(self.lines, 1):
            code = _STRING.sub('""', line).split("#", 1)[0]
            if depth == 0:
                header = _HEADER.match(line)
                key = _KEY.match(line)
                if header:
                    table = _split_dotted(header.group(1))
                    self.where.setdefault(table, number)
                elif key:
                    self.where.setdefault(table + _split_dotted(key.group(1)), number)
            depth = max(
                0, depth + sum(code.count(c) for c in "[{") - sum(code.count(c) for c in "]}")
            )

    def of(self, *key: str) -> int | None:
        """The line of a key, else of the nearest enclosing table, else None."""
        for end in range(len(key), 0, -1):
            if key[:end] in self.where:
                return self.where[key[:end]]
        return None

    def element(self, key: str, written: str, occurrence: int = 0) -> int | None:
        """The line of a path in a list (its n-th occurrence), else the list's line.

        Searched from the list's first line on, so entries of a multi-line list and
        [[bots]] tables further down are both found.
        """
        start = self.of(key)
        if start is None:
            return None
        quoted = (f'"{written}"', f"'{written}'")
        seen = 0
        for number in range(start, len(self.lines) + 1):
            if any(q in self.lines[number - 1] for q in quoted):
                if seen == occurrence:
                    return number
                seen += 1
        return start


def _split_dotted(key: str) -> tuple[str, ...]:
    return tuple(part.strip().strip("\"'") for part in re.findall(rf"{_BARE}|{_QUOTED}", key))


# -- values in messages --------------------------------------------------------------------


def toml_kind(value: Any) -> str:
    """What kind of TOML value this is, for messages: "a string", "a list", ..."""
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    return "a date or time"


def toml_repr(value: Any) -> str:
    """A value written the way TOML writes it, for messages."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(toml_repr(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {toml_repr(v)}" for k, v in value.items()) + "}"
    return str(value)
