"""What the command-line tests share."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from arena.cli.app import app


@pytest.fixture
def run(monkeypatch):
    """Invoke arena's command line in-process: ``run("show", GAME_ID, "--db", DB)``. Plain
    output (NO_COLOR) 200 columns wide; exceptions are not caught, so a traceback fails the
    test. A test module may define its own ``run`` (another width) instead."""
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setenv("NO_COLOR", "1")
    runner = CliRunner()
    return lambda *args: runner.invoke(app, list(args), catch_exceptions=False)
