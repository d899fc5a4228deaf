"""The JSON Schemas: valid themselves, satisfied by the builders and the transcripts, and in
agreement with the hand-written checks of bot messages in protocol.messages."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from protocol_strategies import json_objects, json_values, legal_descriptions
from protocol_testkit import SCHEMA_DIR, TO_BOT

from protocol import legal, messages

SCHEMA_NAMES = {*TO_BOT, "bot_hello", "action", "legal"}


def test_there_is_one_schema_per_message_and_one_for_legal_descriptions(schemas):
    assert set(schemas.raw) == SCHEMA_NAMES


@pytest.mark.parametrize("name", sorted(SCHEMA_NAMES))
def test_schema_is_a_valid_draft_2020_12_schema(schemas, name):
    schema = schemas.raw[name]
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"].endswith(f"/{name}.json"), "the $id must name the schema's own file"


@pytest.mark.parametrize("name", sorted(SCHEMA_NAMES - {"legal"}))
def test_message_schema_requires_its_type(schemas, name):
    schema = schemas.raw[name]
    assert "type" in schema["required"]
    expected = "hello" if name == "bot_hello" else name
    assert schema["properties"]["type"] == {"const": expected}


@pytest.mark.parametrize("name", sorted(TO_BOT))
def test_referee_messages_allow_unknown_fields_for_forward_compatibility(schemas, name):
    validator = schemas.validator(name)
    example = _referee_examples()[name]
    assert validator.is_valid(example), list(validator.iter_errors(example))
    assert validator.is_valid({**example, "added_in_v1_1": {"anything": [1]}})


def test_schema_files_are_plain_json_without_tabs():
    for path in SCHEMA_DIR.glob("*.json"):
        assert "\t" not in path.read_text(), path.name


# --- the builders in protocol.messages -------------------------------------------------------

time_controls = st.fixed_dictionaries(
    {
        "decision_ms": st.integers(0, 10**6),
        "bank_ms": st.integers(0, 10**7),
        "game_ms": st.integers(0, 10**9),
    }
)


@pytest.mark.slow
@settings(deadline=None)  # nineteen generated arguments: slow CI must not make it flaky
@given(
    arena_version=st.text(max_size=10),
    game_id=st.text(max_size=12),
    title=st.text(max_size=12),
    seat=st.integers(0, 6),
    players=st.integers(1, 7),
    seed=st.integers(0, 2**53 - 1),  # what seat_seed gives (SPEC: below 2**53)
    options=json_objects,
    time=time_controls,
    view=json_objects,
    event=json_objects,
    kind=st.text(max_size=8),
    request_id=st.integers(0, 10**9),
    decision=st.text(max_size=8),
    desc=legal_descriptions,
    time_left=st.integers(0, 10**7),
    status=st.sampled_from(["complete", "aborted"]),
    reason=st.none() | st.text(max_size=20),
    scores=st.lists(st.floats(allow_nan=False, allow_infinity=False) | st.integers(), max_size=7),
    ranks=st.lists(st.integers(1, 7), max_size=7),
)
def test_every_builder_produces_a_message_valid_against_its_schema(
    schemas,
    arena_version,
    game_id,
    title,
    seat,
    players,
    seed,
    options,
    time,
    view,
    event,
    kind,
    request_id,
    decision,
    desc,
    time_left,
    status,
    reason,
    scores,
    ranks,
):
    built = {
        "hello": messages.hello(arena_version),
        "game_start": messages.game_start(game_id, title, seat, players, seed, options, time, view),
        "event": messages.event(game_id, {**event, "kind": kind}),
        "events": messages.events(game_id, [{**event, "kind": kind}]),
        "request": messages.request(game_id, request_id, decision, view, desc, time_left),
        "game_over": messages.game_over(game_id, status, reason, scores, ranks),
        "bye": messages.bye(),
    }
    assert set(built) == set(TO_BOT)
    for name, message in built.items():
        assert message["type"] == name
        errors = [e.message for e in schemas.validator(name, strict=True).iter_errors(message)]
        assert not errors, f"{name}: {errors}"


def test_an_aborted_game_is_unranked_but_a_complete_one_ranks_from_1(schemas):
    validator = schemas.validator("game_over", strict=True)
    aborted = messages.game_over("g", "aborted", "seat 1 faulted", [0.0] * 3, [0] * 3)
    assert validator.is_valid(aborted)
    assert not validator.is_valid(messages.game_over("g", "complete", None, [0.0] * 3, [1, 0, 2]))
    assert not validator.is_valid(messages.game_over("g", "finished", None, [1.0], [1]))


def test_referee_hello_states_protocol_1(schemas):
    assert messages.PROTOCOL_VERSION == 1
    assert messages.hello("0.1.0") == {
        "type": "hello",
        "protocol": 1,
        "arena": "0.1.0",
        "features": ["view-patch", "game-id-once", "event-batch", "choice-products", "talk"],
    }
    assert schemas.validator("hello", strict=True).is_valid(messages.hello("0.1.0"))


# --- legal.json -------------------------------------------------------------------------------


@given(desc=legal_descriptions)
def test_legal_schema_accepts_every_description_legal_py_builds(schemas, desc):
    validator = schemas.validator("legal", strict=True)
    assert validator.is_valid(desc), [e.message for e in validator.iter_errors(desc)]


@pytest.mark.parametrize(
    "desc",
    [
        {},
        {"kind": "dice", "sides": 6},
        {"kind": "choice", "options": []},
        {"kind": "choice"},
        {"kind": "range", "min": 0, "max": 3},
        {"kind": "range", "min": 0, "max": 3, "step": 0},
        {"kind": "range", "min": 0.5, "max": 3, "step": 1},
        {"kind": "text", "max_length": -1},
        {"kind": "record", "fields": {"a": {"kind": "text"}}},
        {"kind": "record", "fields": {"a": legal.text(3)}, "optional": ["a", "a"]},
        {"kind": "record", "fields": {"x": {"kind": "record", "fields": {"y": {"kind": "nope"}}}}},
    ],
)
def test_legal_schema_rejects_malformed_descriptions(schemas, desc):
    assert not schemas.validator("legal").is_valid(desc)


def test_request_schema_checks_its_legal_description_through_the_ref(schemas):
    request = _referee_examples()["request"]
    validator = schemas.validator("request")
    assert validator.is_valid(request)
    assert not validator.is_valid({**request, "legal": {"kind": "choice", "options": []}})


# --- the bot's messages: schema and hand check agree -----------------------------------------

MISSING = object()
names = (
    st.text(max_size=70)
    | st.text(alphabet=st.sampled_from(list(" \t\n\r\x0b\x1c\xa0\u2003\u3000")), max_size=4)
    | st.text(alphabet=st.sampled_from(list("ab \u00e9\U0001f600")), min_size=60, max_size=70)
    # around the rule (protocol/names.py): the allowed set, a stray character, the lengths
    | st.text(alphabet=st.sampled_from(list("aZ09._+-")), max_size=45)
    | st.builds(
        lambda word, bad, tail: word + bad + tail,
        st.text(alphabet="ab1", min_size=1, max_size=3),
        st.sampled_from(list(" \n/[]\x1b\u202e\u00e9@:")),
        st.sampled_from(["", "x", "\n"]),
    )
)
integers_and_lookalikes = (
    st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from([1.0, True, False, "1", None])
)


def _near(base: dict[str, Any], fields: dict[str, st.SearchStrategy[Any]]) -> st.SearchStrategy:
    """Objects like base with each field kept, dropped, or replaced, plus unknown fields."""

    def pick(name: str) -> st.SearchStrategy[Any]:
        return st.sampled_from([base[name], MISSING]) | fields[name] | json_values

    return st.builds(
        lambda chosen, extra: {
            **{k: v for k, v in extra.items() if k not in base},
            **{k: v for k, v in chosen.items() if v is not MISSING},
        },
        st.fixed_dictionaries({name: pick(name) for name in base}),
        json_objects,
    )


message_types = st.sampled_from(["hello", "action", "Hello", "request", "", None, 1])
near_hellos = _near(
    {"type": "hello", "protocol": 1, "name": "bot", "version": "1.0"},
    {"type": message_types, "protocol": integers_and_lookalikes, "name": names, "version": names},
)
near_actions = _near(
    {"type": "action", "id": 3, "action": 7},
    {"type": message_types, "id": integers_and_lookalikes, "action": json_values},
)


def _accepts(check, message) -> bool:
    try:
        check(message)
    except messages.SchemaError:
        return False
    return True


@given(message=near_hellos | json_objects)
def test_check_bot_hello_accepts_exactly_what_the_schema_accepts(schemas, message):
    schema_says = schemas.validator("bot_hello", strict=True).is_valid(message)
    assert _accepts(messages.check_bot_hello, message) == schema_says, message


@given(message=near_actions | json_objects)
def test_check_bot_action_accepts_exactly_what_the_schema_accepts(schemas, message):
    schema_says = schemas.validator("action", strict=True).is_valid(message)
    assert _accepts(messages.check_bot_action, message) == schema_says, message


def test_check_bot_hello_returns_the_fields_and_defaults_the_version():
    hello = {"type": "hello", "protocol": 1, "name": "bot"}
    assert messages.check_bot_hello(hello) == (1, "bot", "")


@pytest.mark.parametrize(
    ("check", "message"),
    [
        (messages.check_bot_hello, {"type": "hello", "protocol": 1.0, "name": "bot"}),
        (messages.check_bot_action, {"type": "action", "id": 3.0, "action": 1}),
    ],
)
def test_integral_floats_are_the_one_documented_gap_between_schema_and_check(
    schemas, check, message
):
    """JSON Schema calls 1.0 an integer and cannot say otherwise; the wire (SPEC.md §2) and the
    referee's checks do not. The tests above compare with a validator that follows the wire."""
    name = "bot_hello" if message["type"] == "hello" else "action"
    assert schemas.validator(name).is_valid(message)
    assert not schemas.validator(name, strict=True).is_valid(message)
    assert not _accepts(check, message)


def _referee_examples() -> dict[str, dict[str, Any]]:
    game_start = messages.game_start(
        "g1",
        "toy",
        0,
        2,
        7,
        {},
        {"decision_ms": 1000, "bank_ms": 5000, "game_ms": 600000},
        {"hand": [1]},
    )
    return {
        "hello": messages.hello("0.1.0"),
        "game_start": game_start,
        "event": messages.event("g1", {"kind": "played", "seat": 1}),
        "events": messages.events("g1", [{"kind": "played", "seat": 1}]),
        "request": messages.request("g1", 1, "play", {}, legal.choice([1, 2]), 6000),
        "game_over": messages.game_over("g1", "complete", None, [1.0, 0.0], [1, 2]),
        "bye": messages.bye(),
    }
