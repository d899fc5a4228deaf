"""typer's CliRunner invokes a click command built once per process and app, not once per call.

``typer.testing.CliRunner.invoke(app, ...)`` turns the Typer app into its click command
(``typer.main.get_command``) on every call: for arena's app that cost ~56 ms of CPU, 210 times
in `make test-quick` (12 s of the profiled 394 s). The command is a pure function of the app's
registered commands (the callbacks are the functions registered at import, so a test that
monkeypatches a module still sees its patch either way), and click keeps no state on it between
``main`` calls, so one build per app serves every invoke. Everything else ``invoke`` does (the
isolated streams, the exit code, the exceptions) is typer's own, unchanged.
tests/cli/test_cli_command_once.py checks that the kept command is the one typer builds.
"""

from __future__ import annotations

import functools
from typing import Any

import pytest
import typer.main
import typer.testing


@functools.cache
def built_once(app: typer.Typer) -> Any:
    """The click command of ``app``, built the first time it is asked for."""
    return typer.main.get_command(app)


def pytest_configure(config: pytest.Config) -> None:
    # typer.testing looks the name up at each invoke; if a typer release renamed it, assigning
    # would go unnoticed, so insist it is there (the suite then fails loudly, not slowly)
    assert typer.testing._get_command is typer.main.get_command, "typer.testing changed"
    typer.testing._get_command = built_once


def pytest_unconfigure(config: pytest.Config) -> None:
    typer.testing._get_command = typer.main.get_command
