"""Fuzzing the wire: whatever bytes a bot sends, the referee never raises; it records a fault.

Two levels: the decoding functions in-process (many inputs, fast), and a real bot process
answering with random bytes through the real BotProcess (fewer inputs: each is a process).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.botprocess import BotProcess
from arena.faults import BotError, Fault
from arena.manifest import load_bot
from protocol import codec, messages

FAKEBOT = Path(__file__).resolve().parent.parent / "fakebots" / "fakebot.py"

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


@settings(max_examples=2000, deadline=None)
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


@settings(max_examples=2000, deadline=None)
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

    from arena.cli import app

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
