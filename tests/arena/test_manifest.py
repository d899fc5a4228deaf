"""bot.toml mistakes: named with their file and line, unknown keys refused with a suggestion."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.manifest import ManifestError, load_bot


def bot(tmp_path: Path, manifest: str) -> Path:
    folder = tmp_path / "bot"  # beside the snapshot cache, not holding it
    folder.mkdir()
    (folder / "bot.toml").write_text(manifest)
    (folder / "bot.py").write_text("")
    return folder


def error(folder: Path) -> ManifestError:
    with pytest.raises(ManifestError) as info:
        load_bot(folder)
    return info.value


def test_a_mistyped_key_is_refused_with_its_line_and_the_right_name(tmp_path: Path) -> None:
    folder = bot(tmp_path, 'name = "b"\nversion = "1"\ncomand = ["{python}", "bot.py"]\n')
    raised = error(folder)
    assert raised.line == 3
    assert str(raised) == (
        f'{folder / "bot.toml"} line 3: unknown key "comand"; did you mean "command"?'
    )


def test_a_key_like_no_other_lists_the_allowed_ones(tmp_path: Path) -> None:
    folder = bot(tmp_path, 'name = "b"\ncommand = ["x"]\n[sandbox]\nnet = true\n')
    raised = error(folder)
    assert raised.line == 3
    assert "the keys allowed at the top are: name, version, command, description" in str(raised)


def test_a_bad_value_names_its_line(tmp_path: Path) -> None:
    raised = error(bot(tmp_path, 'name = "b"\nversion = "1"\ncommand = []\n'))
    assert raised.line == 3 and '"command" must be a non-empty list of strings' in str(raised)


def test_bad_syntax_names_line_and_column_and_shows_the_form(tmp_path: Path) -> None:
    raised = error(bot(tmp_path, 'name = "b"\nversion = 1.0.0\n'))
    assert raised.line == 2
    assert "not valid TOML" in str(raised) and "column" in str(raised)
    assert 'command = ["{python}", "bot.py"]' in str(raised)


def test_a_good_manifest_loads(tmp_path: Path) -> None:
    folder = bot(tmp_path, 'name = "b"\nversion = "1"\ncommand = ["{python}", "bot.py"]\n')
    assert load_bot(folder).name == "b"
