"""Whether a bot's command names a program that can be run, found the way its exec will.

Checked before launch so that a bot.toml naming a missing or non-executable program is a
`start` fault with a hint (protocol/SPEC.md §8), not a `crash` quoting bubblewrap's or the
launcher's exec error. Only what will certainly fail is reported; anything else is left for
exec to try.
"""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Sequence
from pathlib import Path

from arena.containment.bubblewrap import BOT_DIR
from arena.containment.limits import clean_environment


def unrunnable(command: Sequence[str], snapshot: Path, search_path: str) -> str | None:
    """Why ``command[0]`` cannot be run, with what to do; None if it may well run.

    The bot starts in its snapshot (mounted at /bot in the sandbox): a program named with a
    slash is found from there, or at an absolute path (the sandbox mounts the system folders
    where they are here); a bare name is searched along ``search_path``, the bot's PATH."""
    program = command[0]
    example = 'e.g. command = ["{python}", "bot.py"]'
    if "/" not in program:
        if shutil.which(program, path=search_path) is None:
            return (
                f"the command {program!r} is not found on the bot's PATH ({search_path}); "
                f"name a file in the bot's folder with ./ or an installed program, {example}"
            )
        return None
    if program == BOT_DIR or program.startswith(BOT_DIR + "/"):
        path = snapshot / program[len(BOT_DIR) :].lstrip("/")
    else:
        path = snapshot / program  # an absolute program stays absolute
    if path.is_symlink():
        return None  # its target may resolve differently inside the sandbox: let exec try
    try:
        mode = path.stat().st_mode
    except OSError:
        return (
            f"the command's program {program!r} does not exist (looked for {path}); "
            f"fix `command` in bot.toml, {example}"
        )
    if not stat.S_ISREG(mode):
        return f"the command's program {program!r} is not a file; fix `command` in bot.toml"
    if not mode & (stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH):
        return (
            f"the command's program {program!r} is not executable: `chmod +x` it (with a #! "
            f"line), or run it with its interpreter, {example}"
        )
    return None


def bot_search_path() -> str:
    """The PATH a bot's command is searched along (limits.clean_environment's)."""
    return clean_environment(os.devnull)["PATH"]
