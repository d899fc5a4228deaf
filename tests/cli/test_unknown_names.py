"""One rule for names a command looks up: an unknown game title, bot name or game id is a
usage mistake (exit 2) in one line that names what it could be, whichever command it is."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli.app import app
from arena.store import open_store

ROOT = Path(__file__).resolve().parents[2]
RANDOM = str(ROOT / "bots" / "random")


@pytest.fixture
def run(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    runner = CliRunner()
    return lambda *args: runner.invoke(app, list(args), catch_exceptions=False)


@pytest.fixture
def empty_db(tmp_path: Path) -> str:
    db = tmp_path / "arena.db"
    open_store(db, create=True).close()
    return str(db)


@pytest.fixture
def league_file(tmp_path: Path) -> str:
    path = tmp_path / "league.toml"
    path.write_text(
        'name = "typo"\ngame = "corruptoin"\nformat = "round-robin"\n'
        f'bots = [{{path = "{RANDOM}", copies = 3}}]\ntable_size = 3\ngames = 3\n'
    )
    return str(path)


@pytest.mark.parametrize(
    "command",
    [
        ["play", "corruptoin", "--bot", RANDOM, "--bot", RANDOM, "--bot", RANDOM],
        ["ratings", "corruptoin"],
        ["games", "--game", "corruptoin"],
        ["check", RANDOM, "--game", "corruptoin"],
        ["regress", "--game", "corruptoin", "--candidate", RANDOM, "--baseline", RANDOM,
         "--field", RANDOM],
        ["league", "run", "LEAGUE"],
        ["league", "standings", "LEAGUE"],
    ],
    ids=lambda c: " ".join(c[:2]) if c[0] == "league" else c[0],
)  # fmt: skip
def test_an_unknown_title_is_a_usage_error_with_a_hint_in_every_command(
    run, command, empty_db, league_file
):
    args = [league_file if a == "LEAGUE" else a for a in command]
    result = run(*args, *(["--db", empty_db] if command[0] not in ("check", "regress") else []))
    assert result.exit_code == 2, result.output
    assert "corruptoin" in result.output and "corruption" in result.output
    assert "did you mean" in result.output
    assert len(result.output.strip().splitlines()) == 1, result.output


def test_a_known_title_with_no_games_yet_is_empty_not_an_error(run, empty_db):
    result = run("ratings", "intrigue", "--db", empty_db)
    assert result.exit_code == 0, result.output
    assert "No intrigue games recorded" in result.output
    listing = run("games", "--game", "intrigue", "--db", empty_db)
    assert listing.exit_code == 0 and "No recorded game matches" in listing.output


def test_a_bot_name_or_game_id_that_matches_nothing_is_a_usage_error(run, empty_db):
    bot = run("games", "--bot", "nobody", "--db", empty_db)
    assert bot.exit_code == 2 and "no bot 'nobody'" in bot.output, bot.output
    game = run("show", "abc123", "--db", empty_db)
    assert game.exit_code == 2 and "no game 'abc123'" in game.output, game.output
