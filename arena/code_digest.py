"""A digest of installed packages' code: it tells two installs of arena apart when their version
numbers agree (a checkout between releases, an edited install), for what must run the same code
everywhere (a cluster's workers) or may keep what the same code made (a report's replay pages).

Only what a wheel installs is digested: the modules, and the data files pyproject.toml's
package-data lists (SHIPPED_DATA, held to it by a test). A checkout holds more (notes, untracked
files, an editor's backups), and a head run from a checkout must still recognise workers
installed from a wheel of the same commit.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
from pathlib import Path

SHIPPED_DATA: dict[str, tuple[str, ...]] = {
    "protocol": ("schemas/*.json", "SPEC.md", "transcripts/*.jsonl", "games/*.md"),
    "arena.games.corruption": ("RULES.md",),
    "arena.games.intrigue": ("RULES.md",),
    "arena.games.paranoia": ("cards.toml", "CARDS.md", "RULES.md"),
    "leagues": ("examples/*.toml",),
    "arena.web": ("templates/*.html", "static/*.*", "static/vendor/*"),
}
"""The data files of arena's packages that a wheel holds: pyproject.toml's package-data, by
package and glob (the bundled bots are not code the digest covers)."""


def code_digest(*packages: str) -> str:
    """16 hex digits digesting the shipped files of the named packages."""
    return _digest(tuple(packages))


def shipped_files(package: str) -> list[tuple[str, Path]]:
    """(path relative to the package, path) of every file of ``package`` a wheel installs:
    its modules (caches aside) and its data files, sorted."""
    root = Path(importlib.import_module(package).__path__[0])
    found = {p for p in root.rglob("*.py") if _shipped(p.relative_to(root))}
    for name, patterns in SHIPPED_DATA.items():
        if name == package or name.startswith(package + "."):
            base = root.joinpath(*name.split(".")[len(package.split(".")) :])
            found.update(p for pattern in patterns for p in base.glob(pattern))
    return sorted(
        (p.relative_to(root).as_posix(), p)
        for p in found
        if p.is_file() and _shipped(p.relative_to(root))
    )


def _shipped(relative: Path) -> bool:
    """Not a cache nor a hidden file (an editor's lock or swap file, e.g. Emacs' .#name.py,
    a dangling link while the file is edited): a build leaves both out."""
    return "__pycache__" not in relative.parts and not any(
        part.startswith(".") for part in relative.parts
    )


@functools.cache
def _digest(packages: tuple[str, ...]) -> str:
    digest = hashlib.blake2b(digest_size=8)
    for name in packages:
        for relative, path in shipped_files(name):
            # each part framed by its length: no two different sets of files hash alike
            for part in (name.encode(), relative.encode(), path.read_bytes()):
                digest.update(len(part).to_bytes(8, "big"))
                digest.update(part)
    return digest.hexdigest()
