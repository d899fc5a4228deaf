"""A digest of installed packages' files: it tells two installs of arena apart when their
version numbers agree (a checkout between releases, an edited install), for what must run the
same code everywhere (a cluster's workers) or may keep what the same code made (a report's
replay pages)."""

from __future__ import annotations

import functools
import hashlib
import importlib
from pathlib import Path


def code_digest(*packages: str) -> str:
    """16 hex digits digesting every file of the named packages (caches excluded)."""
    return _digest(tuple(packages))


@functools.cache
def _digest(packages: tuple[str, ...]) -> str:
    digest = hashlib.blake2b(digest_size=8)
    for name in packages:
        root = Path(importlib.import_module(name).__path__[0])
        digest.update(name.encode())
        for path in sorted(root.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(path.relative_to(root).as_posix().encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()
