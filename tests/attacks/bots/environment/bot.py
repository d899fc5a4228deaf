"""Attack: read the referee's environment: its own (inherited), and that of every process it
can see in /proc (environ and cmdline). Dumps everything; the test looks for its secret."""

import os

from attacklib import info, play


def readable() -> dict[str, str]:
    found = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        for name in ("environ", "cmdline"):
            try:
                with open(f"/proc/{pid}/{name}", "rb") as handle:
                    found[f"{pid}/{name}"] = handle.read().decode(errors="replace")
            except OSError as exc:
                found[f"{pid}/{name}"] = f"error {exc.errno}"
    return found


def on_request(number, request):
    if number == 1:
        info("environ", dict(os.environ))
        info("proc_environ", readable())
    return None


play(name="environment", on_request=on_request)
