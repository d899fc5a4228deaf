"""Shared fixtures: fake bots as real bot directories, run as real subprocesses."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

import arena.bundled

ROOT = Path(__file__).resolve().parent.parent
FAKEBOT = Path(__file__).resolve().parent / "fakebots" / "fakebot.py"


@pytest.fixture(autouse=True)
def own_snapshot_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test snapshots bots into its own folder (not ~/.cache), so the processes of its
    bots can be told from everyone else's by that path (see bot_processes)."""
    cache = tmp_path / "arena-cache"
    monkeypatch.setenv("ARENA_CACHE", str(cache))
    return cache


def bot_processes(root: Path) -> list[str]:
    """Running processes of bots whose folder or snapshot lies under ``root``: an unsandboxed
    bot by its working directory; a sandboxed one by its launcher's or bubblewrap's command
    line (which names the snapshot) or, for the bot itself, by the snapshot mounted in its
    mount namespace (its working directory there is /bot, which says nothing)."""
    found = []
    marker = str(root)
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            cwd = os.readlink(f"/proc/{pid}/cwd")
            mounts = Path(f"/proc/{pid}/mountinfo").read_text()
        except OSError:
            continue
        # mountinfo's 4th field is the mounted folder's path within its file system
        sources = (line.split(" ", 4)[3] for line in mounts.splitlines())
        tail = marker.split("/", 2)[-1]  # without a leading /tmp that may be its own mount
        if cwd.startswith(marker) or marker in cmdline or any(tail in source for source in sources):
            found.append(cmdline)
    return found


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
    return arena.bundled.bundled_bot


@pytest.fixture
def python() -> str:
    return sys.executable
