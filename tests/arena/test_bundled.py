"""Bundled bots: found by name from any folder, and a real path always wins over a name."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.bundled import BUNDLED_DIR, bundled_bot, bundled_names, locate_bot
from arena.manifest import ManifestError, load_bot

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = [
    "corruption-greedy",
    "intrigue-honest",
    "intrigue-liar",
    "intrigue-shark",
    "intrigue-trusty",
    "paranoia-loyal",
    "paranoia-survivor",
    "paranoia-traitor",
    "random",
]


def test_the_bundled_bots_are_the_folders_of_bots_with_a_manifest() -> None:
    assert (ROOT / "bots").resolve() == BUNDLED_DIR
    assert bundled_names() == SHIPPED  # not __pycache__, not __init__.py
    for name in SHIPPED:
        assert load_bot(bundled_bot(name)).name == name


@pytest.mark.parametrize("written", ["random", "bots/random", Path("random")])
def test_a_name_finds_the_bundled_bot_from_any_folder(tmp_path, monkeypatch, written) -> None:
    monkeypatch.chdir(tmp_path)
    assert locate_bot(written) == BUNDLED_DIR / "random"


def test_a_real_path_wins_over_a_bundled_name(tmp_path, monkeypatch) -> None:
    (tmp_path / "bots" / "random").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    assert locate_bot("bots/random") == Path("bots/random")
    assert locate_bot("random", base=tmp_path / "bots") == tmp_path / "bots" / "random"


def test_a_path_relative_to_a_base_folder(tmp_path) -> None:
    (tmp_path / "mine").mkdir()
    assert locate_bot("mine", base=tmp_path) == tmp_path / "mine"


@pytest.mark.parametrize("written", ["nope", "bots/nope", "elsewhere/random", "bots/bots/random"])
def test_neither_a_path_nor_a_bundled_name_lists_the_bundled_bots(tmp_path, written) -> None:
    with pytest.raises(ManifestError) as caught:
        locate_bot(written, base=tmp_path)
    message = str(caught.value)
    assert "\n" not in message
    assert "does not exist" in message and ", ".join(SHIPPED) in message


def test_an_unknown_bundled_bot() -> None:
    with pytest.raises(ManifestError, match="no bundled bot 'chess-master'; bundled bots: "):
        bundled_bot("chess-master")
