"""Attack: read what is not the bot's: the referee's database, the league file, other bots'
folders and snapshots, its own source folder, the referee's code and home, /etc/shadow. The
host paths come from the test (params.json). Then it walks everything it can see and lists every
file outside the system folders, the Python install, the SDK, /proc, /dev, /tmp and /bot.

(The SDK's folder comes from the test: ``import protocol`` goes through the venv's editable
install, which may point at another checkout than the one whose protocol/ the sandbox binds.)"""

import os
import sys

from attacklib import info, params, play, report

ALLOWED = ("/usr", "/etc", "/lib", "/lib64", "/lib32", "/bin", "/sbin", "/proc", "/dev", "/tmp",
           "/bot")  # fmt: skip


def probe(path: str) -> None:
    try:
        with open(path, "rb") as handle:
            data = handle.read(64)
    except OSError as exc:
        report(f"read:{path}", "blocked", "ENOENT" if exc.errno == 2 else os.strerror(exc.errno))
        return
    report(f"read:{path}", "SUCCEEDED", f"{len(data)} bytes")


def visible_files() -> list[str]:
    mine = {sys.prefix, sys.base_prefix, params()["sdk"]}
    roots = ALLOWED + tuple(mine)
    found = []
    for dirpath, dirnames, filenames in os.walk("/"):
        dirnames[:] = [d for d in dirnames if not os.path.join(dirpath, d).startswith(roots)]
        found += [os.path.join(dirpath, name) for name in filenames]
        found += [
            os.path.join(dirpath, d) for d in dirnames if os.path.islink(os.path.join(dirpath, d))
        ]
    return found


def on_request(number, request):
    if number == 1:
        for path in params()["paths"]:
            probe(path)
        info("visible_files", visible_files()[:50])
    return None


play(name="secrets", on_request=on_request)
