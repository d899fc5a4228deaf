"""protocol.codec: lines are split whatever the chunking, capped, and decoded defensively."""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from protocol_strategies import json_objects

from protocol import codec

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
def test_encode_then_decode_is_the_identity_on_one_line(message):
    line = codec.encode(message)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
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
