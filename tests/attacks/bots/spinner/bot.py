"""Attack: take more than its share of the CPU while the others think. At its first request it
starts eight processes that each spin until they have used a quarter of a second of CPU time
(not wall time: on a loaded machine they still do all their work, only later) and answers at
once; at its second it waits for them and reports the CPU time they got per wall-clock second
(with a 1-core cap: at most about 1.0, on 2 free cores without one: about 2)."""

import os
import resource
import time

from attacklib import info, play

SPINNERS, SPIN_CPU_S, GIVE_UP_S = 8, 0.25, 30.0
started = {}


def spin(give_up_at: float) -> None:
    while time.process_time() < SPIN_CPU_S and time.monotonic() < give_up_at:
        pass


def on_request(number, request):
    if number == 1:
        started["at"] = time.monotonic()
        give_up_at = started["at"] + GIVE_UP_S
        started["pids"] = []
        for _ in range(SPINNERS):
            pid = os.fork()
            if pid == 0:
                spin(give_up_at)
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
