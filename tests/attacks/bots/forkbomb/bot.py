"""Attack: more processes than its share, hard to kill: each child leaves the process group
(setsid) and double-forks a grandchild that is reparented away from the bot; then threads,
until the kernel refuses. Reports how many it got; all of them must die with the bot (they
wait on a pipe the bot holds, so even a failed kill would not leave them for long)."""

import os
import threading

from attacklib import info, play


def bomb() -> dict[str, int]:
    ready_read, ready_write = os.pipe()
    hold, keep = os.pipe()  # its processes wait on this: they end with the bot, whatever happens
    KEPT.append(keep)
    children = 0
    while children < 300:
        try:
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            os.setsid()
            try:
                if os.fork() == 0:  # the grandchild: reparented to pid 1 when its parent exits
                    os.close(keep)
                    os.write(ready_write, b"g")
                    os.read(hold, 1)
                    os._exit(0)
            except OSError:
                pass
            os._exit(0)
        children += 1
        os.waitpid(pid, 0)
    os.close(ready_write)
    threads = 0
    stop = threading.Event()
    while threads < 300:
        try:
            threading.Thread(target=stop.wait, daemon=True).start()
        except RuntimeError:
            break
        threads += 1
    os.set_blocking(ready_read, False)
    try:
        grandchildren = len(os.read(ready_read, 4096))
    except BlockingIOError:
        grandchildren = 0
    tasks = sum(len(os.listdir(f"/proc/{p}/task")) for p in os.listdir("/proc") if p.isdigit())
    return {"children": children, "grandchildren": grandchildren, "threads": threads,
            "tasks_seen": tasks}  # fmt: skip


KEPT: list[int] = []


def on_request(number, request):
    if number == 1:
        info("bomb", bomb())
    return None


play(name="forkbomb", on_request=on_request)
