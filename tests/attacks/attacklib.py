"""What every attack bot shares; the tests copy this file into each bot's folder beside bot.py.

Standard library only (a sandboxed bot sees nothing else). It speaks the protocol (hello, then
the first legal option for every request), makes raw system calls through ctypes, and writes
what each attempt observed to stderr (the bot's log) as one line:

    ATTACK <label> <outcome> <detail>

outcome ``blocked`` (the attempt failed; detail: the errno name or exception), ``SUCCEEDED``
(it worked: a hole, unless the test says it is a harmless control) or ``info`` (an
observation; detail: JSON). A bot reads what the test told it from params.json in its folder.

Every attack must be harmless if it succeeds, even run as root outside any sandbox (a broken
sandbox in CI must not damage the machine): it aims at its own folders (/bot, workdir()) rather
than the host's, uses arguments the kernel refuses when privileged (a bad reboot magic, bad
kexec flags), sets what it changes to the value it already has (hostname, time zone), undoes
what worked at once, and leaves no process that could outlive it for long.
"""

from __future__ import annotations

import ctypes
import errno
import json
import os
import platform
import sys
from collections.abc import Callable
from typing import Any

# asm/unistd_64.h: the attacks make raw calls, so they do not depend on libc wrappers
X86_64 = {
    "clone": 56, "getpid": 39, "setuid": 105, "capset": 126, "mknod": 133, "sched_setparam": 142,
    "sched_setscheduler": 144, "pivot_root": 155, "chroot": 161, "acct": 163,
    "settimeofday": 164, "mount": 165, "umount2": 166, "swapon": 167, "reboot": 169,
    "sethostname": 170, "iopl": 172, "ioperm": 173, "init_module": 175, "delete_module": 176,
    "quotactl": 179, "syslog": 103, "ptrace": 101, "kexec_load": 246, "add_key": 248,
    "request_key": 249, "keyctl": 250, "ioprio_set": 251, "mknodat": 259, "unshare": 272,
    "perf_event_open": 298, "fanotify_init": 300, "name_to_handle_at": 303,
    "open_by_handle_at": 304, "setns": 308, "process_vm_readv": 310, "kcmp": 312,
    "finit_module": 313, "sched_setattr": 314, "memfd_create": 319, "bpf": 321,
    "userfaultfd": 323, "io_uring_setup": 425, "open_tree": 428, "move_mount": 429,
    "fsopen": 430, "fsmount": 432, "pidfd_open": 434, "clone3": 435, "pidfd_getfd": 438,
    "mount_setattr": 442, "vhangup": 153,
}  # fmt: skip
NR = X86_64 if platform.machine() == "x86_64" else {}

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long

SIGCHLD = 17
CLONE_NEWNS, CLONE_NEWCGROUP, CLONE_NEWUTS = 0x00020000, 0x02000000, 0x04000000
CLONE_NEWIPC, CLONE_NEWUSER, CLONE_NEWPID = 0x08000000, 0x10000000, 0x20000000
CLONE_NEWNET, CLONE_NEWTIME = 0x40000000, 0x00000080
NAMESPACES = {
    "user": CLONE_NEWUSER, "mnt": CLONE_NEWNS, "pid": CLONE_NEWPID, "net": CLONE_NEWNET,
    "ipc": CLONE_NEWIPC, "uts": CLONE_NEWUTS, "cgroup": CLONE_NEWCGROUP, "time": CLONE_NEWTIME,
}  # fmt: skip


def params() -> dict[str, Any]:
    """What the test told this bot (params.json in its folder), or {}."""
    try:
        with open("params.json") as handle:
            return json.load(handle)
    except FileNotFoundError:
        return {}


def workdir() -> str:
    """A fresh folder of the bot's own for what an attack makes (device nodes, mount points,
    FIFOs): under $TMPDIR, which is the sandbox's private /tmp, or (should a bot ever run
    unsandboxed) arena's temporary HOME for it, removed when it stops; never the host's /tmp."""
    import tempfile

    return tempfile.mkdtemp(prefix="attack-", dir=os.environ.get("TMPDIR") or None)


def report(label: str, outcome: str, detail: object = "") -> None:
    text = str(detail).replace("\n", " ").replace("\r", " ")
    sys.stderr.write(f"ATTACK {label} {outcome} {text}".rstrip() + "\n")
    sys.stderr.flush()


def info(label: str, value: object) -> None:
    report(label, "info", json.dumps(value, sort_keys=True, default=str))


def errname(code: int | None) -> str:
    return errno.errorcode.get(code or 0, str(code))


def _arg(value: object) -> object:
    if value is None:
        return ctypes.c_void_p(None)
    if isinstance(value, str):
        return ctypes.c_char_p(value.encode())
    if isinstance(value, bytes):
        return ctypes.c_char_p(value)
    if isinstance(value, int):
        return ctypes.c_long(value)
    return value  # a ctypes object, byref(...) or pointer


def syscall(name: str, *args: object) -> tuple[int, int]:
    """A raw system call: (return value, errno when it returned -1 else 0)."""
    if not NR:  # not x86_64: the tests skip themselves there
        return -1, errno.ENOSYS
    ctypes.set_errno(0)
    result = libc.syscall(ctypes.c_long(NR[name]), *(_arg(a) for a in args))
    return result, ctypes.get_errno() if result == -1 else 0


def try_syscall(
    label: str, name: str, *args: object, undo: Callable[[int], object] | None = None
) -> tuple[int, int]:
    """A raw call reported as blocked (with its errno) or SUCCEEDED; ``undo`` cleans up after a
    success, so a hole found on a test machine does no lasting harm."""
    result, error = syscall(name, *args)
    if result == -1:
        report(label, "blocked", errname(error))
    else:
        report(label, "SUCCEEDED", f"returned {result}")
        if undo is not None:
            try:
                undo(result)
            except Exception:
                pass
    return result, error


def attempt(label: str, action: Callable[[], object]) -> object:
    """A Python-level attempt: an exception is ``blocked``, a return is ``SUCCEEDED``."""
    try:
        result = action()
    except OSError as exc:
        if exc.errno is not None and exc.errno < 0:  # getaddrinfo's own codes (EAI_*)
            report(label, "blocked", f"{type(exc).__name__}{exc.errno}")
        else:
            report(label, "blocked", errname(exc.errno) if exc.errno else type(exc).__name__)
        return None
    except Exception as exc:  # e.g. ValueError from setrlimit, gaierror from DNS
        report(label, "blocked", f"{type(exc).__name__}:{exc}".replace(" ", "_")[:120])
        return None
    report(label, "SUCCEEDED", "" if result is None else result)
    return result


def raw_clone(label: str, flags: int) -> None:
    """clone(2) with ``flags`` (plus SIGCHLD): a child made this way exits at once."""
    result, error = syscall("clone", flags | SIGCHLD, 0, 0, 0, 0)
    if result == 0:  # the child, should the call succeed
        os._exit(0)
    if result == -1:
        report(label, "blocked", errname(error))
        return
    os.waitpid(result, 0)
    report(label, "SUCCEEDED", f"child {result}")


def forked(body: Callable[[], int]) -> int:
    """Run ``body`` in a child process; its raw wait status."""
    pid = os.fork()
    if pid == 0:
        code = 99
        try:
            code = body()
        finally:
            os._exit(code)
    return os.waitpid(pid, 0)[1]


I386_GETPID = bytes([0xB8, 20, 0, 0, 0, 0xCD, 0x80, 0xC3])
"""x86 machine code: mov eax, 20 (getpid in the i386 ABI); int 0x80; ret."""


def i386_getpid() -> int:
    """getpid through the i386 ABI (int 0x80) from 64-bit code: 0 if it answered this
    process's pid, 1 if something else; a filter that refuses the ABI kills the process."""
    import mmap

    page = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
    page.write(I386_GETPID)
    address = ctypes.addressof(ctypes.c_char.from_buffer(page))
    result = ctypes.CFUNCTYPE(ctypes.c_int)(address)()
    return 0 if result == os.getpid() else 1


# -- the protocol ---------------------------------------------------------------------------------


def send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def send_raw(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def first_legal(legal: dict[str, Any]) -> Any:
    kind = legal["kind"]
    if kind == "choice":
        return legal["options"][0]
    if kind == "range":
        return legal["min"]
    if kind == "text":
        return ""
    return {key: first_legal(sub) for key, sub in legal["fields"].items()}


def play(
    *,
    name: str = "attack",
    on_request: Callable[[int, dict[str, Any]], str | None] | None = None,
    on_game_start: Callable[[dict[str, Any]], None] | None = None,
    on_game_over: Callable[[dict[str, Any]], None] | None = None,
    hello: str | None = None,
    on_event: Callable[[dict[str, Any]], None] | None = None,
) -> None:
    """Answer the referee until bye. on_request(n, request) runs at the n-th request (counted
    over the process's life) and may return a raw line to send instead of the first legal
    option; hello: a raw line to send as the hello; on_event(body) runs at each event."""
    requests = 0
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            if hello is not None:
                send_raw(hello)
            else:
                send({"type": "hello", "protocol": 1, "name": name, "version": "0"})
        elif kind == "game_start" and on_game_start is not None:
            on_game_start(message)
        elif kind == "game_over" and on_game_over is not None:
            on_game_over(message)
        elif kind == "event" and on_event is not None:
            on_event(message.get("event", {}))
        elif kind == "request":
            requests += 1
            raw = on_request(requests, message) if on_request is not None else None
            if raw is not None:
                send_raw(raw)
            else:
                answer = first_legal(message["legal"])
                send({"type": "action", "id": message["id"], "action": answer})
        elif kind == "bye":
            break
