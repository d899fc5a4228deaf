"""Attack: the kernel's knobs and secrets through /proc and /sys.

Opens /proc/sysrq-trigger for writing (never writes: a hole must do no harm), reads
/proc/kcore, looks for real addresses in /proc/kallsyms, writes /proc/sys/vm/drop_caches and
its own uid_map, reads the kernel log (/dev/kmsg, syslog(2)), and looks for /sys.
"""

import os

from attacklib import attempt, info, play, report, try_syscall


def open_for_write(path: str) -> str:
    fd = os.open(path, os.O_WRONLY)
    os.close(fd)
    return "opened for writing"


def write(path: str, text: str) -> str:
    with open(path, "w") as handle:
        handle.write(text)
    return "written"


def read_some(path: str) -> str:
    with open(path, "rb") as handle:
        return f"read {len(handle.read(4096))} bytes"


def attack() -> None:
    attempt("sysrq_trigger", lambda: open_for_write("/proc/sysrq-trigger"))
    attempt("kcore", lambda: read_some("/proc/kcore"))
    # opening them is the privilege check; reading /proc/kmsg would consume the kernel's log
    attempt("kmsg", lambda: os.close(os.open("/dev/kmsg", os.O_RDONLY)) or "opened")
    attempt("proc_kmsg", lambda: os.close(os.open("/proc/kmsg", os.O_RDONLY)) or "opened")
    try_syscall("syslog_read_all", "syslog", 3, bytes(4096), 4096)  # SYSLOG_ACTION_READ_ALL
    attempt("drop_caches", lambda: write("/proc/sys/vm/drop_caches", "1"))
    attempt("core_pattern", lambda: open_for_write("/proc/sys/kernel/core_pattern"))
    # the one world-writable file in /proc/sys (the pid namespace's next pid; needs CAP_SYS_ADMIN)
    attempt("ns_last_pid", lambda: write("/proc/sys/kernel/ns_last_pid", "300"))
    attempt("uid_map", lambda: write("/proc/self/uid_map", "0 0 1"))
    attempt("setgroups_file", lambda: write("/proc/self/setgroups", "allow"))
    attempt("oom_score_adj_lower", lambda: write("/proc/self/oom_score_adj", "-1000"))
    addresses = set()
    try:
        with open("/proc/kallsyms") as handle:
            for _, line in zip(range(2000), handle):
                addresses.add(line.split()[0])
    except OSError as exc:
        addresses.add(f"error {exc.errno}")
    info("kallsyms_addresses", sorted(addresses)[:5])
    info("sys_visible", {path: os.path.exists(path) for path in (
        "/sys", "/sys/fs/cgroup", "/sys/kernel", "/sys/firmware")})  # fmt: skip


def on_request(number, request):
    if number == 1:
        attack()
    report("still_playing", "info", "{}")
    return None


play(name="procfs", on_request=on_request)
