"""The kernel's attack surface: the calls a game bot never needs fail, through every ABI."""

from __future__ import annotations

import platform
import signal
import subprocess
import sys

import pytest

from tests.attacks.conftest import HERE, assert_contained, attack_bot, blocked, good_bot, play_match

SURFACE = [
    "keyctl",
    "add_key",
    "request_key",
    "bpf_map_create",
    "perf_event_open",
    "io_uring_setup",
    "userfaultfd",
    "name_to_handle_at",
    "open_by_handle_at",
]
MACHINE = [
    "kexec_load",
    "init_module",
    "finit_module",
    "delete_module",
    "reboot_bad_magic",
    "swapon",
    "acct",
    "quotactl",
    "iopl",
    "ioperm",
    "sethostname",
    "fanotify_init",
    "settimeofday_tz",
    "vhangup",
]


@pytest.fixture(scope="module")
def match(tmp_path_factory, arena_cache):
    root = tmp_path_factory.mktemp("kernel")
    return play_match([attack_bot(root, "kernel"), good_bot(root)], root)


def test_kernel_attacker_was_contained(match):
    assert_contained(match, attackers=[0], fault="ok")


@pytest.mark.parametrize("label", SURFACE)
def test_large_kernel_interfaces_are_closed(match, label):
    """Each of these works for an unprivileged process with the arguments used (bpf aside,
    which this kernel keeps for root): only the system-call filter refuses them."""
    blocked(match, 0, label, "EPERM")


@pytest.mark.parametrize("label", MACHINE)
def test_the_machines_own_controls_are_out_of_reach(match, label):
    blocked(match, 0, label, "EPERM")


def test_the_x86_64_abi_works_the_control(match):
    control = match.info(0, "x86_64_getpid_control")
    assert control["result"] == control["me"]


@pytest.mark.skipif(platform.machine() != "x86_64", reason="x32 exists on x86_64 only")
def test_the_x32_abi_is_refused(match):
    blocked(match, 0, "x32_getpid", "EPERM")


@pytest.mark.skipif(platform.machine() != "x86_64", reason="int 0x80 exists on x86_64 only")
def test_the_i386_abi_kills_the_caller(match):
    """The filter checks the architecture first: a call through int 0x80 (the i386 numbers,
    where 26 is ptrace and 310 setns...) kills the process with SIGSYS."""
    host = subprocess.run(
        [sys.executable, "-c", "import attacklib, sys; sys.exit(attacklib.i386_getpid())"],
        cwd=HERE,
        capture_output=True,
    )
    if host.returncode != 0:
        pytest.skip(f"this kernel runs no i386 code at all (host: {host.returncode})")
    assert blocked(match, 0, "i386_getpid") == f"signal {int(signal.SIGSYS)}"
