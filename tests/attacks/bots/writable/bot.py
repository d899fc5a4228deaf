"""Attack: find anywhere at all it can write, besides its /tmp. Walks every folder it can
see (but /proc) and tries to create a file in each one access() calls writable."""

import os

from attacklib import info, play


def writable() -> list[str]:
    found = []
    for dirpath, dirnames, _ in os.walk("/"):
        if dirpath == "/":
            dirnames[:] = [d for d in dirnames if d not in ("proc", "sys")]
        if dirpath == "/tmp" or dirpath.startswith("/tmp/"):
            continue
        if os.access(dirpath, os.W_OK):
            if os.geteuid() == 0:  # root: access() is the answer, and no file is made anywhere
                found.append(dirpath)
                continue
            try:
                fd = os.open(
                    os.path.join(dirpath, ".attack-probe"), os.O_CREAT | os.O_EXCL | os.O_WRONLY
                )
            except OSError:
                continue
            os.close(fd)
            os.unlink(os.path.join(dirpath, ".attack-probe"))
            found.append(dirpath)
    return found


def on_request(number, request):
    if number == 1:
        info("writable", writable())
        info("tmp_writable", os.access("/tmp", os.W_OK))
    return None


play(name="writable", on_request=on_request)
