"""The bot's view of the machine: bubblewrap, where installed.

A bot runs in new namespaces: no network (a network namespace with nothing in it), its own
process ids and hostname, and a filesystem holding only read-only system files (/usr, /etc,
the libraries), the Python that runs arena with the SDK, a private /tmp, and the bot's own
directory (read-write: its working directory). Not the database, not the league file, not
other bots' directories, not the referee's home. Where bubblewrap is missing the bot runs
unwrapped and the start-up report says so.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from pathlib import Path

import protocol

SYSTEM_DIRS = ("/usr", "/etc", "/lib", "/lib64", "/bin", "/sbin")


@functools.cache
def bwrap_available() -> bool:
    """True when bubblewrap is installed and works here (it needs user namespaces or root)."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return False
    try:
        probe = subprocess.run(
            [bwrap, "--ro-bind", "/", "/", "--unshare-net", "true"],
            capture_output=True,
            timeout=10,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return probe.returncode == 0


def python_dirs() -> list[str]:
    """What a Python bot using the SDK needs to see: the interpreter's installation, the
    virtual environment, and the protocol package (the SDK)."""
    dirs = {sys.base_prefix, sys.prefix, str(Path(protocol.__file__).resolve().parent)}
    real = Path(os.path.realpath(sys.executable)).parent.parent
    dirs.add(str(real))
    return sorted(dirs)


def sandboxed(command: list[str] | tuple[str, ...], bot_dir: Path) -> list[str]:
    """The command wrapped in bubblewrap (call only when bwrap_available())."""
    args = [
        shutil.which("bwrap") or "bwrap",
        "--die-with-parent",
        "--unshare-net",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-pid",
        "--new-session",  # no TIOCSTI into the referee's terminal
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--tmpfs",
        "/tmp",
    ]
    for system in SYSTEM_DIRS:
        args += ["--ro-bind-try", system, system]
    for directory in python_dirs():
        args += ["--ro-bind-try", directory, directory]
    bot = str(bot_dir.resolve())
    args += ["--bind", bot, bot, "--chdir", bot, "--"]
    return args + list(command)
