"""A cgroup per bot: its memory, processes and CPU counted and capped together, and a kill that
reaches every process it started.

Limits per process (setrlimit) do not add up: four children of 1.5 GiB each stay under a
2 GiB address-space limit, and a private /tmp is memory too. A cgroup counts all of a bot's
processes and its tmpfs pages, caps their number, shares out CPU, and lists every process so
all of them can be killed — children that called setsid included. The bot cannot leave it:
the cgroup file system is not mounted in its sandbox and it holds no capability to mount it.

Both hierarchies are handled:
- **cgroup v2** (one unified tree: current distributions, hosted CI runners). Controllers must
  be enabled in the parent's ``cgroup.subtree_control``, and a cgroup with enabled controllers
  may hold no process of its own, so the bots' parent is either a fresh ``arena`` cgroup under
  the root (as root) or the referee's own cgroup after the referee moved itself into a leaf
  beside its bots (a delegated cgroup, e.g. ``systemd-run --user --scope -p Delegate=yes``).
- **cgroup v1** (one tree per controller, still found on older hosts and some VMs): a cgroup
  under the referee's own in each of the pids, memory and cpu trees.

``host()`` finds out once per process what this machine allows; ``BotCgroup.create`` makes one
bot's cgroup and removes it again in ``remove``. The process joins it itself, before it runs
anything of the bot (see launcher.py), so nothing escapes between start and join.
"""

from __future__ import annotations

import errno
import functools
import os
import signal
import time
from dataclasses import dataclass, field

WANTED = ("memory", "pids", "cpu")
REQUIRED = ("memory", "pids")
"""Without these the sandbox cannot keep a bot to its share (cpu only shares out time)."""
CPU_PERIOD_US = 100_000


@dataclass(frozen=True)
class CgroupLimits:
    """What one bot's cgroup enforces."""

    memory_bytes: int
    """Memory of all its processes and its tmpfs, together (swap not allowed beyond it)."""
    pids: int
    """Processes and threads at once."""
    cpus: float
    """CPU time per wall-clock time (1.0 = one core), 0 = unlimited."""


@dataclass
class CgroupHost:
    """What this process may do with cgroups."""

    version: int | None
    """1 or 2; None where no usable hierarchy was found."""
    parents: dict[str, str] = field(default_factory=dict)
    """Controller -> the directory bot cgroups are made in (v2: one directory for all)."""
    controllers: tuple[str, ...] = ()
    """The controllers that will limit a bot (of WANTED)."""
    problem: str | None = None
    """Why bots cannot get the REQUIRED controllers here, and what to do about it."""

    @property
    def usable(self) -> bool:
        return self.problem is None

    def describe(self) -> str:
        if self.version is None:
            return "no cgroups"
        return f"cgroup v{self.version} ({', '.join(self.controllers) or 'no controllers'})"


class BotCgroup:
    """The cgroup(s) of one bot process: one directory on v2, one per controller on v1."""

    def __init__(self, version: int, dirs: dict[str, str]) -> None:
        self.version = version
        self.dirs = dirs
        """Controller (or "unified") -> its directory."""

    @classmethod
    def create(cls, host: CgroupHost, limits: CgroupLimits) -> BotCgroup:
        """Make the cgroup and write its limits; OSError if the host refuses."""
        name = f"bot-{os.getpid()}-{os.urandom(4).hex()}"
        if host.version == 2:
            path = os.path.join(host.parents["unified"], name)
            os.mkdir(path)
            group = cls(2, {"unified": path})
        else:
            dirs: dict[str, str] = {}
            group = cls(1, dirs)
            try:
                for controller, parent in host.parents.items():
                    dirs[controller] = os.path.join(parent, name)
                    os.mkdir(dirs[controller])
            except OSError:
                group.remove()
                raise
        try:
            group._limit(host.controllers, limits)
        except OSError:
            group.remove()
            raise
        return group

    # -- limits -------------------------------------------------------------------------------

    def _limit(self, controllers: tuple[str, ...], limits: CgroupLimits) -> None:
        quota = int(limits.cpus * CPU_PERIOD_US) if limits.cpus > 0 else 0
        if self.version == 2:
            d = self.dirs["unified"]
            if "memory" in controllers:
                _write(d, "memory.max", limits.memory_bytes)
                _write(d, "memory.swap.max", 0, optional=True)
            if "pids" in controllers:
                _write(d, "pids.max", limits.pids)
            if "cpu" in controllers and quota:
                _write(d, "cpu.max", f"{quota} {CPU_PERIOD_US}")
            return
        if "memory" in self.dirs:
            _write(self.dirs["memory"], "memory.limit_in_bytes", limits.memory_bytes)
            _write(self.dirs["memory"], "memory.memsw.limit_in_bytes", limits.memory_bytes, True)
        if "pids" in self.dirs:
            _write(self.dirs["pids"], "pids.max", limits.pids)
        if "cpu" in self.dirs and quota:
            _write(self.dirs["cpu"], "cpu.cfs_period_us", CPU_PERIOD_US)
            _write(self.dirs["cpu"], "cpu.cfs_quota_us", quota)

    # -- membership -------------------------------------------------------------------------

    @property
    def procs_files(self) -> list[str]:
        """The files a process writes its pid into to join (every controller's, on v1)."""
        return [os.path.join(d, "cgroup.procs") for d in self.dirs.values()]

    def pids(self) -> list[int]:
        """Every process in the cgroup now."""
        for d in self.dirs.values():
            try:
                with open(os.path.join(d, "cgroup.procs")) as procs:
                    return [int(line) for line in procs if line.strip()]
            except OSError:
                continue
        return []

    # -- accounting -------------------------------------------------------------------------

    def cpu_seconds(self) -> float | None:
        """CPU time used by every process that ever ran in the cgroup, exited ones included."""
        if self.version == 2:
            stat = _read_keyed(self.dirs["unified"], "cpu.stat")
            return stat["usage_usec"] / 1e6 if "usage_usec" in stat else None
        for controller in ("cpuacct", "cpu"):
            if controller in self.dirs:
                try:
                    with open(os.path.join(self.dirs[controller], "cpuacct.usage")) as usage:
                        return int(usage.read()) / 1e9
                except (OSError, ValueError):
                    continue
        return None

    def oom_kills(self) -> int:
        """How many of its processes the kernel killed for passing the memory cap."""
        if self.version == 2:
            return _read_keyed(self.dirs["unified"], "memory.events").get("oom_kill", 0)
        if "memory" in self.dirs:
            return _read_keyed(self.dirs["memory"], "memory.oom_control").get("oom_kill", 0)
        return 0

    # -- the end ----------------------------------------------------------------------------

    def kill_all(self) -> None:
        """SIGKILL every process in the cgroup until it is empty (a fork bomb may still be
        forking while we kill; the pids cap bounds how long that goes on)."""
        if self.version == 2:
            try:
                _write(self.dirs["unified"], "cgroup.kill", 1)  # Linux 5.14+: all at once
            except OSError:
                pass
        for _ in range(200):
            pids = self.pids()
            if not pids:
                return
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            time.sleep(0.001)

    def remove(self) -> None:
        """Kill what is left and remove the directories (killed processes take a moment to
        leave, so removal is retried for up to half a second)."""
        self.kill_all()
        for d in self.dirs.values():
            for _ in range(50):
                try:
                    os.rmdir(d)
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.01)


# -- finding out what the host allows -------------------------------------------------------------


@functools.cache
def host() -> CgroupHost:
    """What this process may do with cgroups (found once; forked workers inherit the answer)."""
    try:
        mounts = _mounts()
        own = _own_cgroups()
    except OSError:
        return CgroupHost(None, problem="cgroups are not available here (no /proc/self/cgroup)")
    v1 = {c: m for c, m in mounts.items() if c != "unified"}
    if "pids" in v1 or "memory" in v1:
        return prepare_v1(v1, own)
    if "unified" in mounts:
        return prepare_v2(mounts["unified"], own.get("", "/"))
    return CgroupHost(
        None, problem="no cgroup file system is mounted (mount cgroup2 on /sys/fs/cgroup)"
    )


def prepare_v1(mounts: dict[str, str], own: dict[str, str]) -> CgroupHost:
    """A parent cgroup ``arena`` under this process's own cgroup in each v1 tree."""
    parents: dict[str, str] = {}
    failures: list[str] = []
    for controller in ("pids", "memory", "cpu", "cpuacct"):
        if controller not in mounts:
            continue
        parent = os.path.join(mounts[controller], own.get(controller, "/").lstrip("/"), "arena")
        try:
            os.makedirs(parent, exist_ok=True)
            if not os.access(parent, os.W_OK):
                raise PermissionError(errno.EACCES, "not writable", parent)
        except OSError as exc:
            failures.append(f"{controller}: {exc.strerror or exc} ({parent})")
            continue
        if controller == "cpuacct" and mounts.get("cpu") == mounts["cpuacct"]:
            continue  # co-mounted with cpu: one directory serves both
        parents[controller] = parent
    for parent in parents.values():
        remove_stale(parent)
    controllers = tuple(c for c in WANTED if c in parents)
    problem = None
    missing = [c for c in REQUIRED if c not in controllers]
    if missing:
        problem = (
            f"bots need the {' and '.join(missing)} cgroup controller(s) to cap them, and this "
            f"user cannot create cgroups there ({'; '.join(failures) or 'not mounted'}): run "
            "arena as root, or give this user a delegated cgroup"
        )
    return CgroupHost(1, parents, controllers, problem)


def prepare_v2(mount: str, own_path: str) -> CgroupHost:
    """Find a v2 cgroup the bots can be made in, with memory, pids and cpu enabled for them.

    First a fresh ``arena`` cgroup under the root (works as root on a host; the root cgroup
    may hold processes and still delegate). Else the referee's own cgroup: the referee moves
    itself into a leaf ``arena-referee-PID`` so the cgroup holds no process and can hand its
    controllers down to the bots beside it (works in a delegated systemd scope or service).
    """
    tried: list[str] = []
    root_parent = os.path.join(mount, "arena")
    try:
        os.makedirs(root_parent, exist_ok=True)
        _enable(mount)
        _enable(root_parent)
        return _v2_host(root_parent)
    except OSError as exc:
        tried.append(f"{root_parent}: {exc.strerror or exc}")
    own = os.path.join(mount, own_path.lstrip("/"))
    try:
        if own.rstrip("/") != mount.rstrip("/"):
            _leave_for_leaf(own)
            _enable(own)
            return _v2_host(own)
    except OSError as exc:
        tried.append(f"{own}: {exc.strerror or exc}")
    host_ = _v2_host(own, check=False)
    host_.problem = (
        "bots need a cgroup v2 with the memory and pids controllers to cap them, and none "
        f"could be set up ({'; '.join(tried)}): run arena as root, or in a delegated scope: "
        "systemd-run --user --scope -p Delegate=yes arena ..."
    )
    return host_


def remove_stale(parent: str) -> None:
    """Remove bot cgroups left by referees that were killed outright (their processes died
    with them; the empty directories stay until someone removes them)."""
    try:
        names = os.listdir(parent)
    except OSError:
        return
    for name in names:
        parts = name.split("-")
        if len(parts) != 3 or parts[0] != "bot" or not parts[1].isdigit():
            continue
        try:
            os.kill(int(parts[1]), 0)
            continue  # its referee is alive
        except ProcessLookupError:
            pass
        except PermissionError:
            continue
        try:
            os.rmdir(os.path.join(parent, name))
        except OSError:
            pass  # still holds a process: leave it


def _v2_host(parent: str, check: bool = True) -> CgroupHost:
    remove_stale(parent)
    available = _read_words(parent, "cgroup.subtree_control")
    controllers = tuple(c for c in WANTED if c in available)
    missing = [c for c in REQUIRED if c not in controllers]
    if check and missing:
        raise OSError(errno.ENOTSUP, f"the {', '.join(missing)} controller(s) are not available")
    return CgroupHost(2, {"unified": parent}, controllers)


def _enable(directory: str) -> None:
    """Enable each wanted controller the directory has for its children (those it lacks are
    left out: cpu is optional, the caller checks the required ones)."""
    have = _read_words(directory, "cgroup.controllers")
    enabled = _read_words(directory, "cgroup.subtree_control")
    for controller in WANTED:
        if controller in have and controller not in enabled:
            _write(directory, "cgroup.subtree_control", f"+{controller}")


def _leave_for_leaf(own: str) -> None:
    """Move this process out of ``own`` into a leaf of its own, so ``own`` may enable
    controllers (a cgroup with controllers enabled for children holds no processes)."""
    leaf = os.path.join(own, f"arena-referee-{os.getpid()}")
    os.makedirs(leaf, exist_ok=True)
    _write(leaf, "cgroup.procs", os.getpid())


def _mounts() -> dict[str, str]:
    """Controller -> mount point for v1 hierarchies, "unified" -> the cgroup2 mount."""
    found: dict[str, str] = {}
    with open("/proc/self/mountinfo") as mountinfo:
        for line in mountinfo:
            before, _, after = line.partition(" - ")
            fields, tail = before.split(), after.split()
            if len(fields) < 5 or len(tail) < 3:
                continue
            point, fstype, options = fields[4], tail[0], tail[2].split(",")
            if fstype == "cgroup2":
                found.setdefault("unified", point)
            elif fstype == "cgroup":
                for option in options:
                    if option in ("pids", "memory", "cpu", "cpuacct"):
                        found.setdefault(option, point)
    return found


def _own_cgroups() -> dict[str, str]:
    """Controller -> this process's cgroup path in that tree ("" -> its v2 path)."""
    own: dict[str, str] = {}
    with open("/proc/self/cgroup") as cgroups:
        for line in cgroups:
            parts = line.rstrip("\n").split(":", 2)
            if len(parts) != 3:
                continue
            for controller in parts[1].split(","):
                own[controller] = parts[2]
    return own


def _write(directory: str, name: str, value: object, optional: bool = False) -> None:
    try:
        with open(os.path.join(directory, name), "w") as handle:
            handle.write(str(value))
    except FileNotFoundError:
        if not optional:
            raise


def _read_words(directory: str, name: str) -> set[str]:
    try:
        with open(os.path.join(directory, name)) as handle:
            return set(handle.read().split())
    except OSError:
        return set()


def _read_keyed(directory: str, name: str) -> dict[str, int]:
    """A cgroup file of "key value" lines, as numbers."""
    values: dict[str, int] = {}
    try:
        with open(os.path.join(directory, name)) as handle:
            for line in handle:
                key, _, value = line.partition(" ")
                if value.strip().lstrip("-").isdigit():
                    values[key] = int(value)
    except OSError:
        pass
    return values
