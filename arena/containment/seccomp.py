"""The seccomp filter every sandboxed bot runs under: system calls a game bot never needs fail.

A deny list, compiled here to a classic BPF program that bubblewrap loads (``--seccomp FD``)
just before it executes the bot. Denied calls return EPERM (the bot sees an ordinary error,
not a kill, so a runtime probing for a feature carries on). ``clone3`` returns ENOSYS instead:
its flags sit in memory a filter cannot read, and ENOSYS makes the C library fall back to
``clone``, whose flags the filter does check (no new namespaces).

Hand-written rather than through libseccomp: the program is a short list of comparisons, its
only Python binding on PyPI (pyseccomp) has been unmaintained since 2021 and would still need
the C library at run time, and the numbers below are checked against the kernel headers in
tests. Architectures other than x86_64 and aarch64 get no filter (reported as such).
"""

from __future__ import annotations

import errno
import platform
import struct

# What the bot could use to leave or weaken its sandbox, read other processes, load code into
# the kernel, or hog the machine in ways a cgroup does not count.
DENIED = (
    # mounting and changing the file system view
    "mount", "umount2", "pivot_root", "chroot", "open_tree", "move_mount", "fsopen",
    "fsconfig", "fsmount", "fspick", "mount_setattr", "open_by_handle_at", "name_to_handle_at",
    # namespaces (clone's flags are checked separately)
    "unshare", "setns",
    # other processes' memory
    "ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd",
    # the kernel's keyrings, BPF, perf, io_uring, userfaultfd: large attack surfaces
    "keyctl", "add_key", "request_key", "bpf", "perf_event_open", "userfaultfd",
    "io_uring_setup", "io_uring_enter", "io_uring_register",
    # real-time scheduling (RLIMIT_RTPRIO is 0 as well)
    "sched_setscheduler", "sched_setparam", "sched_setattr",
    # the machine itself
    "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module", "reboot",
    "swapon", "swapoff", "acct", "quotactl", "syslog", "vhangup", "sethostname",
    "setdomainname", "fanotify_init", "iopl", "ioperm",
)  # fmt: skip

SYSCALLS: dict[str, dict[str, int]] = {
    "x86_64": {
        "mount": 165, "umount2": 166, "pivot_root": 155, "chroot": 161, "open_tree": 428,
        "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433,
        "mount_setattr": 442, "open_by_handle_at": 304, "name_to_handle_at": 303,
        "unshare": 272, "setns": 308, "ptrace": 101, "process_vm_readv": 310,
        "process_vm_writev": 311, "kcmp": 312, "pidfd_getfd": 438, "keyctl": 250, "add_key": 248,
        "request_key": 249, "bpf": 321, "perf_event_open": 298, "userfaultfd": 323,
        "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427,
        "sched_setscheduler": 144, "sched_setparam": 142, "sched_setattr": 314,
        "kexec_load": 246, "kexec_file_load": 320, "init_module": 175, "finit_module": 313,
        "delete_module": 176, "reboot": 169, "swapon": 167, "swapoff": 168, "acct": 163,
        "quotactl": 179, "syslog": 103, "vhangup": 153, "sethostname": 170,
        "setdomainname": 171, "fanotify_init": 300, "iopl": 172, "ioperm": 173,
        "clone": 56, "clone3": 435, "mknod": 133, "mknodat": 259,
    },
    "aarch64": {
        "mount": 40, "umount2": 39, "pivot_root": 41, "chroot": 51, "open_tree": 428,
        "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433,
        "mount_setattr": 442, "open_by_handle_at": 265, "name_to_handle_at": 264,
        "unshare": 97, "setns": 268, "ptrace": 117, "process_vm_readv": 270,
        "process_vm_writev": 271, "kcmp": 272, "pidfd_getfd": 438, "keyctl": 219, "add_key": 217,
        "request_key": 218, "bpf": 280, "perf_event_open": 241, "userfaultfd": 282,
        "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427,
        "sched_setscheduler": 119, "sched_setparam": 118, "sched_setattr": 274,
        "kexec_load": 104, "kexec_file_load": 294, "init_module": 105, "finit_module": 273,
        "delete_module": 106, "reboot": 142, "swapon": 224, "swapoff": 225, "acct": 89,
        "quotactl": 60, "syslog": 116, "vhangup": 58, "sethostname": 161,
        "setdomainname": 162, "fanotify_init": 262, "clone": 220, "clone3": 435,
        "mknodat": 33,
    },
}  # fmt: skip
"""System call numbers (x86_64: asm/unistd_64.h; aarch64: asm-generic/unistd.h)."""

AUDIT_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}
X32_SYSCALL_BIT = 0x40000000

NAMESPACE_FLAGS = (
    0x00020000  # CLONE_NEWNS
    | 0x02000000  # CLONE_NEWCGROUP
    | 0x04000000  # CLONE_NEWUTS
    | 0x08000000  # CLONE_NEWIPC
    | 0x10000000  # CLONE_NEWUSER
    | 0x20000000  # CLONE_NEWPID
    | 0x40000000  # CLONE_NEWNET
    | 0x00000080  # CLONE_NEWTIME
)
S_IFMT, S_IFCHR, S_IFBLK = 0o170000, 0o020000, 0o060000

# classic BPF opcodes
_LD_W_ABS = 0x20  # BPF_LD | BPF_W | BPF_ABS
_JEQ_K = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
_JGE_K = 0x35  # BPF_JMP | BPF_JGE | BPF_K
_JSET_K = 0x45  # BPF_JMP | BPF_JSET | BPF_K
_AND_K = 0x54  # BPF_ALU | BPF_AND | BPF_K
_RET_K = 0x06  # BPF_RET | BPF_K

RET_ALLOW = 0x7FFF0000
RET_KILL_PROCESS = 0x80000000
RET_ERRNO = 0x00050000

_NR, _ARCH = 0, 4


def _arg_low(index: int) -> int:
    """Offset of the low 32 bits of argument ``index`` in struct seccomp_data (little-endian)."""
    return 16 + 8 * index


def machine() -> str | None:
    """This machine's architecture as a key of SYSCALLS, or None if the filter has none."""
    arch = platform.machine().lower()
    arch = {"amd64": "x86_64", "arm64": "aarch64"}.get(arch, arch)
    return arch if arch in SYSCALLS else None


def build_filter(arch: str) -> bytes:
    """The filter for ``arch``, as the array of struct sock_filter bubblewrap reads."""
    numbers = SYSCALLS[arch]
    deny = RET_ERRNO | errno.EPERM
    program: list[tuple[int, int, int, int]] = []

    def op(code: int, k: int, jt: int = 0, jf: int = 0) -> None:
        program.append((code, jt, jf, k))

    # A call made through another ABI (i386 on x86_64, arm32 on aarch64) has other numbers.
    op(_LD_W_ABS, _ARCH)
    op(_JEQ_K, AUDIT_ARCH[arch], jt=1)
    op(_RET_K, RET_KILL_PROCESS)
    op(_LD_W_ABS, _NR)
    if arch == "x86_64":  # the x32 ABI shares the architecture tag: refuse it whole
        op(_JGE_K, X32_SYSCALL_BIT, jt=0, jf=1)
        op(_RET_K, deny)
    for name in DENIED:
        if name in numbers:
            op(_JEQ_K, numbers[name], jt=0, jf=1)
            op(_RET_K, deny)
    op(_JEQ_K, numbers["clone3"], jt=0, jf=1)
    op(_RET_K, RET_ERRNO | errno.ENOSYS)
    # clone(flags, ...): no new namespaces
    op(_JEQ_K, numbers["clone"], jt=0, jf=3)
    op(_LD_W_ABS, _arg_low(0))
    op(_JSET_K, NAMESPACE_FLAGS, jt=0, jf=1)
    op(_RET_K, deny)
    # mknod / mknodat: FIFOs are fine, device nodes are not
    for name, mode_arg in (("mknod", 1), ("mknodat", 2)):
        if name not in numbers:
            continue
        op(_LD_W_ABS, _NR)
        op(_JEQ_K, numbers[name], jt=0, jf=5)
        op(_LD_W_ABS, _arg_low(mode_arg))
        op(_AND_K, S_IFMT)
        op(_JEQ_K, S_IFCHR, jt=1, jf=0)
        op(_JEQ_K, S_IFBLK, jt=0, jf=1)
        op(_RET_K, deny)
    op(_RET_K, RET_ALLOW)
    return b"".join(struct.pack("=HBBI", code, jt, jf, k) for code, jt, jf, k in program)
