"""Attack: make a read-only part of the sandbox writable and plant code there.

Remounts /usr, the virtual environment (sys.prefix), the Python install, the SDK's folder, /bot
and / read-write (mount -o remount,rw through mount(2)), remounts /bot's file system, unmounts
/bot, mounts over it, tries the new mount API (fsopen, open_tree, mount_setattr), chroot and
pivot_root; then writes a .pth file into site-packages (code every Python on the host would run)
and files into /usr, /etc, the venv, the SDK and /bot.

Harmless should any of it work, even as root outside a sandbox: nothing is made read-only, what
is mounted over is only /bot (which does not exist outside), a planted file is inert and
removed at once (the report is enough)."""

import os
import sys
import sysconfig

from attacklib import attempt, forked, params, play, try_syscall

MS_REMOUNT, MS_BIND, MNT_DETACH = 32, 4096, 2
TARGETS = {
    "usr": "/usr",
    "venv": sys.prefix,
    "python": sys.base_prefix,
    "sdk": params()["sdk"],  # protocol/: the test says where (see secrets/bot.py)
    "bot": "/bot",
    "root": "/",
}


def plant(path: str) -> str:
    with open(path, "x") as handle:
        handle.write("# arena attack test: inert\n")
    os.unlink(path)
    return f"wrote {path}"


def attack() -> None:
    name = params()["plant"]
    for label, path in TARGETS.items():
        try_syscall(f"remount_rw_{label}", "mount", None, path, None, MS_REMOUNT | MS_BIND, None)
    try_syscall("remount_bot_superblock", "mount", None, "/bot", None, MS_REMOUNT, None)
    try_syscall("umount_bot", "umount2", "/bot", MNT_DETACH)
    try_syscall("mount_tmpfs_over_bot", "mount", "none", "/bot", "tmpfs", 0, None,
                undo=lambda _: try_syscall("undo", "umount2", "/bot", MNT_DETACH))  # fmt: skip
    try_syscall("bind_tmp_over_bot", "mount", "/tmp", "/bot", None, MS_BIND, None,
                undo=lambda _: try_syscall("undo", "umount2", "/bot", MNT_DETACH))  # fmt: skip
    try_syscall("fsopen_tmpfs", "fsopen", "tmpfs", 0, undo=os.close)
    try_syscall("open_tree_usr", "open_tree", -100, "/usr", 1, undo=os.close)  # OPEN_TREE_CLONE
    try_syscall("mount_setattr_usr", "mount_setattr", -100, "/usr", 0, bytes(32), 32)
    # in children: a root change that worked would mislead every attempt after it
    forked(lambda: try_syscall("chroot_tmp", "chroot", "/tmp") and 0)
    forked(lambda: try_syscall("pivot_root_bot", "pivot_root", "/bot", "/bot") and 0)
    site = sysconfig.get_paths()["purelib"]
    attempt("plant_pth_in_site_packages", lambda: plant(os.path.join(site, f"{name}.pth")))
    for label, path in TARGETS.items():
        attempt(f"write_{label}", lambda path=path: plant(os.path.join(path, name)))
    attempt("write_etc", lambda: plant(os.path.join("/etc", name)))
    attempt("write_python_binary", lambda: open(os.path.realpath(sys.executable), "ab").close())


def on_request(number, request):
    if number == 1:
        attack()
    return None


play(name="remount", on_request=on_request)
