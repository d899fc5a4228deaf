"""Nothing outlives the referee: processes that die with their parent."""

from __future__ import annotations

import ctypes
import os

_PR_SET_PDEATHSIG = 1


def die_with_parent(signum: int, parent: int) -> bool:
    """Ask Linux to send this process ``signum`` when its parent dies, so a referee killed
    outright (SIGKILL, OOM) leaves no worker behind. Returns False when ``parent`` is gone
    already (the request came too late to ever fire): the caller should exit at once."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signum, 0, 0, 0)
    except (OSError, AttributeError):
        pass  # not Linux: nothing to ask for
    return os.getppid() == parent
