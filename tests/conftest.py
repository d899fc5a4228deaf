"""Shared fixtures: fake bots as real bot directories, run as real subprocesses."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FAKEBOT = Path(__file__).resolve().parent / "fakebots" / "fakebot.py"


@pytest.fixture
def make_bot(tmp_path: Path):
    """make_bot(mode, at=1) -> a bot directory running tests/fakebots/fakebot.py MODE AT."""

    def make(mode: str, at: int = 1, name: str | None = None) -> Path:
        directory = tmp_path / f"bot-{name or mode}-{at}"
        directory.mkdir(exist_ok=True)
        # a copy inside the bot's directory: a sandboxed bot sees nothing outside it
        shutil.copy(FAKEBOT, directory / "fakebot.py")
        (directory / "bot.toml").write_text(
            f'name = "{name or "fake-" + mode}"\nversion = "0"\n'
            f'command = ["{{python}}", "fakebot.py", "{mode}", "{at}"]\n'
        )
        return directory

    return make


@pytest.fixture
def bundled_bot():
    """The path of a bot shipped in bots/."""
    return lambda name: ROOT / "bots" / name


@pytest.fixture
def python() -> str:
    return sys.executable
