"""Fuzzing the wire: whatever bytes a bot sends, the referee never raises; it records a fault.

Two levels: the decoding functions in-process (many inputs, fast), and a real bot process
answering with random bytes through the real BotProcess (fewer inputs: each is a process).
"""

from __future__ import annotations

import json
import random
import shutil
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from arena.botprocess import BotProcess
from arena.faults import BotError, Fault
from arena.games import get_game
from arena.inprocess import InProcessBot
from arena.manifest import load_bot
from arena.record import BotIdentity
from arena.referee import REFEREE_ERROR, FaultPolicy, SeatedBot, play_game
from arena.store import Store, open_store
from protocol import codec, legal, messages
from tests.support import hostile, kindsgame, toygame
from tests.support.paths import FAKEBOT

pytestmark = pytest.mark.slow  # property runs through the referee and real bot processes

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
near_messages = st.dictionaries(
    st.sampled_from(["type", "id", "action", "protocol", "name", "version", "x"]),
    st.sampled_from(["action", "hello", "log", 1, -1, None, True, "1"]) | json_values,
    max_size=5,
)


# 500 examples of each of these two (drawing them is most of the cost). Measured with coverage
# over 3 seeds: the splitter's 26 branch arcs are all reached at 500 as at 2,000; decoding and
# the message checks reach 169-171 of 186 at 500, 174-179 at 2,000, the difference being deep
# hello fields, which test_check_bot_hello_accepts_exactly_what_the_schema_accepts
# (tests/protocol) fuzzes against the schema.
@settings(max_examples=500, deadline=None)
@given(st.binary(max_size=300) | near_messages.map(lambda m: json.dumps(m).encode()))
def test_decoding_any_line_gives_a_message_or_a_clear_error(line):
    try:
        message = codec.decode(line.split(b"\n")[0])
    except codec.DecodeError as exc:
        assert str(exc)
        return
    for check in (messages.check_bot_action, messages.check_bot_hello):
        try:
            check(message)
        except messages.SchemaError as exc:
            assert str(exc)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.binary(max_size=100), max_size=8), st.integers(1, 64))
def test_the_line_splitter_never_raises_anything_but_a_decode_error(chunks, cap):
    splitter = codec.LineSplitter(cap)
    try:
        for chunk in chunks:
            for line in splitter.feed(chunk):
                assert len(line) <= cap and b"\n" not in line
    except codec.DecodeError as exc:
        assert "cap" in str(exc)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.binary(min_size=1, max_size=200)
    | near_messages.map(lambda m: json.dumps(m).encode() + b"\n")
)
def test_a_real_bot_answering_random_bytes_is_a_fault_never_a_crash(tmp_path_factory, raw):
    folder = tmp_path_factory.mktemp("fuzzbot")
    (folder / "answer.bin").write_bytes(raw)
    shutil.copy(FAKEBOT, folder / "fakebot.py")  # inside: a sandboxed bot sees only its folder
    (folder / "bot.toml").write_text(
        'name = "fuzz"\nversion = "0"\ncommand = ["{python}", "fakebot.py", "bytes", "1", '
        '"answer.bin"]\n'
    )
    bot = BotProcess(load_bot(folder))
    try:
        bot.start(5.0)
        request = messages.request("g", 7, "pick", {}, {"kind": "choice", "options": [0, 1]}, 300)
        try:
            action, _ = bot.ask(request, 0.3)
        except BotError as error:
            assert error.fault in set(Fault) and error.reason
        else:
            # only a well-formed answer to request 7 gets here; legality is the referee's check
            assert b'"id"' in raw or b"id" in raw
            assert action is not None or b"null" in raw
    finally:
        bot.stop()


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.binary(min_size=1, max_size=120)
    | near_messages.map(lambda m: json.dumps(m).encode() + b"\n")
)
def test_arena_check_turns_any_reply_into_a_verdict_in_words(tmp_path_factory, raw):
    """The bot author's command, fed a bot that answers its first request with random bytes:
    it never raises, and it ends with PASS or FAIL and an exit code, never a traceback."""
    from typer.testing import CliRunner

    from arena.cli.app import app

    folder = tmp_path_factory.mktemp("fuzzcheck")
    (folder / "answer.bin").write_bytes(raw)
    shutil.copy(FAKEBOT, folder / "fakebot.py")
    (folder / "bot.toml").write_text(
        'name = "fuzz"\nversion = "0"\ncommand = ["{python}", "fakebot.py", "bytes", "1", '
        '"answer.bin"]\n'
    )
    result = CliRunner().invoke(
        app,
        [
            "check",
            str(folder),
            "--games",
            "1",
            "--decision-ms",
            "300",
            "--bank-ms",
            "0",
            "--logs",
            str(folder / "logs"),
        ],
    )
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert result.exit_code in (0, 1), result.output
    assert ("PASS" in result.output) == (result.exit_code == 0)
    assert "Traceback" not in result.output


# --- hostile but decodable: nesting, huge numbers, surrogates, control characters ------------

DESCRIPTIONS = [
    legal.choice([0, 1, 2]),
    legal.choice([{"card": 3, "to": "swiss"}, {"card": 3, "to": 0}, "pass", [1, [2]]]),
    legal.int_range(0, 20_000, 1000),
    legal.text(40),
    legal.record(
        {
            "amount": legal.int_range(0, 9),
            "section": legal.choice([1, None]),
            "promise": legal.text(40),
            "inner": legal.record({"x": legal.choice([True, 1])}),
        },
        optional=["promise"],
    ),
]


# 1,500 examples: decoding the lines reaches all its branches in a few hundred (see the codec's
# hostile-line fuzz); what is left is spread over the 6 descriptions, about 250 each.
@settings(max_examples=1500, deadline=None)
@given(hostile.hostile_lines, st.sampled_from(DESCRIPTIONS))
def test_a_hostile_line_ends_as_a_reason_or_a_checked_action(line, desc):
    """decode, then the message checks, then the legality check and the canonical form, as
    the referee runs them: each step either says why it refuses, in printable ASCII for the
    decode, or hands on a value the next step takes without raising."""
    try:
        message = codec.decode(line)
    except codec.DecodeError as refused:
        assert str(refused).isascii() and str(refused).isprintable()
        event(f"decode: {_gist(str(refused))}")
        return
    assert hostile.problems(message) == []
    event("decoded")
    try:
        messages.check_bot_hello(message)
    except messages.SchemaError as refused:
        assert str(refused)
    try:
        _, action = messages.check_bot_action(message)
    except messages.SchemaError as refused:
        assert str(refused)
        return
    reason = legal.why_illegal(desc, action)
    if reason is None:
        assert legal.is_legal(desc, legal.canonical(desc, action))
    else:
        assert isinstance(reason, str) and reason and len(reason) < 400


class WireBot(InProcessBot):
    """An in-process bot that encodes every message it is sent, as the wire would: a value
    the referee cannot encode (a lone surrogate echoed in an event) fails here as it would
    in BotProcess.send."""

    def send(self, message: dict[str, Any]) -> None:
        codec.encode(message)
        super().send(message)


TITLES = {
    "kinds": (kindsgame.GAME, 3, {}),
    "toy": (toygame.GAME, 3, {}),
    "corruption": (get_game("corruption"), 3, {}),
    "intrigue": (get_game("intrigue"), 4, {}),
    "paranoia": (get_game("paranoia"), 4, {}),
}


@pytest.fixture(scope="module")
def fuzz_store(tmp_path_factory):
    with open_store(tmp_path_factory.mktemp("fuzzdb") / "fuzz.db", create=True) as store:
        yield store


def _hostile_game(title: str, data: st.DataObject, seed: int, policy: FaultPolicy):
    """Seat 0 plays at random until the first request whose legal description is of a kind
    hypothesis picked (so a game's records are reached, not only its first choice), and from
    then on answers each such request with a near miss or a legal action drawn by hypothesis;
    the other seats play at random. Returns the record."""
    game, players, options = TITLES[title]
    rng = random.Random(seed)
    target = data.draw(st.sampled_from(KINDS_ASKED[title]), label="kind attacked")

    def answer(view: dict[str, Any], desc: dict[str, Any]) -> Any:
        base = legal.random_action(desc, rng)
        if desc["kind"] != target:
            return base
        return data.draw(st.just(base) | hostile.near_valid(desc, base), label="answer")

    def randomly(view: dict[str, Any], desc: dict[str, Any]) -> Any:
        return legal.random_action(desc, rng)

    entrants = [SeatedBot(BotIdentity("hostile", "1", "h"), WireBot(answer))] + [
        SeatedBot(BotIdentity(f"random{i}", "1", f"r{i}"), WireBot(randomly))
        for i in range(1, players)
    ]
    return play_game(game, entrants, seed=seed, options=options, fault_policy=policy)


KINDS_ASKED = {
    "kinds": ["choice", "range", "text", "record"],  # each at the top level, texts echoed
    "toy": ["choice"],
    "corruption": ["choice"],
    "intrigue": ["choice", "record"],  # an offer: a record of a range, a choice and a text
    "paranoia": ["choice"],
}
"""The kinds of legal description each title asks at the top level (a record's fields are
attacked through near_valid's recursion: every kind is reached)."""


FUZZ_SETTINGS = {"deadline": None, "suppress_health_check": [HealthCheck.function_scoped_fixture]}


# Each example is a whole game (at 400 and 100, the five cost 51 s of CPU). At 200 and 60,
# one run's statistics (--hypothesis-show-statistics) still showed 13 kinds of fault reason
# in `kinds`, from nesting to a lone surrogate, most ten times or more, and 7 to 10 in each
# real title.
@pytest.mark.parametrize("title", ["kinds", "toy"])
@settings(max_examples=200, **FUZZ_SETTINGS)
@given(data=st.data(), seed=st.integers(0, 10**6), abort=st.booleans())
def test_a_hostile_seat_is_faulted_with_a_reason_at_every_kind_of_request(
    fuzz_store, title, data, seed, abort
):
    """The small test games, fast enough for many examples: `kinds` asks every kind of legal
    description at the top level and echoes every text answered to the whole table."""
    _check_hostile_game(fuzz_store, title, data, seed, abort)


@pytest.mark.parametrize("title", ["corruption", "intrigue", "paranoia"])
@settings(max_examples=60, **FUZZ_SETTINGS)
@given(data=st.data(), seed=st.integers(0, 10**6), abort=st.booleans())
def test_a_hostile_seat_in_a_real_title_is_faulted_with_a_reason(
    fuzz_store, title, data, seed, abort
):
    """The real titles (Intrigue's offers hold a range, a choice and a promise echoed to the
    table)."""
    _check_hostile_game(fuzz_store, title, data, seed, abort)


def _check_hostile_game(
    store: Store, title: str, data: st.DataObject, seed: int, abort: bool
) -> None:
    """A game through the real referee (in-process bots, every message encoded as on the
    wire): whatever seat 0 answers (near misses of every legal-action kind, odd Python
    values, deep nesting, huge numbers, refused characters), play_game returns a record that
    can be stored; seat 0 either played clean or is faulted with a reason that is the bot's
    fault, never the referee's last resort (REFEREE_ERROR)."""
    policy = FaultPolicy.ABORT if abort else FaultPolicy.SUBSTITUTE
    record = _hostile_game(title, data, seed, policy)
    hostile_seat = record.seats[0]
    event(f"seat 0: {hostile_seat.fault}: {_gist(hostile_seat.fault_reason)}")
    if hostile_seat.fault == "ok":
        assert record.status == "complete"
    else:
        assert hostile_seat.fault in ("malformed", "illegal"), hostile_seat
        assert hostile_seat.fault_reason
        assert REFEREE_ERROR not in hostile_seat.fault_reason, hostile_seat.fault_reason
        assert record.status == ("aborted" if abort else "complete")
    assert all(seat.fault == "ok" for seat in record.seats[1:])
    assert REFEREE_ERROR not in record.termination
    store.save_game(record)


def _gist(reason: str | None) -> str:
    """The kind of a reason, for hypothesis' statistics (--hypothesis-show-statistics)."""
    if not reason:
        return "-"
    for words in (
        "lone surrogate",
        "encode a surrogate",
        "control or format",
        "nest",
        "too large",
        "out of range",
        "not a JSON value",
        "key is not a string",
        "not valid UTF-8",
        "not JSON",
        "not an object",
        "not one of",
        "outside the legal range",
        "not an integer",
        "not a string",
        "characters, more than",
        "unknown field",
        "missing",
        "not a JSON object",
    ):
        if words in reason:
            return words
    return reason[:40]
