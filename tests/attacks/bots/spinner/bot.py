"""Attack: take more than its share of the CPU while the others think. At its first request it
starts eight processes that spin for two seconds of wall-clock time and answers at once; at its
second it waits for them and reports the CPU time they got per wall-clock second (with a 1-core
cap: at most about 1.0, on 2 free cores without one: about 2)."""

import os
import resource
import time

from attacklib import info, play

SPINNERS, SPIN_S = 8, 2.0
started = {}


def spin(until: float) -> None:
    while time.monotonic() < until:
        pass


def on_request(number, request):
    if number == 1:
        started["at"] = time.monotonic()
        until = started["at"] + SPIN_S
        started["pids"] = []
        for _ in range(SPINNERS):
            pid = os.fork()
            if pid == 0:
                spin(until)
                os._exit(0)
            started["pids"].append(pid)
    elif number == 2:
        for pid in started["pids"]:
            os.waitpid(pid, 0)
        wall = time.monotonic() - started["at"]
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = usage.ru_utime + usage.ru_stime
        info("spin", {"cpu_s": cpu, "wall_s": wall, "cores": cpu / wall})
    return None


play(name="spinner", on_request=on_request)
