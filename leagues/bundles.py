"""Bot folders shipped to cluster workers, and checked there before anything runs.

The head packs each bot's snapshot (the read-only copy whose digest the league records) into
a tar archive in memory; a worker unpacks it into a staging folder of its own and snapshots
that into its own cache, which hashes it the way every bot is hashed. Only a copy whose digest
equals the recorded one is run: a different bot is an error, never a silent substitute. A
worker therefore needs no file system in common with the head.
"""

from __future__ import annotations

import io
import os
import shutil
import tarfile
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from arena.containment.snapshot import SnapshotError, snapshot
from arena.manifest import BotManifest


class BundleMismatch(RuntimeError):
    """What a worker received is not the bot the league recorded."""


@dataclass(frozen=True)
class BotBundle:
    """One bot folder as bytes, and the digest it must have when unpacked."""

    name: str
    digest: str
    archive: bytes
    """An uncompressed tar of the bot's snapshot (bot folders are small; compression would
    cost every worker time for little)."""


def pack(manifest: BotManifest) -> BotBundle:
    """The bot's snapshot as a tar archive (symbolic links stored as links, never followed)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as archive:
        for entry in sorted(os.listdir(manifest.snapshot)):
            archive.add(manifest.snapshot / entry, arcname=entry, recursive=True)
    return BotBundle(manifest.name, manifest.digest, buffer.getvalue())


def pack_all(manifests: Iterable[BotManifest]) -> dict[str, BotBundle]:
    """Each distinct bot once, by digest (entrants that are copies of a bot share it)."""
    bundles: dict[str, BotBundle] = {}
    for manifest in manifests:
        if manifest.digest not in bundles:
            bundles[manifest.digest] = pack(manifest)
    return bundles


def unpack(bundle: BotBundle, staging_root: Path) -> Path:
    """Unpack the bundle on this machine and return the verified snapshot that will run.

    The "tar" extraction filter refuses absolute member names, ".." and anything that would
    land outside the staging folder (through a link or otherwise); the links themselves are
    kept as they are, as the snapshot keeps them."""
    staging_root.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix="bundle-", dir=staging_root))
    try:
        with tarfile.open(fileobj=io.BytesIO(bundle.archive), mode="r:") as archive:
            archive.extractall(staging, filter="tar")
        digest, copy = snapshot(staging)
    except (tarfile.TarError, SnapshotError, OSError) as exc:
        raise BundleMismatch(f"bot {bundle.name!r}: the copy received is unusable: {exc}") from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    if digest != bundle.digest:
        raise BundleMismatch(
            f"bot {bundle.name!r}: the copy received has digest {digest}, the league recorded "
            f"{bundle.digest}; refusing to run a different bot (is arena the same version on "
            "the head and the workers?)"
        )
    return copy
