"""A bot.toml whose command cannot be run is a `start` fault with a hint (SPEC §8), found
before launch, not a `crash` quoting the sandbox's exec error."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli.app import app


def bot(folder: Path, command: str, files: dict[str, int]) -> Path:
    folder.mkdir()
    (folder / "bot.toml").write_text(f'name = "b"\nversion = "1"\ncommand = {command}\n')
    for name, mode in files.items():
        (folder / name).write_text("#!/bin/sh\nexit 0\n")
        (folder / name).chmod(mode)
    return folder


@pytest.mark.parametrize(
    "command,files,words",
    [
        ('["./bot.sh"]', {}, ["'./bot.sh' does not exist", "fix `command` in bot.toml"]),
        ('["./bot.sh"]', {"bot.sh": 0o644}, ["'./bot.sh' is not executable", "chmod +x"]),
        ('["no-such-program-here", "bot.py"]', {}, ["not found on the bot's PATH"]),
        ('["/no/such/interpreter", "bot.py"]', {}, ["'/no/such/interpreter' does not exist"]),
    ],
    ids=["missing", "not-executable", "not-on-path", "absolute-missing"],
)
def test_a_command_that_cannot_run_is_a_start_fault_with_a_hint(
    tmp_path, monkeypatch, command, files, words
):
    monkeypatch.setenv("NO_COLOR", "1")
    directory = bot(tmp_path / "bot", command, files)
    result = CliRunner().invoke(
        app, ["check", str(directory), "--logs", str(tmp_path / "logs")], catch_exceptions=False
    )
    assert result.exit_code == 1, result.output
    flat = " ".join(result.output.split())
    assert "did not start: start:" in flat, flat
    assert "crash" not in flat and "bwrap" not in flat
    for word in words:
        assert word in flat, flat
