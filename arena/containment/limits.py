"""How much of the machine one bot may use, and the environment it starts with."""

from __future__ import annotations

import os
import resource
import sys
from dataclasses import dataclass

MIB = 1 << 20


@dataclass(frozen=True)
class Limits:
    """The share of the machine one bot gets (0 = no limit of that kind)."""

    cpu_s: int = 3600
    """CPU seconds of each of its processes over its whole life (it plays many games): a
    runaway loop is killed by the kernel. Per-decision time is the referee's deadline."""
    memory_mib: int = 2048
    """Memory of all its processes and its /tmp together (the cgroup's cap); also each
    process's address space, so one huge allocation fails inside the bot (MemoryError)
    instead of getting it killed."""
    processes: int = 64
    """Processes and threads at once, all of its processes together."""
    cpus: float = 1.0
    """CPU time per wall-clock second, all its processes together (1.0 = one core)."""
    open_files: int = 256
    """File descriptors per process."""
    file_size_mib: int = 64
    """Largest file it may write."""
    scratch_mib: int = 64
    """Size of its private /tmp (also its HOME), counted in its memory."""
    sandbox: bool = True
    """Run it in the sandbox (false only when the user says --unsandboxed)."""

    def rlimits(self, own_user: bool) -> list[tuple[int, int]]:
        """(resource, value) pairs the launcher sets before the bot runs. own_user: the bot
        runs as a user of its own, so RLIMIT_NPROC (which counts every process of a user)
        caps just the bot; for a bot sharing the referee's user it would count theirs too."""
        pairs = [
            (resource.RLIMIT_CPU, self.cpu_s),
            (resource.RLIMIT_AS, self.memory_mib * MIB),
            (resource.RLIMIT_NOFILE, self.open_files),
            (resource.RLIMIT_FSIZE, self.file_size_mib * MIB),
        ]
        pairs = [(kind, value) for kind, value in pairs if value > 0]
        # No core dumps, no real-time priority, and a second process cap that binds the
        # bot's own (unprivileged) user even where no pids cgroup does.
        pairs += [(resource.RLIMIT_CORE, 0), (resource.RLIMIT_RTPRIO, 0)]
        if own_user and self.processes > 0:
            pairs.append((resource.RLIMIT_NPROC, self.processes))
        return pairs


DEFAULT_LIMITS = Limits()


def clean_environment(home: str) -> dict[str, str]:
    """The whole environment a bot gets: a PATH that finds arena's Python first, a UTF-8
    locale, HOME and TMPDIR in its scratch space. Nothing else of the referee's."""
    python_dir = os.path.dirname(sys.executable)
    return {
        "PATH": f"{python_dir}:/usr/local/bin:/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "HOME": home,
        "TMPDIR": home,
        "PYTHONDONTWRITEBYTECODE": "1",  # its folder is read-only: no __pycache__ attempts
        "PYTHONUNBUFFERED": "1",
    }


def process_cpu_seconds(pid: int) -> float | None:
    """CPU time (user + system) of a process and its reaped children, from /proc; None where
    /proc is not available or the process is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
    except OSError:
        return None
    # after the command name: state is field 3, so utime..cstime (14..17) are [11:15]
    ticks = sum(int(value) for value in fields[11:15])
    return ticks / os.sysconf("SC_CLK_TCK")
