"""Everything a bot chose is escaped wherever it is printed.

A database may hold names from before names were checked, fault reasons quote a bot's stderr,
and an Intrigue promise is replayed by `arena show`. Each command below reads such a database
(or plays such a bot) and must neither crash (rich markup such as "[/]" used to raise) nor
let a raw control character, a bidi override or interpreted markup reach the terminal (an
ANSI sequence once cleared the screen and a forged "1st FAKE-WINNER" line was printed).
"""

from __future__ import annotations

import dataclasses
import json
import random
import shutil
import unicodedata
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import orjson
import pytest
from typer.testing import CliRunner

from arena.cli.app import app
from arena.games import get_game
from arena.inprocess import InProcessBot
from arena.printable import cell, shown, visible
from arena.record import BotIdentity, GameRecord
from arena.referee import SeatedBot, play_game
from arena.store import open_store
from leagues.reports import read_json, write_json, write_junit
from leagues.sequential import Bounds, RegressResult, Verdict
from leagues.store import LeagueStore
from protocol import legal

ROOT = Path(__file__).resolve().parents[2]
RANDOM = ROOT / "bots" / "random"

FORGED = "FORGED-LINE"
"""Text that must never begin a line of output: it follows a CR/LF in every hostile string."""
NAME = f"evil[/][red]\x1b[2J\x07\x9b31m\u202egnp.exe\r\n{FORGED}"
VERSION = "1[/b]\x1b[0m"
REASON = f"crash: last stderr: [/bold]\x1b]0;pwned\x07 \x1b[31m:skull:\u2066\r\n{FORGED}"
PROMISE = f"[/]\x1b[2J\u202e\u200b\r\n{FORGED}"
MARK = "PROMISE-MARK"


def assert_clean(output: str) -> None:
    """No raw control (except the newlines ending lines), format or separator character; no
    line that a bot forged; and the hostile markup shown as text, not interpreted."""
    raw = sorted(
        {
            f"U+{ord(c):04X}"
            for c in output
            if c != "\n" and unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp", "Cs")
        }
    )
    assert raw == [], f"raw characters reached the terminal: {raw}\n{output}"
    for line in output.splitlines():
        assert not line.strip(" │|").startswith(FORGED), f"a forged line:\n{output}"


@pytest.fixture
def run(monkeypatch):
    monkeypatch.setenv("COLUMNS", "250")  # wide: tables never wrap a cell onto a new line
    monkeypatch.setenv("NO_COLOR", "1")
    runner = CliRunner()

    def invoke(*args: str):
        result = runner.invoke(app, [str(a) for a in args])
        assert result.exception is None or isinstance(result.exception, SystemExit), (
            result.exception,
            result.output,
        )
        return result

    return invoke


def intrigue_record(game_id: str, hostile: BotIdentity, *, wins: bool = False) -> GameRecord:
    """A real Intrigue game in which seat 1 made promises, its record then rewritten as an
    old database could hold it: seat 1 named by a hostile bot and faulted with a hostile
    reason (or, wins, ranked first), its promises full of terminal escapes (the game's own
    checks count only their length, so it replays)."""
    rng = random.Random(5)

    def promiser(view: dict[str, Any], desc: dict[str, Any]) -> Any:
        action = legal.random_action(desc, rng)
        if isinstance(action, dict) and "promise" in action:
            action["promise"] = MARK
        return action

    def randomly(view: dict[str, Any], desc: dict[str, Any]) -> Any:
        return legal.random_action(desc, rng)

    deciders = [randomly, promiser, randomly]
    entrants = [
        SeatedBot(BotIdentity(f"plain{seat}", "1", f"p{seat}"), InProcessBot(decide))
        for seat, decide in enumerate(deciders)
    ]
    record = play_game(get_game("intrigue"), entrants, seed=5, options={}, game_id=game_id)
    decisions = tuple(
        d._replace(action={**d.action, "promise": PROMISE})
        if isinstance(d.action, dict) and d.action.get("promise") == MARK
        else d
        for d in record.decisions
    )
    assert decisions != record.decisions, "seat 1 made at least one promise"
    seats = list(record.seats)
    if wins:
        seats = [dataclasses.replace(s, rank=1 if s.seat == 1 else 2) for s in seats]
        seats[1] = dataclasses.replace(seats[1], bot=hostile)
    else:
        seats[1] = dataclasses.replace(seats[1], bot=hostile, fault="crash", fault_reason=REASON)
    return dataclasses.replace(
        record,
        seats=tuple(seats),
        decisions=decisions,
        status="complete",
    )


@pytest.fixture
def hostile_db(tmp_path):
    """A database holding a complete game, an aborted one and a league's game, all with a
    hostile bot name, fault reason and promise; and the league's file."""
    hostile = BotIdentity(NAME, VERSION, "dead", "/bots/evil")
    db = tmp_path / "arena.db"
    league_file = tmp_path / "league.toml"
    bots = ", ".join(f'"{ROOT / "bots" / b}"' for b in ("random", "intrigue-honest"))
    league_file.write_text(
        f'name = "hostile-league"\ngame = "intrigue"\nbots = [{bots}, "{ROOT / "bots" / "intrigue-shark"}"]\n'
        "games = 1\n"
    )
    with open_store(db, create=True) as store:
        store.save_game(intrigue_record("a" * 32, hostile))
        aborted = intrigue_record("b" * 32, hostile)
        store.save_game(
            dataclasses.replace(
                aborted,
                status="aborted",
                termination=f"seat 1 ({NAME}) faulted: {REASON}",
                seats=tuple(dataclasses.replace(s, rank=0, score=0.0) for s in aborted.seats),
            )
        )
        leagues = LeagueStore(store)
        league = leagues.register(
            name="hostile-league", title="intrigue", fingerprint="f", games=1, path=str(league_file)
        )
        leagues.save_game(intrigue_record("c" * 32, hostile, wins=True), league.id, 0)
        leagues.disqualify(league.id, entrant=1, label=f"{NAME}@{VERSION}", games=1, faults=1)
    return db, league_file


@pytest.mark.parametrize(
    "args",
    [
        ["ratings"],
        ["ratings", "intrigue"],
        ["ratings", "intrigue", "--recompute"],
        ["games"],
        ["games", "--bot", NAME],
        ["show", "a" * 8],
        ["show", "a" * 8, "--seat", "1"],
        ["show", "b" * 8],
        ["show", "c" * 8, "--seat", "0"],
    ],
    ids=["ratings", "ratings-title", "recompute", "games", "games-bot", "show", "show-seat"]
    + ["show-aborted", "show-league-game"],
)
def test_reading_commands_show_hostile_text_escaped(run, hostile_db, args):
    db, _ = hostile_db
    result = run(*args, "--db", db)
    assert result.exit_code == 0, result.output
    assert_clean(result.output)
    if args[0] in ("ratings", "show", "games"):
        assert visible(NAME) in result.output, "the name is shown, escaped, in full"
        assert "[/][red]" in result.output, "markup is shown as text"


def test_show_escapes_the_promises_and_the_fault_reason(run, hostile_db):
    db, _ = hostile_db
    result = run("show", "a" * 8, "--db", db)
    assert visible(PROMISE) in result.output, "each promise, escaped, in the events"
    assert json.dumps(PROMISE)[1:-1] in result.output, "and in the decisions, as JSON"
    assert visible(REASON) in result.output, "the fault reason in the results table"


@pytest.mark.parametrize("form", [[], ["--csv"], ["--json"]], ids=["table", "csv", "json"])
def test_league_standings_show_hostile_text_escaped(run, hostile_db, form):
    db, league_file = hostile_db
    result = run("league", "standings", league_file, "--db", db, *form)
    assert result.exit_code == 0, result.output
    assert_clean(result.output)
    if form == ["--json"]:
        assert json.loads(result.output)  # ensure_ascii: every character escaped, valid JSON
    else:
        assert visible(f"{NAME}@{VERSION}") in result.output


def hostile_crash_bot(tmp_path: Path, name: str = "hostile") -> Path:
    folder = tmp_path / name
    folder.mkdir()
    shutil.copy(ROOT / "tests" / "fakebots" / "fakebot.py", folder / "fakebot.py")
    (folder / "bot.toml").write_text(
        f'name = "{name}"\nversion = "0"\ncommand = ["{{python}}", "fakebot.py", "hostile-crash"]\n'
    )
    return folder


def test_check_and_play_and_show_escape_a_crash_reason_quoting_stderr(run, tmp_path):
    """The crash reason quotes the end of the bot's stderr, which is whatever it wrote."""
    bot = hostile_crash_bot(tmp_path)
    checked = run("check", bot, "--games", "1", "--seed", "1", "--logs", tmp_path / "logs")
    assert checked.exit_code == 1, checked.output
    assert_clean(checked.output)
    assert "exited with code 3" in checked.output and "[/]boom [red]" in checked.output
    assert "\\x1b[2J" in checked.output and "\\u202e" in checked.output

    db = tmp_path / "arena.db"
    played = run("play", "corruption", "--bot", bot, "--bot", RANDOM, "--bot", RANDOM, "--db", db)
    assert played.exit_code == 0, played.output
    assert_clean(played.output)
    with open_store(db, create=False) as store:
        (game,) = store.list_games()
    shown_game = run("show", game.id, "--db", db)
    assert_clean(shown_game.output)
    assert "[/]boom [red]" in shown_game.output


def test_a_hostile_name_in_bot_toml_never_crashes_play_or_check(run, tmp_path):
    """Whether bot.toml's name is refused (arena/manifest.py applies protocol/names.py) or
    played, every word printed about it is escaped."""
    folder = hostile_crash_bot(tmp_path, "plain")
    toml = folder / "bot.toml"
    toml.write_text(
        toml.read_text().replace('name = "plain"', 'name = "[/]x\\u001b[2J\\r\\nFORGED-LINE"')
    )
    for args in (
        ["check", folder, "--games", "1", "--logs", tmp_path / "logs"],
        [
            "play",
            "corruption",
            "--bot",
            folder,
            "--bot",
            RANDOM,
            "--bot",
            RANDOM,
            "--db",
            tmp_path / "a.db",
        ],
    ):
        result = run(*args)
        assert result.exit_code in (0, 1, 2), result.output
        assert_clean(result.output)


def test_visible_and_shown_and_cell():
    assert visible("plain é 😀 text") == "plain é 😀 text"
    assert visible("a\x1b[2J\r\n\t\x07\x9b\u202e\u200d\U000e0041\udc80") == (
        "a\\x1b[2J\\r\\n\\t\\x07\\x9b\\u202e\\u200d\\U000e0041\\udc80"
    )
    assert visible("one\ntwo\x1b", keep_newlines=True) == "one\ntwo\\x1b"
    assert shown("[red]x[/]") == "\\[red]x\\[/]"
    assert cell("[red]\x1b").plain == "[red]\\x1b"
    assert visible(Path("/x\n")) == "/x\\n"


def test_the_escaped_characters_are_every_unsafe_unicode_category():
    for code in range(0x110000):
        char = chr(code)
        unsafe = unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp", "Cs")
        escaped = visible(char) != char
        assert escaped == unsafe or (escaped and unicodedata.category(char) == "Cn"), hex(code)


def test_regress_reports_stay_valid_for_any_label(tmp_path):
    result = RegressResult(Verdict.FAIL, 40, -0.1, 0.2, -0.2, 0.0, 3.0, -2.9, 2.9, Bounds())
    label = "cand\x00\x1b[2J\udc80\ufffe\u202e<&>\"'"
    extra = {"game": "corruption", "candidate": label, "baseline": "b\x07", "field": [label]}
    write_junit(tmp_path / "r.xml", result, extra)
    text = (tmp_path / "r.xml").read_text(encoding="utf-8")
    root = ET.fromstring(text)  # well-formed XML 1.0
    (case,) = root.iter("testcase")
    assert visible(label) in case.get("name", "")
    write_json(tmp_path / "r.json", result, extra)
    data = orjson.loads((tmp_path / "r.json").read_bytes())  # strict: no lone surrogate
    assert data["run"]["candidate"] == visible(label)
    _, run_dict = read_json(tmp_path / "r.json")
    assert run_dict["field"] == [visible(label)]
