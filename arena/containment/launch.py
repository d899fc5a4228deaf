"""Everything needed to start one bot process contained: the command line, environment,
descriptors and cgroup, put together from the parts of this package.

The referee runs ``launcher.py`` (a fresh process, see there), which joins the cgroup, sets
the limits and execs bubblewrap, which builds the sandbox and runs the bot's command in it.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from arena.containment import bubblewrap, cgroups, seccomp
from arena.containment.limits import MIB, Limits, clean_environment
from arena.containment.readiness import SandboxUnavailable, readiness

LAUNCHER = str(Path(__file__).resolve().with_name("launcher.py"))


@dataclass
class Launch:
    """How to start one bot process; ``release`` after it started (or failed to)."""

    argv: list[str]
    env: dict[str, str]
    cwd: str
    cgroup: cgroups.BotCgroup | None
    pass_fds: tuple[int, ...] = ()
    scratch: str | None = None
    """The unsandboxed bot's temporary HOME, removed when it stops."""
    sandboxed: bool = True
    _parent_fds: list[int] = field(default_factory=list)

    def started(self) -> None:
        """Close the parent's copies of descriptors only the child needed."""
        for fd in self._parent_fds:
            os.close(fd)
        self._parent_fds.clear()

    def release(self) -> None:
        """Undo everything: descriptors, the cgroup (and whatever still runs in it), scratch."""
        self.started()
        if self.cgroup is not None:
            self.cgroup.remove()
            self.cgroup = None
        if self.scratch is not None:
            shutil.rmtree(self.scratch, ignore_errors=True)
            self.scratch = None


def prepare(command: tuple[str, ...], snapshot: Path, limits: Limits) -> Launch:
    """A Launch for ``command`` run in ``snapshot`` under ``limits``.

    Raises SandboxUnavailable when limits.sandbox is set and this machine cannot build the
    sandbox, OSError when the bot's cgroup cannot be made."""
    state = readiness()
    if limits.sandbox and not state.ready:
        raise SandboxUnavailable("bots cannot be sandboxed here: " + "; ".join(state.problems))
    group = None
    if state.cgroup.usable:
        group = cgroups.BotCgroup.create(
            state.cgroup,
            cgroups.CgroupLimits(limits.memory_mib * MIB, limits.processes, limits.cpus),
        )
    launch = Launch([], {}, str(snapshot), group, sandboxed=limits.sandbox)
    try:
        if limits.sandbox:
            uid = bubblewrap.new_bot_uid() if state.as_root else None
            seccomp_fd = _seccomp_fd(launch)
            argv = bubblewrap.sandbox_command(
                list(command),
                snapshot,
                scratch_bytes=limits.scratch_mib * MIB,
                seccomp_fd=seccomp_fd,
                uid=uid,
            )
            launch.env = clean_environment(bubblewrap.SCRATCH_DIR)
            own_user = uid is not None
        else:
            launch.scratch = tempfile.mkdtemp(prefix="arena-bot-home-")
            launch.env = clean_environment(launch.scratch)
            argv, own_user = list(command), False
        spec = {
            "parent": os.getpid(),
            "cgroup_procs": group.procs_files if group is not None else [],
            "rlimits": limits.rlimits(own_user),
            "no_new_privs": not limits.sandbox,
            "argv": argv,
        }
        launch.argv = [sys.executable, "-I", "-S", LAUNCHER, json.dumps(spec)]
        return launch
    except BaseException:
        launch.release()
        raise


def _seccomp_fd(launch: Launch) -> int | None:
    """A pipe holding the seccomp program, its read end passed to the child."""
    arch = seccomp.machine()
    if arch is None:
        return None
    program = seccomp.build_filter(arch)
    read_end, write_end = os.pipe()
    try:
        os.write(write_end, program)  # a few hundred bytes: fits any pipe buffer
    finally:
        os.close(write_end)
    launch.pass_fds += (read_end,)
    launch._parent_fds.append(read_end)
    return read_end


__all__ = ["LAUNCHER", "Launch", "SandboxUnavailable", "prepare"]
