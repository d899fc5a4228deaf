"""Attack: dump core (a core file is the process's memory, written where the kernel's
core_pattern says, by the kernel). A child makes itself dumpable, moves to a writable folder of
its own and crashes; the parent reports whether the kernel wrote a core, and which core files
it can find."""

import ctypes
import os

from attacklib import forked, info, libc, play, workdir

PR_SET_DUMPABLE = 4
WORK = workdir()


def crash() -> int:
    libc.prctl(PR_SET_DUMPABLE, 1, 0, 0, 0)
    os.chdir(WORK)  # a writable working directory, for core_pattern "core"
    ctypes.string_at(0)  # SIGSEGV
    return 0


def on_request(number, request):
    if number == 1:
        wait_status = forked(crash)
        cores = [f"{d}/{n}" for d in (WORK, "/bot") for n in os.listdir(d) if n.startswith("core")]
        info("core", {"signal": os.WTERMSIG(wait_status) if os.WIFSIGNALED(wait_status) else None,
                      "dumped": os.WCOREDUMP(wait_status), "files": cores})  # fmt: skip
    return None


play(name="coredump", on_request=on_request)
