"""The bots bundled with arena, and the one place a bot written on a command line or in a league
file becomes a directory.

The bundled bots live in the top-level bots/ folder, installed with arena as the `bots`
package, so a bundled name works from any folder and from an installed wheel, not only from
the checkout."""

from __future__ import annotations

from pathlib import Path

import bots
from arena.manifest import MANIFEST, ManifestError

BUNDLED_DIR = Path(bots.__file__).resolve().parent
"""Where the bundled bots are: bots/ in a checkout, site-packages/bots once installed."""
BUNDLED_PREFIX = "bots"
"""`bots/random` names the bundled random bot too, as the README's examples write it."""


def bundled_names() -> list[str]:
    """The bundled bots' names (their folder names), sorted."""
    return sorted(p.name for p in BUNDLED_DIR.iterdir() if (p / MANIFEST).is_file())


def bundled_bot(name: str) -> Path:
    """The folder of the bundled bot ``name``; ManifestError if there is none."""
    if name not in bundled_names():
        raise ManifestError(f"no bundled bot {name!r}; bundled bots: {', '.join(bundled_names())}")
    return BUNDLED_DIR / name


def locate_bot(written: str | Path, base: Path | None = None) -> Path:
    """The bot directory meant by ``written``: the path itself (relative to ``base``, default
    the current folder) when it exists, since a real path always wins; else the bundled bot
    written as ``NAME`` or ``bots/NAME``. Raises ManifestError, naming the bundled bots, when
    it is neither."""
    path = Path(written).expanduser()
    if base is not None:
        path = base / path
    if path.exists():
        return path
    parts = Path(written).parts
    if len(parts) == 2 and parts[0] == BUNDLED_PREFIX:
        parts = parts[1:]
    if len(parts) == 1 and parts[0] in bundled_names():
        return BUNDLED_DIR / parts[0]
    raise ManifestError(
        f"no bot at {path}: the directory does not exist, and no bundled bot is called that "
        f"(bundled: {', '.join(bundled_names())})"
    )
