"""Attack: read the referee's environment: its own (inherited), and that of every process it
can see in /proc (environ and cmdline). It reports its own environment's names, and a hash of
every value it could read anywhere (the test looks for its secret's hash among them): a bot
that did reach a host's environments must not copy them into a log."""

import hashlib
import os

from attacklib import info, play


def digest(value: bytes) -> str:
    return hashlib.sha256(value).hexdigest()[:16]


def readable() -> dict[str, object]:
    found: dict[str, object] = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        for name in ("environ", "cmdline"):
            try:
                with open(f"/proc/{pid}/{name}", "rb") as handle:
                    items = [i for i in handle.read().split(b"\0") if i]
            except OSError as exc:
                found[f"{pid}/{name}"] = f"error {exc.errno}"
                continue
            values = [item.partition(b"=")[2] if name == "environ" else item for item in items]
            found[f"{pid}/{name}"] = sorted(
                {digest(v) for v in values} | {digest(i) for i in items}
            )
    return found


def on_request(number, request):
    if number == 1:
        info("environ_names", sorted(os.environ))
        info("environ_values", sorted(digest(v.encode()) for v in os.environ.values()))
        info("proc_environ", readable())
    return None


play(name="environment", on_request=on_request)
