"""Checking a league file's values, key by key, into a LeagueSpec (leagues.spec loads).

Each check raises LeagueFileError at the first mistake, naming the line (arena.configfile
finds where keys are written) and the fix.
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.bundled import locate_bot
from arena.configfile import read_toml, toml_kind, toml_repr, unknown_key
from arena.containment.limits import DEFAULT_LIMITS, Limits
from arena.games import get_game, talk, titles
from arena.games.base import BadOptions, Game
from arena.manifest import BotManifest, ManifestError, load_bot
from arena.referee import FaultPolicy, TimeControl
from arena.suggest import closest
from leagues.cluster_address import parse_cluster
from leagues.spec_types import Entrant, LeagueFileError, LeagueFormat, LeagueSpec

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
    "cluster",
)
TIME_KEYS = ("decision_ms", "bank_ms", "startup_ms", "game_ms")
FAULT_KEYS = ("policy", "disqualify_above", "strike_after")
ENTRY_KEYS = ("path", "copies")
CLUSTER_KEYS = ("address",)
LIMIT_KEYS = ("cpu_s", "memory_mib", "processes", "open_files", "file_size_mib", "scratch_mib")
MAX_SEED = 2**63 - 1
SYNTAX_HINT = (
    'fix the syntax (strings need quotes, e.g. game = "corruption"; lists are [a, b]; a table '
    "is [name] on its own line)"
)


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


class LeagueChecks:
    """Checks one league file; each check raises LeagueFileError at the first mistake."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.file = str(path)
        parsed = read_toml(path, LeagueFileError, SYNTAX_HINT)
        self.data = parsed.data
        self.lines = parsed.lines

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
            cluster=self.cluster(),
        )

    # -- errors ----------------------------------------------------------------------------

    def fail(self, problem: str, *key: str, line: int | None = None) -> LeagueFileError:
        """The error for a mistake at this key (or at an explicit line)."""
        return LeagueFileError(
            problem, self.file, line if line is not None else self.lines.of(*key)
        )

    def check_keys(
        self, table: dict[str, Any], known: tuple[str, ...], where: tuple[str, ...]
    ) -> None:
        for key in table:
            if key not in known:
                place = f"[{'.'.join(where)}] " if where else ""
                raise self.fail(unknown_key(key, known, place), *where, key)

    def wrong_type(
        self, key: tuple[str, ...], value: Any, wanted: str, example: str
    ) -> LeagueFileError:
        shown = ".".join(key)
        return self.fail(
            f"{shown} must be {wanted}, e.g. {example}; it is {toml_repr(value)} ({toml_kind(value)})",
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
                f"per line; it is {toml_repr(value)} ({toml_kind(value)})",
                key,
            )
        return value

    # -- the game and the format -----------------------------------------------------------

    def game(self) -> Game:
        known = titles()
        title = self.text_value("game", example=f'game = "{known[0]}"')
        if title not in known:
            close = closest(title, known)
            hint = f'did you mean "{close}"? ' if close else ""
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
            close = closest(str(value), choices)
            hint = f' (did you mean "{close}"?)' if close else ""
            raise self.fail(
                f"format = {toml_repr(value)} is not a league format{hint}; use "
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
                    f"{toml_repr(item)} is {toml_kind(item)}",
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
                close = closest(name, ENTRY_KEYS)
                fix = f'did you mean "{close}"?' if close else "use path and copies"
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
                f'copies = {toml_repr(copies)} for "{written}" must be a whole number of at least 1, '
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
                    f"table_size = {toml_repr(raw)} goes down; write the range as [min, max], "
                    f"e.g. table_size = [{high}, {low}]",
                    "table_size",
                )
        else:
            raise self.wrong_type(("table_size",), raw, "a whole number or [min, max]", example)
        shown = f"table_size = {toml_repr(raw)}"
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
        if talk.OPTION in raw:
            raise self.fail(
                f"[options] {talk.OPTION} is not an option to set: the referee seats in talk "
                "the bots that ask for it in their hello (SPEC.md §14); remove it",
                "options",
                talk.OPTION,
            )
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
                    f"{key} = {toml_repr(value)} ({meaning}, in milliseconds) must be {bound}, "
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
                f"policy = {toml_repr(value)} is not a fault policy; use "
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
                f"disqualify_above = {toml_repr(value)} is not a share of games; use a number from 0 "
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
                f"cpus = {toml_repr(cpus)} is not a share of the machine; use a number of cores "
                "above 0, e.g. cpus = 1.0 (one core per bot, all its processes together)",
                "limits",
                "cpus",
            )
        return dataclasses.replace(DEFAULT_LIMITS, **numbers, cpus=float(cpus))

    def cluster(self) -> str | None:
        """[cluster] address: where `league run` plays without --cluster (None: locally)."""
        table = self.table("cluster")
        self.check_keys(table, CLUSTER_KEYS, ("cluster",))
        address = table.get("address")
        if address is None:
            return None
        example = 'address = "tcp://scheduler:8786"'
        if not isinstance(address, str):
            raise self.wrong_type(("cluster", "address"), address, "a string", example)
        try:
            parse_cluster(address)
        except ValueError as exc:
            raise self.fail(f"{exc}, e.g. {example}", "cluster", "address") from None
        return address.strip()

    def integer_in(self, table: str, key: str, default: int, minimum: int, example: str) -> int:
        value = self.table(table).get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            raise self.fail(
                f"{key} = {toml_repr(value)} must be a whole number of at least {minimum}, e.g. {example}",
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
