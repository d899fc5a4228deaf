"""The file system a bot sees: nothing of the host's but read-only system files, the Python that
runs it and its own snapshot; its only writable space a private, capped /tmp."""

from __future__ import annotations

import os
import sys
import sysconfig
import time
from pathlib import Path

import pytest

import protocol
from arena.containment.snapshot import cache_root
from tests.attacks.conftest import (
    Match,
    assert_contained,
    attack_bot,
    blocked,
    good_bot,
    play_match,
    tree_state,
)

SECRETS, REMOUNT, MKNOD, WRITABLE, COREDUMP, GOOD = range(6)
PLANT = "arena-attack-plant-5d1e"
REFEREE_CODE = Path(__file__).resolve().parents[2] / "arena" / "referee.py"
SDK = str(Path(protocol.__file__).resolve().parent)


@pytest.fixture(scope="module")
def host_files(tmp_path_factory, arena_cache):
    """The host's secrets the secrets bot goes for."""
    from arena.manifest import load_bot

    root = tmp_path_factory.mktemp("filesystem")
    db = root / "arena.db"
    db.write_text("the referee's database")
    league = root / "league.toml"
    league.write_text('name = "the league"\n')
    other = good_bot(root, "other")
    other_snapshot = load_bot(other).snapshot
    return root, {
        "database": str(db),
        "league": str(league),
        "other_bot": str(other / "bot.toml"),
        "other_snapshot": str(other_snapshot / "bot.toml"),
        "own_source": str(root / "bots" / "secrets" / "bot.py"),
        "referee_code": str(REFEREE_CODE),
        "referee_cache": str(arena_cache),
        "shadow": "/etc/shadow",
        "ssh_host_key": "/etc/ssh/ssh_host_ed25519_key",
        "root_home": "/root/.bashrc",
        "home_cache": os.path.expanduser("~/.cache/arena"),
    }


@pytest.fixture(scope="module")
def match(host_files) -> Match:
    root, paths = host_files
    started = time.time()
    bots = [
        attack_bot(root, "secrets", {"paths": list(paths.values()), "sdk": SDK}),
        attack_bot(root, "remount", {"plant": PLANT, "sdk": SDK}),
        attack_bot(root, "mknod"),
        attack_bot(root, "writable"),
        attack_bot(root, "coredump"),
    ]
    before = {b: tree_state(b) for b in bots}
    played = play_match([*bots, good_bot(root)], root)
    played.started = started  # type: ignore[attr-defined]
    played.sources_unchanged = all(tree_state(b) == before[b] for b in bots)  # type: ignore[attr-defined]
    return played


def test_the_probes_ran_and_nothing_of_them_outlived_the_match(match):
    assert_contained(match, attackers=range(5), fault="ok")
    assert match.sources_unchanged, "no bot's source folder changed"


# -- secrets ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "what",
    [
        "database",
        "league",
        "other_bot",
        "other_snapshot",
        "own_source",
        "referee_code",
        "referee_cache",
        "root_home",
        "home_cache",
    ],
)
def test_host_files_are_not_there(match, host_files, what):
    path = host_files[1][what]
    assert os.path.exists(path) or what in ("root_home", "home_cache"), "the control: it exists"
    blocked(match, SECRETS, f"read:{path}", "ENOENT")


@pytest.mark.parametrize("what", ["shadow", "ssh_host_key"])
def test_root_only_system_files_stay_unreadable(match, host_files, what):
    path = host_files[1][what]
    if not os.path.exists(path):
        pytest.skip(f"{path} does not exist on this host")
    blocked(match, SECRETS, f"read:{path}", os.strerror(13))


def test_no_host_file_outside_the_system_python_and_sdk_folders(match):
    assert match.info(SECRETS, "visible_files") == []


# -- remount ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("target", ["usr", "venv", "python", "sdk", "bot", "root"])
def test_read_only_binds_cannot_be_remounted_read_write(match, target):
    blocked(match, REMOUNT, f"remount_rw_{target}", "EPERM")
    blocked(match, REMOUNT, f"write_{target}")


@pytest.mark.parametrize(
    "label",
    [
        "remount_bot_superblock",
        "umount_bot",
        "mount_tmpfs_over_bot",
        "bind_tmp_over_bot",
        "fsopen_tmpfs",
        "open_tree_usr",
        "mount_setattr_usr",
        "chroot_tmp",
        "pivot_root_bot",
    ],
)
def test_no_mount_of_any_kind(match, label):
    blocked(match, REMOUNT, label, "EPERM")


def test_no_code_planted_in_the_venv(match):
    blocked(match, REMOUNT, "plant_pth_in_site_packages", "EROFS")
    blocked(match, REMOUNT, "write_etc")
    blocked(match, REMOUNT, "write_python_binary")
    site = Path(sysconfig.get_paths()["purelib"])
    planted = [
        site / f"{PLANT}.pth",
        Path(sys.prefix) / PLANT,
        Path("/usr") / PLANT,
        Path("/etc") / PLANT,
    ]
    assert not any(p.exists() for p in planted)
    fresh = [p.name for p in site.glob("*.pth") if p.stat().st_mtime >= match.started]
    assert fresh == [], "no .pth file appeared or changed in the real venv during the match"


# -- mknod --------------------------------------------------------------------------------------------


def test_no_device_node_of_the_host_disk(match):
    seen = match.seen(MKNOD)
    made = [label for label in seen if label.startswith(("mknod_", "raw_mknod"))]
    assert len(made) >= 3 * 4 + 2, made
    for label in made:
        blocked(match, MKNOD, label, "EPERM")
    numbers = match.seen(MKNOD)["disk_numbers"][1]
    host_disk = os.stat(sys.prefix).st_dev
    assert f"{os.major(host_disk)}:{os.minor(host_disk)}" in numbers, "the real disk was tried"


def test_nor_a_mount_of_it(match):
    mounts = [label for label in match.seen(MKNOD) if label.startswith("mount_block_")]
    assert mounts
    for label in mounts:
        blocked(match, MKNOD, label, "EPERM")


def test_a_fifo_is_fine_the_control(match):
    assert match.seen(MKNOD)["mkfifo_control"][0] == "SUCCEEDED", "the filter refuses devices only"


def test_dev_holds_no_host_device(match):
    dev = match.info(MKNOD, "dev")
    assert "block" not in dev.values()
    chars = sorted(path for path, kind in dev.items() if kind == "char")
    assert set(chars) <= {
        "/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty",
        "/dev/pts/ptmx",
    }, chars  # fmt: skip


# -- writable --------------------------------------------------------------------------------------------


def test_its_only_writable_space_is_tmp(match):
    assert match.info(WRITABLE, "writable") == []
    assert match.info(WRITABLE, "tmp_writable") is True, "the control: /tmp is writable"


# -- coredump --------------------------------------------------------------------------------------------


def test_no_core_is_dumped(match):
    core = match.info(COREDUMP, "core")
    assert core["signal"] == 11, "the child did crash"
    assert core["dumped"] is False and core["files"] == []


# -- disk (a match of its own: it fills its memory) ---------------------------------------------------


def test_disk_writes_fail_or_stay_in_its_capped_tmp(tmp_path, arena_cache):
    marker = "arena-attack-marker-93b2"
    bot = attack_bot(tmp_path, "disk", {"marker": marker})
    source = tree_state(bot)
    match = play_match([bot, good_bot(tmp_path)], tmp_path)
    assert_contained(match, attackers=[0], fault="ok")
    for label in (
        "create_in_bot", "append_bot_py", "truncate_bot_py", "chmod_bot_py", "utime_bot_py",
        "rename_bot_py", "unlink_bot_toml", "mkdir_in_bot", "symlink_in_bot",
    ):  # fmt: skip
        blocked(match, 0, label, "EROFS", "EACCES", "EPERM")
    blocked(match, 0, "hardlink_bot_to_tmp", "EXDEV")
    blocked(match, 0, "hardlink_etc_to_tmp", "EXDEV")
    assert match.info(0, "tmp_size_mib") == 64
    fill = match.info(0, "fill_tmp")
    assert fill["error"] == os.strerror(28) and 48 <= fill["written_mib"] <= 64, fill
    huge = match.info(0, "huge_file")
    assert huge["error"] in (os.strerror(27), os.strerror(28)) and huge["written_mib"] <= 64, huge
    # the host: its folder and snapshot as they were, its marker nowhere
    manifest = match.lineup.manifests[0]
    assert tree_state(bot) == source
    assert sorted(tree_state(manifest.snapshot)) == sorted(source)
    for place in (tmp_path, cache_root(), Path("/tmp"), Path.cwd()):
        hits = (
            [p for p in place.rglob(f"{marker}*")]
            if place != Path("/tmp")
            else [p for p in place.iterdir() if p.name.startswith(marker)]
        )
        assert hits == [], hits
