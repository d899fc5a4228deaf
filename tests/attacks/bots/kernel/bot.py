"""Attack: the kernel's large attack surfaces, and the machine's own controls. Every call is
made with arguments that are valid for an unprivileged process where there are such (so only
the system-call filter stands in the way), or harmless ones otherwise (a bad reboot magic, a
swap file that does not exist, the time zone the kernel already has).

keyctl, add_key, request_key, bpf, perf_event_open, io_uring_setup, userfaultfd,
open_by_handle_at, name_to_handle_at, kexec_load, init_module, finit_module, delete_module,
reboot, swapon, acct, quotactl, iopl, ioperm, sethostname, fanotify_init, settimeofday,
vhangup; then the same system call through the x32 ABI (number | 0x40000000) and the i386 ABI
(int 0x80 from machine code in a child): a filter that checked only x86_64 numbers would let
both through."""

import ctypes
import os
import platform
import socket
import struct

from attacklib import NR, forked, i386_getpid, info, libc, play, report, syscall, try_syscall

KEY_SPEC_PROCESS_KEYRING, KEY_SPEC_SESSION_KEYRING = -2, -3


def perf_attr() -> bytes:
    # PERF_TYPE_SOFTWARE, size 64 (VER0), PERF_COUNT_SW_CPU_CLOCK; disabled, exclude_kernel, _hv
    return struct.pack("=IIQQQQQ", 1, 64, 0, 0, 0, 0, 1 | 1 << 5 | 1 << 6) + bytes(16)


def attack() -> None:
    try_syscall("keyctl", "keyctl", 0, KEY_SPEC_SESSION_KEYRING, 1)  # KEYCTL_GET_KEYRING_ID
    try_syscall("add_key", "add_key", "user", "arena", "secret", 6, KEY_SPEC_PROCESS_KEYRING)
    try_syscall("request_key", "request_key", "user", "arena", None, 0)
    map_attr = struct.pack("=IIII", 2, 4, 4, 1) + bytes(112)  # BPF_MAP_TYPE_ARRAY, 1 entry
    try_syscall("bpf_map_create", "bpf", 0, map_attr, len(map_attr),
                undo=lambda fd: os.close(fd))  # fmt: skip
    try_syscall("perf_event_open", "perf_event_open", perf_attr(), 0, -1, -1, 0,
                undo=lambda fd: os.close(fd))  # fmt: skip
    try_syscall("io_uring_setup", "io_uring_setup", 4, bytes(120), undo=lambda fd: os.close(fd))
    try_syscall("userfaultfd", "userfaultfd", 0o2000000 | 1, undo=lambda fd: os.close(fd))
    handle = struct.pack("=Ii", 128, 0) + bytes(128)
    mount_id = ctypes.c_int()
    try_syscall("name_to_handle_at", "name_to_handle_at", -100, "/etc/passwd", handle,
                ctypes.byref(mount_id), 0)  # fmt: skip
    try_syscall("open_by_handle_at", "open_by_handle_at", os.open("/", os.O_RDONLY), handle, 0)
    try_syscall("kexec_load", "kexec_load", 0, 0, None, 0x7FFF0000)  # bad flags: EINVAL for root
    try_syscall("init_module", "init_module", b"\0" * 64, 64, "")
    try_syscall("finit_module", "finit_module", os.open("/bot/bot.py", os.O_RDONLY), "", 0)
    try_syscall("delete_module", "delete_module", "arena_no_such_module", 0o4000)
    try_syscall("reboot_bad_magic", "reboot", 0, 0, 0, None)
    try_syscall("swapon", "swapon", "/tmp/no-such-swap", 0)
    try_syscall("acct", "acct", "/tmp/no-such-dir/acct")
    try_syscall("quotactl", "quotactl", 0x800007, "/dev/null", 0, None)  # Q_SYNC
    try_syscall("iopl", "iopl", 3)
    try_syscall("ioperm", "ioperm", 0x80, 1, 1)
    name = socket.gethostname().encode()
    try_syscall("sethostname", "sethostname", name, len(name))  # the name it has: no change
    try_syscall("fanotify_init", "fanotify_init", 0, 0)
    timezone = (ctypes.c_int * 2)()
    libc.gettimeofday(None, timezone)
    try_syscall("settimeofday_tz", "settimeofday", None, timezone)
    with open("/proc/self/stat") as handle:
        tty = int(handle.read().rsplit(")", 1)[1].split()[4])
    if tty == 0:  # with no terminal there is nothing to hang up, should the call work
        try_syscall("vhangup", "vhangup")
    else:
        report("vhangup", "not-tried", f"it has a terminal ({tty})")
    # other ABIs
    result, _ = syscall("getpid")
    info("x86_64_getpid_control", {"result": result, "me": os.getpid()})
    NR["x32_getpid"] = 0x40000000 | NR["getpid"]
    try_syscall("x32_getpid", "x32_getpid")
    if platform.machine() == "x86_64":
        wait_status = forked(i386_getpid)
        fate = (f"signal {os.WTERMSIG(wait_status)}" if os.WIFSIGNALED(wait_status)
                else f"exit {os.WEXITSTATUS(wait_status)}")  # fmt: skip
        report("i386_getpid", "blocked" if fate != "exit 0" else "SUCCEEDED", fate)


def on_request(number, request):
    if number == 1:
        attack()
    return None


play(name="kernel", on_request=on_request)
