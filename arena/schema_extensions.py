"""The modules outside arena.store that keep tables in arena's database (leagues.store).

The composition root (arena.cli.app) names them here and arena.store.migrations imports them
before it lists or applies a migration, so every command that opens a database knows every
migration. Naming them rather than importing them keeps SQLite out of the commands that never
open a database (`arena --help`, `arena check`): sqlite-utils alone takes a tenth of a second.
"""

from __future__ import annotations

MODULES: list[str] = []
"""Importable names of the modules whose import registers their migrations."""


def add(module: str) -> None:
    """Have ``module`` imported before any database is prepared (once, however often named)."""
    if module not in MODULES:
        MODULES.append(module)
