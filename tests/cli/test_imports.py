"""Every command-line module imports on its own, in a fresh interpreter: an import cycle (such as
arena.cli reaching up into leagues, which imports arena.cli) cannot hide behind the order in
which the rest of the test suite happened to import things."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

CLI_MODULES = [
    "arena.cli",
    "arena.cli.common",
    "arena.cli.check",
    "arena.cli.play",
    "arena.cli.results",
    "arena.cli.show",
    "arena.cli.replay_html",
    "arena.cli.rerun",
    "arena.cli.usage",
    "arena.cli.web",
    "arena.cli.app",
    "leagues.cli",
    "leagues.regress_cli",
]


def test_every_cli_module_is_listed() -> None:
    found = {f"arena.cli.{p.stem}" for p in (ROOT / "arena" / "cli").glob("*.py")}
    found = {"arena.cli" if name == "arena.cli.__init__" else name for name in found}
    assert found <= set(CLI_MODULES), f"add to CLI_MODULES: {sorted(found - set(CLI_MODULES))}"


@pytest.mark.parametrize("module", CLI_MODULES)
def test_imports_alone(module: str) -> None:
    result = subprocess.run(
        [sys.executable, "-c", f"import {module}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr


def test_python_dash_m_arena_lists_every_command() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "arena", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={"COLUMNS": "200", "NO_COLOR": "1", "PATH": "/usr/bin:/bin"},
    )
    assert result.returncode == 0, result.stderr
    for command in ("play", "ratings", "games", "show", "check", "league", "regress"):
        assert f" {command} " in result.stdout, f"{command} missing from:\n{result.stdout}"


# What the command line leaves to the commands that use it: `arena --help`, and commands without
# a database such as `arena check`, start without paying for them (a tenth of a second each, for
# sqlite-utils; together more than half of the CLI's import time).
LEFT_TO_THE_COMMANDS = [
    "sqlite_utils",  # arena.store, leagues.store: the commands that open a database
    "jinja2",  # replay pages and the web report
    "http.server",  # arena serve
    "webbrowser",  # --open
    "multiprocess",  # league and regress worker pools
    "arena.lineup",  # bot processes: play, check, rerun, regress, league run
    "leagues.runner",
]


def test_the_command_line_imports_no_command_s_machinery() -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, arena.cli.app; "
            f"print(' '.join(m for m in {LEFT_TO_THE_COMMANDS!r} if m in sys.modules))",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [], "import these inside the commands that use them"
