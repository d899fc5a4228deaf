"""Attack: ship symbolic links in its folder that point out of it, to the referee's database (by
absolute and by relative path), to /etc/shadow, to / (a link the snapshot must not follow), to
/dev/zero, and in a loop; then follow them from inside the sandbox. The test makes the links."""

import os

from attacklib import attempt, info, play

LINKS = ("secret_absolute", "secret_relative", "shadow", "root", "zero", "loop_a")


def read(name: str) -> str:
    with open(f"/bot/{name}", "rb") as handle:
        return f"read {len(handle.read(64))} bytes"


def on_request(number, request):
    if number == 1:
        info("links", {name: os.readlink(f"/bot/{name}") for name in LINKS})
        for name in LINKS:
            attempt(f"follow_{name}", lambda name=name: read(name))
        info("root_lists", sorted(os.listdir("/bot/root")))
    return None


play(name="link_out", on_request=on_request)
