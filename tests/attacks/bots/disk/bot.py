"""Attack: write where it must not, and more than it may.

Every way of changing its own folder (/bot): create, append, truncate, chmod, utime, rename,
unlink, mkdir, symlink; hard links out of /tmp to files of /bot and /etc; then it fills its /tmp
with 8 MiB files until the disk is full (64 MiB), and writes one 200 MiB file. What it writes in
/tmp carries a marker the test looks for on the host afterwards."""

import os

from attacklib import attempt, info, params, play

MIB = 1 << 20


def fill(prefix: str, chunk: int, files: int, per_file: int) -> tuple[int, str]:
    written, error = 0, "none"
    block = b"x" * chunk
    try:
        for n in range(files):
            with open(f"{prefix}-{n}", "wb") as handle:
                for _ in range(per_file // chunk):
                    handle.write(block)
                    handle.flush()
                    written += chunk
    except OSError as exc:
        error = os.strerror(exc.errno) if exc.errno else type(exc).__name__
    return written, error


def attack() -> None:
    marker = params()["marker"]
    work = os.environ.get("TMPDIR") or "/tmp"  # /tmp in the sandbox; never the host's own
    attempt("create_in_bot", lambda: open(f"/bot/{marker}", "x").close())
    attempt("append_bot_py", lambda: open("/bot/bot.py", "a").close())
    attempt("truncate_bot_py", lambda: os.truncate("/bot/bot.py", 0))
    attempt("chmod_bot_py", lambda: os.chmod("/bot/bot.py", 0o777))
    attempt("utime_bot_py", lambda: os.utime("/bot/bot.py", (0, 0)))
    attempt("rename_bot_py", lambda: os.rename("/bot/bot.py", "/bot/old.py"))
    attempt("unlink_bot_toml", lambda: os.unlink("/bot/bot.toml"))
    attempt("mkdir_in_bot", lambda: os.mkdir(f"/bot/{marker}.d"))
    attempt("symlink_in_bot", lambda: os.symlink("/etc/passwd", f"/bot/{marker}.l"))
    attempt("hardlink_bot_to_tmp", lambda: os.link("/bot/bot.py", f"{work}/{marker}.hl"))
    attempt("hardlink_etc_to_tmp", lambda: os.link("/etc/passwd", f"{work}/{marker}.pw"))
    stats = os.statvfs(work)
    info("tmp_size_mib", stats.f_blocks * stats.f_frsize / MIB)
    written, error = fill(f"{work}/{marker}", MIB, 100, 8 * MIB)
    info("fill_tmp", {"written_mib": written / MIB, "error": error})
    for name in os.listdir(work):
        if name.startswith(marker):
            os.unlink(f"{work}/{name}")
    written, error = fill(f"{work}/{marker}.big", MIB, 1, 200 * MIB)
    info("huge_file", {"written_mib": written / MIB, "error": error})
    os.unlink(f"{work}/{marker}.big-0")
    with open(f"{work}/{marker}.kept", "w") as handle:  # left for the host to look for
        handle.write(marker)


def on_request(number, request):
    if number == 1:
        attack()
    return None


play(name="disk", on_request=on_request)
