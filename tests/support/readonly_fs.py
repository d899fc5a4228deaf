"""Making a database file or its folder really read-only for a test, whoever runs the tests.

Root ignores file permissions, so as root a folder is made read-only with a read-only bind
mount and a file with `chattr +i` (immutable); other users get plain permissions, which they
cannot ignore. A test that cannot set its situation up here is skipped, never faked.
"""

from __future__ import annotations

import gc
import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

IS_ROOT = os.geteuid() == 0


def _run(*command: str) -> bool:
    if shutil.which(command[0]) is None:
        return False
    return subprocess.run(command, capture_output=True).returncode == 0


@contextmanager
def read_only_folder(folder: Path, mountpoint: Path) -> Iterator[Path]:
    """The folder, seen read-only: yields the path to use (a read-only bind mount of it on
    mountpoint as root, else the folder itself without write permission)."""
    if not IS_ROOT:
        folder.chmod(0o555)
        try:
            yield folder
        finally:
            folder.chmod(0o755)
        return
    mountpoint.mkdir()
    if not _run("mount", "--bind", str(folder), str(mountpoint)):
        pytest.skip("a read-only folder needs a bind mount here (root without mount rights)")
    try:
        if not _run("mount", "-o", "remount,bind,ro", str(mountpoint)):
            pytest.skip("could not remount the bind mount read-only")
        yield mountpoint
    finally:
        gc.collect()  # connections the commands left to the garbage collector keep it busy
        if not _run("umount", str(mountpoint)):
            _run("umount", "--lazy", str(mountpoint))


@contextmanager
def read_only_file(path: Path) -> Iterator[None]:
    """The file cannot be written (immutable as root, mode 0444 otherwise)."""
    if not IS_ROOT:
        path.chmod(0o444)
        try:
            yield
        finally:
            path.chmod(0o644)
        return
    if not _run("chattr", "+i", str(path)):
        pytest.skip("chattr +i is not available here (file system or capabilities)")
    try:
        yield
    finally:
        _run("chattr", "-i", str(path))
