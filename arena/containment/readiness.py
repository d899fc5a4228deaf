"""Can bots be contained on this machine? Each missing piece gets its own message and fix.

No sandbox, no untrusted bots: ``play``, ``check``, ``league run`` and ``regress`` call
``require`` before they start a bot, and it refuses with these messages unless the user said
``--unsandboxed`` (then a warning is printed and the games are recorded as unsandboxed).
The probe is the real thing: it starts the sandbox exactly as a bot would be started and
runs ``true`` in it, so what it approves is what bots get.
"""

from __future__ import annotations

import functools
import os
import platform
import subprocess
from dataclasses import dataclass
from pathlib import Path

from arena.containment import bubblewrap, cgroups, seccomp

INSTALL_HINT = (
    "install bubblewrap (Debian/Ubuntu: sudo apt-get install bubblewrap; Fedora: sudo dnf "
    "install bubblewrap; or `make sandbox` in arena's checkout)"
)
UNSANDBOXED_HINT = "or pass --unsandboxed to run bots without containment (only bots you trust)"


class SandboxUnavailable(RuntimeError):
    """Bots cannot be contained here; the message says why and what to do."""


@dataclass(frozen=True)
class Readiness:
    """What containment this machine gives a bot."""

    problems: tuple[str, ...]
    """Each reason the sandbox cannot be built here, with its fix (empty: ready)."""
    cgroup: cgroups.CgroupHost
    seccomp_arch: str | None
    as_root: bool

    @property
    def ready(self) -> bool:
        return not self.problems

    def protections(self) -> list[str]:
        """What is enforced, in words, for the start-up line."""
        if not self.ready:
            return ["NONE of the sandbox (see the warning above)", "rlimits", "clean environment"]
        who = "its own unprivileged user" if self.as_root else "a user namespace"
        lines = [
            f"bubblewrap as {who}, no capabilities, no network, read-only snapshot, private /tmp",
            f"seccomp ({self.seccomp_arch})" if self.seccomp_arch else "no seccomp filter",
            f"{self.cgroup.describe()} caps per bot",
            "rlimits",
            "killed with the referee",
        ]
        return lines


@functools.cache
def readiness() -> Readiness:
    """Found once per process (workers forked later inherit it)."""
    problems: list[str] = []
    if platform.system() != "Linux":
        problems.append(
            f"the bot sandbox needs Linux (namespaces, cgroups, seccomp); this is "
            f"{platform.system()}: run arena on Linux, {UNSANDBOXED_HINT}"
        )
        return Readiness(tuple(problems), cgroups.CgroupHost(None), None, False)
    root = bubblewrap.as_root()
    host = cgroups.host()
    if host.problem:
        problems.append(host.problem)
    arch = seccomp.machine()  # None: no filter for this architecture (said at start-up)
    if bubblewrap.bwrap_path() is None:
        problems.append(f"bubblewrap (bwrap) is not installed: {INSTALL_HINT}, {UNSANDBOXED_HINT}")
    elif root and bubblewrap.setpriv_path() is None:
        problems.append(
            f"setpriv (util-linux) is not installed; arena needs it to drop a bot to its own "
            f"user: install util-linux, {UNSANDBOXED_HINT}"
        )
    else:
        failure = probe()
        if failure is not None:
            problems.append(diagnose(failure, root, sysctls()))
    return Readiness(tuple(problems), host, arch, root)


def require(unsandboxed: bool) -> Readiness:
    """The readiness, or SandboxUnavailable unless the user chose to run unsandboxed."""
    state = readiness()
    if not state.ready and not unsandboxed:
        raise SandboxUnavailable("bots cannot be sandboxed here: " + "; ".join(state.problems))
    return state


def probe() -> str | None:
    """Run ``true`` in the sandbox a bot gets; None if it worked, else what bwrap said."""
    uid = bubblewrap.new_bot_uid() if bubblewrap.as_root() else None
    empty = Path(os.path.dirname(os.path.abspath(__file__)))  # any readable folder will do
    command = bubblewrap.sandbox_command(
        ["true"], empty, scratch_bytes=1 << 20, seccomp_fd=None, uid=uid
    )
    try:
        result = subprocess.run(command, capture_output=True, timeout=20, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return str(exc)
    if result.returncode == 0:
        return None
    said = result.stderr.decode("utf-8", "replace").strip().splitlines()
    return said[-1] if said else f"exit code {result.returncode}"


def sysctls() -> dict[str, str]:
    """The kernel settings that decide whether unprivileged user namespaces work."""
    values = {}
    for name in (
        "kernel/unprivileged_userns_clone",
        "user/max_user_namespaces",
        "kernel/apparmor_restrict_unprivileged_userns",
    ):
        try:
            values[name.replace("/", ".")] = Path("/proc/sys", name).read_text().strip()
        except OSError:
            continue
    return values


def diagnose(failure: str, root: bool, settings: dict[str, str]) -> str:
    """One message for why bubblewrap could not start, with the fix for that cause."""
    said = f"bubblewrap failed ({failure})"
    if not root:
        if settings.get("kernel.apparmor_restrict_unprivileged_userns") == "1":
            return (
                f"{said}: AppArmor forbids unprivileged user namespaces here (Ubuntu 23.10 and "
                "later). Allow them for bwrap with an AppArmor profile (README, Containment), "
                "or `sudo sysctl kernel.apparmor_restrict_unprivileged_userns=0`, or run arena "
                f"as root, {UNSANDBOXED_HINT}"
            )
        if settings.get("kernel.unprivileged_userns_clone") == "0":
            return (
                f"{said}: unprivileged user namespaces are disabled: `sudo sysctl "
                f"kernel.unprivileged_userns_clone=1`, or run arena as root, {UNSANDBOXED_HINT}"
            )
        if settings.get("user.max_user_namespaces") == "0":
            return (
                f"{said}: user namespaces are disabled: `sudo sysctl user.max_user_namespaces="
                f"15000`, or run arena as root, {UNSANDBOXED_HINT}"
            )
        return (
            f"{said}: it needs unprivileged user namespaces (or run arena as root); "
            f"{UNSANDBOXED_HINT}"
        )
    return f"{said}, even as root (inside a container without CAP_SYS_ADMIN?); {UNSANDBOXED_HINT}"
