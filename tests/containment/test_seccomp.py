"""The seccomp filter, run through a small BPF interpreter on both architectures, and its
system call numbers checked against the kernel headers."""

from __future__ import annotations

import errno
import re
import struct
from pathlib import Path

import pytest

from arena.containment import seccomp

HEADERS = {
    "x86_64": Path("/usr/include/x86_64-linux-gnu/asm/unistd_64.h"),
    "aarch64": Path("/usr/include/asm-generic/unistd.h"),
}
ALLOW, EPERM = seccomp.RET_ALLOW, seccomp.RET_ERRNO | errno.EPERM
ENOSYS, KILL = seccomp.RET_ERRNO | errno.ENOSYS, seccomp.RET_KILL_PROCESS


def run_filter(program: bytes, nr: int, arch: int, args: tuple[int, ...] = ()) -> int:
    """Evaluate a classic BPF seccomp program on one system call (the subset it uses)."""
    data = struct.pack("=iIQ6Q", nr, arch, 0, *(list(args) + [0] * (6 - len(args))))
    ops = [struct.unpack("=HBBI", program[i : i + 8]) for i in range(0, len(program), 8)]
    acc, pc = 0, 0
    for _ in range(10_000):
        code, jt, jf, k = ops[pc]
        pc += 1
        if code == 0x20:
            (acc,) = struct.unpack_from("=I", data, k)
        elif code == 0x54:
            acc &= k
        elif code == 0x06:
            return k
        elif code in (0x15, 0x35, 0x45):
            hit = {0x15: acc == k, 0x35: acc >= k, 0x45: bool(acc & k)}[code]
            pc += jt if hit else jf
        else:
            raise AssertionError(f"unexpected opcode {code:#x}")
        assert pc < len(ops), "a jump past the end of the program"
    raise AssertionError("the program does not terminate")


@pytest.mark.parametrize("arch", sorted(seccomp.SYSCALLS))
def test_every_denied_call_fails_with_eperm_and_ordinary_calls_pass(arch):
    program, tag, numbers = (
        seccomp.build_filter(arch),
        seccomp.AUDIT_ARCH[arch],
        seccomp.SYSCALLS[arch],
    )
    for name in seccomp.DENIED:
        if name in numbers:
            assert run_filter(program, numbers[name], tag) == EPERM, name
    denied = {numbers[n] for n in seccomp.DENIED if n in numbers}
    for nr in range(0, 460):
        if nr not in denied and nr not in (numbers["clone3"],):
            assert run_filter(program, nr, tag) == ALLOW, f"syscall {nr} should be allowed"


@pytest.mark.parametrize("arch", sorted(seccomp.SYSCALLS))
def test_clone_may_not_make_namespaces_and_clone3_falls_back(arch):
    program, tag, clone = (
        seccomp.build_filter(arch),
        seccomp.AUDIT_ARCH[arch],
        seccomp.SYSCALLS[arch]["clone"],
    )
    assert run_filter(program, clone, tag, (0x11,)) == ALLOW, "fork-like clone (SIGCHLD)"
    assert run_filter(program, clone, tag, (0x003D0F00,)) == ALLOW, "a thread"
    for flag in (0x10000000, 0x20000000, 0x40000000, 0x00020000, 0x08000000, 0x80):
        assert run_filter(program, clone, tag, (0x11 | flag,)) == EPERM, hex(flag)
    assert run_filter(program, seccomp.SYSCALLS[arch]["clone3"], tag) == ENOSYS


@pytest.mark.parametrize("arch", sorted(seccomp.SYSCALLS))
def test_fifos_may_be_made_but_not_device_nodes(arch):
    program, tag, numbers = (
        seccomp.build_filter(arch),
        seccomp.AUDIT_ARCH[arch],
        seccomp.SYSCALLS[arch],
    )
    mknodat = numbers["mknodat"]
    assert run_filter(program, mknodat, tag, (0, 0, 0o010644)) == ALLOW, "a FIFO"
    assert run_filter(program, mknodat, tag, (0, 0, 0o020644)) == EPERM, "a character device"
    assert run_filter(program, mknodat, tag, (0, 0, 0o060644)) == EPERM, "a block device"


def test_other_abis_are_refused():
    program = seccomp.build_filter("x86_64")
    assert run_filter(program, 0, 0x40000003) == KILL, "i386 (int 0x80) calls kill"
    assert run_filter(program, 0x40000000 | 165, seccomp.AUDIT_ARCH["x86_64"]) == EPERM, "x32"


@pytest.mark.parametrize("arch", sorted(seccomp.SYSCALLS))
def test_numbers_match_the_kernel_headers(arch):
    header = HEADERS[arch]
    if not header.exists():
        pytest.skip(f"{header} is not installed (linux-libc-dev)")
    text = header.read_text()
    for name, number in seccomp.SYSCALLS[arch].items():
        found = re.search(rf"#define __NR(?:3264)?_{name}\s+(\d+)\b", text)
        assert found, f"{name} is not in {header}"
        assert int(found.group(1)) == number, f"{arch} {name}"
