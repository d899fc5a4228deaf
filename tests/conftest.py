"""Shared fixtures: fake bots as real bot directories, run as real subprocesses."""

from __future__ import annotations

import shutil
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import settings

import arena.bundled
from tests.support import processes
from tests.support.paths import FAKEBOT

# --cpu-durations N: the tests that cost the most CPU time (tests/support/cpu_durations.py);
# the longest files run first, so that no worker is left alone with one at the end
pytest_plugins = [
    "tests.support.cpu_durations",
    "tests.support.heaviest_first",
    "tests.support.cli_command_once",
]

# Hypothesis's per-example deadline is wall-clock time, which a loaded machine stretches: it
# made property tests fail by load alone. Each property test still has its example budget.
settings.register_profile("arena", deadline=None)
# `make test-quick` passes --hypothesis-profile arena-quick: a fifth of the examples, for each
# property test (tests/support/examples.py scales the budgets tests set themselves), so that
# the quick run tries every property on fewer inputs; `make test` and CI keep the whole budget.
settings.register_profile("arena-quick", settings.get_profile("arena"), max_examples=20)
settings.load_profile("arena")


def pytest_configure(config: pytest.Config) -> None:
    """Ctrl-C reaches the commands the tests start, however the suite itself was started.

    A shell without job control (a script, `make test &` in one) starts a background job
    with SIGINT ignored, and an ignored signal stays ignored in every process started from
    it, as Unix wants of background jobs. The tests that Ctrl-C a league run then saw it play
    on to the end and exit 0 (its SIGINT showed as ignored, SigIgn bit 0x2). Python's own
    handler here, as when pytest is started from a terminal: a handler is reset to the
    default in the processes a test starts, so they stop on SIGINT as from a terminal."""
    if (
        signal.getsignal(signal.SIGINT) == signal.SIG_IGN
        and threading.current_thread() is threading.main_thread()
    ):
        signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(autouse=True)
def own_snapshot_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test snapshots bots into its own folder (not ~/.cache), so the processes of its
    bots can be told from everyone else's by that path (see bot_processes)."""
    cache = tmp_path / "arena-cache"
    monkeypatch.setenv("ARENA_CACHE", str(cache))
    return cache


@pytest.fixture
def bot_processes() -> Iterator[Callable[[Path], list[str]]]:
    """bot_processes(root) -> the command lines of this test's live bot processes under root
    (tests.support.processes); orphans are adopted for the test so none escapes the count."""
    with processes.adopting_orphans():
        yield processes.bot_processes


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
