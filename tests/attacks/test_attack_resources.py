"""Resources: a bot's memory, CPU and scheduling are capped for all its processes together."""

from __future__ import annotations

import datetime as dt
import os

import pytest

from arena.containment.limits import DEFAULT_LIMITS, MIB
from tests.attacks.conftest import assert_contained, attack_bot, blocked, good_bot, play_match

EACH_MIB = 700


def test_four_children_of_700_mib_do_not_add_up_past_the_cap(tmp_path, arena_cache):
    match = play_match(
        [attack_bot(tmp_path, "memory"), good_bot(tmp_path), good_bot(tmp_path, "g2")], tmp_path
    )
    assert_contained(match, attackers=[0], fault="ok")
    seen = match.info(0, "memory")
    cap_mib = DEFAULT_LIMITS.memory_mib
    assert seen["holding_together"] * EACH_MIB < cap_mib, seen
    assert len(seen["failed"]) >= 4 - cap_mib // EACH_MIB, seen
    assert set(seen["failed"]) <= {"signal 9", "exit 3"}, "killed by the kernel, or MemoryError"
    files = match.host[0].files
    assert int(files["memory.limit_in_bytes"]) == cap_mib * MIB
    assert int(files["memory.max_usage_in_bytes"]) <= cap_mib * MIB, "the host's count of it"
    oom = dict(line.split() for line in files["memory.oom_control"].splitlines())
    assert int(oom.get("oom_kill", "1")) >= 1, "the cgroup's own OOM killer acted"


def test_eight_spinning_processes_get_one_core(tmp_path, arena_cache):
    match = play_match(
        [attack_bot(tmp_path, "spinner"), good_bot(tmp_path), good_bot(tmp_path, "g2")], tmp_path
    )
    assert_contained(match, attackers=[0], fault="ok")
    files = match.host[0].files
    assert files["cpu.cfs_period_us"] == "100000"
    assert files["cpu.cfs_quota_us"] == str(int(DEFAULT_LIMITS.cpus * 100000)), "1 core"
    spin = match.info(0, "spin")
    assert spin["cpu_s"] > 0.5, f"it did spin: {spin}"
    assert spin["cores"] <= 1.5 * DEFAULT_LIMITS.cpus, f"more than its core: {spin}"
    record = match.record
    wall = (
        dt.datetime.fromisoformat(record.finished_at) - dt.datetime.fromisoformat(record.started_at)
    ).total_seconds()
    cpu_ms = record.seats[0].cpu_ms
    assert cpu_ms is not None and cpu_ms / 1000 <= 1.5 * wall + 0.5, (cpu_ms, wall)


@pytest.fixture(scope="module")
def priority_match(tmp_path_factory, arena_cache):
    root = tmp_path_factory.mktemp("priority")
    return play_match([attack_bot(root, "realtime"), good_bot(root)], root)


def test_realtime_attacker_was_contained(priority_match):
    assert_contained(priority_match, attackers=[0], fault="ok")


@pytest.mark.parametrize(
    "label",
    [
        "raw_sched_setscheduler_fifo",
        "raw_sched_setscheduler_rr",
        "os_sched_setscheduler_fifo",
        "sched_setattr_fifo",
        "sched_setattr_deadline",
        "sched_setparam",
        "ioprio_realtime",
    ],
)
def test_no_real_time_scheduling(priority_match, label):
    blocked(priority_match, 0, label, "EPERM")


@pytest.mark.parametrize("label", ["nice_minus_1", "setpriority_minus_20"])
def test_no_raised_priority(priority_match, label):
    blocked(priority_match, 0, label, "EPERM", "EACCES")


def test_lowering_its_priority_is_fine_the_control(priority_match):
    assert priority_match.seen(0)["nice_plus_1_control"] == ("SUCCEEDED", "1")
    assert os.nice(0) == 0, "the referee's own priority is untouched"


def test_a_bot_past_its_memory_cap_is_killed_and_told_why(tmp_path, arena_cache):
    match = play_match(
        [attack_bot(tmp_path, "oom"), good_bot(tmp_path), good_bot(tmp_path, "g2")], tmp_path
    )
    assert_contained(match, attackers=[0], fault="crash")
    reason = match.record.seats[0].fault_reason or ""
    assert match.info(0, "tmp_filled_mib") == 63
    # under bubblewrap the referee's child is bwrap, which reports its child's SIGKILL as 137
    assert "SIGKILL" in reason or "code 137" in reason, reason
    assert f"memory cap of {DEFAULT_LIMITS.memory_mib} MiB" in reason, reason
