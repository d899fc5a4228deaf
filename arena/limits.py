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
import time
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
    sandbox: bool = True
    """Run the bot under bubblewrap (no network, only its own directory) where available."""

    def preexec(self, cgroup: PidsCgroup | None = None) -> Callable[[], None]:
        """A function for subprocess's preexec_fn that applies these limits in the child
        (and moves it into its pids cgroup, if it has one)."""
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
            if cgroup is not None:
                cgroup.join()
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


class PidsCgroup:
    """A cgroup (v1 pids controller) of one bot: caps how many processes it may have at once,
    which binds even root (RLIMIT_NPROC does not), and holds every process the bot starts, so
    all of them can be killed even if they left its process group. Linux only; where the
    controller is not writable, `create` returns None and only the rlimits apply."""

    ROOT = "/sys/fs/cgroup/pids"

    def __init__(self, path: str) -> None:
        self.path = path

    @classmethod
    def available(cls) -> bool:
        return os.access(cls.ROOT, os.W_OK)

    @classmethod
    def create(cls, max_pids: int) -> PidsCgroup | None:
        if max_pids <= 0 or not cls.available():
            return None
        path = os.path.join(cls.ROOT, "arena", f"bot-{os.getpid()}-{os.urandom(4).hex()}")
        try:
            os.makedirs(path)
            with open(os.path.join(path, "pids.max"), "w") as limit:
                limit.write(str(max_pids))
        except OSError:
            return None
        return cls(path)

    def join(self) -> None:
        """Move the calling process into the cgroup (called in the child before exec)."""
        with open(os.path.join(self.path, "cgroup.procs"), "w") as procs:
            procs.write(str(os.getpid()))

    def pids(self) -> list[int]:
        try:
            with open(os.path.join(self.path, "cgroup.procs")) as procs:
                return [int(line) for line in procs if line.strip()]
        except OSError:
            return []

    def kill_all(self) -> None:
        """SIGKILL every process in the cgroup, until it is empty (a fork bomb may still be
        forking while we kill), then remove it."""
        for _ in range(100):
            pids = self.pids()
            if not pids:
                break
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        for _ in range(50):
            try:
                os.rmdir(self.path)
                return
            except FileNotFoundError:
                return
            except OSError:
                time.sleep(0.01)  # killed processes take a moment to leave the cgroup


def protections() -> list[str]:
    """What containment is active on this machine, in words (reported at start-up)."""
    active = [
        "rlimits (CPU, memory, files, file size)",
        "clean environment",
        "own process group",
        "killed with the referee (parent-death signal)",
    ]
    if PidsCgroup.available():
        active.append("process cap and kill-all via the pids cgroup")
    else:
        active.append("no pids cgroup here: the process cap relies on RLIMIT_NPROC (not for root)")
    from arena.sandbox import bwrap_available

    if bwrap_available():
        active.append("bubblewrap: no network, only the bot's own directory and system files")
    else:
        active.append(
            "NO bubblewrap here: bots can use the network and read files (install bubblewrap)"
        )
    return active
