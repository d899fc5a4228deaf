"""Attack: use descriptors inherited from the referee (the seccomp filter's pipe, its database,
other bots' pipes). Lists every open descriptor at start-up, before it opens anything itself."""

import os

FDS = {}
for fd in os.listdir("/proc/self/fd"):
    try:
        FDS[fd] = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        pass  # the descriptor listdir used, closed again

from attacklib import info, play  # noqa: E402


def on_request(number, request):
    if number == 1:
        info("descriptors", FDS)
    return None


play(name="descriptors", on_request=on_request)
