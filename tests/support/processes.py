"""Finding the bot processes a test started, and only those.

Only this process's descendants are looked at, so no other process on the machine can make a
test pass or fail. A bot whose parent dies would be re-parented to init and drop out of that
tree, so while a test looks for leftovers (``adopting_orphans``) this process is made a child
subreaper: orphans of its descendants are re-parented to it and stay in view.
"""

from __future__ import annotations

import ctypes
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psutil

_PR_SET_CHILD_SUBREAPER = 36  # <linux/prctl.h>


@contextmanager
def adopting_orphans() -> Iterator[None]:
    """While inside, orphaned descendants of this process become its children (not init's).

    Adopted processes that exit stay zombies until this process exits; nothing here reaps
    them, so no exit status is taken from a subprocess a test is still waiting for.
    """
    _set_child_subreaper(True)
    try:
        yield
    finally:
        _set_child_subreaper(False)


def _set_child_subreaper(on: bool) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(_PR_SET_CHILD_SUBREAPER, int(on), 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER) failed")


def bot_processes(root: Path) -> list[str]:
    """Live descendants of this process that are bots whose folder or snapshot lies under
    ``root``, by command line: an unsandboxed bot by its working directory; a sandboxed one by
    its launcher's or bubblewrap's command line (which names the snapshot) or, for the bot
    itself, by the snapshot mounted in its mount namespace (its working directory there is
    /bot, which says nothing)."""
    found = []
    marker = str(root)
    tail = marker.split("/", 2)[-1]  # without a leading /tmp that may be its own mount
    for process in psutil.Process().children(recursive=True):
        try:
            if process.status() == psutil.STATUS_ZOMBIE:
                continue
            cmdline = " ".join(process.cmdline())
            cwd = process.cwd()
            mounts = Path(f"/proc/{process.pid}/mountinfo").read_text()
        except (psutil.Error, OSError):
            continue  # gone meanwhile
        # mountinfo's 4th field is the mounted folder's path within its file system
        sources = (line.split(" ", 4)[3] for line in mounts.splitlines())
        if cwd.startswith(marker) or marker in cmdline or any(tail in source for source in sources):
            found.append(cmdline)
    return found
