"""A bot's folder is copied, never followed, refused when it holds special files, and sealed."""

from __future__ import annotations

import hashlib
import json
import os
import socket
import stat
from pathlib import Path

import pytest

from arena.containment import snapshot as snap
from arena.manifest import ManifestError, load_bot


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("ARENA_CACHE", str(tmp_path / "cache"))


def make_bot(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "bot.toml").write_text(
        'name = "b"\nversion = "1"\ncommand = ["{python}", "bot.py"]\n'
    )
    (folder / "bot.py").write_text("print('hello')\n")
    (folder / "lib").mkdir(exist_ok=True)
    (folder / "lib" / "data.txt").write_text("weights")
    return folder


def old_digest(directory: Path) -> str:
    """The digest arena used before snapshots (regular files only): identities must not move."""
    digest = hashlib.sha256()
    for root, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if d not in snap.SKIPPED_DIRS)
        for filename in sorted(files):
            if filename.endswith(snap.SKIPPED_SUFFIXES):
                continue
            full = Path(root, filename)
            digest.update(full.relative_to(directory).as_posix().encode() + b"\0")
            digest.update(full.read_bytes())
            digest.update(b"\0")
    return digest.hexdigest()[:16]


def test_the_snapshot_is_a_sealed_copy_and_the_digest_is_unchanged(tmp_path):
    bot = make_bot(tmp_path / "bot")
    (bot / "__pycache__").mkdir()
    (bot / "__pycache__" / "x.pyc").write_bytes(b"cache")
    manifest = load_bot(bot)
    assert manifest.digest == old_digest(bot)
    copy = manifest.snapshot
    assert (copy / "lib" / "data.txt").read_text() == "weights"
    assert not (copy / "__pycache__").exists(), "caches are not part of the bot"
    assert not os.stat(copy).st_mode & 0o222 and not os.stat(copy / "bot.py").st_mode & 0o222
    assert copy.parent == tmp_path / "cache" / "bots" and copy.name == manifest.digest


def test_editing_the_folder_later_changes_nothing_that_runs(tmp_path):
    bot = make_bot(tmp_path / "bot")
    manifest = load_bot(bot)
    (bot / "bot.py").write_text("print('rewritten mid-league')\n")
    assert (manifest.snapshot / "bot.py").read_text() == "print('hello')\n"
    assert load_bot(bot).digest != manifest.digest, "reloading sees a new bot"


def test_the_same_content_shares_one_snapshot(tmp_path):
    one, two = make_bot(tmp_path / "one"), make_bot(tmp_path / "two")
    assert load_bot(one).snapshot == load_bot(two).snapshot


def test_a_fifo_is_refused_without_hanging(tmp_path):
    bot = make_bot(tmp_path / "bot")
    os.mkfifo(bot / "trap")
    with pytest.raises(ManifestError, match=r"trap is a FIFO \(named pipe\).*remove it"):
        load_bot(bot)
    assert [p.name for p in (tmp_path / "cache" / "bots").iterdir()] == [], "no staging left"


def test_a_socket_is_refused(tmp_path):
    bot = make_bot(tmp_path / "bot")
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(bot / "sock"))
        with pytest.raises(ManifestError, match="sock is a socket"):
            load_bot(bot)
    finally:
        server.close()


def test_links_are_copied_as_links_never_followed(tmp_path):
    bot = make_bot(tmp_path / "bot")
    os.symlink("/dev/zero", bot / "zero")
    os.symlink("loop", bot / "loop")
    os.symlink("/etc", bot / "etc-dir")
    manifest = load_bot(bot)  # reading /dev/zero would never end; a loop would raise
    copy = manifest.snapshot
    assert os.readlink(copy / "zero") == "/dev/zero"
    assert os.readlink(copy / "loop") == "loop"
    assert stat.S_ISLNK(os.lstat(copy / "etc-dir").st_mode)
    assert not (copy / "etc-dir" / "passwd").is_file() or os.path.islink(copy / "etc-dir")
    os.remove(bot / "zero")
    os.symlink("/dev/null", bot / "zero")
    assert load_bot(bot).digest != manifest.digest, "a link's target is part of the bot"


def test_a_folder_past_the_size_cap_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(snap, "MAX_BYTES", 1000)
    bot = make_bot(tmp_path / "bot")
    (bot / "big.bin").write_bytes(b"x" * 2000)
    with pytest.raises(ManifestError, match="more than 0 MiB"):
        load_bot(bot)


def test_a_folder_with_too_many_entries_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(snap, "MAX_ENTRIES", 5)
    bot = make_bot(tmp_path / "bot")
    for i in range(10):
        (bot / f"f{i}").write_text("x")
    with pytest.raises(ManifestError, match="more than 5 entries"):
        load_bot(bot)


@pytest.mark.parametrize(
    "name",
    ["x" * 300, "nul\0byte", "../../x", "[red]x[/]", "esc\x1b[2J", "new\nline", " lead", ""],
)
def test_hostile_names_are_refused(tmp_path, name):
    bot = make_bot(tmp_path / "bot")
    (bot / "bot.toml").write_text(f'name = {json.dumps(name)}\ncommand = ["x"]\n')
    with pytest.raises(ManifestError, match='"name": the name '):
        load_bot(bot)


def test_an_unwritable_cache_is_a_clear_error(tmp_path, monkeypatch):
    blocked = tmp_path / "file"
    blocked.write_text("a file where the cache folder should be")
    monkeypatch.setenv("ARENA_CACHE", str(blocked))
    with pytest.raises(ManifestError, match=r"cannot write arena's bot cache .*set ARENA_CACHE"):
        load_bot(make_bot(tmp_path / "bot"))


def test_a_cache_inside_the_bot_folder_is_a_clear_error(tmp_path, monkeypatch):
    bot = make_bot(tmp_path / "bot")
    monkeypatch.setenv("ARENA_CACHE", str(bot / "cache"))
    with pytest.raises(ManifestError, match=r"bot cache .* is inside the bot folder"):
        load_bot(bot)
    monkeypatch.setenv("ARENA_CACHE", str(bot))
    with pytest.raises(ManifestError, match=r"is inside the bot folder"):
        load_bot(bot)
