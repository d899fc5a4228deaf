"""A read-only snapshot of a bot's folder, taken when the bot is loaded: what runs is exactly
what was hashed.

A bot's folder is written by someone trying to win. Reading it follows no link and opens no
special file (a FIFO would hang the read, a link to /dev/zero would never end); only regular
files, folders and symbolic links are taken, and a size cap bounds the copy. The copy lives in
a content-addressed cache (``~/.cache/arena/bots/DIGEST``, or under $XDG_CACHE_HOME or
$ARENA_CACHE), so a bot that rewrites its own files mid-league changes nothing that runs: the
sandbox mounts the snapshot, read-only, never the folder itself.

The digest is the one arena has always used for regular files (each file's relative path and
bytes, in sorted order, caches skipped), so a bot's identity in existing databases is kept;
a symbolic link counts as its path and its target text.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
from pathlib import Path

MAX_BYTES = 256 << 20
"""Largest bot folder (all its files together) arena copies."""
MAX_ENTRIES = 20_000
"""Most files, folders and links in a bot folder."""
SKIPPED_DIRS = frozenset({"__pycache__", ".git", ".mypy_cache", ".pytest_cache", ".ruff_cache"})
SKIPPED_SUFFIXES = (".pyc", ".log")
_CHUNK = 1 << 20


class SnapshotError(ValueError):
    """A bot folder that cannot be snapshotted; the message says which entry and why."""


def cache_root() -> Path:
    """Where snapshots are kept."""
    if os.environ.get("ARENA_CACHE"):
        return Path(os.environ["ARENA_CACHE"]) / "bots"
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "arena" / "bots"


def snapshot(directory: Path) -> tuple[str, Path]:
    """Copy ``directory`` into the cache; returns (digest, the snapshot's folder)."""
    root = cache_root()
    if root.resolve().is_relative_to(directory.resolve()):
        # The copy would land inside what is being copied, and copy itself without end.
        raise SnapshotError(
            f"arena's bot cache {root} is inside the bot folder {directory}: set ARENA_CACHE "
            "(or XDG_CACHE_HOME) to a folder outside it, or move the bot"
        )
    staging = Path(root, f".staging-{os.getpid()}-{os.urandom(4).hex()}")
    try:
        root.mkdir(parents=True, exist_ok=True, mode=0o700)
        staging.mkdir(mode=0o755)
    except OSError as exc:
        raise SnapshotError(
            f"cannot write arena's bot cache {root} ({exc.strerror or exc}): bots run from a "
            "snapshot kept there; make it writable, or set ARENA_CACHE (or XDG_CACHE_HOME) to "
            "a folder you may write"
        ) from None
    try:
        digest = _copy_tree(directory, staging)
        target = root / digest
        if target.is_dir():
            _remove(staging)  # the same content was snapshotted before
        else:
            _seal(staging)
            try:
                os.rename(staging, target)
            except OSError:  # another process stored the same snapshot meanwhile
                _remove(staging)
        return digest, target
    except BaseException:
        _remove(staging)
        raise


def _copy_tree(source: Path, destination: Path) -> str:
    """Copy regular files, folders and links (never followed) and return the digest, in the
    order the digest has always been computed: a folder's files sorted, then its subfolders."""
    digest = hashlib.sha256()
    budget = _Budget()
    pending: list[tuple[Path, Path]] = [(source, destination)]
    while pending:
        folder, copy = pending.pop(0)
        subfolders: list[tuple[Path, Path]] = []
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            raise SnapshotError(f"cannot read {folder}: {exc.strerror or exc}") from None
        for entry in entries:
            budget.entry(entry.path)
            relative = Path(entry.path).relative_to(source).as_posix()
            if entry.is_symlink():
                target = os.readlink(entry.path)
                os.symlink(target, copy / entry.name)
                digest.update(relative.encode() + b"\0->" + os.fsencode(target) + b"\0")
            elif entry.is_dir(follow_symlinks=False):
                if entry.name not in SKIPPED_DIRS:
                    (copy / entry.name).mkdir(mode=0o755)
                    subfolders.append((Path(entry.path), copy / entry.name))
            elif entry.is_file(follow_symlinks=False):
                if not entry.name.endswith(SKIPPED_SUFFIXES):
                    digest.update(relative.encode() + b"\0")
                    _copy_file(Path(entry.path), copy / entry.name, digest, budget)
                    digest.update(b"\0")
            else:
                raise SnapshotError(
                    f"{entry.path} is a {_kind(entry.path)}: a bot folder may hold only regular "
                    "files, folders and symbolic links; remove it"
                )
        pending[:0] = subfolders
    return digest.hexdigest()[:16]


def _copy_file(source: Path, destination: Path, digest: hashlib._Hash, budget: _Budget) -> None:
    # O_NOFOLLOW and O_NONBLOCK: if the entry was swapped for a link or a FIFO after it was
    # listed, the open fails or returns at once, and fstat tells what it really is.
    try:
        fd = os.open(source, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        raise SnapshotError(f"cannot read {source}: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise SnapshotError(f"{source} changed into a {_kind(source)} while being read")
        mode = 0o755 if info.st_mode & 0o111 else 0o644
        out = os.open(destination, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, mode)
        try:
            while chunk := os.read(fd, _CHUNK):
                budget.bytes(len(chunk), source)
                digest.update(chunk)
                os.write(out, chunk)
        finally:
            os.close(out)
    finally:
        os.close(fd)


class _Budget:
    def __init__(self) -> None:
        self.total = 0
        self.entries = 0

    def entry(self, path: str) -> None:
        self.entries += 1
        if self.entries > MAX_ENTRIES:
            raise SnapshotError(
                f"the bot folder has more than {MAX_ENTRIES} entries (at {path}); "
                "ship only what the bot needs to run"
            )

    def bytes(self, count: int, path: Path) -> None:
        self.total += count
        if self.total > MAX_BYTES:
            raise SnapshotError(
                f"the bot folder holds more than {MAX_BYTES >> 20} MiB (at {path}); "
                "ship only what the bot needs to run"
            )


def _kind(path: str | Path) -> str:
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return "vanished entry"
    for test, name in (
        (stat.S_ISFIFO, "FIFO (named pipe)"),
        (stat.S_ISSOCK, "socket"),
        (stat.S_ISCHR, "character device"),
        (stat.S_ISBLK, "block device"),
        (stat.S_ISLNK, "symbolic link"),
        (stat.S_ISDIR, "folder"),
    ):
        if test(mode):
            return name
    return "special file"


def _seal(folder: Path) -> None:
    """Make the snapshot read-only, files first, then each folder (links are left alone:
    chmod would follow them)."""
    for root, _, files in os.walk(folder, topdown=False):
        for name in files:
            path = os.path.join(root, name)
            if not os.path.islink(path):
                os.chmod(path, os.lstat(path).st_mode & 0o555)
        os.chmod(root, 0o555)


def _remove(folder: Path) -> None:
    if not folder.exists():
        return
    for root, _subdirs, _ in os.walk(folder):
        os.chmod(root, 0o755)
    shutil.rmtree(folder, ignore_errors=True)
