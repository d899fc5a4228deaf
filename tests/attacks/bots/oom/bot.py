"""Attack: the memory cap from one process, the way that slips under the per-process address
space limit: its /tmp (memory too) filled to the brim first, then memory taken 32 MiB at a time
until something gives. The cgroup's count reaches 2 GiB before the address space does, so the
kernel kills it; the referee must say so in the fault's reason."""

import os

from attacklib import info, play

MIB = 1 << 20


def attack() -> None:
    work = os.environ.get("TMPDIR") or "/tmp"
    filled = 0
    try:
        with open(os.path.join(work, "ballast"), "wb") as ballast:
            for _ in range(63):
                ballast.write(b"x" * MIB)
                filled += 1
    except OSError:
        pass
    info("tmp_filled_mib", filled)
    hoard = []
    try:
        while len(hoard) < 256:  # 8 GiB: far past any cap
            block = bytearray(32 * MIB)
            for offset in range(0, len(block), 4096):
                block[offset] = 1
            hoard.append(block)
    except MemoryError:
        info("memory_error_after_mib", 32 * len(hoard))  # the address-space limit came first
        raise


def on_request(number, request):
    if number == 1:
        attack()
    return None


play(name="oom", on_request=on_request)
