"""Attack: rewrite its own code mid-league (say, to behave well while it is checked and badly
later). It tries to write, append to, replace and remove /bot/bot.py, reports the hash of the
code it is running, and exits after each game so that arena restarts it for the next one."""

import hashlib
import os
import sys

from attacklib import attempt, info, play

VERSION = "original"


def replace() -> None:
    with open("/bot/.bot.py.new", "w") as handle:  # rename() works within one file system only
        handle.write("print('rewritten')\n")
    os.replace("/bot/.bot.py.new", "/bot/bot.py")


def on_request(number, request):
    if number == 1:
        attempt("write_bot_py", lambda: open("/bot/bot.py", "w").close())
        attempt("append_bot_py", lambda: open("/bot/bot.py", "a").close())
        attempt("replace_bot_py", replace)
        attempt("remove_bot_py", lambda: os.unlink("/bot/bot.py"))
        with open("/bot/bot.py", "rb") as handle:
            info(
                "running", {"sha256": hashlib.sha256(handle.read()).hexdigest(), "version": VERSION}
            )
    return None


def on_game_over(message):
    sys.stdout.flush()
    os._exit(0)  # the next game needs a fresh process: it runs whatever arena starts then


play(name="rewriter", on_request=on_request, on_game_over=on_game_over)
