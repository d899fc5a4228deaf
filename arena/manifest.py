"""Bot manifests: a bot is a directory with a ``bot.toml`` naming it and its command."""

from __future__ import annotations

import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

from arena.configfile import ConfigFileError, read_toml, unknown_key
from arena.containment.snapshot import SnapshotError, snapshot
from arena.record import BotIdentity
from protocol import names

MANIFEST = "bot.toml"
PYTHON_TOKEN = "{python}"
"""Replaced in a command by the interpreter running arena, so Python bots can use the SDK."""
KEYS = ("name", "version", "command", "description")
"""Every key bot.toml may have: anything else (a typo such as comand) is an error."""
EXAMPLE = f'name = "mybot"\n  version = "1.0"\n  command = ["{PYTHON_TOKEN}", "bot.py"]'


class ManifestError(ConfigFileError):
    """A bot directory that cannot be used; the message says what to fix (and, for a
    mistake in bot.toml, on which line)."""


@dataclass(frozen=True)
class BotManifest:
    """A bot as its manifest describes it."""

    name: str
    """Its name (from bot.toml)."""
    version: str
    """Its version (from bot.toml)."""
    command: tuple[str, ...]
    """argv to start it, with {python} already resolved."""
    directory: Path
    """The bot's directory as given (shown to people; never run)."""
    digest: str
    """A hash of the directory's files: a changed bot is a different bot."""
    snapshot: Path
    """The read-only copy of the directory taken when it was loaded: what runs."""
    description: str = ""

    @property
    def identity(self) -> BotIdentity:
        return BotIdentity(self.name, self.version, self.digest, str(self.directory))


def load_bot(path: str | Path) -> BotManifest:
    """Read and check ``path/bot.toml``."""
    directory = Path(path).expanduser()
    if not directory.exists():
        raise ManifestError(f"no bot at {directory}: the directory does not exist")
    if not directory.is_dir():
        raise ManifestError(f"{directory} is a file; a bot is a directory containing {MANIFEST}")
    manifest = directory / MANIFEST
    if not manifest.is_file():
        raise ManifestError(
            f"{directory} has no {MANIFEST}; add one with name, version and command, e.g.\n"
            f"  {EXAMPLE}"
        )
    parsed = read_toml(manifest, ManifestError, f"write it like\n  {EXAMPLE}")
    data = parsed.data

    def fail(problem: str, key: str) -> ManifestError:
        return ManifestError(problem, str(manifest), parsed.lines.of(key))

    for key in data:
        if key not in KEYS:
            raise fail(unknown_key(key, KEYS), key)
    name = data.get("name")
    problem = names.check_bot_name(name)
    if problem is not None:
        raise fail(f'"name": {problem}, e.g. name = "mybot"', "name")
    version = data.get("version", "")
    problem = names.check_bot_version(version)
    if problem is not None:
        raise fail(f'"version": {problem}, e.g. version = "1.0"', "version")
    command = data.get("command")
    if isinstance(command, str):
        command = shlex.split(command)
    if (
        not isinstance(command, list)
        or not command
        or not all(isinstance(part, str) and part for part in command)
    ):
        raise fail(
            f'"command" must be a non-empty list of strings, '
            f'e.g. command = ["{PYTHON_TOKEN}", "bot.py"]',
            "command",
        )
    description = data.get("description", "")
    resolved = tuple(sys.executable if part == PYTHON_TOKEN else part for part in command)
    try:
        digest, copy = snapshot(directory.resolve())
    except SnapshotError as exc:
        raise ManifestError(f"{directory}: {exc}") from None
    return BotManifest(
        name=str(name),  # checked above: a valid name is a str
        version=str(version),
        command=resolved,
        directory=directory.resolve(),
        digest=digest,
        snapshot=copy,
        description=description if isinstance(description, str) else "",
    )
