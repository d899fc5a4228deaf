"""No sandbox, no untrusted bots: each missing piece is named with its fix, the commands
refuse, and --unsandboxed is a loud, recorded choice."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from arena.containment.readiness import diagnose, readiness
from tests.support.paths import ROOT

BOTS = ["--bot", "bots/random", "--bot", "bots/random", "--bot", "bots/random"]


def test_this_machine_can_sandbox_bots():
    state = readiness()
    assert state.ready, state.problems
    assert state.cgroup.usable and {"memory", "pids"} <= set(state.cgroup.controllers)


def test_each_cause_gets_its_own_fix():
    apparmor = diagnose(
        "setting up uid map: Permission denied",
        False,
        {"kernel.apparmor_restrict_unprivileged_userns": "1"},
    )
    assert "AppArmor" in apparmor and "apparmor_restrict_unprivileged_userns=0" in apparmor
    clone = diagnose(
        "No permissions to create new namespace", False, {"kernel.unprivileged_userns_clone": "0"}
    )
    assert "kernel.unprivileged_userns_clone=1" in clone
    count = diagnose("Creating new namespace failed", False, {"user.max_user_namespaces": "0"})
    assert "user.max_user_namespaces=15000" in count
    for message in (apparmor, clone, count):
        assert "--unsandboxed" in message and "root" in message


def arena(args: list[str], tmp_path: Path, path: str) -> subprocess.CompletedProcess[str]:
    """The real CLI in a fresh process (readiness is found once per process) with PATH set."""
    env = {**os.environ, "PATH": path, "COLUMNS": "200", "NO_COLOR": "1"}
    env["ARENA_CACHE"] = str(tmp_path / "cache")
    return subprocess.run(
        [sys.executable, "-m", "arena", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=300,
    )


def test_without_bubblewrap_play_refuses_and_says_how_to_install_it(tmp_path):
    db = tmp_path / "a.db"
    no_bwrap = os.path.dirname(sys.executable)  # arena's Python, but no bwrap, no setpriv
    result = arena(["play", "corruption", *BOTS, "--db", str(db)], tmp_path, no_bwrap)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "bubblewrap (bwrap) is not installed" in result.stderr
    assert "apt-get install bubblewrap" in result.stderr and "--unsandboxed" in result.stderr
    assert "Traceback" not in result.stderr
    assert not db.exists(), "nothing was played or recorded"


@pytest.mark.slow
def test_unsandboxed_is_loud_and_recorded_with_the_games(tmp_path):
    db = tmp_path / "a.db"
    no_bwrap = os.path.dirname(sys.executable)
    args = ["play", "corruption", *BOTS, "--db", str(db), "--games", "2", "--unsandboxed"]
    result = arena(args, tmp_path, no_bwrap)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "WARNING: bots run UNSANDBOXED" in result.stderr
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT sandboxed FROM games").fetchall() == [(0,), (0,)]
    sandboxed = arena(["play", "corruption", *BOTS, "--db", str(db)], tmp_path, os.environ["PATH"])
    assert sandboxed.returncode == 0, sandboxed.stderr
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT sandboxed FROM games ORDER BY seq").fetchall()
    assert rows == [(0,), (0,), (1,)]


def test_a_league_file_cannot_turn_the_sandbox_off(tmp_path):
    league = tmp_path / "l.toml"
    bots = json.dumps(str(ROOT / "bots" / "random"))
    league.write_text(
        f'name = "l"\ngame = "corruption"\ngames = 3\nbots = [{{path = {bots}, copies = 3}}]\n'
        "[limits]\nsandbox = false\n"
    )
    result = arena(
        ["league", "run", str(league), "--db", str(tmp_path / "a.db")], tmp_path, os.environ["PATH"]
    )
    assert result.returncode == 2, result.stdout + result.stderr
    assert "sandbox is not a league setting" in result.stderr
    assert "--unsandboxed" in result.stderr


def test_a_launcher_whose_referee_is_gone_runs_nothing(tmp_path):
    """The parent-death signal cannot fire for a parent that died before it was asked for:
    the launcher checks, and runs nothing (a lone sandbox would otherwise live for ever)."""
    from arena.containment.launch import LAUNCHER

    marker = tmp_path / "ran"
    spec = {
        "parent": 1,  # not our parent: as if the referee had died and we were reparented
        "cgroup_procs": [],
        "rlimits": [],
        "no_new_privs": True,
        "argv": ["/bin/sh", "-c", f"touch {marker}"],
    }
    done = subprocess.run(
        [sys.executable, "-I", "-S", LAUNCHER, json.dumps(spec)], capture_output=True, timeout=30
    )
    assert done.returncode == 70
    assert not marker.exists()
    spec["parent"] = os.getpid()
    assert subprocess.run([sys.executable, "-I", "-S", LAUNCHER, json.dumps(spec)]).returncode == 0
    assert marker.exists(), "with its referee alive it runs the command"
