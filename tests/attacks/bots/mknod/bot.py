"""Attack: make a device node for the host's disk and mount it (or read it raw).

The disk's numbers come from stat() of /bot and /usr (their host file system); common disk
majors are tried too (8 sd, 253 device-mapper, 259 NVMe, 254 virtio), and /dev/mem and
/dev/kmsg. A FIFO is the control: it must work (the filter refuses devices, not mknod). Then it
lists /dev: no host device may be there. Everything is made in a folder of its own and removed
(and a mount that worked is undone) so that none of it could harm a host."""

import os
import stat

from attacklib import attempt, info, play, report, try_syscall, workdir

AT_FDCWD, MNT_DETACH = -100, 2


def make_and_use(path: str, mode: int, device: int) -> str:
    os.mknod(path, mode | 0o600, device)
    try:
        with open(path, "rb") as handle:  # should it ever work, reading proves it
            handle.read(512)
    finally:
        os.unlink(path)
    return f"made and read {path}"


def attack() -> None:
    work = workdir()
    disks = {os.stat(p).st_dev for p in ("/bot", "/usr")}
    disks |= {os.makedev(major, 0) for major in (8, 253, 254, 259)}
    mount_point = os.path.join(work, "mnt")
    os.mkdir(mount_point)
    for n, device in enumerate(sorted(disks)):
        label = f"{os.major(device)}_{os.minor(device)}"
        node = os.path.join(work, f"disk{n}")
        attempt(
            f"mknod_block_{label}", lambda node=node, d=device: make_and_use(node, stat.S_IFBLK, d)
        )
        for call, args in (("mknod", ()), ("mknodat", (AT_FDCWD,))):
            raw = os.path.join(work, f"{call}{n}")
            try_syscall(f"raw_{call}_block_{label}", call, *args, raw, stat.S_IFBLK | 0o600, device,
                        undo=lambda _, raw=raw: os.unlink(raw))  # fmt: skip
        # mount needs a node: made again for the attempt (it failed above, so it fails here)
        try:
            os.mknod(node, stat.S_IFBLK | 0o600, device)
        except OSError:
            pass
        try_syscall(f"mount_block_{label}", "mount", node, mount_point, "ext4", 1, None,
                    undo=lambda _: try_syscall("undo", "umount2", mount_point, MNT_DETACH))  # fmt: skip
        if os.path.exists(node):
            os.unlink(node)
    for label, device in (("mem", os.makedev(1, 1)), ("kmsg", os.makedev(1, 11))):
        node = os.path.join(work, label)
        attempt(
            f"mknod_char_{label}", lambda node=node, d=device: make_and_use(node, stat.S_IFCHR, d)
        )
    attempt("mkfifo_control", lambda: os.mkfifo(os.path.join(work, "fifo")) or "a FIFO")
    kinds = {}
    for dirpath, dirnames, filenames in os.walk("/dev"):
        for name in dirnames + filenames:
            path = os.path.join(dirpath, name)
            mode = os.lstat(path).st_mode
            kinds[path] = ("block" if stat.S_ISBLK(mode) else "char" if stat.S_ISCHR(mode)
                           else "link" if stat.S_ISLNK(mode) else "dir" if stat.S_ISDIR(mode)
                           else "other")  # fmt: skip
    info("dev", kinds)
    report("disk_numbers", "info", sorted(f"{os.major(d)}:{os.minor(d)}" for d in disks))


def on_request(number, request):
    if number == 1:
        attack()
    return None


play(name="mknod", on_request=on_request)
