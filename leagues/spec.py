"""League files: one TOML file, parsed once into a checked, typed LeagueSpec.

Nothing downstream (schedules, runners, standings) sees the file's dicts. Every mistake raises
LeagueFileError, whose message names the file, the line and the fix, e.g.
``leagues/x.toml line 4: table_size = 9 but corruption is played by 3 to 7 players; use a
number from 3 to 7``.

The whole format (paths are relative to the folder holding the league file)::

    name = "corruption-open"        # required, non-empty
    game = "corruption"             # required: a title arena knows (arena.games.titles())
    format = "round-robin"          # "round-robin" (default) or "gauntlet"
    bots = ["../bots/corruption-greedy", {path = "../bots/random", copies = 3}]
        # required, non-empty. An entry is a bot directory, or {path = ..., copies = N} to
        # seat N separate copies of one bot (labelled random#1, random#2, ...). A directory
        # may be listed once only, across bots and candidates. A path that does not exist
        # may name a bundled bot instead: "random" or "bots/random" (arena.bundled).
    candidates = ["../bots/my-new-bot"]
        # gauntlet only, and required there: the bots under test (no copies); `bots` is then
        # the field they play against. Forbidden in a round-robin.
    table_size = 4
        # an int, or [min, max] for every size from min to max. Default: the number of bots
        # (round-robin) or field bots + 1 (gauntlet), capped at the game's maximum.
        # A round-robin table seats distinct bots, so table_size <= number of bots; a gauntlet
        # table is 1 candidate + table_size - 1 distinct field bots.
    games = 200                     # required, >= 1: games in total, over all table sizes
    seed = 1                        # default 0; 0 <= seed < 2**63
    duplicate = true                # default true: replay each deal with the seating rotated
    workers = 2                     # default 1; >= 1

    [options]                       # game options, checked by the game's normalize_options
    variants = []

    [time]                          # milliseconds; defaults as arena.referee.TimeControl
    decision_ms = 1000              # > 0
    bank_ms = 5000                  # >= 0
    startup_ms = 10000              # > 0
    game_ms = 600000                # > 0: wall-clock limit of one game; past it, the seat
                                    # that used the most of it faults (game_time), then the
                                    # next slowest while the game stays past it (SPEC.md §7)

    [faults]
    policy = "substitute"           # or "abort" (arena.referee.FaultPolicy)
    disqualify_above = 0.5          # strikes (default: off): an entrant that faulted in more
                                    # than this share of its games is disqualified and no
                                    # longer scheduled
    strike_after = 5                # ...once it has played at least this many games

    [limits]                        # per bot; defaults as arena.containment.limits.Limits
    cpu_s = 3600                    # CPU seconds of each process over its life
    memory_mib = 2048               # memory of all its processes and its /tmp together
    processes = 64                  # processes and threads at once, all together
    cpus = 1.0                      # CPU cores' worth of time, all its processes together
    open_files = 256                # per process
    file_size_mib = 64              # largest file it may write
    scratch_mib = 64                # its private /tmp (counted in memory_mib)
                                    # (bots always run in the sandbox; `arena league run
                                    # --unsandboxed` is the only way around it)

No other key is accepted: a typo is an error that suggests the closest known key.
Bot directories are checked with arena.manifest.load_bot (bot.toml only; nothing is started).
"""

from __future__ import annotations

from pathlib import Path

from leagues.spec_checks import LeagueChecks
from leagues.spec_types import Entrant, LeagueFileError, LeagueFormat, LeagueSpec

__all__ = ["Entrant", "LeagueFileError", "LeagueFormat", "LeagueSpec", "load_league"]


def load_league(path: str | Path) -> LeagueSpec:
    """Read and check a league file; raises LeagueFileError naming the file, line and fix."""
    return LeagueChecks(Path(path)).parse()
