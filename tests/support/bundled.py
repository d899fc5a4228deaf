"""The bundled bots' own code, loaded in-process (their folders are not packages)."""

from __future__ import annotations

import importlib.util
from types import ModuleType

from tests.support.paths import ROOT


def load_greedy() -> ModuleType:
    """bots/corruption-greedy/bot.py as a module, to play its decide function in-process."""
    path = ROOT / "bots" / "corruption-greedy" / "bot.py"
    spec = importlib.util.spec_from_file_location("corruption_greedy", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
