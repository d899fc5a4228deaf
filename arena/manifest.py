"""Bot manifests: a bot is a directory with a ``bot.toml`` naming it and its command."""

from __future__ import annotations

import shlex
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

from arena.containment.snapshot import SnapshotError, snapshot
from arena.record import BotIdentity
from protocol import names

MANIFEST = "bot.toml"
PYTHON_TOKEN = "{python}"
"""Replaced in a command by the interpreter running arena, so Python bots can use the SDK."""


class ManifestError(ValueError):
    """A bot directory that cannot be used; the message says what to fix."""


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
            f'  name = "mybot"\n  version = "1.0"\n  command = ["{PYTHON_TOKEN}", "bot.py"]'
        )
    try:
        data = tomllib.loads(manifest.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ManifestError(f"{manifest} is not valid TOML: {exc}") from None
    name = data.get("name")
    problem = names.check_bot_name(name)
    if problem is not None:
        raise ManifestError(f'{manifest}: "name": {problem}, e.g. name = "mybot"')
    version = data.get("version", "")
    problem = names.check_bot_version(version)
    if problem is not None:
        raise ManifestError(f'{manifest}: "version": {problem}, e.g. version = "1.0"')
    command = data.get("command")
    if isinstance(command, str):
        command = shlex.split(command)
    if (
        not isinstance(command, list)
        or not command
        or not all(isinstance(part, str) and part for part in command)
    ):
        raise ManifestError(
            f'{manifest}: "command" must be a non-empty list of strings, '
            f'e.g. command = ["{PYTHON_TOKEN}", "bot.py"]'
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
