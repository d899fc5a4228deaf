"""Attack: plant a FIFO (or a device, or a link to /dev/zero) in its own folder mid-league, so
that the next time arena snapshots the folder the copy hangs on the FIFO or reads forever."""

import os
import stat

from attacklib import attempt, play, try_syscall


def planted(path: str) -> str:
    os.unlink(path)  # a trap that worked is removed at once: the report is enough
    return f"planted {path}"


def on_request(number, request):
    if number == 1:
        attempt("mkfifo_in_bot", lambda: os.mkfifo("/bot/trap.fifo") or planted("/bot/trap.fifo"))
        try_syscall("raw_mknod_fifo_in_bot", "mknod", "/bot/trap2.fifo", stat.S_IFIFO | 0o600, 0,
                    undo=lambda _: planted("/bot/trap2.fifo"))  # fmt: skip
        attempt(
            "symlink_zero_in_bot",
            lambda: os.symlink("/dev/zero", "/bot/zero") or planted("/bot/zero"),
        )
        attempt("mkfifo_in_cwd", lambda: os.mkfifo("trap3.fifo") or planted("trap3.fifo"))
    return None


play(name="fifo_planter", on_request=on_request)
