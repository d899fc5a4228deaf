"""Attack: be privileged inside the sandbox, or become so.

Reads its credentials from /proc/self/status, then tries setuid(0), setresuid, setgroups,
capset (raising every capability), the ambient capability set, raising its hard rlimits, and
the setuid-root programs of the system (su, mount) that would run as root without no_new_privs.
"""

import ctypes
import os
import resource
import subprocess

from attacklib import attempt, errname, info, libc, play, report, try_syscall, workdir


def status() -> dict[str, str]:
    with open("/proc/self/status") as handle:
        return dict(line.split(":\t", 1) for line in handle.read().splitlines() if ":\t" in line)


class CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                ("inheritable", ctypes.c_uint32)]  # fmt: skip


def attack() -> None:
    fields = status()
    info("status", {key: fields.get(key, "").strip() for key in (
        "Uid", "Gid", "Groups", "CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb",
        "NoNewPrivs", "Seccomp")})  # fmt: skip
    info("ids", {"uid": os.getuid(), "euid": os.geteuid(), "gid": os.getgid(),
                 "groups": os.getgroups()})  # fmt: skip
    attempt("setuid_root", lambda: os.setuid(0))
    attempt("setresuid_root", lambda: os.setresuid(0, 0, 0))
    attempt("setgid_root", lambda: os.setgid(0))
    attempt("setgroups_root", lambda: os.setgroups([0]))
    try_syscall("raw_setuid_root", "setuid", 0)
    # capset: every capability in every set (version 3 takes two data structs)
    header = CapHeader(0x20080522, 0)
    data = (CapData * 2)(CapData(0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF),
                         CapData(0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF))  # fmt: skip
    try_syscall("capset_all", "capset", ctypes.byref(header), data)
    # PR_CAP_AMBIENT (47), PR_CAP_AMBIENT_RAISE (2), CAP_SYS_ADMIN (21)
    result = libc.prctl(47, 2, 21, 0, 0)
    report("ambient_raise", "blocked" if result != 0 else "SUCCEEDED", errname(ctypes.get_errno()))
    # PR_SET_NO_NEW_PRIVS (38) cannot be turned off again
    result = libc.prctl(38, 0, 0, 0, 0)
    report(
        "no_new_privs_off", "blocked" if result != 0 else "SUCCEEDED", errname(ctypes.get_errno())
    )
    for name in ("RLIMIT_NPROC", "RLIMIT_AS", "RLIMIT_CPU", "RLIMIT_NOFILE", "RLIMIT_CORE",
                 "RLIMIT_RTPRIO"):  # fmt: skip
        kind = getattr(resource, name)
        attempt(
            f"raise_{name}",
            lambda kind=kind: resource.setrlimit(kind, (resource.RLIM_INFINITY,) * 2),
        )
    info("rlimits", {name: resource.getrlimit(getattr(resource, name)) for name in (
        "RLIMIT_NPROC", "RLIMIT_AS", "RLIMIT_CORE", "RLIMIT_RTPRIO", "RLIMIT_FSIZE")})  # fmt: skip
    # setuid-root programs: with no_new_privs (and nosuid mounts) they run as the bot's user;
    # the mount point is a folder of its own (a tmpfs over the host's /tmp would hide it)
    target = workdir()
    for label, argv in (
        ("suid_mount", ["/usr/bin/mount", "-t", "tmpfs", "none", target]),
        ("suid_su", ["/usr/bin/su", "-c", "id -u", "root"]),
        ("suid_umount", ["/usr/bin/umount", "/bot"]),
    ):
        if not os.path.exists(argv[0]):
            report(label, "blocked", "absent")
            continue
        try:
            done = subprocess.run(argv, capture_output=True, timeout=20, stdin=subprocess.DEVNULL)
        except (OSError, subprocess.TimeoutExpired) as exc:
            report(label, "blocked", type(exc).__name__)
            continue
        said = (done.stdout + done.stderr).decode(errors="replace").strip()[:100]
        report(label, "blocked" if done.returncode != 0 else "SUCCEEDED",
               f"exit={done.returncode} {said}")  # fmt: skip
    if os.path.ismount(target):
        subprocess.run(["/usr/bin/umount", "-l", target], capture_output=True)


def on_request(number, request):
    if number == 1:
        attack()
    return None


play(name="caps", on_request=on_request)
