"""Containment of a bot process: resource limits and a clean environment.

Bots are untrusted programs. Each runs with operating-system limits (setrlimit, applied in
the child just before it executes the bot), in an environment holding only what a program
needs to start, so nothing of the referee's environment (tokens, paths, settings) leaks in.
"""

from __future__ import annotations

import ctypes
import os
import resource
import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass

MIB = 1 << 20


@dataclass(frozen=True)
class Limits:
    """Per-process limits for a bot (0 = no limit of that kind)."""

    cpu_s: int = 3600
    """CPU seconds over the process's whole life (it plays many games): a runaway loop is
    killed by the kernel with SIGXCPU/SIGKILL. Per-decision time is the referee's deadline."""
    memory_mib: int = 2048
    """Address space (RLIMIT_AS): allocations beyond it fail inside the bot."""
    processes: int = 64
    """Processes of the bot's user (RLIMIT_NPROC; does not bind root, see SPEC.md)."""
    open_files: int = 256
    """File descriptors (RLIMIT_NOFILE)."""
    file_size_mib: int = 64
    """Largest file the bot may write (RLIMIT_FSIZE): past it, writes fail with SIGXFSZ."""

    def preexec(self) -> Callable[[], None]:
        """A function for subprocess's preexec_fn that applies these limits in the child."""
        pairs = [
            (resource.RLIMIT_CPU, self.cpu_s),
            (resource.RLIMIT_AS, self.memory_mib * MIB),
            (resource.RLIMIT_NPROC, self.processes),
            (resource.RLIMIT_NOFILE, self.open_files),
            (resource.RLIMIT_FSIZE, self.file_size_mib * MIB),
            (resource.RLIMIT_CORE, 0),
        ]

        def apply() -> None:
            die_with_parent(signal.SIGKILL)
            for kind, value in pairs:
                if kind != resource.RLIMIT_CORE and value <= 0:
                    continue
                _, hard = resource.getrlimit(kind)
                ceiling = value if hard == resource.RLIM_INFINITY else min(value, hard)
                resource.setrlimit(kind, (ceiling, ceiling))

        return apply


DEFAULT_LIMITS = Limits()

_PR_SET_PDEATHSIG = 1


def die_with_parent(signum: int) -> None:
    """Ask Linux to send this process signum when its parent dies, so a referee killed
    outright (SIGKILL, OOM) does not leave its bots or workers running. No-op elsewhere."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signum, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def clean_environment(home: str) -> dict[str, str]:
    """The whole environment a bot gets: a PATH that finds arena's Python first, a UTF-8
    locale, HOME set to its own directory. Nothing else of the referee's environment."""
    python_dir = os.path.dirname(sys.executable)
    return {
        "PATH": f"{python_dir}:/usr/local/bin:/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "HOME": home,
        "PYTHONDONTWRITEBYTECODE": "1",  # a bot does not write into its own directory
        "PYTHONUNBUFFERED": "1",
    }


def cpu_seconds(pid: int) -> float | None:
    """CPU time (user + system) used by a process and its reaped children, from /proc; None
    where /proc is not available or the process is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
    except OSError:
        return None
    # after the command name: state is field 3, so utime..cstime (14..17) are [11:15]
    ticks = sum(int(value) for value in fields[11:15])
    return ticks / os.sysconf("SC_CLK_TCK")
