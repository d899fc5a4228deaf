"""A bot's cgroup: limits written where each hierarchy wants them, membership from the first
instruction, CPU accounting and a kill that reaches every process — on cgroup v1 (this
machine's controllers) and on a real cgroup v2 hierarchy (the unified mount beside them)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from arena.containment import cgroups
from arena.containment.cgroups import BotCgroup, CgroupHost, CgroupLimits
from arena.containment.launch import LAUNCHER

LIMITS = CgroupLimits(memory_bytes=256 << 20, pids=32, cpus=0.5)

# Forks three children that leave its session, says how many, then waits to be killed.
SCATTER = (
    "import os, sys, time\n"
    "for _ in range(3):\n"
    "    if os.fork() == 0:\n"
    "        os.setsid()\n"
    "        time.sleep(3600)\n"
    "print('forked', flush=True)\n"
    "sum(range(3_000_000))\n"
    "time.sleep(3600)\n"
)


def launch_into(group: BotCgroup) -> subprocess.Popen[str]:
    """Start SCATTER through the real launcher, joining ``group`` before it runs."""
    spec = {
        "parent": os.getpid(),
        "cgroup_procs": group.procs_files,
        "rlimits": [],
        "no_new_privs": True,
        "argv": [sys.executable, "-c", SCATTER],
    }
    proc = subprocess.Popen(
        [sys.executable, "-I", "-S", LAUNCHER, json.dumps(spec)],
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "forked"
    return proc


def exercise(group: BotCgroup) -> None:
    proc = launch_into(group)
    try:
        members = group.pids()
        assert proc.pid in members, "the launcher joined before running the bot"
        assert len(members) == 4, f"children that called setsid are still members: {members}"
        used = group.cpu_seconds()
        assert used is not None and used > 0, "CPU time is counted per cgroup"
        group.kill_all()
        assert group.pids() == [], "every process killed, setsid or not"
    finally:
        group.remove()
        proc.wait(timeout=10)
    assert all(not os.path.exists(d) for d in group.dirs.values()), "removed"


def test_on_this_machine_a_bot_cgroup_holds_its_limits_and_every_process():
    host = cgroups.host()
    assert host.usable, host.problem
    group = BotCgroup.create(host, LIMITS)
    if host.version == 1:
        assert Path(group.dirs["memory"], "memory.limit_in_bytes").read_text().strip() == str(
            LIMITS.memory_bytes
        )
        assert Path(group.dirs["pids"], "pids.max").read_text().strip() == "32"
        if "cpu" in group.dirs:
            assert Path(group.dirs["cpu"], "cpu.cfs_quota_us").read_text().strip() == "50000"
    else:
        d = group.dirs["unified"]
        assert Path(d, "memory.max").read_text().strip() == str(LIMITS.memory_bytes)
        assert Path(d, "pids.max").read_text().strip() == "32"
    exercise(group)


@pytest.fixture
def unified_parent():
    """A fresh cgroup in this machine's cgroup v2 hierarchy (the unified mount)."""
    mount = cgroups._mounts().get("unified")
    if mount is None or not os.access(mount, os.W_OK):
        pytest.skip("no writable cgroup2 mount here")
    parent = os.path.join(mount, f"arena-test-{os.getpid()}-{os.urandom(3).hex()}")
    os.mkdir(parent)
    yield parent
    os.rmdir(parent)


def test_on_a_real_cgroup_v2_hierarchy_membership_accounting_and_kill_work(unified_parent):
    # On this machine the v2 tree has no memory/pids/cpu controller (they are bound to v1),
    # so this runs the v2 code for everything but the limit files, which the next test covers.
    host = CgroupHost(2, {"unified": unified_parent}, ())
    group = BotCgroup.create(host, LIMITS)
    assert group.version == 2 and os.path.isdir(group.dirs["unified"])
    exercise(group)


def test_v2_limits_are_written_as_the_unified_hierarchy_names_them(tmp_path):
    group = BotCgroup(2, {"unified": str(tmp_path)})
    group._limit(("memory", "pids", "cpu"), LIMITS)
    assert (tmp_path / "memory.max").read_text() == str(256 << 20)
    assert (tmp_path / "memory.swap.max").read_text() == "0"
    assert (tmp_path / "pids.max").read_text() == "32"
    assert (tmp_path / "cpu.max").read_text() == "50000 100000"


def test_v1_limits_are_written_per_controller(tmp_path):
    dirs = {c: str(tmp_path / c) for c in ("memory", "pids", "cpu")}
    for d in dirs.values():
        os.mkdir(d)
    BotCgroup(1, dirs)._limit(("memory", "pids", "cpu"), LIMITS)
    assert (tmp_path / "memory" / "memory.limit_in_bytes").read_text() == str(256 << 20)
    assert (tmp_path / "pids" / "pids.max").read_text() == "32"
    assert (tmp_path / "cpu" / "cpu.cfs_quota_us").read_text() == "50000"
    assert (tmp_path / "cpu" / "cpu.cfs_period_us").read_text() == "100000"


def test_v2_setup_reports_what_is_missing_when_controllers_cannot_be_had(unified_parent):
    # The unified tree here offers none of memory/pids/cpu: the setup must say so, not
    # pretend (own path "/" is the mount itself, so only the root route is tried).
    host = cgroups.prepare_v2(unified_parent, "/")
    assert not host.usable
    assert "memory and pids" in (host.problem or "")
    assert "systemd-run --user --scope -p Delegate=yes" in (host.problem or "")
    os.rmdir(os.path.join(unified_parent, "arena"))


def test_v1_setup_that_cannot_create_cgroups_names_the_fix(tmp_path):
    not_a_tree = tmp_path / "pids"
    not_a_tree.write_text("a file: no cgroup can be made under it, even by root")
    host = cgroups.prepare_v1({"pids": str(not_a_tree)}, {"pids": "/"})
    assert not host.usable and host.controllers == ()
    assert "memory and pids" in (host.problem or "")
    assert "pids: Not a directory" in (host.problem or "")
    assert "run arena as root, or give this user a delegated cgroup" in (host.problem or "")


def test_cgroups_left_by_a_referee_killed_outright_are_removed(tmp_path):
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    dead = int(gone.stdout)
    for name in (f"bot-{dead}-aaaa", f"bot-{os.getpid()}-bbbb", "not-a-bot", f"bot-{dead}-full"):
        (tmp_path / name).mkdir()
    (tmp_path / f"bot-{dead}-full" / "cgroup.procs").write_text("")  # still holds something
    cgroups.remove_stale(str(tmp_path))
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == sorted([f"bot-{os.getpid()}-bbbb", "not-a-bot", f"bot-{dead}-full"])
