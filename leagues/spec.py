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

import dataclasses
import difflib
import math
import re
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from arena.bundled import locate_bot
from arena.containment.limits import DEFAULT_LIMITS, Limits
from arena.games import get_game, titles
from arena.games.base import BadOptions, Game
from arena.manifest import BotManifest, ManifestError, load_bot
from arena.referee import FaultPolicy, TimeControl

TOP_KEYS = (
    "name",
    "game",
    "format",
    "bots",
    "candidates",
    "table_size",
    "games",
    "seed",
    "duplicate",
    "workers",
    "options",
    "time",
    "faults",
    "limits",
)
TIME_KEYS = ("decision_ms", "bank_ms", "startup_ms", "game_ms")
FAULT_KEYS = ("policy", "disqualify_above", "strike_after")
ENTRY_KEYS = ("path", "copies")
LIMIT_KEYS = ("cpu_s", "memory_mib", "processes", "open_files", "file_size_mib", "scratch_mib")
MAX_SEED = 2**63 - 1


class LeagueFormat(StrEnum):
    """How a league matches its entrants."""

    ROUND_ROBIN = "round-robin"
    """Everyone against everyone: every pair of bots meets equally often."""
    GAUNTLET = "gauntlet"
    """Candidates against a field: every table is one candidate plus field bots."""


class LeagueFileError(ValueError):
    """A league file that cannot be used; the message names the file, the line and the fix."""

    def __init__(self, file: str, line: int | None, problem: str) -> None:
        self.file = file
        """The league file as it was given."""
        self.line = line
        """The 1-based line of the mistake, or None when it is not on one line."""
        self.problem = problem
        """What is wrong and what to do, without the file and line."""
        where = f"{file} line {line}" if line is not None else file
        super().__init__(f"{where}: {problem}")


@dataclass(frozen=True)
class Entrant:
    """One seat-taker of a league: a bot directory, or one copy of it."""

    path: Path
    """The bot's directory, resolved to an absolute path."""
    label: str
    """How tables and standings show it; unique in the league, e.g. "random#2"."""
    copy: int = 1
    """Which copy of the bot this is (1-based); 1 when the bot is listed without copies."""


@dataclass(frozen=True)
class LeagueSpec:
    """A league file, checked: everything needed to schedule and play it."""

    name: str
    """The league's name (informative; not part of the schedule's fingerprint)."""
    path: Path
    """The league file, resolved to an absolute path."""
    game: str
    """The game title, e.g. "corruption"."""
    format: LeagueFormat
    """Round-robin or gauntlet."""
    bots: tuple[Entrant, ...]
    """Round-robin: every entrant. Gauntlet: the field. One Entrant per copy."""
    candidates: tuple[Entrant, ...]
    """Gauntlet: the bots under test. Round-robin: empty."""
    table_sizes: tuple[int, ...]
    """Every table size played, ascending, e.g. (5,) or (3, 4, 5)."""
    games: int
    """Games to play in total, over all table sizes (>= 1)."""
    seed: int = 0
    """Base seed; deal seeds are derived from it with the database's deal key
    (arena.seeds.deal_seed)."""
    duplicate: bool = True
    """Replay each deal with the seating rotated, so the luck of the deal cancels out."""
    workers: int = 1
    """Games played at once."""
    options: dict[str, Any] = field(default_factory=dict, hash=False)
    """Game options, normalized by the game (treat as read-only)."""
    time: TimeControl = TimeControl()
    """The clock every seat plays under."""
    fault_policy: FaultPolicy = FaultPolicy.SUBSTITUTE
    """What a game does when a seat faults."""
    disqualify_above: float | None = None
    """Strikes: an entrant that faulted in more than this share of its league games is
    disqualified and no longer scheduled (None: never)."""
    strike_after: int = 5
    """Games an entrant must have played before it can be disqualified."""
    limits: Limits = DEFAULT_LIMITS
    """Containment of every bot process ([limits]; defaults as arena.limits.Limits)."""

    @property
    def entrants(self) -> tuple[Entrant, ...]:
        """Field bots then candidates: GameTask.seating indexes into this."""
        return self.bots + self.candidates


def load_league(path: str | Path) -> LeagueSpec:
    """Read and check a league file; raises LeagueFileError naming the file, line and fix."""
    return _Parser(Path(path)).parse()


# -- parsing -------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Entry:
    """One entry of `bots` or `candidates`, before its bot is read."""

    key: str
    """"bots" or "candidates"."""
    written: str
    """The path as written in the file."""
    directory: Path
    """The path resolved against the league file's folder, or the bundled bot it names."""
    copies: int
    """How many separate copies to seat."""
    line: int | None
    """Where the entry is written."""


class _Parser:
    """Reads one league file; each check raises LeagueFileError at the first mistake."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.file = str(path)
        try:
            self.text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise LeagueFileError(self.file, None, "no such file; check the path") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise LeagueFileError(
                self.file, None, f"cannot be read ({exc}); a league file is UTF-8 TOML text"
            ) from None
        self.lines = _KeyLines(self.text)
        try:
            self.data = tomllib.loads(self.text)
        except tomllib.TOMLDecodeError as exc:
            raise self._syntax_error(exc) from None

    def parse(self) -> LeagueSpec:
        self.check_keys(self.data, TOP_KEYS, ())
        name = self.text_value("name", example='name = "corruption-open"')
        game = self.game()
        league_format = self.league_format()
        field_entries = self.entries("bots")
        candidate_entries = self.candidates(league_format)
        bots, candidates = self.entrants(field_entries, candidate_entries)
        sizes = self.table_sizes(game, league_format, len(bots))
        games = self.integer("games", None, 1, "games = 200")
        seed = self.integer("seed", 0, 0, "seed = 1")
        if seed > MAX_SEED:
            raise self.fail(
                f"seed = {seed} is too large; use a number from 0 to {MAX_SEED}", "seed"
            )
        duplicate = self.boolean("duplicate", True)
        workers = self.integer("workers", 1, 1, "workers = 2")
        return LeagueSpec(
            name=name,
            path=self.path.resolve(),
            game=game.title,
            format=league_format,
            bots=bots,
            candidates=candidates,
            table_sizes=sizes,
            games=games,
            seed=seed,
            duplicate=duplicate,
            workers=workers,
            options=self.options(game),
            time=self.time_control(),
            fault_policy=self.fault_policy(),
            disqualify_above=self.disqualify_above(),
            strike_after=self.integer_in("faults", "strike_after", 5, 1, "strike_after = 5"),
            limits=self.limits(),
        )

    # -- errors ----------------------------------------------------------------------------

    def fail(self, problem: str, *key: str, line: int | None = None) -> LeagueFileError:
        """The error for a mistake at this key (or at an explicit line)."""
        return LeagueFileError(self.file, line if line is not None else self.lines.of(key), problem)

    def _syntax_error(self, exc: tomllib.TOMLDecodeError) -> LeagueFileError:
        message = str(exc)
        found = re.search(r"\s*\(at line (\d+), column (\d+)\)\s*$", message)
        line = int(found.group(1)) if found else getattr(exc, "lineno", None)
        if found:
            message = f"{message[: found.start()]} (column {found.group(2)})"
        return LeagueFileError(
            self.file,
            line,
            f"not valid TOML: {message[:1].lower()}{message[1:]}; fix the syntax (strings need "
            'quotes, e.g. game = "corruption"; lists are [a, b]; a table is [name] on its own '
            "line)",
        )

    def check_keys(
        self, table: dict[str, Any], known: tuple[str, ...], where: tuple[str, ...]
    ) -> None:
        for key in table:
            if key in known:
                continue
            place = f"[{'.'.join(where)}] " if where else ""
            close = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
            fix = (
                f'did you mean "{close[0]}"?'
                if close
                else f"the keys allowed {'here' if where else 'at the top'} are: "
                + ", ".join(known)
            )
            raise self.fail(f'unknown key {place}"{key}"; {fix}', *where, key)

    def wrong_type(
        self, key: tuple[str, ...], value: Any, wanted: str, example: str
    ) -> LeagueFileError:
        shown = ".".join(key)
        return self.fail(
            f"{shown} must be {wanted}, e.g. {example}; it is {_toml(value)} ({_kind(value)})",
            *key,
        )

    # -- plain values ----------------------------------------------------------------------

    def text_value(self, key: str, example: str) -> str:
        value = self.data.get(key)
        if value is None:
            raise self.fail(f"missing {key}: add a line like {example}")
        if not isinstance(value, str):
            raise self.wrong_type((key,), value, "a string", example)
        if not value.strip():
            raise self.fail(f"{key} is empty; give it a value, e.g. {example}", key)
        return value.strip()

    def integer(self, key: str, default: int | None, minimum: int, example: str) -> int:
        value = self.data.get(key, default)
        if value is None:
            raise self.fail(f"missing {key}: add a line like {example}")
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.wrong_type((key,), value, "a whole number", example)
        if value < minimum:
            raise self.fail(
                f"{key} = {value} is too small; use {minimum} or more, e.g. {example}", key
            )
        return value

    def boolean(self, key: str, default: bool) -> bool:
        value = self.data.get(key, default)
        if not isinstance(value, bool):
            raise self.wrong_type((key,), value, "true or false", f"{key} = {str(default).lower()}")
        return value

    def table(self, key: str) -> dict[str, Any]:
        value = self.data.get(key, {})
        if not isinstance(value, dict):
            raise self.fail(
                f"{key} must be a table: write [{key}] on its own line, then one key = value "
                f"per line; it is {_toml(value)} ({_kind(value)})",
                key,
            )
        return value

    # -- the game and the format -----------------------------------------------------------

    def game(self) -> Game:
        known = titles()
        title = self.text_value("game", example=f'game = "{known[0]}"')
        if title not in known:
            close = difflib.get_close_matches(title, known, n=1)
            hint = f'did you mean "{close[0]}"? ' if close else ""
            raise self.fail(
                f'game = "{title}" is not a game this arena knows; {hint}known games: '
                + ", ".join(known),
                "game",
            )
        return get_game(title)

    def league_format(self) -> LeagueFormat:
        value = self.data.get("format", LeagueFormat.ROUND_ROBIN.value)
        choices = [f.value for f in LeagueFormat]
        if not isinstance(value, str) or value not in choices:
            close = difflib.get_close_matches(str(value), choices, n=1)
            hint = f' (did you mean "{close[0]}"?)' if close else ""
            raise self.fail(
                f"format = {_toml(value)} is not a league format{hint}; use "
                + " or ".join(f'format = "{c}"' for c in choices),
                "format",
            )
        return LeagueFormat(value)

    # -- bots ------------------------------------------------------------------------------

    def candidates(self, league_format: LeagueFormat) -> list[_Entry]:
        if league_format is LeagueFormat.GAUNTLET:
            if "candidates" not in self.data:
                raise self.fail(
                    "a gauntlet needs candidates, the bots under test: add a line like "
                    'candidates = ["../bots/my-new-bot"] (bots is then the field they play)',
                    "format",
                )
            return self.entries("candidates")
        if "candidates" in self.data:
            raise self.fail(
                'candidates is only for format = "gauntlet"; remove it, or add format = '
                '"gauntlet" to play these candidates against the bots as a field',
                "candidates",
            )
        return []

    def entries(self, key: str) -> list[_Entry]:
        example = f'{key} = ["../bots/random", {{path = "../bots/other", copies = 2}}]'
        raw = self.data.get(key)
        if raw is None:
            raise self.fail(f"missing {key}: add a line like {example}")
        if not isinstance(raw, list):
            raise self.wrong_type((key,), raw, "a list of bot directories", example)
        if not raw:
            raise self.fail(f"{key} is empty; list at least one bot directory, e.g. {example}", key)
        entries = []
        written_before: Counter[str] = Counter()
        for item in raw:
            if isinstance(item, str):
                written, copies = item, 1
            elif isinstance(item, dict):
                written, copies = self.entry_table(key, item)
            else:
                raise self.fail(
                    f"{key} entries must be paths (strings) or {{path = ..., copies = N}}; "
                    f"{_toml(item)} is {_kind(item)}",
                    key,
                )
            line = self.lines.element(key, written, written_before[written])
            written_before[written] += 1
            if not written.strip():
                raise self.fail(f'{key} has an empty path ""; write the bot directory', key)
            if key == "candidates" and copies != 1:
                raise self.fail(
                    f'candidate "{written}" has copies = {copies}; a candidate is listed once '
                    "(copies are for field bots); remove copies",
                    key,
                    line=line,
                )
            try:
                directory = locate_bot(written, base=self.path.parent).resolve()
            except ManifestError as exc:
                raise self.not_a_bot(key, written, line, exc) from None
            entries.append(_Entry(key, written, directory, copies, line))
        return entries

    def not_a_bot(
        self, key: str, written: str, line: int | None, problem: ManifestError
    ) -> LeagueFileError:
        return self.fail(
            f'{key} entry "{written}" is not a bot; fix the path (relative to '
            f"{self.path.parent.resolve()}) or the bot: {problem}",
            key,
            line=line,
        )

    def entry_table(self, key: str, item: dict[str, Any]) -> tuple[str, int]:
        written = item.get("path")
        line = self.lines.element(key, written) if isinstance(written, str) else None
        for name in item:
            if name not in ENTRY_KEYS:
                close = difflib.get_close_matches(name, ENTRY_KEYS, n=1)
                fix = f'did you mean "{close[0]}"?' if close else "use path and copies"
                raise self.fail(f'unknown key "{name}" in a {key} entry; {fix}', key, line=line)
        if not isinstance(written, str):
            raise self.fail(
                f'a {key} entry written as a table needs path = "...", e.g. '
                f'{{path = "../bots/random", copies = 3}}',
                key,
                line=line,
            )
        copies = item.get("copies", 1)
        if isinstance(copies, bool) or not isinstance(copies, int) or copies < 1:
            raise self.fail(
                f'copies = {_toml(copies)} for "{written}" must be a whole number of at least 1, '
                f'e.g. {{path = "{written}", copies = 3}}',
                key,
                line=line,
            )
        return written, copies

    def entrants(
        self, field_entries: list[_Entry], candidate_entries: list[_Entry]
    ) -> tuple[tuple[Entrant, ...], tuple[Entrant, ...]]:
        seen: dict[Path, _Entry] = {}
        manifests: list[BotManifest] = []
        for entry in field_entries + candidate_entries:
            before = seen.get(entry.directory)
            if before is not None:
                raise self.fail(self.twice(before, entry), entry.key, line=entry.line)
            seen[entry.directory] = entry
            try:
                manifests.append(load_bot(entry.directory))
            except ManifestError as exc:
                raise self.not_a_bot(entry.key, entry.written, entry.line, exc) from None
        labels = _labels(field_entries + candidate_entries, manifests)
        made = [
            Entrant(entry.directory, f"{label}#{copy}" if entry.copies > 1 else label, copy)
            for entry, label in zip(field_entries + candidate_entries, labels)
            for copy in range(1, entry.copies + 1)
        ]
        field_count = sum(entry.copies for entry in field_entries)
        return tuple(made[:field_count]), tuple(made[field_count:])

    @staticmethod
    def twice(before: _Entry, entry: _Entry) -> str:
        where = f" (line {before.line})" if before.line is not None else ""
        if before.key != entry.key:
            return (
                f'"{entry.written}" is both a field bot and a candidate{where}; a candidate does '
                "not play itself: remove it from bots"
            )
        return (
            f'"{entry.written}" is listed twice in {entry.key}{where}; to seat several copies of '
            f'one bot list it once as {{path = "{before.written}", copies = N}}'
        )

    # -- table sizes -----------------------------------------------------------------------

    def table_sizes(self, game: Game, league_format: LeagueFormat, field: int) -> tuple[int, ...]:
        gauntlet = league_format is LeagueFormat.GAUNTLET
        low_g, high_g = game.min_players, game.max_players
        raw = self.data.get("table_size")
        if raw is None:
            size = min(field + 1 if gauntlet else field, high_g)
            if size < low_g:
                kind = "field bots" if gauntlet else "bots"
                need = low_g - 1 if gauntlet else low_g
                raise self.fail(
                    f"only {field} {kind} listed, but {game.title} needs at least {low_g} players "
                    f"at a table; list at least {need} {kind} (copies = N seats several copies "
                    'of one bot, e.g. {path = "../bots/random", copies = 3})',
                    "bots",
                )
            return (size,)
        example = "table_size = 4, or a range: table_size = [3, 5]"
        if isinstance(raw, int) and not isinstance(raw, bool):
            low, high = raw, raw
        elif (
            isinstance(raw, list)
            and len(raw) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in raw)
        ):
            low, high = raw
            if low > high:
                raise self.fail(
                    f"table_size = {_toml(raw)} goes down; write the range as [min, max], "
                    f"e.g. table_size = [{high}, {low}]",
                    "table_size",
                )
        else:
            raise self.wrong_type(("table_size",), raw, "a whole number or [min, max]", example)
        shown = f"table_size = {_toml(raw)}"
        if low < low_g or high > high_g:
            raise self.fail(
                f"{shown} but {game.title} is played by {low_g} to {high_g} players; use a "
                f"number from {low_g} to {high_g}",
                "table_size",
            )
        if low < 2:
            raise self.fail(
                f"{shown}: a table needs at least 2 players; use 2 or more", "table_size"
            )
        if gauntlet and high - 1 > field:
            raise self.fail(
                f"{shown} needs {high - 1} distinct field bots beside the candidate, but bots "
                f"lists {field}; use a table size of at most {field + 1}, or add field bots "
                '(copies = N seats several copies of one, e.g. {path = "../bots/random", '
                "copies = 3})",
                "table_size",
            )
        if not gauntlet and high > field:
            raise self.fail(
                f"{shown} but only {field} bots are listed, and a round-robin table seats "
                f"distinct bots; use a table size of at most {field}, or add bots (copies = N "
                'seats several copies of one, e.g. {path = "../bots/random", copies = 3})',
                "table_size",
            )
        return tuple(range(low, high + 1))

    # -- tables ----------------------------------------------------------------------------

    def options(self, game: Game) -> dict[str, Any]:
        raw = self.table("options")
        try:
            return game.normalize_options(dict(raw))
        except BadOptions as exc:
            # Point at the option the message names first (else the [options] table).
            named = sorted((str(exc).find(k), k) for k in raw if k in str(exc))
            key = ("options", named[0][1]) if named else ("options",)
            raise self.fail(f"[options] rejected by {game.title}: {exc}", *key) from None

    def time_control(self) -> TimeControl:
        raw = self.table("time")
        self.check_keys(raw, TIME_KEYS, ("time",))
        default = TimeControl()
        rules = {
            "decision_ms": (default.decision_s, False, "time allowed per decision"),
            "bank_ms": (default.bank_s, True, "extra time per seat per game"),
            "startup_ms": (default.startup_s, False, "time allowed to start and say hello"),
            "game_ms": (default.game_s, False, "wall-clock limit of one game"),
        }
        seconds = {}
        for key, (default_s, zero_ok, meaning) in rules.items():
            value = raw.get(key, default_s * 1000)
            example = f"{key} = {round(default_s * 1000)}"
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise self.wrong_type(("time", key), value, "a number of milliseconds", example)
            if not math.isfinite(value) or value < 0 or (value == 0 and not zero_ok):
                bound = "0 or more" if zero_ok else "more than 0"
                raise self.fail(
                    f"{key} = {_toml(value)} ({meaning}, in milliseconds) must be {bound}, "
                    f"e.g. {example}",
                    "time",
                    key,
                )
            seconds[key] = value / 1000
        return TimeControl(
            seconds["decision_ms"], seconds["bank_ms"], seconds["startup_ms"], seconds["game_ms"]
        )

    def fault_policy(self) -> FaultPolicy:
        raw = self.table("faults")
        self.check_keys(raw, FAULT_KEYS, ("faults",))
        value = raw.get("policy", FaultPolicy.SUBSTITUTE.value)
        choices = [p.value for p in FaultPolicy]
        if not isinstance(value, str) or value not in choices:
            raise self.fail(
                f"policy = {_toml(value)} is not a fault policy; use "
                + " or ".join(f'policy = "{c}"' for c in choices),
                "faults",
                "policy",
            )
        return FaultPolicy(value)

    def disqualify_above(self) -> float | None:
        value = self.table("faults").get("disqualify_above")
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < 1:
            raise self.fail(
                f"disqualify_above = {_toml(value)} is not a share of games; use a number from 0 "
                "to below 1, e.g. disqualify_above = 0.5 (more than half the games faulted)",
                "faults",
                "disqualify_above",
            )
        return float(value)

    def limits(self) -> Limits:
        raw = self.table("limits")
        if "sandbox" in raw:  # a league file is shared; turning the sandbox off is not its call
            raise self.fail(
                "sandbox is not a league setting: bots always run in the sandbox; to run them "
                "without it (only bots you trust), pass --unsandboxed to `arena league run`",
                "limits",
                "sandbox",
            )
        self.check_keys(raw, (*LIMIT_KEYS, "cpus"), ("limits",))
        numbers: dict[str, Any] = {
            key: self.integer_in(
                "limits",
                key,
                getattr(DEFAULT_LIMITS, key),
                1,
                f"{key} = {getattr(DEFAULT_LIMITS, key)}",
            )
            for key in LIMIT_KEYS
        }
        cpus = raw.get("cpus", DEFAULT_LIMITS.cpus)
        if isinstance(cpus, bool) or not isinstance(cpus, int | float) or not 0 < cpus <= 64:
            raise self.fail(
                f"cpus = {_toml(cpus)} is not a share of the machine; use a number of cores "
                "above 0, e.g. cpus = 1.0 (one core per bot, all its processes together)",
                "limits",
                "cpus",
            )
        return dataclasses.replace(DEFAULT_LIMITS, **numbers, cpus=float(cpus))

    def integer_in(self, table: str, key: str, default: int, minimum: int, example: str) -> int:
        value = self.table(table).get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            raise self.fail(
                f"{key} = {_toml(value)} must be a whole number of at least {minimum}, e.g. {example}",
                table,
                key,
            )
        return value


def _labels(entries: list[_Entry], manifests: list[BotManifest]) -> list[str]:
    """A unique label per entry: the bot's name, else name@version, else the path written."""
    names = Counter(m.name for m in manifests)
    labels = [
        m.name if names[m.name] == 1 else f"{m.name}@{m.version}" if m.version else m.name
        for m in manifests
    ]
    again = Counter(labels)
    return [label if again[label] == 1 else entry.written for entry, label in zip(entries, labels)]


# -- where keys are written ----------------------------------------------------------------

_BARE = r"[A-Za-z0-9_-]+"
_QUOTED = r"\"[^\"]*\"|'[^']*'"
_DOTTED = rf"(?:{_BARE}|{_QUOTED})(?:\s*\.\s*(?:{_BARE}|{_QUOTED}))*"
_HEADER = re.compile(rf"^\s*\[\[?\s*({_DOTTED})\s*\]\]?\s*(?:#.*)?$")
_KEY = re.compile(rf"^\s*({_DOTTED})\s*=")
_STRING = re.compile(r"\"(?:\\.|[^\"\\])*\"|'[^']*'")


class _KeyLines:
    """Where each key is written, found by scanning the text (tomllib does not say).

    Only lines outside multi-line arrays count, so a list of paths cannot be mistaken for keys.
    """

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.where: dict[tuple[str, ...], int] = {}
        self.depth_before: list[int] = []
        table: tuple[str, ...] = ()
        depth = 0
        for number, line in enumerate(self.lines, 1):
            self.depth_before.append(depth)
            code = _STRING.sub('""', line).split("#", 1)[0]
            if depth == 0:
                header = _HEADER.match(line)
                key = _KEY.match(line)
                if header:
                    table = _split_dotted(header.group(1))
                    self.where.setdefault(table, number)
                elif key:
                    self.where.setdefault(table + _split_dotted(key.group(1)), number)
            depth = max(
                0, depth + sum(code.count(c) for c in "[{") - sum(code.count(c) for c in "]}")
            )

    def of(self, key: tuple[str, ...]) -> int | None:
        """The line of a key, else of the nearest enclosing table, else None."""
        for end in range(len(key), 0, -1):
            if key[:end] in self.where:
                return self.where[key[:end]]
        return None

    def element(self, key: str, written: str, occurrence: int = 0) -> int | None:
        """The line of a path in a list (its n-th occurrence), else the list's line.

        Searched from the list's first line on, so entries of a multi-line list and
        [[bots]] tables further down are both found.
        """
        start = self.of((key,))
        if start is None:
            return None
        quoted = (f'"{written}"', f"'{written}'")
        seen = 0
        for number in range(start, len(self.lines) + 1):
            if any(q in self.lines[number - 1] for q in quoted):
                if seen == occurrence:
                    return number
                seen += 1
        return start


def _split_dotted(key: str) -> tuple[str, ...]:
    return tuple(part.strip().strip("\"'") for part in re.findall(rf"{_BARE}|{_QUOTED}", key))


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    return "a date or time"


def _toml(value: Any) -> str:
    """A value written the way TOML writes it, for messages."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + "}"
    return str(value)
