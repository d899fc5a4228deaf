"""Processes: a bot cannot leave its cgroup, outgrow its process cap, outlive its game, see or
touch any process but its own, stop the referee, or make namespaces."""

from __future__ import annotations

import os
import pty
import select
import signal
import sys
import time
from pathlib import Path

import pytest

from arena.containment.limits import DEFAULT_LIMITS
from tests.attacks.conftest import (
    Match,
    Observations,
    assert_contained,
    attack_bot,
    blocked,
    good_bot,
    play_match,
)

ESCAPE, BOMB, DAEMON = range(3)
SPY, STOPPER, NAMESPACES, TTY = range(4)
CAP = DEFAULT_LIMITS.processes


@pytest.fixture(scope="module")
def pids_match(tmp_path_factory, arena_cache) -> Match:
    root = tmp_path_factory.mktemp("pids")
    bots = [attack_bot(root, name) for name in ("cgroup_escape", "forkbomb", "daemon")]
    return play_match([*bots, good_bot(root)], root)


@pytest.fixture(scope="module")
def peers_match(tmp_path_factory, arena_cache):
    """spy, stop_referee, namespaces, tty; SIGWINCH to the referee (the test process) is
    counted while they play."""
    root = tmp_path_factory.mktemp("peers")
    me = {"referee_pid": os.getpid()}
    bots = [
        attack_bot(root, "spy", me),
        attack_bot(root, "stop_referee", me),
        attack_bot(root, "namespaces"),
        attack_bot(root, "tty"),
    ]
    received: list[int] = []
    previous = signal.signal(signal.SIGWINCH, lambda signum, frame: received.append(signum))
    try:
        match = play_match([*bots, good_bot(root)], root)
    finally:
        signal.signal(signal.SIGWINCH, previous)
    return match, received


def test_process_attackers_were_contained(pids_match):
    assert_contained(pids_match, attackers=[ESCAPE, BOMB, DAEMON], fault="ok")


# -- cgroup_escape ---------------------------------------------------------------------------------


def test_the_cgroup_file_system_is_not_there(pids_match):
    for label in pids_match.seen(ESCAPE):
        if label.startswith("join:"):
            blocked(pids_match, ESCAPE, label, "ENOENT")


@pytest.mark.parametrize("kind", ["v1_pids", "v1_memory", "v2"])
def test_it_cannot_mount_one(pids_match, kind):
    blocked(pids_match, ESCAPE, f"mount_{kind}", "EPERM")
    blocked(pids_match, ESCAPE, f"join_mounted_{kind}", "not-mounted")


def test_it_sees_its_cgroup_as_the_root(pids_match):
    lines = pids_match.info(ESCAPE, "proc_self_cgroup")
    assert lines and all(line.endswith(":/") for line in lines), lines


def test_every_process_of_it_stayed_in_its_cgroup(pids_match):
    forked = pids_match.info(ESCAPE, "forked_after_escape")
    assert forked["sleepers"] == 4 and forked["more"] < CAP, forked
    host = pids_match.host[ESCAPE]
    assert host.most >= 4 + 1, "the host saw its sleepers running (as its user)..."
    assert host.strays == [], "...and every one of them inside its cgroup"


# -- forkbomb ----------------------------------------------------------------------------------------


def test_a_fork_bomb_of_setsid_and_double_forks_is_capped(pids_match):
    bomb = pids_match.info(BOMB, "bomb")
    assert bomb["grandchildren"] > 0, "it did fork"
    assert bomb["grandchildren"] + bomb["threads"] < CAP, bomb
    assert bomb["tasks_seen"] <= CAP, bomb
    assert pids_match.host[BOMB].files["pids.max"] == str(CAP)
    assert pids_match.host[BOMB].most >= bomb["grandchildren"], "the host saw them alive"


# -- daemon --------------------------------------------------------------------------------------------


def test_a_daemon_does_not_outlive_the_lineup(pids_match):
    spawned = pids_match.info(DAEMON, "spawned")
    assert all(spawned.values())
    assert pids_match.host[DAEMON].most >= 3, "bot, daemon and stopped daemon were running"
    # assert_contained (above) checked that no process of its user is left and no cgroup


# -- spy -----------------------------------------------------------------------------------------------


def test_peers_attackers_were_contained(peers_match):
    match, _ = peers_match
    assert_contained(match, attackers=[SPY, STOPPER, NAMESPACES, TTY], fault="ok")


def test_it_sees_only_its_own_pid_namespace(peers_match):
    match, _ = peers_match
    pids = match.info(SPY, "proc_pids")
    assert len(pids) <= 3, pids
    assert set(pids.values()) <= {
        "/usr/bin/bwrap",
        os.path.realpath(sys.executable),
        sys.executable,
    }, pids
    assert match.info(SPY, "referee_pid_visible") is False


@pytest.mark.parametrize("label", ["pid1_environ", "pid1_root", "pid1_cwd", "pid1_fds", "pid1_mem"])
def test_the_sandboxs_pid_1_is_closed_to_it(peers_match, label):
    blocked(peers_match[0], SPY, label, "EACCES", "EPERM")


@pytest.mark.parametrize(
    "label",
    [
        "ptrace_attach_pid1",
        "vm_readv_pid1",
        "pidfd_getfd_pid1",
        "ptrace_attach_own_child",
        "ptrace_traceme",
        "vm_readv_own_child",
        "kcmp_own_child",
    ],
)
def test_no_tracing_or_reading_another_process(peers_match, label):
    blocked(peers_match[0], SPY, label, "EPERM")


# -- stop_referee -----------------------------------------------------------------------------------


def test_signals_do_not_reach_the_referee(peers_match):
    match, received = peers_match
    assert received == [], "the referee received a SIGWINCH from a bot"
    blocked(match, STOPPER, "winch_referee_pid", "ESRCH")
    blocked(match, STOPPER, "winch_all", "ESRCH")
    blocked(match, STOPPER, "winch_parent", "EPERM")


@pytest.mark.parametrize("label", ["stop_pid1", "kill_pid1", "stop_parent", "kill_parent"])
def test_it_cannot_stop_or_kill_the_sandbox(peers_match, label):
    blocked(peers_match[0], STOPPER, label, "EPERM")


@pytest.mark.parametrize("label", ["stop_all", "kill_all", "stop_referee_pid"])
def test_signals_to_everyone_find_no_one(peers_match, label):
    blocked(peers_match[0], STOPPER, label, "ESRCH")


def test_the_only_processes_it_may_signal_are_its_own(peers_match):
    match, _ = peers_match
    seen = match.info(STOPPER, "signalable")
    assert seen["permitted"] == [seen["me"]], seen
    assert set(seen["exists"]) <= {1, seen["me"]}, seen
    assert match.record.seats[STOPPER].decisions == 2, "it played on after its attempts"


# -- namespaces --------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["user", "mnt", "pid", "net", "ipc", "uts", "cgroup", "time"])
def test_no_new_namespace(peers_match, kind):
    blocked(peers_match[0], NAMESPACES, f"unshare_{kind}", "EPERM")
    blocked(peers_match[0], NAMESPACES, f"clone_{kind}", "EPERM")


def test_clone3_is_not_there(peers_match):
    blocked(peers_match[0], NAMESPACES, "clone3_newuser", "ENOSYS")


def test_no_entering_a_namespace(peers_match):
    match, _ = peers_match
    setns = [label for label in match.seen(NAMESPACES) if label.startswith("setns_own_")]
    assert len(setns) >= 7, setns
    for label in setns:
        blocked(match, NAMESPACES, label, "EPERM")
        blocked(match, NAMESPACES, label.replace("setns_own_", "open_pid1_ns_"), "EACCES")


@pytest.mark.parametrize("label", ["nested_bwrap", "unshare_program"])
def test_no_sandbox_inside_the_sandbox(peers_match, label):
    blocked(peers_match[0], NAMESPACES, label)


# -- tty -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("fd", [0, 1, 2])
def test_its_standard_streams_are_no_terminal(peers_match, fd):
    blocked(peers_match[0], TTY, f"tiocsti_fd{fd}", "ENOTTY")


def test_it_has_no_controlling_terminal(peers_match):
    match, _ = peers_match
    blocked(match, TTY, "open_dev_tty", "ENXIO")
    blocked(match, TTY, "open_dev_console", "ENOENT")
    assert match.info(TTY, "controlling_tty") == {"tty_nr": 0, "isatty": [False, False, False]}


def test_tiocsti_cannot_type_into_the_terminal_arena_runs_in(tmp_path, arena_cache):
    """`arena check` run from a terminal (a pty that is its controlling terminal, as in an
    interactive shell): the bot must not reach it. Had TIOCSTI worked, its text would sit in
    the terminal's input queue and be echoed back to the pty's master side."""
    bot = attack_bot(tmp_path, "tty")
    logs = tmp_path / "logs"
    command = [sys.executable, "-m", "arena", "check", str(bot), "--game", "corruption",
               "--games", "1", "--logs", str(logs), "--startup-ms", "60000",
               "--decision-ms", "20000"]  # fmt: skip
    root = Path(__file__).resolve().parents[2]
    pid, master = pty.fork()
    if pid == 0:  # the child: a session leader whose controlling terminal is the pty
        try:
            os.chdir(root)
            os.execv(sys.executable, command)
        finally:
            os._exit(127)
    output = b""
    deadline = time.monotonic() + 300  # a safety net against a hung check, not a clock
    try:
        while time.monotonic() < deadline:
            if not select.select([master], [], [], 1.0)[0]:
                continue
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: the child side is closed
                break
            if not chunk:
                break
            output += chunk
    finally:
        os.close(master)
        if os.waitpid(pid, os.WNOHANG) == (0, 0):
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
    text = output.decode(errors="replace")
    assert "PASS" in text, text[-3000:]
    assert "ARENA-TTY-INJECTED" not in text, "typed into the referee's terminal"
    seen = Observations.from_text("".join(p.read_text() for p in logs.rglob("*.log")))
    for fd in (0, 1, 2):
        assert seen[f"tiocsti_fd{fd}"] == ("blocked", "ENOTTY")
    assert seen["open_dev_tty"] == ("blocked", "ENXIO"), "no controlling terminal"
