"""Privileges inside the sandbox: none, and no way to get any (one shared match of probes)."""

from __future__ import annotations

import hashlib
import os

import pytest

from arena.containment.bubblewrap import FIRST_BOT_UID
from tests.attacks.conftest import (
    Match,
    assert_contained,
    attack_bot,
    blocked,
    good_bot,
    play_match,
)

SECRET = "arena-attack-secret-7f3a9c"
CAPS, PROCFS, DESCRIPTORS, ENVIRONMENT, GOOD = range(5)


@pytest.fixture(scope="module")
def match(tmp_path_factory, arena_cache) -> Match:
    root = tmp_path_factory.mktemp("privileges")
    bots = [attack_bot(root, name) for name in ("caps", "procfs", "descriptors", "environment")]
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ARENA_ATTACK_SECRET", SECRET)  # the referee has it while the bots play
        return play_match([*bots, good_bot(root)], root)


def test_the_probes_ran_and_nothing_of_them_outlived_the_match(match):
    assert_contained(match, attackers=[CAPS, PROCFS, DESCRIPTORS, ENVIRONMENT], fault="ok")


# -- caps ------------------------------------------------------------------------------------------


def test_no_capability_in_any_set(match):
    seen = match.info(CAPS, "status")
    for name in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"):
        assert int(seen[name], 16) == 0, f"{name} = {seen[name]}"


def test_an_unprivileged_user_of_its_own_with_no_groups(match):
    ids = match.info(CAPS, "ids")
    assert ids["uid"] == ids["euid"] == ids["gid"] >= FIRST_BOT_UID
    assert ids["groups"] == []
    uids = {uid for host in match.host for uid in host.uids}
    assert ids["uid"] in match.host[CAPS].uids, "the host sees the same user (no user namespace)"
    assert len(uids) == len(match.host), "every bot process has a user id of its own"


def test_the_host_sees_every_bot_process_without_capabilities(match):
    """From outside: whatever runs as a bot user holds no capability (bwrap's own processes
    run as root, and the bot cannot signal or trace them)."""
    for host in match.host:
        assert host.uids and all(uid >= FIRST_BOT_UID for uid in host.uids)
        assert host.capabilities == {"0000000000000000"}, host.capabilities


def test_no_new_privs_and_a_seccomp_filter(match):
    seen = match.info(CAPS, "status")
    assert seen["NoNewPrivs"] == "1"
    assert seen["Seccomp"] == "2", "mode 2: a filter"


@pytest.mark.parametrize(
    "label",
    ["setuid_root", "setresuid_root", "setgid_root", "setgroups_root", "raw_setuid_root"],
)
def test_it_cannot_become_root(match, label):
    blocked(match, CAPS, label, "EPERM")


def test_it_cannot_grant_itself_capabilities(match):
    blocked(match, CAPS, "capset_all", "EPERM")
    blocked(match, CAPS, "ambient_raise", "EPERM")
    blocked(match, CAPS, "no_new_privs_off", "EINVAL")


@pytest.mark.parametrize(
    "name",
    ["RLIMIT_NPROC", "RLIMIT_AS", "RLIMIT_CPU", "RLIMIT_NOFILE", "RLIMIT_CORE", "RLIMIT_RTPRIO"],
)
def test_it_cannot_raise_its_limits(match, name):
    blocked(match, CAPS, f"raise_{name}")
    limits = match.info(CAPS, "rlimits")
    assert limits["RLIMIT_CORE"] == [0, 0] and limits["RLIMIT_RTPRIO"] == [0, 0]
    assert limits["RLIMIT_NPROC"][1] <= 64


@pytest.mark.parametrize("label", ["suid_mount", "suid_su", "suid_umount"])
def test_setuid_root_programs_run_unprivileged(match, label):
    blocked(match, CAPS, label)


# -- procfs ------------------------------------------------------------------------------------------


KNOBS = {
    "sysrq_trigger": "/proc/sysrq-trigger",
    "kcore": "/proc/kcore",
    "kmsg": "/dev/kmsg",
    "proc_kmsg": "/proc/kmsg",
    "syslog_read_all": None,
    "drop_caches": "/proc/sys/vm/drop_caches",
    "core_pattern": "/proc/sys/kernel/core_pattern",
    "ns_last_pid": "/proc/sys/kernel/ns_last_pid",
    "uid_map": "/proc/self/uid_map",
    "setgroups_file": "/proc/self/setgroups",
    "oom_score_adj_lower": "/proc/self/oom_score_adj",
}


@pytest.mark.parametrize("label", sorted(KNOBS))
def test_the_kernels_knobs_are_out_of_reach(match, label):
    host_path = KNOBS[label]
    if host_path is not None and not os.path.exists(host_path):
        pytest.skip(f"{host_path} does not exist on this kernel: nothing to prove")
    blocked(match, PROCFS, label)


def test_no_kernel_address_is_shown(match):
    addresses = match.info(PROCFS, "kallsyms_addresses")
    assert addresses == ["0000000000000000"], addresses


def test_sys_is_not_mounted(match):
    assert not any(match.info(PROCFS, "sys_visible").values())


# -- descriptors -------------------------------------------------------------------------------------


def test_it_inherits_only_its_three_pipes(match):
    fds = match.info(DESCRIPTORS, "descriptors")
    assert sorted(fds) == ["0", "1", "2"], fds
    assert all(target.startswith("pipe:") for target in fds.values()), fds


# -- environment ------------------------------------------------------------------------------------


def test_none_of_the_referees_environment(match):
    names = match.info(ENVIRONMENT, "environ_names")
    assert "ARENA_ATTACK_SECRET" not in names
    assert set(names) <= {
        "PATH", "LANG", "LC_ALL", "HOME", "TMPDIR", "PYTHONDONTWRITEBYTECODE",
        "PYTHONUNBUFFERED", "PWD",
    }  # fmt: skip
    secret = hashlib.sha256(SECRET.encode()).hexdigest()[:16]
    assert secret not in match.info(ENVIRONMENT, "environ_values")
    readable = match.info(ENVIRONMENT, "proc_environ")
    assert not any(secret in seen for seen in readable.values()), "nowhere it could read"
    assert len({key.split("/")[0] for key in readable}) <= 3, "only its own pid namespace"
