"""Attack: make new namespaces (a user namespace gives every capability inside it, the way
most container escapes and kernel exploits start), or enter other ones.

unshare(2) and clone(2) with each namespace flag, clone3 (whose flags a filter cannot read),
setns(2) into its own namespaces and pid 1's, os.unshare where Python has it, and the bwrap and
unshare programs of the system."""

import ctypes
import os
import subprocess

from attacklib import (
    NAMESPACES,
    attempt,
    errname,
    info,
    play,
    raw_clone,
    report,
    syscall,
    try_syscall,
)


def clone3(flags: int) -> None:
    args = (ctypes.c_uint64 * 11)()
    args[0] = flags
    args[4] = 17  # exit_signal = SIGCHLD
    result, error = syscall("clone3", ctypes.byref(args), ctypes.sizeof(args))
    if result == 0:
        os._exit(0)
    if result == -1:
        report("clone3_newuser", "blocked", errname(error))
    else:
        os.waitpid(result, 0)
        report("clone3_newuser", "SUCCEEDED", f"child {result}")


def attack() -> None:
    for name, flag in NAMESPACES.items():
        try_syscall(f"unshare_{name}", "unshare", flag)
        raw_clone(f"clone_{name}", flag)
    clone3(NAMESPACES["user"])
    if hasattr(os, "unshare"):
        attempt("os_unshare_user", lambda: os.unshare(os.CLONE_NEWUSER))
    else:
        info("os_unshare_user", "absent")
    for name in sorted(os.listdir("/proc/self/ns")):
        fd = os.open(f"/proc/self/ns/{name}", os.O_RDONLY)
        try_syscall(f"setns_own_{name}", "setns", fd, 0)
        os.close(fd)
        attempt(
            f"open_pid1_ns_{name}",
            lambda name=name: os.close(os.open(f"/proc/1/ns/{name}", os.O_RDONLY)),
        )
    for label, argv in (
        ("nested_bwrap", ["bwrap", "--ro-bind", "/", "/", "--unshare-user", "--", "true"]),
        ("unshare_program", ["unshare", "--user", "--map-root-user", "true"]),
    ):
        try:
            done = subprocess.run(argv, capture_output=True, timeout=20, stdin=subprocess.DEVNULL)
        except (OSError, subprocess.TimeoutExpired) as exc:
            report(label, "blocked", type(exc).__name__)
            continue
        said = done.stderr.decode(errors="replace").strip()[:100]
        report(
            label, "blocked" if done.returncode else "SUCCEEDED", f"exit={done.returncode} {said}"
        )


def on_request(number, request):
    if number == 1:
        attack()
    return None


play(name="namespaces", on_request=on_request)
