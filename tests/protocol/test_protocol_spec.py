"""SPEC.md keeps its promises: its minimal bot plays, its tables cover the schemas and the
fault kinds, its examples are valid, its links lead somewhere."""

from __future__ import annotations

import json
import re
import sys

import pytest
from protocol_testkit import PROTOCOL_DIR, ROOT, load_transcript, spec_code_blocks, spec_minimal_bot

from arena.faults import Fault
from protocol import legal

SPEC = (PROTOCOL_DIR / "SPEC.md").read_text()
CODE_BLOCKS = spec_code_blocks()


def test_the_minimal_bot_is_short_and_uses_only_json_and_sys():
    source = spec_minimal_bot()
    assert len(source.strip().splitlines()) <= 30
    assert set(re.findall(r"^import (.*)$", source, flags=re.MULTILINE)) == {"json, sys"}
    assert "from " not in source


def test_the_minimal_bot_plays_the_full_game_transcript(tmp_path, start_bot):
    (tmp_path / "bot.py").write_text(spec_minimal_bot())
    bot = start_bot([sys.executable, "bot.py"], tmp_path)
    for line in load_transcript("full_game.jsonl"):
        if line["dir"] != "to_bot":
            continue
        message = line["msg"]
        bot.send(message)
        if message["type"] == "hello":
            assert bot.receive()["type"] == "hello"
        elif message["type"] == "request":
            answer = bot.receive()
            assert answer["id"] == message["id"]
            assert answer["action"] == legal.default_action(message["legal"])
    assert bot.wait() == 0


def test_every_fault_kind_is_explained():
    table = SPEC[SPEC.index("## 8. Faults") : SPEC.index("## 9.")]
    for fault in Fault:
        if fault is not Fault.OK:
            assert f"| `{fault.value}` |" in table, f"fault {fault.value} is not in the table"


@pytest.mark.parametrize(
    ("schema", "section"),
    [
        ("hello", "4.1"),
        ("game_start", "4.2"),
        ("event", "4.3"),
        ("request", "4.4"),
        ("game_over", "4.5"),
        ("bye", "4.6"),
        ("bot_hello", "5.1"),
        ("action", "5.2"),
    ],
)
def test_every_schema_field_is_in_its_message_table(schemas, schema, section):
    start = SPEC.index(f"### {section} ")
    end = SPEC.index("###", start + 4)
    table = SPEC[start:end]
    assert f"schemas/{schema}.json" in table
    for name in schemas.raw[schema]["properties"]:
        assert f"| `{name}` |" in table, f"{schema}.{name} is missing from §{section}"


def test_the_legal_examples_are_valid_descriptions(schemas):
    examples = [json.loads(code) for lang, code in CODE_BLOCKS if lang == "json"]
    assert {e["kind"] for e in examples} == set(legal.KINDS)
    for example in examples:
        assert schemas.validator("legal", strict=True).is_valid(example), example


def test_the_record_example_answers_are_judged_as_the_spec_says():
    (record,) = [json.loads(c) for lang, c in CODE_BLOCKS if lang == "json" and '"record"' in c]
    assert legal.is_legal(record, {"bribe": 4000, "contract": 2})
    assert legal.is_legal(record, {"bribe": 1000, "contract": 5, "note": "hi"})
    assert legal.why_illegal(record, {"bribe": 4000}) == "field 'contract' is missing"
    assert "unknown field" in legal.why_illegal(record, {"bribe": 4000, "contract": 2, "extra": 1})


def test_relative_links_lead_to_files_except_the_game_documents_in_progress():
    links = set(re.findall(r"\]\(([^)#:]+)\)", SPEC))
    assert "games/corruption.md" in links
    for link in links - {"games/corruption.md", "games/"}:
        assert (PROTOCOL_DIR / link).resolve().exists(), link
    assert (ROOT / "bots" / "random" / "bot.py").exists()
