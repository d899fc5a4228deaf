"""A wheel is a working install: built from the sources, installed into a fresh virtual
environment outside the checkout, its `arena` plays sandboxed games with the bundled bots from
any folder.

To stay fast and offline, the wheel is built without build isolation and installed without its
dependencies; the new environment sees the running one's dependencies through a .pth file. A
.pth line only appends a folder to sys.path (the editable install's own .pth hooks there are not
run), and the test asserts that arena, protocol, leagues and bots are imported from the wheel.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from arena.manifest import load_bot

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("pyproject.toml", "README.md", "arena", "bots", "leagues", "protocol")
"""What the wheel is built from: copied out first, so the build writes nothing into the
checkout (setuptools leaves build/ and *.egg-info beside the sources)."""
PACKAGES = ("arena", "protocol", "leagues", "bots")
TIMEOUT_S = 300

pytestmark = pytest.mark.packaging  # a wheel built and installed: `make test` only


def run(argv: list[str | Path], cwd: Path) -> subprocess.CompletedProcess[str]:
    """A command with the environment of this test minus PYTHONPATH (nothing may find the
    checkout but through the wheel)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(COLUMNS="200", NO_COLOR="1")
    return subprocess.run(
        [str(a) for a in argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=TIMEOUT_S
    )


def succeeded(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 0, f"exit {result.returncode}\n{result.stdout}\n{result.stderr}"
    return result.stdout


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A virtual environment holding the freshly built wheel; returns its folder."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"
    source.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
            shutil.copytree(ROOT / name, source / name, ignore=ignore)
        else:
            shutil.copy2(ROOT / name, source / name)
    python = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input"]
    dist = work / "dist"
    build = [*python, "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", dist, "."]
    succeeded(run(build, source))
    (wheel,) = dist.glob("arena-*.whl")

    environment = work / "venv"
    succeeded(run([sys.executable, "-m", "venv", "--without-pip", environment], work))
    new_python = environment / "bin" / "python"
    purelib = succeeded(
        run([new_python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], work)
    ).strip()
    Path(purelib, "running-environment.pth").write_text(sysconfig.get_path("purelib") + "\n")
    install = [*python, "--python", new_python, "install", "--no-deps", "--no-index", wheel]
    succeeded(run(install, work))
    return environment


@pytest.fixture
def elsewhere(tmp_path: Path) -> Path:
    """A working folder outside the checkout, holding no bot."""
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    assert not folder.resolve().is_relative_to(ROOT)
    return folder


def test_the_code_comes_from_the_wheel(venv: Path, elsewhere: Path) -> None:
    show = "; ".join(f"import {p}; print({p}.__file__)" for p in PACKAGES)
    files = succeeded(run([venv / "bin" / "python", "-c", show], elsewhere)).split()
    assert len(files) == len(PACKAGES)
    for package, file in zip(PACKAGES, files):
        assert Path(file).resolve().is_relative_to(venv.resolve()), f"{package} from {file}"


def test_play_with_bundled_bots_records_a_game(venv: Path, elsewhere: Path) -> None:
    # corruption-greedy imports protocol.sdk: inside the sandbox, from the installed package
    bots = ["--bot", "random", "--bot", "bots/random", "--bot", "corruption-greedy"]
    play = [venv / "bin" / "arena", "play", "corruption", *bots, "--games", "1", "--seed", "1"]
    succeeded(run([*play, "--db", "games.db"], elsewhere))

    with sqlite3.connect(elsewhere / "games.db") as db:
        games = db.execute("SELECT status, sandboxed FROM games").fetchall()
        seats = db.execute("SELECT fault FROM seats").fetchall()
        bots_seen = dict(db.execute("SELECT name, path FROM bots").fetchall())
    assert games == [("complete", 1)]
    assert seats == [("ok",)] * 3
    installed = venv.resolve()
    assert {name: Path(path).is_relative_to(installed) for name, path in bots_seen.items()} == {
        "random": True,
        "corruption-greedy": True,
    }
    digest = load_bot(ROOT / "bots" / "random").digest
    with sqlite3.connect(elsewhere / "games.db") as db:
        (shipped,) = db.execute("SELECT digest FROM bots WHERE name = 'random'").fetchone()
    assert shipped == digest, "the wheel ships the very bot of the checkout"


def test_check_a_bundled_bot_against_the_default_opponent(venv: Path, elsewhere: Path) -> None:
    out = succeeded(
        run([venv / "bin" / "arena", "check", "random", "--game", "intrigue"], elsewhere)
    )
    assert "PASS 4 game(s) without a fault" in out


def test_the_example_leagues_are_installed_and_load(venv: Path, elsewhere: Path) -> None:
    """They name bundled bots, which resolve to the installed ones."""
    load = (
        "import pathlib, leagues, bots; from leagues.spec import load_league\n"
        "for path in sorted((pathlib.Path(leagues.__file__).parent / 'examples').glob('*.toml')):\n"
        "    spec = load_league(path)\n"
        "    assert {e.path.parent for e in spec.entrants} == {pathlib.Path(bots.__file__).resolve().parent}\n"
        "    print(path.name)"
    )
    installed = succeeded(run([venv / "bin" / "python", "-c", load], elsewhere)).split()
    assert installed == sorted(p.name for p in (ROOT / "leagues" / "examples").glob("*.toml"))


def test_the_wheel_runs_the_code_identity_of_this_checkout(venv: Path, elsewhere: Path) -> None:
    """A cluster's head run from this checkout accepts workers installed from its wheel (and a
    report's replay stamp is the same from either): the digest covers what the wheel holds."""
    ask = "from leagues.cluster_worker import code_identity; print(code_identity())"
    installed = succeeded(run([venv / "bin" / "python", "-c", ask], elsewhere)).strip()
    here = succeeded(run([sys.executable, "-c", ask], ROOT)).strip()
    assert installed == here
