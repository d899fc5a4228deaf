"""The card-set simulation (arena/games/paranoia/simulate.py, quoted by CARDS.md) still runs
with the bundled paranoia-survivor, from the repository's root as documented."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.games.paranoia import simulate

ROOT = Path(__file__).resolve().parents[3]


def test_the_simulation_prints_its_tables(monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    # one game a kind of table (every row printed, each kind played with the bot); by_size
    # still plays one all-survivor game at each size, 3 to 8 players, as with more
    simulate.main(["--games", "1"])
    lines = capsys.readouterr().out.splitlines()
    rows = [line for line in lines if line.startswith("| ") and not line.startswith("| table")]
    kinds = [row.split(" | ")[0] for row in rows if not row.split(" | ")[0][2:].isdigit()]
    assert kinds[:3] == ["| random", "| one survivor", "| all survivors"]
    sizes = [row.split(" | ")[0] for row in rows if row.split(" | ")[0][2:].isdigit()]
    assert sizes == [f"| {players}" for players in range(3, 9)]


def test_a_folder_without_a_bot_says_what_to_do(tmp_path):
    with pytest.raises(SystemExit, match="run this from the repository's root, or pass --bot"):
        simulate.main(["--games", "1", "--bot", str(tmp_path)])
