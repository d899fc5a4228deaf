"""Attack: stop or kill the referee (and everyone else) by signals.

First with SIGWINCH, harmless to anyone it reaches (the test counts the ones the referee gets):
aimed at the referee's host pid, at -1 (everything it may signal), at its parent. Then, unless
it runs as root (a broken sandbox must not freeze the machine running the tests), the real
thing: kill(-1, SIGSTOP), kill(-1, SIGKILL), SIGSTOP and SIGKILL to pid 1 and to its parent.
Finally it maps which pids exist and which it may signal (kill(pid, 0) over the pid range)."""

import os
import signal

from attacklib import errname, info, params, play, report


def kill(label: str, pid: int, signum: int) -> None:
    try:
        os.kill(pid, signum)
    except OSError as exc:
        report(label, "blocked", errname(exc.errno))
        return
    report(label, "SUCCEEDED", f"kill({pid}, {signum})")


def attack() -> None:
    referee = params()["referee_pid"]
    kill("winch_referee_pid", referee, signal.SIGWINCH)
    kill("winch_all", -1, signal.SIGWINCH)
    kill("winch_parent", os.getppid(), signal.SIGWINCH)
    info("parent", os.getppid())
    if os.getuid() != 0:
        kill("stop_all", -1, signal.SIGSTOP)
        kill("kill_all", -1, signal.SIGKILL)
        kill("stop_pid1", 1, signal.SIGSTOP)
        kill("kill_pid1", 1, signal.SIGKILL)
        kill("stop_parent", os.getppid(), signal.SIGSTOP)
        kill("kill_parent", os.getppid(), signal.SIGKILL)
        kill("stop_referee_pid", referee, signal.SIGSTOP)
    exists, permitted = [], []
    for pid in range(1, 1 << 16):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            continue
        except PermissionError:
            exists.append(pid)
            continue
        exists.append(pid)
        permitted.append(pid)
    info("signalable", {"exists": exists[:50], "permitted": permitted[:50], "me": os.getpid()})


def on_request(number, request):
    if number == 1:
        attack()
    return None


play(name="stop_referee", on_request=on_request)
