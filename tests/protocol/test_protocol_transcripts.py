"""The example transcripts: well-formed, valid against the schemas, and telling a true story."""

from __future__ import annotations

import copy
import json

import pytest
from protocol_testkit import TRANSCRIPT_DIR

from arena.faults import Fault
from protocol import features, legal, products, viewpatch

NAMES = sorted(path.name for path in TRANSCRIPT_DIR.glob("*.jsonl"))
LINE_KEYS = {"dir", "msg", "note", "fault"}


def test_the_three_promised_transcripts_exist():
    assert {"full_game.jsonl", "version_mismatch.jsonl", "illegal_answer.jsonl"} <= set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_every_line_is_a_direction_and_a_valid_message(schemas, transcripts, name):
    for number, line in enumerate(transcripts[name], 1):
        where = f"{name}:{number}"
        assert set(line) <= LINE_KEYS and {"dir", "msg"} <= set(line), where
        assert line["dir"] in ("to_bot", "from_bot"), where
        assert isinstance(line.get("note", ""), str), where
        if "fault" in line:
            assert line["fault"] in {f.value for f in Fault} - {"ok"}, where
        validator = schemas.for_message(line["dir"], line["msg"])
        errors = [e.message for e in validator.iter_errors(line["msg"])]
        assert not errors, f"{where}: {errors}"


@pytest.mark.parametrize("name", NAMES)
def test_the_session_follows_the_protocol(transcripts, name):
    """Handshake first; each answer repeats the outstanding request's id, legal unless it is
    the line marked as an illegal fault, whose note gives legal.why_illegal's reason; nothing
    follows a fault or a bye."""
    lines = transcripts[name]
    assert lines[0]["dir"] == "to_bot" and lines[0]["msg"]["type"] == "hello"
    assert lines[1]["dir"] == "from_bot" and lines[1]["msg"]["type"] == "hello"
    outstanding = None
    for number, line in enumerate(lines[2:], 3):
        where, msg = f"{name}:{number}", line["msg"]
        if line["dir"] == "to_bot":
            assert outstanding is None, f"{where}: the referee sent more before an answer"
            if msg["type"] == "request":
                outstanding = msg
            continue
        assert msg["type"] == "action" and outstanding is not None, where
        assert msg["id"] == outstanding["id"], where
        # a choice written as products (choice-products) stands for its combinations
        reason = legal.why_illegal(products.expand(outstanding["legal"]), msg["action"])
        if line.get("fault") == "illegal":
            assert reason and reason in line["note"], where
        else:
            assert reason is None, f"{where}: {reason}"
        outstanding = None
    last = lines[-1]
    assert "fault" in last or last["msg"] == {"type": "bye"}, "a session ends in bye or a fault"
    assert sum("fault" in line for line in lines) <= 1


def test_full_game_shows_every_legal_kind_and_ends_properly(transcripts):
    lines = transcripts["full_game.jsonl"]
    messages = [line["msg"] for line in lines if line["dir"] == "to_bot"]
    kinds = set().union(*(_kinds(m["legal"]) for m in messages if m["type"] == "request"))
    assert kinds >= {"choice", "range", "text", "record"}
    (start,) = (m for m in messages if m["type"] == "game_start")
    (over,) = (m for m in messages if m["type"] == "game_over")
    assert len(over["scores"]) == len(over["ranks"]) == start["players"]
    assert [m["type"] for m in messages][-2:] == ["game_over", "bye"]
    assert all(line.get("fault") is None for line in lines)


def test_the_negotiated_session_rebuilds_each_view_by_its_patch(transcripts):
    """negotiated.jsonl: every feature asked for and offered; each request's patch applied to
    the last view gives the view its note states."""
    lines = transcripts["negotiated.jsonl"]
    offered, asked = lines[0]["msg"]["features"], lines[1]["msg"]["features"]
    assert set(offered) == set(features.OFFERED) and set(features.WIRE) <= set(asked)
    view = None
    for line in lines:
        msg = line["msg"]
        if msg["type"] == "game_start":
            view = copy.deepcopy(msg["view"])
        elif msg["type"] == "request":
            assert "view" not in msg and "game_id" not in msg
            view = viewpatch.apply(view, msg["view_patch"])
            if "gives {" in line.get("note", ""):
                stated = line["note"].split("gives ", 1)[1].split("}. ", 1)[0] + "}"
                assert view == json.loads(stated)
    assert {line["msg"]["type"] for line in lines} >= {"events", "request", "game_over"}


def test_version_mismatch_is_a_handshake_fault(transcripts):
    hello = transcripts["version_mismatch.jsonl"][1]
    assert hello["dir"] == "from_bot" and hello["msg"]["protocol"] != 1
    assert hello["fault"] == "handshake"


def _kinds(desc):
    """The kinds used in a description, nested ones included."""
    inner = desc.get("fields", {}).values() if desc["kind"] == "record" else ()
    return {desc["kind"]}.union(*(_kinds(sub) for sub in inner))
