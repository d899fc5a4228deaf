"""The schema, as an ordered list of migrations (sqlite-utils ``Migrations``).

arena's own tables (bots, games, seats, ratings, meta) are created here. A layer above that
keeps its own tables in the same file registers their migrations in this same set with
``@migrations()`` (leagues.store: m002_leagues, m004_league_strikes); the composition root,
arena.cli.app, names it in arena.schema_extensions, and it is imported here before any
migration is listed or applied, so every command knows every migration.
Migration ids are what an existing file records as applied: never rename one.

Never edit a migration that has shipped: add a new one. Each runs in a transaction together
with the record that it ran, and ``prepare`` wraps the whole batch in one write transaction,
so two processes opening a new file at once cannot both apply the same migration.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

from arena import schema_extensions
from arena.store import decisions, seat_sums, totals
from arena.store.db import ReadOnlyDatabase, StoreError, write_transaction

migrations = Migrations("arena")


@migrations()
def m001_initial(db: Database) -> None:
    for statement in _INITIAL:
        db.execute(statement)


_INITIAL = [
    """
    CREATE TABLE bots (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        version TEXT NOT NULL,
        digest TEXT NOT NULL,              -- hash of the bot's directory (hex)
        path TEXT NOT NULL,                -- where it was first seen (informative)
        first_seen TEXT NOT NULL,          -- ISO 8601 UTC
        UNIQUE (name, version, digest)
    ) STRICT
    """,
    """
    CREATE TABLE games (
        id TEXT PRIMARY KEY,               -- GameRecord.game_id
        seq INTEGER NOT NULL UNIQUE,       -- save order (stable, unlike a rowid)
        title TEXT NOT NULL,
        options TEXT NOT NULL,             -- JSON object
        seed INTEGER NOT NULL,
        players INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('complete', 'aborted')),
        termination TEXT NOT NULL,
        started_at TEXT NOT NULL,          -- ISO 8601 UTC
        finished_at TEXT NOT NULL,
        decisions INTEGER NOT NULL,        -- how many
        detail TEXT NOT NULL               -- JSON object (Outcome.detail)
    ) STRICT
    """,
    "CREATE INDEX games_by_title ON games (title, finished_at, seq)",
    "CREATE INDEX games_by_time ON games (finished_at, seq)",
    """
    CREATE TABLE seats (
        game_id TEXT NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        bot_id INTEGER NOT NULL REFERENCES bots (id),
        score REAL NOT NULL,
        rank INTEGER NOT NULL,             -- 1 = best; ties share a rank
        fault TEXT NOT NULL,               -- arena.faults.Fault value
        fault_reason TEXT,
        time_ms REAL NOT NULL,
        decisions INTEGER NOT NULL,
        bot_seed INTEGER NOT NULL,         -- the seed this seat's bot was sent (not the deal's)
        PRIMARY KEY (game_id, seat)
    ) STRICT
    """,
    "CREATE INDEX seats_by_bot ON seats (bot_id, game_id)",
    """
    CREATE TABLE game_decisions (
        game_id TEXT PRIMARY KEY REFERENCES games (id),
        decisions TEXT NOT NULL            -- JSON [[seat, action, by_referee 0/1, ms], ...]
    ) STRICT
    """,
    """
    CREATE TABLE ratings (
        title TEXT NOT NULL,
        bot_id INTEGER NOT NULL REFERENCES bots (id),
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        games INTEGER NOT NULL,            -- rating updates so far
        updated_at TEXT NOT NULL,          -- finished_at of the last game that rated it
        PRIMARY KEY (title, bot_id)
    ) STRICT
    """,
    """
    CREATE TABLE rating_history (
        game_id TEXT NOT NULL REFERENCES games (id),
        title TEXT NOT NULL,
        bot_id INTEGER NOT NULL REFERENCES bots (id),
        mu_before REAL NOT NULL,
        sigma_before REAL NOT NULL,
        mu_after REAL NOT NULL,
        sigma_after REAL NOT NULL,
        PRIMARY KEY (game_id, bot_id)
    ) STRICT
    """,
    "CREATE INDEX rating_history_by_bot ON rating_history (title, bot_id)",
    """
    CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    ) STRICT
    """,
    # The key bots' per-game seeds are derived with (arena.referee.seat_seed): secret, so a bot
    # cannot work back to the seed that dealt the game; per database, so a rerun is reproducible.
    "INSERT INTO meta (key, value) VALUES ('bot_seed_key', lower(hex(randomblob(32))))",
]


@migrations()
def m003_seat_cpu(db: Database) -> None:
    # CPU time per seat from the OS, beside wall-clock time_ms (NULL when not measured).
    db.execute("ALTER TABLE seats ADD COLUMN cpu_ms REAL")


@migrations()
def m005_game_sandboxed(db: Database) -> None:
    # 1: every bot of the game ran in the sandbox; 0: the user ran them --unsandboxed;
    # NULL: no bot process (in-process bots) or recorded before arena knew.
    db.execute("ALTER TABLE games ADD COLUMN sandboxed INTEGER")


@migrations()
def m006_game_clock(db: Database) -> None:
    # What `arena rerun` needs to play the game again under the same conditions: the clock
    # (JSON {"decision_ms", "bank_ms", "startup_ms", "game_ms"}, arena.conditions.TimeControl)
    # and the fault policy (arena.conditions.FaultPolicy value). NULL: recorded before arena
    # kept them; rerun then uses arena play's defaults and says so.
    db.execute("ALTER TABLE games ADD COLUMN time_control TEXT")
    db.execute("ALTER TABLE games ADD COLUMN fault_policy TEXT")


@migrations()
def m007_compact_storage(db: Database) -> None:
    # A third of the bytes a game took. Decisions stored packed (arena.store.decisions): the
    # table is rebuilt because a STRICT column cannot change type from TEXT to BLOB.
    db.execute(
        """
        CREATE TABLE game_decisions_packed (
            game_id TEXT PRIMARY KEY REFERENCES games (id),
            decisions BLOB NOT NULL            -- arena.store.decisions.pack
        ) STRICT
        """
    )
    db.conn.executemany(
        "INSERT INTO game_decisions_packed (game_id, decisions) VALUES (?, ?)",
        (
            (game_id, decisions.pack(json.loads(text)))
            for game_id, text in db.conn.execute("SELECT game_id, decisions FROM game_decisions")
        ),
    )
    db.execute("DROP TABLE game_decisions")
    db.execute("ALTER TABLE game_decisions_packed RENAME TO game_decisions")
    # rating_history without a rowid: its primary key is then the table itself, not a second
    # copy of every (game_id, bot_id) beside it. Nothing reads it by (title, bot_id) any more
    # than by scanning, so that index goes too.
    db.execute(
        """
        CREATE TABLE rating_history_keyed (
            game_id TEXT NOT NULL REFERENCES games (id),
            title TEXT NOT NULL,
            bot_id INTEGER NOT NULL REFERENCES bots (id),
            mu_before REAL NOT NULL,
            sigma_before REAL NOT NULL,
            mu_after REAL NOT NULL,
            sigma_after REAL NOT NULL,
            PRIMARY KEY (game_id, bot_id)
        ) STRICT, WITHOUT ROWID
        """
    )
    db.execute("INSERT INTO rating_history_keyed SELECT * FROM rating_history")
    db.execute("DROP TABLE rating_history")
    db.execute("ALTER TABLE rating_history_keyed RENAME TO rating_history")


@migrations()
def m008_title_bot_totals(db: Database) -> None:
    # Leaderboard counts kept per (title, bot) as games are saved (arena.store.totals).
    db.execute(totals.CREATE)
    totals.rebuild(db)


@migrations()
def m010_report_views(db: Database) -> None:
    # Views for the questions people ask of the file with their own tools (sqlite-utils,
    # Datasette, the sqlite3 shell): docs/SCHEMA.md describes them with the tables.
    for statement in _REPORT_VIEWS:
        db.execute(statement)


_REPORT_VIEWS = [
    """
    CREATE VIEW leaderboard AS            -- what `arena ratings --json` prints, per title
    SELECT r.title, b.name || '@' || b.version AS bot, r.mu - 3 * r.sigma AS mu_minus_3sigma,
           r.mu, r.sigma, coalesce(t.games, 0) AS games, coalesce(t.seats, 0) AS seats,
           coalesce(t.wins, 0) AS wins, t.score_sum / nullif(t.seats, 0) AS mean_score,
           coalesce(t.faults, 0) AS faults, coalesce(t.aborted, 0) AS aborted,
           b.name, b.version, b.digest, b.id AS bot_id
    FROM ratings r
    JOIN bots b ON b.id = r.bot_id
    LEFT JOIN title_bot_totals t ON t.title = r.title AND t.bot_id = r.bot_id
    ORDER BY r.title, r.mu - 3 * r.sigma DESC, r.mu DESC, b.name, b.version, b.id
    """,
    """
    CREATE VIEW bot_games AS              -- one row per seat: a bot's games and how it fared
    SELECT b.name || '@' || b.version AS bot, g.id AS game_id, g.title, g.finished_at,
           g.status, g.players, s.seat, s.rank, s.score, s.fault, s.fault_reason,
           s.decisions, s.time_ms, s.cpu_ms, b.name, b.version, b.digest, b.id AS bot_id, g.seq
    FROM seats s
    JOIN games g ON g.id = s.game_id
    JOIN bots b ON b.id = s.bot_id
    """,
]


@migrations()
def m011_seat_sums(db: Database) -> None:
    # Per title, bot and seat, and per title and pair of bots, the sums the web report shows
    # (mean rank, time per decision, results by seat and by opponent), kept by triggers as
    # seats are inserted, whatever writes them: a page then reads a few rows per bot instead
    # of every seat of the title (seconds at 100,000 games). Only complete games count.
    for statement in seat_sums.CREATE:
        db.execute(statement)
    seat_sums.rebuild(db)


def known_names() -> list[str]:
    """The migrations this version of arena knows, in order."""
    _import_extensions()
    with Database(memory=True) as empty:  # everything is pending on an empty database
        return [m.name for m in migrations.pending(empty)]


def prepare(db: Database, path: Path, *, create: bool, read_only: bool = False) -> None:
    """Check that ``db`` is an arena database this version can use, and bring it up to date.

    Refuses, changing nothing, a file that is some other program's database or one written by
    a newer arena. Then switches the file to WAL mode (readers never wait for the writer) and
    takes the write lock only if there is a migration to apply, so opening an up-to-date
    database to read it works while another process is writing. ``read_only``: a connection
    that cannot write: only check, and refuse a database that needs a migration.
    """
    _import_extensions()
    _check(db, path, create=create)
    if read_only:
        pending = [m.name for m in migrations.pending(db)]
        if pending:
            raise ReadOnlyDatabase(
                f"{path} was written by an older arena and needs a schema upgrade "
                f"({', '.join(pending)}), but it cannot be written here. Nothing was changed; "
                "make it writable and run any arena command on it once (that upgrades it), or "
                "pass --db with an upgraded copy."
            )
        return
    db.enable_wal()
    if migrations.pending(db):
        with write_transaction(db):
            _check(db, path, create=create)  # another process may have got there first
            migrations.apply(db)


def _import_extensions() -> None:
    """Import the modules named in arena.schema_extensions: importing one registers its
    migrations in this set (done here, not at import, since they import arena.store)."""
    for module in schema_extensions.MODULES:
        importlib.import_module(module)


def _check(db: Database, path: Path, *, create: bool) -> None:
    applied = [m.name for m in migrations.applied(db)]
    known = set(known_names())
    unknown = [name for name in applied if name not in known]
    if unknown:
        raise StoreError(
            f"{path} was written by a newer version of arena (it has schema migration(s) "
            f"{', '.join(unknown)} that this version does not know). Upgrade arena, or pass "
            "another --db FILE; the database was not changed."
        )
    if applied:
        return
    others = [
        name
        for name in db.table_names()
        if name != Migrations.migrations_table and not name.startswith("sqlite_")
    ]
    if others:
        shown = ", ".join(others[:5]) + (", ..." if len(others) > 5 else "")
        raise StoreError(
            f"{path} is an SQLite database but not an arena database (it has tables: {shown}). "
            "Pass --db with an arena database, or a new file name to create one; "
            "the file was not changed."
        )
    if not create:
        raise StoreError(
            f"{path} is empty, not an arena database — run `arena play ...` first, "
            "or pass --db FILE"
        )
