"""Bot manifests: a bot is a directory with a ``bot.toml`` naming it and its command."""

from __future__ import annotations

import hashlib
import os
import shlex
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

from arena.record import BotIdentity

MANIFEST = "bot.toml"
PYTHON_TOKEN = "{python}"
"""Replaced in a command by the interpreter running arena, so Python bots can use the SDK."""

_SKIPPED_IN_DIGEST = {"__pycache__", ".git", ".mypy_cache", ".pytest_cache", ".ruff_cache"}


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
    """The bot's directory: its working directory when it runs."""
    digest: str
    """A hash of the directory's files: a changed bot is a different bot."""
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
    if not isinstance(name, str) or not name.strip():
        raise ManifestError(f'{manifest}: "name" must be a non-empty string')
    version = data.get("version", "")
    if not isinstance(version, str):
        raise ManifestError(f'{manifest}: "version" must be a string, e.g. version = "1.0"')
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
    return BotManifest(
        name=name.strip(),
        version=version,
        command=resolved,
        directory=directory.resolve(),
        digest=directory_digest(directory),
        description=description if isinstance(description, str) else "",
    )


def directory_digest(directory: Path) -> str:
    """SHA-256 over every file's relative path and bytes, in sorted order (caches skipped)."""
    digest = hashlib.sha256()
    for root, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if d not in _SKIPPED_IN_DIGEST)
        for filename in sorted(files):
            if filename.endswith((".pyc", ".log")):
                continue
            full = Path(root, filename)
            digest.update(full.relative_to(directory).as_posix().encode() + b"\0")
            try:
                digest.update(full.read_bytes())
            except OSError:
                continue
            digest.update(b"\0")
    return digest.hexdigest()[:16]
