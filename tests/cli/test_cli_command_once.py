"""The click command the suite keeps for every CliRunner.invoke (tests/support/cli_command_once.py)
is the one typer would build afresh, stays so once used, and invoking it gives typer's result."""

from __future__ import annotations

from typing import Any

import typer.main
import typer.testing
from typer.testing import CliRunner

from arena.cli.app import app
from tests.support.cli_command_once import built_once

MISTAKE = ["games", "nosuchgame", "--db", "/nonexistent/x.db"]
# memos click and typer fill in on first use, each from what the command already holds (the
# --help option; a parameter's value converter, from its type descriptor)
MEMOS = {"_help_option", "_runtime_param"}


def described(value: Any) -> Any:
    """A command as plain data: every attribute of it and of its subcommands, parameters and
    types, down to names, defaults and help texts; functions by their qualified names (typer
    wraps each callback afresh in every build); memos left out."""
    if isinstance(value, dict):
        return {key: described(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [described(item) for item in value]
    if callable(value) and hasattr(value, "__qualname__"):
        return f"{value.__module__}.{value.__qualname__}"
    if hasattr(value, "__dict__") and not isinstance(value, type):
        kept = {key: item for key, item in vars(value).items() if key not in MEMOS}
        return {"class": type(value).__qualname__, **described(kept)}
    return repr(value)


def test_the_kept_command_is_what_typer_builds_afresh_even_once_used():
    runner = CliRunner()
    for args in (["--help"], ["play", "--help"], ["league", "--help"], MISTAKE):
        runner.invoke(app, args)
    assert "'play'" in str(described(built_once(app)))  # the description does see into it
    assert described(built_once(app)) == described(typer.main.get_command(app))


def test_invoke_uses_the_kept_command_and_gives_typers_own_result():
    assert typer.testing._get_command is built_once
    kept = CliRunner().invoke(app, MISTAKE)
    typer.testing._get_command = typer.main.get_command
    try:
        fresh = CliRunner().invoke(app, MISTAKE)
    finally:
        typer.testing._get_command = built_once
    assert kept.exit_code != 0
    shown = lambda result: (result.exit_code, result.stdout, result.stderr)  # noqa: E731
    assert shown(kept) == shown(fresh)
