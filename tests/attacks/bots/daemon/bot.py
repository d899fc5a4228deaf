"""Attack: outlive its game. A classic daemon (double fork, setsid, every descriptor closed,
SIGTERM/SIGHUP/SIGINT ignored, working directory /), a grandchild that stops itself (a stopped
process ignores everything but SIGKILL and SIGCONT), and a zombie child it never reaps."""

import os
import signal
import time

from attacklib import info, play


def daemonize(stop_self: bool) -> int:
    read_end, write_end = os.pipe()
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT, signal.SIGPIPE):
                signal.signal(signum, signal.SIG_IGN)
            os.chdir("/")
            os.write(write_end, str(os.getpid()).encode())
            os.closerange(0, 1024)
            if stop_self:
                os.kill(os.getpid(), signal.SIGSTOP)
            time.sleep(600)  # long enough to outlive any game; not for ever, should it escape
            os._exit(0)
        os._exit(0)
    os.close(write_end)
    pid = int(os.read(read_end, 32))
    os.close(read_end)
    return pid


def on_request(number, request):
    if number == 1:
        daemon = daemonize(stop_self=False)
        stopped = daemonize(stop_self=True)
        zombie = os.fork()
        if zombie == 0:
            os._exit(0)
        info("spawned", {"daemon": daemon, "stopped": stopped, "zombie": zombie})
    return None


play(name="daemon", on_request=on_request)
