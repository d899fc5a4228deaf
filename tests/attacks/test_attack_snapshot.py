"""The bot's folder: what arena copies from it (never following a link, never opening a special
file), what a bot can do to it while it runs (nothing), and the manifest's names."""

from __future__ import annotations

import hashlib
import json
import os
import socket
import stat
import sys
import threading
from pathlib import Path

import pytest

import protocol
from arena.containment import snapshot as snapshotting
from arena.manifest import ManifestError, load_bot
from tests.attacks.conftest import (
    assert_contained,
    attack_bot,
    blocked,
    good_bot,
    play_match,
    tree_state,
)

SANDBOX_ROOT = {"bin", "bot", "dev", "etc", "lib", "lib32", "lib64", "proc", "sbin", "tmp", "usr"}


def load_within(folder: Path, seconds: float = 60.0):
    """load_bot(folder) in a thread: (manifest or the exception); fails the test if it has not
    returned within ``seconds`` (a snapshot that opened a FIFO would hang for ever)."""
    outcome: list[object] = []

    def load() -> None:
        try:
            outcome.append(load_bot(folder))
        except Exception as exc:
            outcome.append(exc)

    worker = threading.Thread(target=load, daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), f"load_bot({folder}) hung"
    return outcome[0]


# -- link_out --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def links(tmp_path_factory, arena_cache):
    root = tmp_path_factory.mktemp("links")
    secret = root / "arena.db"
    secret.write_text("the referee's database")
    bot = attack_bot(root, "link_out")
    for name, target in (
        ("secret_absolute", str(secret)),
        ("secret_relative", os.path.relpath(secret, bot)),
        ("shadow", "/etc/shadow"),
        ("root", "/"),
        ("zero", "/dev/zero"),
        ("loop_a", "loop_b"),
        ("loop_b", "loop_a"),
    ):
        os.symlink(target, bot / name)
    manifest = load_within(bot)
    assert not isinstance(manifest, Exception), manifest
    return bot, manifest, play_match([bot, good_bot(root)], root)


def test_links_are_copied_as_links_never_followed(links):
    bot, manifest, _ = links
    copied = tree_state(manifest.snapshot)
    for name in ("secret_absolute", "secret_relative", "shadow", "root", "zero", "loop_a"):
        assert copied[name] == ("link", copied[name][1], os.fsencode(os.readlink(bot / name)))
    assert sum(len(content) for _, _, content in copied.values()) < 1 << 20, "nothing followed"


def test_links_out_lead_nowhere_inside(links):
    _, _, match = links
    assert_contained(match, attackers=[0], fault="ok")
    blocked(match, 0, "follow_secret_absolute", "ENOENT")
    blocked(match, 0, "follow_secret_relative", "ENOENT")
    blocked(match, 0, "follow_shadow", "EACCES")
    blocked(match, 0, "follow_loop_a", "ELOOP")
    assert match.seen(0)["follow_zero"][0] == "SUCCEEDED", "its own /dev/zero: harmless"
    bound = (sys.prefix, sys.base_prefix, protocol.__file__)  # the Python and the SDK
    python_tops = {Path(p).parts[1] for p in bound}
    assert set(match.info(0, "root_lists")) <= SANDBOX_ROOT | python_tops | {"root"}


# -- fifo_planter --------------------------------------------------------------------------------------


def test_a_fifo_cannot_be_planted_mid_league(tmp_path, arena_cache):
    bot = attack_bot(tmp_path, "fifo_planter")
    before = tree_state(bot)
    match = play_match([bot, good_bot(tmp_path)], tmp_path)
    assert_contained(match, attackers=[0], fault="ok")
    for label in ("mkfifo_in_bot", "raw_mknod_fifo_in_bot", "symlink_zero_in_bot", "mkfifo_in_cwd"):
        blocked(match, 0, label, "EROFS")
    assert tree_state(bot) == before, "its source folder is untouched"
    reloaded = load_within(bot)
    assert not isinstance(reloaded, Exception), reloaded
    assert reloaded.digest == match.lineup.manifests[0].digest


# -- rewriter ------------------------------------------------------------------------------------------


def test_rewriting_its_own_code_mid_league_changes_nothing_that_runs(tmp_path, arena_cache):
    bot = attack_bot(tmp_path, "rewriter")
    original = (bot / "bot.py").read_bytes()

    def the_author_edits_the_folder(game: int, lineup) -> None:
        (bot / "bot.py").write_bytes(original.replace(b'"original"', b'"rewritten"'))

    match = play_match(
        [bot, good_bot(tmp_path)], tmp_path, games=2, between=the_author_edits_the_folder
    )
    assert_contained(match, attackers=[0], fault="ok")
    for label in ("write_bot_py", "append_bot_py", "replace_bot_py", "remove_bot_py"):
        blocked(match, 0, label, "EROFS", "EACCES")
    assert match.lineup.starts[0] == 2, "it was restarted for the second game"
    runs = [
        json.loads(line.split(" ", 3)[3])
        for line in match.logs[0].splitlines()
        if line.startswith("ATTACK running info")
    ]
    assert runs == [{"sha256": hashlib.sha256(original).hexdigest(), "version": "original"}] * 2
    digests = {record.seats[0].bot.digest for record in match.records}
    assert digests == {match.lineup.manifests[0].digest}
    assert load_bot(bot).digest not in digests, "the edited folder is a different bot"


# -- special files in a bot folder ---------------------------------------------------------------------


def special_folder(root: Path, name: str) -> Path:
    folder = good_bot(root, name)
    return folder


def make_socket(path: Path) -> None:
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(path))


SPECIALS = {
    "fifo": (lambda p: os.mkfifo(p), "FIFO"),
    "socket": (make_socket, "socket"),
    "char_device": (
        lambda p: os.mknod(p, stat.S_IFCHR | 0o600, os.makedev(1, 3)),
        "character device",
    ),
    "block_device": (lambda p: os.mknod(p, stat.S_IFBLK | 0o600, os.makedev(8, 0)), "block device"),
}


@pytest.mark.parametrize("kind", sorted(SPECIALS))
def test_a_special_file_in_the_folder_is_refused_at_once(tmp_path, arena_cache, kind):
    make, words = SPECIALS[kind]
    if kind.endswith("device") and os.geteuid() != 0:
        pytest.skip("making a device node needs root")
    folder = special_folder(tmp_path, kind)
    (folder / "sub").mkdir()
    make(folder / "sub" / "trap")
    outcome = load_within(folder)
    assert isinstance(outcome, ManifestError), outcome
    assert words in str(outcome) and "trap" in str(outcome), outcome
    assert not list(snapshotting.cache_root().glob(".staging-*")), "no half-made snapshot left"


def test_a_sparse_terabyte_file_is_refused_quickly(tmp_path, arena_cache, monkeypatch):
    monkeypatch.setattr(snapshotting, "MAX_BYTES", 8 << 20)  # the mechanism, not the 256 MiB
    folder = special_folder(tmp_path, "sparse")
    with open(folder / "huge.bin", "wb") as huge:
        huge.truncate(1 << 40)
    outcome = load_within(folder)
    assert isinstance(outcome, ManifestError), outcome
    assert f"{snapshotting.MAX_BYTES >> 20} MiB" in str(outcome)
    assert not list(snapshotting.cache_root().glob(".staging-*"))


def test_too_many_entries_are_refused(tmp_path, arena_cache, monkeypatch):
    monkeypatch.setattr(snapshotting, "MAX_ENTRIES", 200)  # the mechanism, not the 20,000
    folder = special_folder(tmp_path, "crowded")
    many = folder / "many"
    many.mkdir()
    for n in range(snapshotting.MAX_ENTRIES + 1):
        (many / str(n)).touch()
    outcome = load_within(folder)
    assert isinstance(outcome, ManifestError) and "entries" in str(outcome), outcome


# -- manifest names ---------------------------------------------------------------------------------


HOSTILE_NAMES = {
    "long": "x" * 300,
    "nul": "evil\0bot",
    "traversal": "../../x",
    "markup": "[red]x[/]",
    "ansi": "\x1b[31mred\x1b[0m",
    "dash": "-rf",
    "newline": "bot\nFAKE LOG LINE",
}


@pytest.mark.parametrize("kind", sorted(HOSTILE_NAMES))
def test_a_hostile_manifest_name_is_refused(tmp_path, arena_cache, kind):
    folder = good_bot(tmp_path, "named")
    toml = (folder / "bot.toml").read_text().splitlines()
    toml[0] = f"name = {json.dumps(HOSTILE_NAMES[kind])}"  # JSON escapes are TOML escapes
    (folder / "bot.toml").write_text("\n".join(toml) + "\n")
    with pytest.raises(ManifestError, match='"name"'):
        load_bot(folder)


@pytest.mark.parametrize("version", ["1" * 300, "1.0\x1b[2J", "[bold]1[/]", "../1"])
def test_a_hostile_manifest_version_is_refused(tmp_path, arena_cache, version):
    folder = good_bot(tmp_path, "versioned")
    (folder / "bot.toml").write_text(
        f'name = "versioned"\nversion = {json.dumps(version)}\n'
        'command = ["{python}", "fakebot.py", "good"]\n'
    )
    with pytest.raises(ManifestError, match='"version"'):
        load_bot(folder)
