"""Attack: real-time or raised priority, to starve the referee and the other bots of CPU (a
SCHED_FIFO busy loop owns its core). sched_setscheduler (raw and os.), sched_setattr (FIFO and
DEADLINE), sched_setparam, nice(-1), setpriority(-20), ioprio_set(real-time class). Whatever
works is undone at once. Lowering its own priority (nice +1) is the control: allowed."""

import ctypes
import os

from attacklib import attempt, play, try_syscall

SCHED_OTHER, SCHED_FIFO, SCHED_RR, SCHED_DEADLINE = 0, 1, 2, 6


class SchedAttr(ctypes.Structure):
    _fields_ = [
        ("size", ctypes.c_uint32), ("policy", ctypes.c_uint32), ("flags", ctypes.c_uint64),
        ("nice", ctypes.c_int32), ("priority", ctypes.c_uint32), ("runtime", ctypes.c_uint64),
        ("deadline", ctypes.c_uint64), ("period", ctypes.c_uint64),
    ]  # fmt: skip


def back_to_normal(_: object = None) -> None:
    os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))


def attack() -> None:
    priority = ctypes.c_int(50)
    for label, policy in (("fifo", SCHED_FIFO), ("rr", SCHED_RR)):
        try_syscall(f"raw_sched_setscheduler_{label}", "sched_setscheduler", 0, policy,
                    ctypes.byref(priority), undo=back_to_normal)  # fmt: skip
    attempt("os_sched_setscheduler_fifo",
            lambda: os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(50)) or back_to_normal())  # fmt: skip
    fifo = SchedAttr(ctypes.sizeof(SchedAttr), SCHED_FIFO, 0, 0, 50, 0, 0, 0)
    try_syscall(
        "sched_setattr_fifo", "sched_setattr", 0, ctypes.byref(fifo), 0, undo=back_to_normal
    )
    deadline = SchedAttr(ctypes.sizeof(SchedAttr), SCHED_DEADLINE, 0, 0, 0,
                         9_000_000, 10_000_000, 10_000_000)  # fmt: skip
    try_syscall("sched_setattr_deadline", "sched_setattr", 0, ctypes.byref(deadline), 0,
                undo=back_to_normal)  # fmt: skip
    try_syscall("sched_setparam", "sched_setparam", 0, ctypes.byref(priority))
    attempt("nice_minus_1", lambda: os.nice(-1))
    attempt("setpriority_minus_20", lambda: os.setpriority(os.PRIO_PROCESS, 0, -20))
    try_syscall("ioprio_realtime", "ioprio_set", 1, 0, (1 << 13) | 0)  # IOPRIO_CLASS_RT
    attempt("nice_plus_1_control", lambda: os.nice(1))


def on_request(number, request):
    if number == 1:
        attack()
    return None


play(name="realtime", on_request=on_request)
