"""League files: what loads, and for every mistake a message naming the file, the line and the fix."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from arena.bundled import BUNDLED_DIR
from arena.referee import FaultPolicy, TimeControl
from leagues.schedule import build_schedule
from leagues.spec import LeagueFileError, LeagueFormat, load_league

ROOT = Path(__file__).resolve().parents[2]
RANDOM = (ROOT / "bots" / "random").as_posix()
GREEDY = (ROOT / "bots" / "corruption-greedy").as_posix()
EXAMPLES = sorted((ROOT / "leagues" / "examples").glob("*.toml"))

GOOD = f"""\
name = "corruption-open"
game = "corruption"
bots = ["{GREEDY}", {{path = "{RANDOM}", copies = 3}}]
table_size = 4
games = 40
"""


def write(tmp_path: Path, text: str, name: str = "league.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def error_for(tmp_path: Path, text: str) -> LeagueFileError:
    path = write(tmp_path, text)
    with pytest.raises(LeagueFileError) as caught:
        load_league(path)
    message = str(caught.value)
    assert message.startswith(str(path)), f"the message names the file: {message}"
    return caught.value


def assert_error(tmp_path: Path, text: str, line: int | None, *words: str) -> LeagueFileError:
    error = error_for(tmp_path, text)
    message = str(error)
    assert error.line == line, f"expected line {line}, got {error.line}: {message}"
    if line is not None:
        assert f"league.toml line {line}: " in message, message
    for word in words:
        assert word in message, f"{word!r} missing from: {message}"
    return error


# -- what loads ------------------------------------------------------------------------------


def test_a_round_robin_file_loads_with_defaults(tmp_path):
    spec = load_league(write(tmp_path, GOOD))
    assert spec.name == "corruption-open"
    assert spec.path == (tmp_path / "league.toml").resolve()
    assert spec.game == "corruption"
    assert spec.format is LeagueFormat.ROUND_ROBIN
    assert spec.table_sizes == (4,)
    assert (spec.games, spec.seed, spec.duplicate, spec.workers) == (40, 0, True, 1)
    assert spec.options == {"variants": []}
    assert spec.time == TimeControl()
    assert spec.fault_policy is FaultPolicy.SUBSTITUTE
    assert spec.candidates == ()
    assert [e.label for e in spec.entrants] == [
        "corruption-greedy",
        "random#1",
        "random#2",
        "random#3",
    ]
    assert [e.copy for e in spec.entrants] == [1, 1, 2, 3]
    assert all(e.path.is_absolute() and e.path.is_dir() for e in spec.entrants)


def test_every_key_is_read(tmp_path):
    text = f"""\
name = "full"
game = "corruption"
format = "gauntlet"
bots = [{{path = "{RANDOM}", copies = 4}}]
candidates = ["{GREEDY}"]
table_size = [3, 5]
games = 30
seed = 9
duplicate = false
workers = 3

[options]
variants = ["closed", "little-black-book"]

[time]
decision_ms = 250
bank_ms = 0
startup_ms = 2000.5
game_ms = 90000

[faults]
policy = "abort"
"""
    spec = load_league(write(tmp_path, text))
    assert spec.format is LeagueFormat.GAUNTLET
    assert spec.table_sizes == (3, 4, 5)
    assert (spec.games, spec.seed, spec.duplicate, spec.workers) == (30, 9, False, 3)
    assert spec.options == {"variants": ["closed", "little-black-book"]}
    assert spec.time == TimeControl(decision_s=0.25, bank_s=0.0, startup_s=2.0005, game_s=90.0)
    assert spec.fault_policy is FaultPolicy.ABORT
    assert [e.label for e in spec.bots] == ["random#1", "random#2", "random#3", "random#4"]
    assert [e.label for e in spec.candidates] == ["corruption-greedy"]
    assert spec.entrants == spec.bots + spec.candidates, "field first, then candidates"


def test_paths_are_relative_to_the_league_files_folder(tmp_path):
    folder = tmp_path / "leagues"
    folder.mkdir()
    relative = os.path.relpath(ROOT / "bots" / "random", folder)
    text = f'name = "r"\ngame = "corruption"\nbots = [{{path = "{relative}", copies = 3}}]\ngames = 3\n'
    spec = load_league(write(folder, text))
    assert {e.path for e in spec.entrants} == {(ROOT / "bots" / "random").resolve()}
    assert spec.table_sizes == (3,), "default table size: every bot at one table"


def test_default_table_size_is_capped_at_the_games_maximum(tmp_path):
    text = (
        f'name = "r"\ngame = "corruption"\nbots = [{{path = "{RANDOM}", copies = 9}}]\ngames = 3\n'
    )
    assert load_league(write(tmp_path, text)).table_sizes == (7,)


def test_a_gauntlets_default_table_is_the_field_plus_the_candidate(tmp_path):
    text = (
        f'name = "g"\ngame = "corruption"\nformat = "gauntlet"\n'
        f'bots = [{{path = "{RANDOM}", copies = 3}}]\ncandidates = ["{GREEDY}"]\ngames = 4\n'
    )
    assert load_league(write(tmp_path, text)).table_sizes == (4,)


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
def test_every_shipped_example_loads_and_schedules(example, tmp_path):
    """From any folder (a copy here): they name bundled bots, not paths into the checkout,
    which an installed wheel does not have."""
    spec = load_league(write(tmp_path, example.read_text(encoding="utf-8"), example.name))
    assert all(entrant.path.parent == BUNDLED_DIR for entrant in spec.entrants)
    tasks = build_schedule(spec, os.urandom(32))
    assert len(tasks) == spec.games
    assert all(len(set(t.seating)) == len(t.seating) for t in tasks)


def test_the_examples_include_a_round_robin_and_a_gauntlet():
    formats = {load_league(example).format for example in EXAMPLES}
    assert formats == {LeagueFormat.ROUND_ROBIN, LeagueFormat.GAUNTLET}


# -- every mistake names the file, the line and the fix --------------------------------------


def test_a_missing_file(tmp_path):
    with pytest.raises(LeagueFileError, match="no such file"):
        load_league(tmp_path / "nope.toml")


def test_toml_syntax_errors_keep_their_line(tmp_path):
    text = GOOD.replace("games = 40", "games = forty")
    assert_error(tmp_path, text, 5, "not valid TOML", "column", "fix the syntax")


@pytest.mark.parametrize(
    ("key", "fix"),
    [
        ("name", 'name = "corruption-open"'),
        ("game", 'game = "corruption"'),
        ("bots", "bots = ["),
        ("games", "games = 200"),
    ],
)
def test_missing_required_keys(tmp_path, key, fix):
    text = "\n".join(line for line in GOOD.splitlines() if not line.startswith(key + " "))
    assert_error(tmp_path, text + "\n", None, f"missing {key}", "add a line like", fix)


@pytest.mark.parametrize(
    ("old", "new", "line", "words"),
    [
        (
            "games = 40",
            'games = "40"',
            5,
            ["games must be a whole number", "games = 200", "string"],
        ),
        ("games = 40", "games = 4.5", 5, ["whole number"]),
        ("games = 40", "games = true", 5, ["whole number", "true/false"]),
        ('name = "corruption-open"', "name = 3", 1, ["name must be a string"]),
        ('name = "corruption-open"', 'name = "  "', 1, ["name is empty", "give it a value"]),
        ("table_size = 4", 'table_size = "4"', 4, ["table_size must be", "[3, 5]"]),
        ("table_size = 4", "table_size = [3]", 4, ["table_size must be", "[min, max]"]),
        ("table_size = 4", "table_size = [5, 3]", 4, ["goes down", "table_size = [3, 5]"]),
        ("games = 40", "games = 40\nduplicate = 1", 6, ["duplicate must be true or false"]),
        ("games = 40", "games = 40\nseed = -1", 6, ["seed = -1 is too small", "0 or more"]),
        ("games = 40", "games = 40\nseed = 9223372036854775808", 6, ["too large"]),
        ("games = 40", "games = 40\nworkers = 0", 6, ["workers = 0 is too small", "1 or more"]),
        ("games = 40", "games = 0", 5, ["games = 0 is too small", "use 1 or more"]),
        ("games = 40", "games = 40\noptions = 3", 6, ["options must be a table", "[options]"]),
    ],
)
def test_wrong_values_name_the_line_and_the_fix(tmp_path, old, new, line, words):
    assert old in GOOD
    assert_error(tmp_path, GOOD.replace(old, new), line, *words)


def test_an_unknown_key_suggests_the_closest(tmp_path):
    assert_error(tmp_path, GOOD + "gmes = 3\n", 6, 'unknown key "gmes"', 'did you mean "games"?')


def test_an_unknown_key_with_no_close_match_lists_the_keys(tmp_path):
    assert_error(tmp_path, GOOD + "xyzzy = 3\n", 6, 'unknown key "xyzzy"', "table_size")


def test_an_unknown_table_points_at_its_header(tmp_path):
    text = GOOD + "\n[option]\nvariants = []\n"
    assert_error(tmp_path, text, 7, 'unknown key "option"', 'did you mean "options"?')


def test_an_unknown_key_inside_a_table(tmp_path):
    text = GOOD + "\n[time]\ndecision_ms = 100\nbank = 5\n"
    assert_error(tmp_path, text, 9, 'unknown key [time] "bank"', 'did you mean "bank_ms"?')


def test_an_unknown_game_lists_the_known_ones(tmp_path):
    text = GOOD.replace('game = "corruption"', 'game = "corupton"')
    assert_error(tmp_path, text, 2, "not a game this arena knows", "known games: corruption")


def test_an_unknown_format(tmp_path):
    text = GOOD + 'format = "round robin"\n'
    assert_error(tmp_path, text, 6, "not a league format", 'format = "round-robin"')


def test_a_table_size_the_game_does_not_allow(tmp_path):
    text = GOOD.replace("table_size = 4", "table_size = 9")
    assert_error(
        tmp_path,
        text,
        4,
        "table_size = 9 but corruption is played by 3 to 7 players; use a number from 3 to 7",
    )


def test_a_table_size_range_outside_the_game(tmp_path):
    text = GOOD.replace("table_size = 4", "table_size = [2, 4]")
    assert_error(tmp_path, text, 4, "played by 3 to 7 players")


def test_a_round_robin_table_cannot_outnumber_the_bots(tmp_path):
    text = GOOD.replace("table_size = 4", "table_size = 5")
    assert_error(tmp_path, text, 4, "only 4 bots are listed", "at most 4", "copies = 3", "add bots")


def test_a_gauntlet_field_must_fill_the_table(tmp_path):
    text = (
        f'name = "g"\ngame = "corruption"\nformat = "gauntlet"\n'
        f'bots = [{{path = "{RANDOM}", copies = 2}}]\ncandidates = ["{GREEDY}"]\n'
        "table_size = 4\ngames = 4\n"
    )
    assert_error(tmp_path, text, 6, "needs 3 distinct field bots", "at most 3", "add field bots")


def test_too_few_bots_for_the_default_table(tmp_path):
    text = f'name = "r"\ngame = "corruption"\nbots = ["{RANDOM}", "{GREEDY}"]\ngames = 3\n'
    assert_error(tmp_path, text, 3, "only 2 bots listed", "at least 3 players", "copies")


def test_bad_options_give_the_games_message(tmp_path):
    text = GOOD + '\n[options]\nvariants = ["closed", "nope"]\n'
    assert_error(tmp_path, text, 8, "[options] rejected by corruption", "unknown variant", "nope")


def test_talk_is_not_an_option_a_league_sets(tmp_path):
    text = GOOD.replace('"corruption"', '"intrigue"') + "\n[options]\ntalk = [0, 1]\n"
    assert_error(tmp_path, text, 8, "[options] talk", "ask for it in their hello", "remove it")


def test_an_unknown_option_points_at_it(tmp_path):
    text = GOOD + "\n[options]\nvariants = []\nspeed = 2\n"
    assert_error(tmp_path, text, 9, "unknown option", "the only option is 'variants'")


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ("decision_ms = 0", ["decision_ms = 0", "must be more than 0", "decision_ms = 1000"]),
        ("bank_ms = -5", ["bank_ms = -5", "must be 0 or more", "bank_ms = 5000"]),
        ('startup_ms = "slow"', ["time.startup_ms must be a number of milliseconds"]),
        ("startup_ms = inf", ["startup_ms = inf", "startup_ms = 10000"]),
        ("game_ms = 0", ["game_ms = 0", "wall-clock limit of one game", "game_ms = 600000"]),
        ("game_ms = -1", ["must be more than 0"]),
        ("game_s = 60", ['unknown key [time] "game_s"', 'did you mean "game_ms"?']),
    ],
)
def test_bad_time_values(tmp_path, body, words):
    assert_error(tmp_path, GOOD + f"\n[time]\n{body}\n", 8, *words)


def test_a_dotted_time_key_is_found_too(tmp_path):
    assert_error(tmp_path, GOOD + "time.decision_ms = 0\n", 6, "must be more than 0")


def test_time_written_as_a_value_not_a_table(tmp_path):
    assert_error(tmp_path, GOOD + "time = 5\n", 6, "time must be a table", "[time]")


def test_an_unknown_fault_policy(tmp_path):
    text = GOOD + '\n[faults]\npolicy = "forfeit"\n'
    assert_error(
        tmp_path, text, 8, "not a fault policy", 'policy = "substitute"', 'policy = "abort"'
    )


def test_a_path_that_is_not_a_bot_points_at_its_line(tmp_path):
    text = (
        'name = "r"\ngame = "corruption"\nbots = [\n'
        f'  "{GREEDY}",\n  "{tmp_path.as_posix()}/missing",\n'
        f'  {{path = "{RANDOM}", copies = 2}},\n]\ngames = 3\n'
    )
    assert_error(tmp_path, text, 5, "is not a bot", "does not exist", "fix the path", "relative to")


def test_a_directory_without_bot_toml(tmp_path):
    (tmp_path / "empty").mkdir()
    text = GOOD.replace(f'"{GREEDY}"', '"empty"')
    assert_error(tmp_path, text, 3, "is not a bot", "has no bot.toml")


def test_a_bundled_bot_by_name_when_no_such_path_exists(tmp_path):
    text = GOOD.replace(f'"{GREEDY}"', '"corruption-greedy"').replace(
        f'"{RANDOM}"', '"bots/random"'
    )
    spec = load_league(write(tmp_path, text))
    assert {e.path for e in spec.entrants} == {Path(GREEDY), Path(RANDOM)}


def test_a_path_beside_the_league_file_wins_over_a_bundled_name(tmp_path):
    (tmp_path / "random").mkdir()
    text = GOOD.replace(f'"{RANDOM}"', '"random"')
    assert_error(tmp_path, text, 3, "is not a bot", "has no bot.toml")


def test_neither_a_path_nor_a_bundled_name(tmp_path):
    text = GOOD.replace(f'"{GREEDY}"', '"greedy"')
    assert_error(tmp_path, text, 3, "is not a bot", "relative to", "(bundled: corruption-greedy")


def test_a_bot_listed_twice_points_at_copies(tmp_path):
    text = (
        f'name = "r"\ngame = "corruption"\nbots = ["{GREEDY}",\n  "{RANDOM}",\n'
        f'  "{RANDOM}"]\ngames = 3\n'
    )
    assert_error(tmp_path, text, 5, "listed twice in bots (line 4)", "copies = N")


def test_the_same_bot_through_two_spellings_is_listed_twice(tmp_path):
    other = f"{ROOT.as_posix()}/bots/../bots/random"
    text = GOOD.replace(f'"{GREEDY}"', f'"{other}"')
    assert_error(tmp_path, text, 3, "listed twice")


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        (f'{{path = "{RANDOM}", copies = 0}}', ["copies = 0", "at least 1"]),
        (f'{{path = "{RANDOM}", copies = "3"}}', ['copies = "3"', "whole number"]),
        (f'{{path = "{RANDOM}", copy = 3}}', ['unknown key "copy"', 'did you mean "copies"?']),
        ("{copies = 3}", ["needs path"]),
        ("3", ["must be paths (strings)"]),
        ('""', ["empty path"]),
    ],
)
def test_bad_bot_entries(tmp_path, entry, words):
    text = f'name = "r"\ngame = "corruption"\nbots = ["{GREEDY}", {entry}]\ngames = 3\n'
    assert_error(tmp_path, text, 3, *words)


def test_bots_must_be_a_non_empty_list(tmp_path):
    text = GOOD.replace(GOOD.splitlines()[2], "bots = []")
    assert_error(tmp_path, text, 3, "bots is empty", "list at least one")
    text = GOOD.replace(GOOD.splitlines()[2], f'bots = "{RANDOM}"')
    assert_error(tmp_path, text, 3, "bots must be a list")


def test_candidates_only_in_a_gauntlet(tmp_path):
    text = GOOD + f'candidates = ["{RANDOM}"]\n'
    assert_error(tmp_path, text, 6, "only for format", 'format = "gauntlet"')


def test_a_gauntlet_needs_candidates(tmp_path):
    text = GOOD + 'format = "gauntlet"\n'
    assert_error(tmp_path, text, 6, "a gauntlet needs candidates", "candidates = [")


def test_a_candidate_is_not_copied(tmp_path):
    text = (
        f'name = "g"\ngame = "corruption"\nformat = "gauntlet"\n'
        f'bots = [{{path = "{RANDOM}", copies = 3}}]\n'
        f'candidates = [{{path = "{GREEDY}", copies = 2}}]\ngames = 4\n'
    )
    assert_error(tmp_path, text, 5, "copies = 2", "remove copies")


def test_a_candidate_is_not_also_a_field_bot(tmp_path):
    text = (
        f'name = "g"\ngame = "corruption"\nformat = "gauntlet"\n'
        f'bots = ["{GREEDY}", {{path = "{RANDOM}", copies = 3}}]\n'
        f'candidates = ["{GREEDY}"]\ngames = 4\n'
    )
    assert_error(tmp_path, text, 5, "both a field bot and a candidate", "(line 4)", "remove it")


def test_array_of_tables_entries_point_at_their_own_lines(tmp_path):
    text = (
        'name = "r"\ngame = "corruption"\ngames = 3\n'
        f'[[bots]]\npath = "{RANDOM}"\ncopies = 2\n'
        f'[[bots]]\npath = "{tmp_path.as_posix()}/missing"\n'
    )
    assert_error(tmp_path, text, 8, "is not a bot")


def test_the_error_carries_its_parts(tmp_path):
    error = error_for(tmp_path, GOOD.replace("games = 40", "games = 0"))
    assert error.file == str(tmp_path / "league.toml")
    assert error.line == 5
    assert error.problem.startswith("games = 0 is too small")
