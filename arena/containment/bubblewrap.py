"""The bot's view of the machine: a bubblewrap sandbox, unprivileged inside.

A bot runs in new namespaces: no network (a network namespace with nothing in it), its own
process ids, IPC, hostname and cgroup view, and a file system holding only read-only system
files (/usr, /etc, the libraries), the Python that runs arena with the SDK, its own snapshot
at /bot (read-only, its working directory) and a private size-capped /tmp (its HOME), which
is its only writable space. Not the database, not the league file, not other bots, not the
referee's home.

Inside, the bot is an ordinary user with no capabilities, no_new_privs set and a seccomp
filter (seccomp.py); it cannot mount, remount, make device nodes, trace, or make namespaces.
How it gets there depends on who runs arena:
- **as root**: bubblewrap sets up the namespaces with root's rights (so it can mount the
  interpreter even from a folder only root may enter), then ``setpriv`` drops to a user id of
  the bot's own (a fresh, unused one per bot process), clears every capability, the bounding
  set and the supplementary groups, before the bot's command runs. On the host the bot is
  that unprivileged user: host files that are not world-readable stay unreadable.
- **as another user**: bubblewrap runs unprivileged in a new user namespace (the kernel must
  allow those; readiness.py says how when it does not), mapping only that user, with
  further user namespaces disabled.
"""

from __future__ import annotations

import os
import secrets
import shutil
import sys
from pathlib import Path, PurePosixPath

import protocol

SYSTEM_DIRS = ("/usr", "/etc", "/lib", "/lib64", "/lib32", "/bin", "/sbin")
BOT_DIR = "/bot"
SCRATCH_DIR = "/tmp"
FIRST_BOT_UID = 0x4000_0000
"""Bot user ids are drawn above this (ids no real account uses), one per bot process."""
HOSTNAME = "arena-bot"


def bwrap_path() -> str | None:
    return shutil.which("bwrap")


def setpriv_path() -> str | None:
    return shutil.which("setpriv")


def as_root() -> bool:
    return os.geteuid() == 0


def python_dirs() -> list[str]:
    """What a Python bot using the SDK needs to see: the interpreter's installation, the
    virtual environment, and the protocol package (the SDK)."""
    dirs = {sys.base_prefix, sys.prefix, str(Path(protocol.__file__).resolve().parent)}
    dirs.add(str(Path(os.path.realpath(sys.executable)).parent.parent))
    return sorted(dirs)


def new_bot_uid() -> int:
    """A user id for one bot process, unlikely to be anyone else's (2**24 to choose from)."""
    return FIRST_BOT_UID + secrets.randbelow(1 << 24)


def sandbox_command(
    command: list[str],
    snapshot: Path,
    *,
    scratch_bytes: int,
    seccomp_fd: int | None,
    uid: int | None,
) -> list[str]:
    """``command`` wrapped in bubblewrap. uid: the bot's own user id when arena runs as root
    (None otherwise); seccomp_fd: a descriptor holding the filter program, or None."""
    args = [
        bwrap_path() or "bwrap",
        "--die-with-parent",
        "--unshare-net",
        "--unshare-ipc",
        "--unshare-pid",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--hostname",
        HOSTNAME,
        "--new-session",  # no TIOCSTI into the referee's terminal
    ]
    if uid is None:
        args += ["--unshare-user", "--disable-userns"]
    else:
        # bubblewrap runs with root's rights to build the mounts; setpriv (below) needs these
        # three capabilities to drop to the bot's user, and drops them itself.
        args += ["--cap-drop", "ALL"]
        args += ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID", "--cap-add", "CAP_SETPCAP"]
    for system in SYSTEM_DIRS:
        args += ["--ro-bind-try", system, system]
    # The scratch tmpfs first: Python may live under /tmp (a checkout's .venv there), and a
    # later mount on /tmp would hide it.
    args += ["--proc", "/proc", "--dev", "/dev"]
    args += ["--perms", "1777", "--size", str(scratch_bytes), "--tmpfs", SCRATCH_DIR]
    made: set[str] = set()
    bound: list[str] = []
    for directory in python_dirs():  # sorted: a folder comes before what lies inside it
        if any(directory == b or directory.startswith(b + "/") for b in bound):
            continue  # visible already
        args += _parents(directory, made)
        args += ["--ro-bind-try", directory, directory]
        bound.append(directory)
    args += ["--ro-bind", str(snapshot), BOT_DIR, "--chdir", BOT_DIR]
    if seccomp_fd is not None:
        args += ["--seccomp", str(seccomp_fd)]
    args.append("--")
    if uid is not None:
        args += [
            setpriv_path() or "setpriv",
            f"--reuid={uid}",
            f"--regid={uid}",
            "--clear-groups",
            "--inh-caps=-all",
            "--bounding-set=-all",
            "--no-new-privs",
            "--",
        ]
    return args + command


def _parents(directory: str, made: set[str]) -> list[str]:
    """Create the folders above a bind mount as world-traversable: bubblewrap would copy
    their host permissions, and a folder like /root (0700) would lock the bot's user out of
    the interpreter below it."""
    args: list[str] = []
    path = PurePosixPath(directory)
    for parent in reversed(path.parents):
        text = str(parent)
        if (
            text == "/"
            or text in made
            or text == SCRATCH_DIR  # the scratch tmpfs: already there, and must stay 1777
            or any(text == s or text.startswith(s + "/") for s in SYSTEM_DIRS)
        ):
            continue
        made.add(text)
        args += ["--perms", "0755", "--dir", text]
    return args
