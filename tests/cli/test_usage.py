"""The command line reads as one tool: every usage mistake is one `error:` line with exit 2,
help names values plainly, shared options say the same everywhere, Ctrl-C exits 130."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
RANDOM = str(ROOT / "bots" / "random")
LEAGUE = str(ROOT / "leagues" / "examples" / "corruption-round-robin.toml")
REGRESS = ["regress", "--game", "corruption", "--candidate", RANDOM, "--baseline", RANDOM]
COMMANDS = ["play", "ratings", "games", "show", "rerun", "check", "regress", "league run",
            "league standings"]  # fmt: skip


@pytest.fixture
def run(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.delenv("COLUMNS", raising=False)
    runner = CliRunner()
    return lambda *args: runner.invoke(app, list(args), catch_exceptions=False)


@pytest.mark.parametrize(
    "args,words",
    [
        (["play", "corruption", "--bot", RANDOM, "--games", "0"], "--games"),
        (["play", "corruption", "--bot", RANDOM, "--gmes", "3"], "--gmes"),
        (["play"], "Missing argument 'GAME'"),
        (["play", "corruption", "--bot"], "--bot"),
        (["ratings", "corruption", "extra"], "unexpected extra argument"),
        (["games", "--limit", "many"], "--limit"),
        (["show"], "Missing argument 'GAME_ID'"),
        (["rerun"], "Missing argument 'GAME_ID'"),
        (["show", "abc", "--seat", "x"], "--seat"),
        (["check", RANDOM, "--decision-ms", "-5"], "--decision-ms"),
        (["check"], "Missing argument 'BOT'"),
        ([*REGRESS], "Missing option '--field'"),
        ([*REGRESS, "--field", RANDOM, "--games", "2"], "--games"),
        (["league", "run"], "Missing argument 'FILE'"),
        (["league", "run", LEAGUE, "--workers", "0"], "--workers"),
        (["league", "standings", LEAGUE, "--bogus"], "--bogus"),
        (["nosuch"], "No such command 'nosuch'"),
        (["play", "corruption", "--bot", RANDOM, "--fault-policy", "maybe"], "--fault-policy"),
    ],
)
def test_every_usage_mistake_is_one_error_line_and_exit_2(run, args, words):
    result = run(*args)
    assert result.exit_code == 2, result.output
    (line,) = result.output.strip().splitlines()
    assert line.startswith("error: ") and words in line, line
    assert "--help" in line, "it says where to read more"


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_help_names_values_plainly(run, command):
    result = run(*command.split(), "--help")
    assert result.exit_code == 0, result.output
    for typer_type in re.findall(r"<[a-z][^>]*>|\{[A-Z_]+\}|\[\[", result.output):
        pytest.fail(f"{typer_type!r} in `arena {command} --help`:\n{result.output}")
    assert "╭" not in result.output, "plain help, no boxes"


def option_help(output: str, option: str) -> str:
    """The help text of one option, on one line."""
    match = re.search(rf"^  (?:-\w, )?{option}(?: [A-Z]+)?\s+(.*?)(?=^  -)", output, re.M | re.S)
    assert match, output
    return " ".join(match.group(1).split())


@pytest.mark.parametrize("option", ["--decision-ms", "--bank-ms", "--game-ms", "--unsandboxed"])
def test_shared_options_say_the_same_in_every_command(run, option):
    helps = {
        command: option_help(run(*command.split(), "--help").output, option)
        for command in ("play", "check", "regress")
    }
    assert len(set(helps.values())) == 1, helps


def test_ctrl_c_exits_130_in_regress_too(run, monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("leagues.regress.run_regress", interrupted)  # imported when regress runs
    result = run(*REGRESS, "--field", RANDOM, "--field", RANDOM, "--games", "16")
    assert result.exit_code == 130, result.output
    assert "interrupted" in result.output
