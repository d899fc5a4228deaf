"""The first program of every bot process: it sets up what must hold before any bot code runs,
then replaces itself with the sandbox (or the bot).

Run as ``python -I -S launcher.py SPEC`` (standard library only, no site packages: it starts
in about 10 ms). Doing this work here, in a fresh single-threaded process, rather than in
``subprocess``'s ``preexec_fn`` matters: preexec_fn runs Python between fork and exec in a
copy of a referee that may have other threads (rich's live display), which Python documents
can deadlock.

In order:
1. Ask for SIGKILL when the referee dies, then check the referee is still our parent: had it
   died before the request, nobody would ever send the signal, so exit at once instead.
2. Join the bot's cgroup(s), so every process the bot ever starts is counted and killable.
3. Lower the resource limits (they bind the sandbox and everything in it).
4. Unsandboxed only: no_new_privs (bubblewrap sets it for the sandbox itself).
5. exec the command.
Every failure exits with code 70 and one line on stderr, which the referee quotes.
"""

import ctypes
import json
import os
import resource
import signal
import sys

PR_SET_PDEATHSIG = 1
PR_SET_NO_NEW_PRIVS = 38
EXIT_SETUP_FAILED = 70


def fail(message: str) -> None:
    sys.stderr.write(f"arena launcher: {message}\n")
    sys.stderr.flush()
    os._exit(EXIT_SETUP_FAILED)


def main() -> None:
    spec = json.loads(sys.argv[1])
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        fail("cannot ask for the parent-death signal")
    if os.getppid() != spec["parent"]:
        os._exit(EXIT_SETUP_FAILED)  # the referee is gone already: nobody to play for
    for procs in spec["cgroup_procs"]:
        try:
            with open(procs, "w") as handle:
                handle.write(str(os.getpid()))
        except OSError as exc:
            fail(f"cannot join the bot's cgroup {procs}: {exc.strerror or exc}")
    for kind, value in spec["rlimits"]:
        _, hard = resource.getrlimit(kind)
        ceiling = value if hard == resource.RLIM_INFINITY else min(value, hard)
        try:
            resource.setrlimit(kind, (ceiling, ceiling))
        except (OSError, ValueError) as exc:
            fail(f"cannot set resource limit {kind} to {ceiling}: {exc}")
    if spec["no_new_privs"] and libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        fail("cannot set no_new_privs")
    argv = spec["argv"]
    try:
        os.execvp(argv[0], argv)
    except OSError as exc:
        fail(f"cannot run {argv[0]}: {exc.strerror or exc}")


if __name__ == "__main__":
    main()
