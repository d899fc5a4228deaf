"""protocol.names: the one rule for bot names and versions, and the hello check that uses it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from protocol import messages, names

ALLOWED = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-"


@pytest.mark.parametrize(
    "name", ["random", "corruption-greedy", "a", "A1", "9lives", "bot_v2.1+dev", "x" * 40]
)
def test_good_names(name):
    assert names.check_bot_name(name) is None


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("", "empty"),
        ("x" * 41, "41 characters, more than 40"),
        ("-flag", "begin with a letter or a digit"),
        (".hidden", "begin with a letter or a digit"),
        ("my bot", "U+0020 at position 3"),
        ("[red]x[/]", "U+005B at position 1"),
        ("a\x1b[2J", "U+001B at position 2"),
        ("a\nb", "U+000A"),
        ("évil", "U+00E9"),
        ("a\u202eb", "U+202E"),
        ("../etc", "U+002F at position 3"),
        ("a/b", "U+002F"),
        (None, "must be a string"),
        (3, "must be a string"),
    ],
)
def test_bad_names_say_what_is_wrong(name, words):
    problem = names.check_bot_name(name)
    assert problem is not None and words in problem, problem


@pytest.mark.parametrize("version", ["", "1", "1.0", "2024-01-01", "1.0+local", "v" * 32])
def test_good_versions(version):
    assert names.check_bot_version(version) is None


@pytest.mark.parametrize(
    ("version", "words"),
    [
        ("v" * 33, "33 characters, more than 32"),
        ("1.0 beta", "U+0020"),
        ("1\n", "U+000A"),
        (1.0, "must be a string"),
    ],
)
def test_bad_versions_say_what_is_wrong(version, words):
    problem = names.check_bot_version(version)
    assert problem is not None and words in problem, problem


def test_a_problem_never_quotes_an_unprintable_character():
    """The message may reach a terminal: it names a bad character by its code point and shows
    the character itself only when it is printable ASCII."""
    for bad in ("\x1b", "\n", "\r", "\x07", "\u202e", "\x00", "\x9b"):
        problem = names.check_bot_name("a" + bad)
        assert problem is not None and bad not in problem


@given(st.text(max_size=50))
def test_the_rule_in_one_sentence(text):
    name_ok = 1 <= len(text) <= 40 and set(text) <= set(ALLOWED) and text[0] not in "._+-"
    version_ok = len(text) <= 32 and set(text) <= set(ALLOWED)
    assert (names.check_bot_name(text) is None) == name_ok
    assert (names.check_bot_version(text) is None) == version_ok


def test_the_hello_check_applies_the_rule_as_a_schema_error():
    hello = {"type": "hello", "protocol": 1, "name": "good-bot", "version": "1.0"}
    assert messages.check_bot_hello(hello) == (1, "good-bot", "1.0")
    with pytest.raises(messages.SchemaError, match='hello "name": the name contains'):
        messages.check_bot_hello({**hello, "name": "[red]FAKE[/]"})
    with pytest.raises(messages.SchemaError, match='hello "version": the version has 33'):
        messages.check_bot_hello({**hello, "version": "1" * 33})
    with pytest.raises(messages.SchemaError, match='hello needs "name": 1 to 40 characters'):
        messages.check_bot_hello({"type": "hello", "protocol": 1})
