"""What every command shares: the console, options, and turning user mistakes into messages."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from arena.bundled import bundled_names, locate_bot
from arena.conditions import FaultPolicy, TimeControl
from arena.containment.readiness import SandboxUnavailable, require
from arena.games import get_game, titles
from arena.games.base import BadOptions, Game
from arena.manifest import BotManifest, ManifestError, load_bot
from arena.printable import cell, shown
from arena.seeds import SEED_KEY_ENV, secret_from_seed_key
from arena.suggest import did_you_mean

if TYPE_CHECKING:
    from arena.store import Store, StoreError

EXIT_OK = 0
EXIT_FAILED = 1
"""The job ran and failed (a bot faulted in a check, a database is locked, ...)."""
EXIT_USAGE = 2
"""The command line asks for something impossible (bad flag, unknown game, not a bot)."""
EXIT_INTERRUPTED = 130
"""Ctrl-C: the conventional 128 + SIGINT, in every command."""

DEFAULT_DB = "arena.db"
BUSY_TIMEOUT_S = 5.0
"""How long a command waits for another process's write lock on the database."""


UNWRAPPED_WIDTH = 1000
"""The width tables are laid out in when the output is not a terminal: wide enough that no
table is squeezed or its cells wrapped; a table never pads itself out to the width."""


def console() -> Console:
    """The output console; honours NO_COLOR and a COLUMNS width (tests set both).

    On a terminal, lines wrap at its width. Anywhere else (a pipe, a file, a CI log) nothing
    is wrapped: rich would otherwise assume 80 columns and break a line mid-sentence, and such
    output is read with grep. COLUMNS, when set, still sets the width tables are laid out in.
    No emoji codes: ":skull:" in a bot's text stays as written. Text a bot chose goes through
    arena.printable (shown in markup strings, cell in tables) wherever it is printed."""
    width = int(os.environ["COLUMNS"]) if os.environ.get("COLUMNS", "").isdigit() else None
    out = Console(width=width, highlight=False, soft_wrap=False, emoji=False)
    if not _is_tty(out):
        out.soft_wrap = True
        if width is None:
            out.width = UNWRAPPED_WIDTH
    return out


def _is_tty(out: Console) -> bool:
    # the stream itself, not rich's is_terminal: FORCE_COLOR (colour in a CI log) makes rich
    # treat a pipe as a terminal, and a CI log must still not be wrapped
    try:
        return out.file.isatty()
    except (AttributeError, ValueError):  # a closed or file-like stream without isatty
        return False


def err_console() -> Console:
    # soft_wrap: an error message stays one logical line, whatever the terminal width
    return Console(stderr=True, highlight=False, soft_wrap=True, emoji=False)


def fail(message: str, code: int = EXIT_FAILED) -> NoReturn:
    """Print an error that says what to do, and exit with code. The message is plain text
    (markup and control characters escaped; arena's own line breaks kept): it often quotes
    an exception, and exceptions quote paths, names and bot output."""
    err_console().print(f"[bold red]error:[/] {shown(message, keep_newlines=True)}")
    raise typer.Exit(code)


# The options several commands share, declared once so their names, metavars and help agree.
DbOption = Annotated[
    Path,
    typer.Option(
        "--db",
        metavar="FILE",
        help="The SQLite file games and ratings are stored in.",
        show_default=True,
    ),
]

DecisionMsOption = Annotated[
    int, typer.Option(min=1, metavar="MS", help="Time per decision, in ms.")
]
BankMsOption = Annotated[
    int,
    typer.Option(
        min=0,
        metavar="MS",
        help="Time bank per seat per game, in ms, that slow decisions draw on.",
    ),
]
StartupMsOption = Annotated[
    int, typer.Option(min=1, metavar="MS", help="Time for a bot to start and say hello, in ms.")
]
DEFAULT_GAME_MS = 600_000
GameMsOption = Annotated[
    int,
    typer.Option(
        min=1,
        metavar="MS",
        help="Wall-clock limit of one game, in ms: past it, the seat that used the most of it "
        "faults (game_time). Raise it when you raise --decision-ms.",
    ),
]


def time_control(
    decision_ms: int, bank_ms: int, game_ms: int, startup_ms: int | None = None
) -> TimeControl:
    """The TimeControl the time options ask for (they are in ms, TimeControl in seconds)."""
    startup = {} if startup_ms is None else {"startup_s": startup_ms / 1000}
    return TimeControl(
        decision_s=decision_ms / 1000, bank_s=bank_ms / 1000, game_s=game_ms / 1000, **startup
    )


def seed_option(repeats: str) -> Any:
    """--seed, with what repeating it repeats (which differs: play keys deals by the database,
    check by a public key, regress by a fresh key per run)."""
    return typer.Option(metavar="N", help=f"Base seed (default: random, printed). {repeats}")


PlayersOption = Annotated[
    int | None,
    typer.Option(
        metavar="N",
        help="Table size (default: the command's usual table, within the game's range).",
    ),
]
VariantOption = Annotated[
    list[str] | None,
    typer.Option("--variant", "-v", metavar="NAME", help="A game variant; repeat to combine."),
]
FaultPolicyOption = Annotated[
    FaultPolicy,
    typer.Option(
        metavar="POLICY",
        help="substitute: default moves for a faulted seat, ranked last; abort: end the game "
        "unrated.",
    ),
]
WorkersOption = Annotated[
    int | None,
    typer.Option(
        "--workers",
        "-w",
        min=1,
        metavar="N",
        help="Worker processes playing games in parallel (default: 1; for a league, its file's "
        "`workers`).",
    ),
]
UnsandboxedOption = Annotated[
    bool,
    typer.Option(
        "--unsandboxed",
        help="Run bots WITHOUT the sandbox, where it cannot be built (only bots you trust: they "
        "can read your files and use the network). Recorded with every game.",
    ),
]


SeedKeyOption = Annotated[
    str | None,
    typer.Option(
        "--seed-key",
        metavar="KEY",
        envvar=SEED_KEY_ENV,
        show_envvar=True,
        help="A secret of at least 16 characters to derive deals and bots' seeds from, instead "
        "of the database's own (or, for regress, a fresh one): the same --seed with the same "
        "key deals the same games in any database (for CI). Keep it from the bots' authors.",
    ),
]


def seed_secret(seed_key: str | None) -> bytes | None:
    """The secret a --seed-key stands for (None when none was given), or exit saying why the
    key cannot be used."""
    if seed_key is None:
        return None
    try:
        return secret_from_seed_key(seed_key)
    except ValueError as exc:
        fail(f"--seed-key / ${SEED_KEY_ENV}: {exc}", EXIT_USAGE)


def check_table_size(game: Game, players: int) -> None:
    """Exit 2 unless ``game`` can be played at a table of ``players``."""
    if not game.min_players <= players <= game.max_players:
        fail(
            f"{game.title} is played by {game.min_players} to {game.max_players} players; "
            f"a table of {players} was asked for",
            EXIT_USAGE,
        )


def contain_bots(unsandboxed: bool, out: Console, code: int = EXIT_FAILED) -> bool:
    """Check that bots can be sandboxed here (else exit with ``code`` and what to do), print
    what is enforced, and return whether bots run sandboxed."""
    try:
        state = require(unsandboxed)
    except SandboxUnavailable as exc:
        fail(str(exc), code)
    if unsandboxed:
        err_console().print(
            "[bold red]WARNING: bots run UNSANDBOXED[/] (--unsandboxed): they run as your user "
            "with your network and can read your files, the database and each other's. Games "
            "are recorded as unsandboxed."
        )
        return False
    out.print(f"[dim]bot containment: {'; '.join(state.protections())}[/]")
    return True


def open_db(db: Path, *, create: bool, write: bool = False, code: int = EXIT_FAILED) -> Store:
    """Open the database or exit (with ``code``) with a message that says what to do.

    write: also probe a write now (Store.check_writable, rolled back), so a locked or
    read-only database is reported before any game is played rather than after (when its
    result could not be stored). Without write or create (the commands that read), a database that cannot be
    written (read-only file, folder or file system) is opened read-only when SQLite can.
    """
    # imported here: sqlite-utils costs a tenth of a second, which commands without a
    # database (--help, check) need not pay
    from arena.store import StoreError, open_store

    try:
        store = open_store(
            db,
            create=create,
            busy_timeout=BUSY_TIMEOUT_S,
            allow_read_only=not (write or create),
        )
    except StoreError as exc:
        fail(str(exc), code)
    if write:
        try:
            store.check_writable()
        except StoreError as exc:
            store.close()
            fail(str(exc), code)
    return store


def known_title(title: str) -> str:
    """``title`` if arena can referee it, else exit 2 naming the titles it can.

    One rule for every name a command looks up: a game title, bot name or game id that
    matches nothing is a usage mistake (exit 2), said in one line with the names it could be."""
    if title not in titles():
        fail(
            f"unknown game {title!r}; {did_you_mean(title, titles())}"
            f"known games: {', '.join(titles())}",
            EXIT_USAGE,
        )
    return title


def resolve_game(title: str) -> Game:
    return get_game(known_title(title))


def store_fail(exc: StoreError) -> NoReturn:
    """Exit with a database error: 2 when it is a name that matches nothing stored (a typo,
    like an unknown title), 1 when the database itself failed."""
    from arena.store import UnknownName

    fail(str(exc), EXIT_USAGE if isinstance(exc, UnknownName) else EXIT_FAILED)


def resolve_bots(written: list[Path]) -> list[BotManifest]:
    """The bots given on the command line: directories or bundled bots' names."""
    manifests = []
    for bot in written:
        try:
            manifests.append(load_bot(locate_bot(bot)))
        except ManifestError as exc:
            fail(str(exc), EXIT_USAGE)
    return manifests


BOT_HELP = f"a bot directory or a bundled bot ({', '.join(bundled_names())})"
"""How every option taking a bot describes it."""


def resolve_options(game: Game, variants: list[str]) -> dict[str, object]:
    try:
        return game.normalize_options({"variants": variants})
    except BadOptions as exc:
        fail(str(exc), EXIT_USAGE)


def fresh_seed() -> int:
    """A random base seed, printed by the commands that use it so a run can be repeated."""
    return secrets.randbelow(2**31)


def bot_log_dir(db: Path) -> Path:
    """Where bots' stderr logs go: a folder beside the database, named after it."""
    return db.with_name(db.stem + "-logs")


def compact(number: float) -> str:
    """A score at a glance: 3,560,000 → 3.56M, 12,500 → 12.5k, 42 → 42."""
    for size, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(number) >= size:
            return f"{number / size:.3g}{suffix}"
    return f"{number:.3g}" if number != int(number) else f"{number:.0f}"


def table(
    title: str,
    columns: list[str],
    *,
    left: tuple[str, ...] = (),
    keep: str | None = None,
    keep_width: int = 0,
) -> Table:
    """A compact table (no vertical rules) meant to fit an 80-column terminal. Columns named in
    `left` are left-aligned and may wrap, the others right-aligned and never wrapped; the
    column `keep` (usually the bot's name) is never squeezed below keep_width."""
    result = Table(
        title=cell(title),
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        padding=(0, 1),
        collapse_padding=True,
        title_justify="left",
    )
    for column in columns:
        if column == keep:
            result.add_column(column, justify="left", no_wrap=True, min_width=keep_width)
        elif column in left:
            result.add_column(column, justify="left")
        else:
            result.add_column(column, justify="right", no_wrap=True)
    return result
