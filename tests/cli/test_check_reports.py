"""`arena check` reports what the bot's own code did wrong, and leaves no folder behind."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli.app import app

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def run(monkeypatch, tmp_path):
    monkeypatch.setenv("NO_COLOR", "1")
    # check's temporary folders go here, where the test can see what is left
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    runner = CliRunner()
    return lambda *args: runner.invoke(app, list(args), catch_exceptions=False)


def sdk_bot(folder: Path, code: str) -> Path:
    folder.mkdir()
    (folder / "bot.toml").write_text(
        'name = "mybot"\nversion = "1.0"\ncommand = ["{python}", "bot.py"]\n'
    )
    (folder / "bot.py").write_text(code)
    return folder


def readme_example() -> str:
    """The SDK example of README.md, as written there."""
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## Writing a bot") :]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


@pytest.mark.parametrize("game", ["corruption", "intrigue", "paranoia"])
def test_the_readme_sdk_example_passes_a_check_in_every_game(run, tmp_path, game):
    bot = sdk_bot(tmp_path / "mybot", readme_example())
    result = run("check", str(bot), "--game", game, "--games", "3", "--seed", "2")
    assert result.exit_code == 0, result.output
    assert "PASS" in result.output


def test_an_exception_in_decide_fails_the_check_and_names_it(run, tmp_path):
    """The SDK answers a default action when decide raises, so the referee sees nothing
    wrong; check reads the bot's log and fails it (this was the README's old example)."""
    code = readme_example().replace(
        'if legal["kind"] == "choice":\n        return legal["options"][0]\n'
        "    return random_action(legal, ctx.rng)",
        'return legal["options"][0]',
    )
    assert 'return legal["options"][0]\n\n' in code
    bot = sdk_bot(tmp_path / "mybot", code)
    result = run("check", str(bot), "--game", "intrigue", "--games", "2", "--seed", "2")
    assert result.exit_code == 1, result.output
    assert "decide raised" in result.output and "KeyError: 'options'" in result.output
    assert "FAIL" in result.output


def test_check_removes_its_temporary_logs_after_a_pass_an_error_and_ctrl_c(
    run, tmp_path, make_bot, monkeypatch
):
    left = tmp_path / "tmp"
    passed = run("check", str(ROOT / "bots" / "random"), "--games", "1", "--seed", "1")
    assert passed.exit_code == 0, passed.output
    assert list(left.iterdir()) == []
    broken = run("check", str(make_bot("version")))
    assert broken.exit_code == 1 and "did not start" in broken.output, broken.output
    assert list(left.iterdir()) == []

    def interrupted(*args, log_dir: Path, **kwargs):
        (log_dir / "between-games").mkdir()  # as a bot's log would be
        raise KeyboardInterrupt

    monkeypatch.setattr("arena.check.run_check", interrupted)  # imported when check runs
    stopped = run("check", str(ROOT / "bots" / "random"))
    assert stopped.exit_code == 130, stopped.output
    assert list(left.iterdir()) == []
