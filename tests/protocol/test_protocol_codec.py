"""protocol.codec: lines are split whatever the chunking, capped, and decoded defensively."""

from __future__ import annotations

import collections
import enum
import itertools
import json
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from protocol_strategies import json_objects

from protocol import codec
from tests.support import hostile
from tests.support.examples import examples

line_bodies = st.binary(max_size=40).map(lambda b: b.replace(b"\n", b""))


@given(lines=st.lists(line_bodies, max_size=8), cuts=st.lists(st.integers(0, 400), max_size=10))
def test_lines_come_out_whole_whatever_the_chunk_boundaries(lines, cuts):
    stream = b"".join(line + b"\n" for line in lines)
    bounds = sorted({0, len(stream), *(c for c in cuts if c <= len(stream))})
    splitter = codec.LineSplitter()
    out: list[bytes] = []
    for start, end in itertools.pairwise(bounds):
        out += splitter.feed(stream[start:end])
    assert out == lines
    assert splitter.pending == 0


@given(message=json_objects)
def test_encode_then_decode_is_the_identity_on_one_line_unless_a_string_is_refused(message):
    line = codec.encode(message)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    if hostile.problems(message):  # control characters in its text, a float beyond 2**63
        with pytest.raises(codec.DecodeError, match=r"control or format character|out of range"):
            codec.decode(line[:-1])
    else:
        assert codec.decode(line[:-1]) == message


def test_a_trailing_carriage_return_is_tolerated():
    splitter = codec.LineSplitter()
    (line,) = splitter.feed(b'{"type":"bye"}\r\n')
    assert codec.decode(line) == {"type": "bye"}


def test_a_line_of_exactly_the_cap_is_accepted():
    splitter = codec.LineSplitter(max_line_bytes=10)
    assert splitter.feed(b"x" * 10) == []
    assert splitter.feed(b"\n") == [b"x" * 10]


@pytest.mark.parametrize(
    "chunks", [[b"x" * 11 + b"\n"], [b"x" * 6, b"x" * 5], [b"ok\n" + b"x" * 11]]
)
def test_a_line_over_the_cap_is_refused_finished_or_not(chunks):
    splitter = codec.LineSplitter(max_line_bytes=10)
    with pytest.raises(codec.DecodeError, match="cap"):
        for chunk in chunks:
            splitter.feed(chunk)


def test_the_default_cap_is_one_mebibyte():
    assert codec.MAX_LINE_BYTES == 1024 * 1024
    splitter = codec.LineSplitter()
    with pytest.raises(codec.DecodeError, match="1048576"):
        splitter.feed(b"x" * (codec.MAX_LINE_BYTES + 1))


@pytest.mark.parametrize(
    ("line", "why"),
    [
        (b'{"name":"\xff"}', "not valid UTF-8"),
        (b"{'type': 'hello'}", "not JSON"),
        (b'{"type": "hello"', "not JSON"),
        (b"", "not JSON"),
        (b"[1, 2]", "not an object"),
        (b'"hello"', "not an object"),
        (b"null", "not an object"),
    ],
)
def test_decode_says_what_is_wrong(line, why):
    with pytest.raises(codec.DecodeError, match=why):
        codec.decode(line)


@given(data=st.binary(max_size=60))
def test_decode_of_random_bytes_returns_an_object_or_raises_decode_error(data):
    try:
        value = codec.decode(data)
    except codec.DecodeError:
        return
    assert isinstance(value, dict)


def test_non_ascii_is_sent_as_utf8():
    assert codec.encode({"name": "é"}) == '{"name":"é"}\n'.encode()
    assert json.loads(codec.encode({"name": "é"})) == {"name": "é"}


@pytest.mark.parametrize("line", [b'{"action": NaN}', b'{"action": -Infinity}', b'{"a": Infinity}'])
def test_nan_and_infinity_are_not_json(line):
    with pytest.raises(codec.DecodeError, match="not JSON"):
        codec.decode(line)


# --- what a line may hold: nesting, numbers, characters (SPEC.md §2) --------------------------


def _nested(depth: int) -> bytes:
    """A line whose innermost value sits inside `depth` arrays and objects (the line's own
    object is the first)."""
    return b'{"action":' + b"[" * (depth - 1) + b"0" + b"]" * (depth - 1) + b"}"


def test_nesting_is_allowed_up_to_the_limit_and_refused_beyond_it():
    assert codec.MAX_DEPTH == 32
    assert codec.decode(_nested(32))["action"]
    with pytest.raises(codec.DecodeError, match="nest more than 32 levels"):
        codec.decode(_nested(33))


@pytest.mark.parametrize("depth", [1000, 1025, 5000, 400_000])
def test_nesting_far_beyond_the_limit_is_a_decode_error_not_a_recursion_error(depth):
    with pytest.raises(codec.DecodeError, match="32"):
        codec.decode(_nested(depth))


@pytest.mark.parametrize(
    ("literal", "accepted"),
    [
        (b"9223372036854775807", True),
        (b"-9223372036854775807", True),
        (b"9223372036854775808", False),
        (b"-9223372036854775808", False),
        (b"18446744073709551616", False),  # orjson reads it as a float: refused as a number
        (b"9" * 25, False),
        (b"9" * 400, False),
        (b"9" * 5000, False),  # the review's crash: int string conversion limit
        (b"-" + b"9" * 5000, False),
        (b"1e308", False),
        (b"1e400", False),
        (b"9.2e18", True),
        (b"9.3e18", False),
        (b"-0", True),
        (b"2.5", True),
    ],
)
def test_numbers_are_64_bit_and_finite(literal, accepted):
    line = b'{"action":' + literal + b"}"
    if accepted:
        assert codec.decode(line)["action"] == json.loads(literal)
    else:
        with pytest.raises(codec.DecodeError, match=r"out of range|too large"):
            codec.decode(line)


@pytest.mark.parametrize(
    ("line", "words"),
    [
        (b'{"action":{"promise":"\\udc80"}}', "lone surrogate"),  # the review's crash
        (b'{"action":"\\ud83d"}', "lone surrogate"),  # half an emoji, from JavaScript
        (b'{"action":"\\ud83dx"}', "lone surrogate"),
        (b'{"action":"\\ude00\\ud83d"}', "lone surrogate"),  # a pair in the wrong order
        (b'{"\\udc80":1}', "lone surrogate"),
        (b'{"action":"\xed\xb2\x80"}', "encode a surrogate"),  # raw bytes, CESU/WTF-8 style
        (b'{"action":"\xed\xa0\xbd"}', "encode a surrogate"),
    ],
)
def test_lone_surrogates_are_refused_as_escapes_and_as_raw_bytes(line, words):
    with pytest.raises(codec.DecodeError, match=words):
        codec.decode(line)


def test_a_surrogate_pair_is_one_character_and_welcome():
    assert codec.decode(b'{"action":"\\ud83d\\ude00"}') == {"action": "\U0001f600"}
    assert codec.decode('{"action":"\U0001f600"}'.encode()) == {"action": "\U0001f600"}


@pytest.mark.parametrize(
    "char",
    ["\x00", "\x07", "\t", "\n", "\r", "\x1b", "\x7f", "\x85", "\x9b", "\u00ad", "\u200b"]
    + ["\u200e", "\u2028", "\u2029", "\u202a", "\u202e", "\u2066", "\u2069", "\ufeff"]
    + ["\U000e0041"],
)
@pytest.mark.parametrize("where", ["value", "key", "deep"])
@pytest.mark.parametrize("escaped", [True, False])
def test_control_and_format_characters_are_refused_in_every_string(char, where, escaped):
    text = json.dumps(f"a{char}b", ensure_ascii=escaped)
    body = {
        "value": f'{{"action":{text}}}',
        "key": f'{{"action":{{{text}:1}}}}',
        "deep": f'{{"action":[{{"x":[1,{text}]}}]}}',
    }[where]
    with pytest.raises(codec.DecodeError, match=f"U\\+{ord(char):04X}") as refused:
        codec.decode(body.encode())
    assert "at character 2" in str(refused.value)
    assert str(refused.value).isascii(), "the reason is safe to print"


@pytest.mark.parametrize("char", ["\u200c", "\u200d", "\u00a0", "\u00e9", "\u3000", "\u0301"])
def test_joiners_and_ordinary_non_ascii_pass(char):
    assert codec.decode(json.dumps({"action": f"a{char}b"}).encode()) == {"action": f"a{char}b"}
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert codec.decode(json.dumps({"action": family}, ensure_ascii=False).encode())


def test_a_raw_control_byte_inside_a_string_is_not_json():
    with pytest.raises(codec.DecodeError, match="not JSON"):
        codec.decode(b'{"action":"a\x1bb"}')


def test_the_refused_characters_are_exactly_the_unicode_categories_said():
    """The hand-written character class against this Python's Unicode database: every Cc, Cf,
    Zl, Zp and Cs character except the two joiners is refused, and nothing else is (a newer
    Unicode may also give the class characters now unassigned)."""
    for code in range(0x110000):
        char = chr(code)
        category = unicodedata.category(char)
        should = category in hostile.REFUSED_CATEGORIES and char not in hostile.JOINERS
        refused = codec.refused_character(char) is not None
        assert refused == should or (refused and category == "Cn"), (hex(code), category)


def test_the_message_says_where_the_problem_is():
    line = b'{"type":"action","id":1,"action":{"bids":[1,{"note":"\\u001b[2J"}]}}'
    with pytest.raises(codec.DecodeError, match=r"at \.action\.bids\[1\]\.note: the string"):
        codec.decode(line)


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ({1: "a"}, "key is not a string (int)"),
        ({"a": {(1, 2): 3}}, "at .a: a key is not a string (tuple)"),
        ({"a": {1, 2}}, "at .a: a set is not a JSON value"),
        ({"a": b"x"}, "a bytes is not a JSON value"),
        ({"a": float("nan")}, "out of range"),
        ({"a": float("inf")}, "out of range"),
        ({"a": 10**5000}, "integer of 16610 bits"),
        ({"a": "\udc80"}, "lone surrogate"),
    ],
)
def test_check_value_refuses_what_in_process_code_could_hand_over(value, words):
    with pytest.raises(codec.DecodeError) as refused:
        codec.check_value(value)
    assert words in str(refused.value)


def test_check_value_counts_the_levels_around_the_value():
    codec.check_value([[0]], depth=30)
    with pytest.raises(codec.DecodeError, match="nest more than 32"):
        codec.check_value([[[0]]], depth=30)


def test_subclasses_of_json_types_count_as_those_types():
    class Colour(enum.StrEnum):
        RED = "red"

    class Small(enum.IntEnum):
        ONE = 1

    codec.check_value({"a": [Colour.RED, Small.ONE, collections.OrderedDict(b=True)]})

    class Row(list):
        pass

    with pytest.raises(codec.DecodeError, match="nest more than 32"):
        codec.check_value(Row([collections.OrderedDict(a=[0])]), depth=30)
    with pytest.raises(codec.DecodeError, match="a UserList is not a JSON value"):
        codec.check_value(collections.UserList([1]))


# 1,000 examples: the codec's branches are all reached by a few hundred (measured with
# coverage over 4 seeds: 300 examples reached 159-167 of the 168 branch arcs any run reached,
# 3,000 reached 164-167), so more examples only repeat kinds of line already tried.
@pytest.mark.slow
@settings(max_examples=examples(1000), deadline=None)
@given(line=hostile.hostile_lines)
def test_a_hostile_line_decodes_to_an_allowed_value_or_a_decode_error(line):
    """Whatever the line, decode returns an object the independent oracle finds nothing
    wrong with, or raises a DecodeError with a printable ASCII reason; never anything else."""
    try:
        message = codec.decode(line)
    except codec.DecodeError as refused:
        reason = str(refused)
        assert reason and reason.isascii() and reason.isprintable(), reason
        return
    assert isinstance(message, dict)
    assert hostile.problems(message) == [], (line, message)


@pytest.mark.slow
@settings(max_examples=examples(1000), deadline=None)
@given(value=hostile.trees.map(hostile.write))
def test_decode_and_the_oracle_agree_on_shallow_values(value):
    """For values well inside the depth limit the converse holds too: decode refuses a value
    exactly when the oracle finds a problem (or it is not JSON at all)."""
    line = hostile.action_line(1, value)
    try:
        reference = json.loads(line.decode("utf-8", "surrogatepass"))
    except (ValueError, RecursionError):
        reference = None
    if reference is None or hostile.problems(reference):
        with pytest.raises(codec.DecodeError):
            codec.decode(line)
    else:
        assert codec.decode(line) == reference


def test_nan_and_infinity_literals_stay_refused_whatever_the_case():
    for literal in (b"nan", b"NaN", b"Infinity", b"-Infinity", b"inf"):
        with pytest.raises(codec.DecodeError, match="not JSON"):
            codec.decode(b'{"action":' + literal + b"}")


@pytest.mark.parametrize("number", [codec.MAX_SENT_INT, -codec.MAX_SENT_INT, 0])
def test_integers_a_double_holds_exactly_are_sent(number):
    line = codec.encode({"seed": number})
    assert json.loads(line) == {"seed": number}
    assert float(number) == number, "what JavaScript's JSON.parse reads is the same number"


@pytest.mark.parametrize("number", [codec.MAX_SENT_INT + 1, -codec.MAX_SENT_INT - 1, 2**63 - 1])
def test_an_integer_a_double_would_round_is_never_sent(number):
    with pytest.raises(TypeError, match="53-bit"):
        codec.encode({"view": {"deep": [number]}})
