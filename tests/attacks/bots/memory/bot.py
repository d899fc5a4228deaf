"""Attack: more memory than its share, by adding up processes that each stay under the
per-process limit: four children of 700 MiB each (2.8 GiB, against 2 GiB for the whole bot).

Each child raises its own oom_score_adj (so the kernel's choice falls on a child, not the bot),
fills its 700 MiB page by page and says so. The bot waits (select on pipes and on a pidfd per
child: no polling) until every child has either said so or died. A child that said so may have
been killed since, to make room for another, so the bot then asks each one still thought alive
to answer: a child with a SIGKILL pending never runs again, so those that answer are alive and
hold their 700 MiB together at that moment. Then the bot lets them all go."""

import os
import select

from attacklib import info, play

MIB = 1 << 20
CHILDREN, EACH = 4, 700 * MIB


def child(done_write: int, ask_read: int, answer_write: int) -> None:
    with open("/proc/self/oom_score_adj", "w") as handle:
        handle.write("1000")
    try:
        block = bytearray(EACH)
        for offset in range(0, EACH, 4096):  # touch every page
            block[offset] = 1
    except MemoryError:
        os._exit(3)
    os.write(done_write, b"%08d" % os.getpid())
    while os.read(ask_read, 1):  # one answer per question, until the bot closes the pipe
        os.write(answer_write, b"%08d" % os.getpid())
    os._exit(0)


def fate(wait_status: int) -> str:
    if os.WIFSIGNALED(wait_status):
        return f"signal {os.WTERMSIG(wait_status)}"
    return f"exit {os.WEXITSTATUS(wait_status)}"


def pids_in(data: bytes) -> set[int]:
    return {int(data[i : i + 8]) for i in range(0, len(data), 8)}


def attack() -> dict[str, object]:
    done_read, done_write = os.pipe()
    answer_read, answer_write = os.pipe()
    asks: dict[int, int] = {}
    for _ in range(CHILDREN):
        ask_read, ask_write = os.pipe()
        pid = os.fork()
        if pid == 0:
            for fd in (ask_write, *asks.values()):  # so that closing them is its end of input
                os.close(fd)
            child(done_write, ask_read, answer_write)
        os.close(ask_read)
        asks[pid] = ask_write
    os.close(done_write)
    os.close(answer_write)
    pidfds = {os.pidfd_open(pid): pid for pid in asks}
    said: set[int] = set()
    died: dict[int, str] = {}

    answered: set[int] = set()
    pipes = {done_read: said, answer_read: answered}

    def wait(until) -> None:
        while not until():
            for fd in select.select([*pipes, *pidfds], [], [])[0]:
                if fd in pidfds:
                    pid = pidfds.pop(fd)
                    os.close(fd)
                    died[pid] = fate(os.waitpid(pid, 0)[1])
                    continue
                data = os.read(fd, 4096)
                if data:
                    pipes[fd].update(pids_in(data))
                else:  # every child has gone
                    del pipes[fd]

    wait(lambda: len(said | set(died)) == CHILDREN)
    candidates = said - set(died)
    for pid in candidates:
        os.write(asks[pid], b"?")
    wait(lambda: all(pid in answered or pid in died for pid in candidates))
    holding = len(answered - set(died))
    for ask in asks.values():
        os.close(ask)  # let the survivors go
    for fd, pid in pidfds.items():
        died[pid] = fate(os.waitpid(pid, 0)[1])
        os.close(fd)
    killed = sorted(fate for fate in died.values() if fate != "exit 0")
    return {"holding_together": holding, "failed": killed, "said": len(said)}


def on_request(number, request):
    if number == 1:
        info("memory", attack())
    return None


play(name="memory", on_request=on_request)
