"""Wire features end to end: what a seat that negotiated them is sent stands for exactly what a
plain seat is sent; a plain seat is sent the same bytes as ever; no hello breaks the referee."""

from __future__ import annotations

import copy
import hashlib
import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from arena.games import get_game
from arena.inprocess import InProcessBot, random_decider
from arena.lineup import Lineup
from arena.manifest import load_bot
from arena.record import BotIdentity
from arena.referee import SeatedBot, play_game
from arena.wire import SeatWire, Shared
from protocol import codec, features, legal, messages, viewpatch

# the wire features only: talk changes the game (its own tests), not the form of the wire
ALL = frozenset(features.WIRE)
SUBSETS = [ALL] + [frozenset({name}) for name in features.WIRE]
TABLES: list[tuple[str, int, dict[str, Any]]] = [
    ("corruption", 5, {}),
    ("corruption", 4, {"variants": ["little-black-book"]}),
    ("intrigue", 4, {}),
    ("paranoia", 3, {}),
]


def play(title: str, players: int, options: dict[str, Any], wanted: frozenset[str], seed: int):
    """Seats that negotiated `wanted`: per seat, the plain messages and the negotiated lines."""
    bots = [InProcessBot(random_decider(seed * 10 + s), wanted) for s in range(players)]
    for bot in bots:
        bot.keep_messages = bot.keep_lines = True
    play_game(
        get_game(title),
        [SeatedBot(BotIdentity("r", "", "-"), bot) for bot in bots],
        seed=seed,
        options=options,
    )
    return [(bot.received, bot.lines) for bot in bots]


def undo(lines: list[bytes]) -> list[dict[str, Any]]:
    """What a bot that negotiated features reconstructs: the plain messages (a third-party
    reading: products expanded by hand, not by protocol.products)."""
    plain: list[dict[str, Any]] = []
    view: Any = None
    game_id = None
    for line in lines:
        message = json.loads(line)
        kind = message["type"]
        if kind == "game_start":
            view, game_id = copy.deepcopy(message["view"]), message["game_id"]
        if kind == "events":
            gid = message.get("game_id", game_id)
            plain += [{"type": "event", "game_id": gid, "event": e} for e in message["events"]]
            continue
        if kind in ("event", "request"):
            message.setdefault("game_id", game_id)
        if kind == "request" and "view_patch" in message:
            view = viewpatch.apply(view, message.pop("view_patch"))
            message["view"] = copy.deepcopy(view)
        if kind == "request" and "products" in message["legal"]:
            desc = message["legal"]
            combos = [
                dict(zip(p, values))
                for p in desc["products"]
                for values in itertools.product(*p.values())
            ]
            message["legal"] = {"kind": "choice", "options": combos + desc["options"]}
        plain.append(message)
    return plain


def comparable(message: dict[str, Any]) -> str:
    """A message as JSON with its choice's options as a set plus its default (products do not
    keep the order of the options, only which they are and which is first)."""
    value = json.loads(codec.encode(message))
    if value["type"] == "request" and value["legal"]["kind"] == "choice":
        options = value["legal"]["options"]
        value["legal"] = {
            "default": options[0],
            "options": sorted(json.dumps(o, sort_keys=True) for o in options),
        }
    return json.dumps(value, sort_keys=True)


CASES = [(*table, ALL) for table in TABLES] + [(*TABLES[0], wanted) for wanted in SUBSETS[1:]]


@pytest.mark.parametrize(
    ("title", "players", "options", "wanted"),
    CASES,
    ids=[f"{c[0]}{c[1]}-{'+'.join(sorted(c[3]))}" for c in CASES],
)
def test_a_negotiated_seat_is_told_exactly_what_a_plain_seat_is(title, players, options, wanted):
    for received, lines in play(title, players, options, wanted, seed=3):
        assert [comparable(m) for m in undo(lines)] == [comparable(m) for m in received]
        sent = [json.loads(line) for line in lines]
        kinds = {m["type"] for m in sent}
        assert ("events" in kinds) == (features.EVENT_BATCH in wanted)
        requests = [m for m in sent if m["type"] == "request"]
        assert all(("view" in r) != (features.VIEW_PATCH in wanted) for r in requests)
        assert all(("game_id" in r) != (features.GAME_ID_ONCE in wanted) for r in requests)


def test_negotiated_seats_receive_under_half_the_bytes_of_plain_ones():
    for title, players, options in TABLES[:1] + TABLES[2:]:
        plain = negotiated = 0
        for received, lines in play(title, players, options, ALL, seed=5):
            plain += sum(len(codec.encode(m)) for m in received)
            negotiated += sum(len(line) for line in lines)
        assert negotiated * 2 < plain, title


def test_a_plain_seat_is_sent_each_message_exactly_as_built():
    for received, lines in play("corruption", 4, {}, frozenset(), seed=2):
        assert lines == [codec.encode(m) for m in received]


def test_an_event_for_several_seats_is_encoded_once_per_wire_form(monkeypatch):
    calls = []
    encode = codec.encode
    monkeypatch.setattr(codec, "encode", lambda m: calls.append(m) or encode(m))
    event = Shared(messages.event("g", {"kind": "placed", "seat": 1}))
    plain = [SeatWire() for _ in range(4)]
    terse = [SeatWire(frozenset({features.GAME_ID_ONCE})) for _ in range(3)]
    assert {wire.line(event) for wire in plain} == {encode(dict(event))}
    assert {wire.line(event) for wire in terse} == {
        b'{"type":"event","event":{"kind":"placed","seat":1}}\n'
    }
    assert len(calls) == 2


def test_events_are_batched_until_the_next_message_or_a_flush():
    wire = SeatWire(frozenset({features.EVENT_BATCH}))
    assert wire.line(Shared(messages.event("g", {"kind": "a"}))) == b""
    assert wire.line(messages.event("g", {"kind": "b"})) == b""
    assert wire.line(messages.bye()) == (
        b'{"type":"events","game_id":"g","events":[{"kind":"a"},{"kind":"b"}]}\n{"type":"bye"}\n'
    )
    wire.line(messages.event("g", {"kind": "c"}))
    assert wire.flush() == codec.encode(messages.events("g", [{"kind": "c"}]))
    assert wire.flush() == b""
    terse = SeatWire(frozenset({features.EVENT_BATCH, features.GAME_ID_ONCE}))
    terse.line(messages.event("g", {"kind": "c"}))
    assert terse.flush() == b'{"type":"events","events":[{"kind":"c"}]}\n'


# --- real bot processes --------------------------------------------------------------------

CANONICAL_BOT = """
import hashlib, json, sys
from protocol import sdk

def decide(view, legal, ctx):
    request = ctx.request
    assert "view_patch" not in request and request["view"] == view, "a plain request"
    assert request["game_id"] == ctx.game.game_id != "", "the game named"
    digest = hashlib.sha256(json.dumps(view, sort_keys=True).encode()).hexdigest()
    print("VIEW", request["id"], digest, file=sys.stderr, flush=True)
    if legal["kind"] == "choice":  # the same pick whatever the order of the options
        return min(legal["options"], key=lambda o: json.dumps(o, sort_keys=True))
    return sdk.default_action(legal)

sdk.run(decide, name="canonical", version="1")
"""


def canonical_decide(view: dict[str, Any], desc: dict[str, Any]) -> Any:
    if desc["kind"] == "choice":
        return min(desc["options"], key=lambda o: json.dumps(o, sort_keys=True))
    return legal.default_action(desc)


def view_digests(received: list[dict[str, Any]]) -> list[str]:
    return [
        hashlib.sha256(
            json.dumps(json.loads(codec.encode(m["view"])), sort_keys=True).encode()
        ).hexdigest()
        for m in received
        if m["type"] == "request"
    ]


@pytest.mark.slow
def test_sdk_bots_that_negotiate_play_the_game_a_plain_seat_would(tmp_path: Path):
    """Sandboxed SDK bots negotiate every feature, rebuild every view exactly (digests match
    the plain views) and so take the same decisions as the same policy told everything plainly."""
    bot = tmp_path / "canonical"
    bot.mkdir()
    (bot / "bot.py").write_text(CANONICAL_BOT)
    (bot / "bot.toml").write_text(
        'name = "canonical"\nversion = "1"\ncommand = ["{python}", "bot.py"]\n'
    )
    logs = tmp_path / "logs"
    for title, players in (("corruption", 4), ("intrigue", 3)):
        with Lineup([load_bot(bot)] * players, log_dir=logs) as lineup:
            seated = lineup.seated(list(range(players)), f"{title}-1")
            record = play_game(get_game(title), seated, seed=4, options={}, game_id=f"{title}-1")
            assert [p.wire.features for p in lineup.processes] == [ALL] * players
        assert all(seat.fault == "ok" for seat in record.seats)
        twins = [InProcessBot(canonical_decide) for _ in range(players)]
        for twin in twins:
            twin.keep_messages = True
        twin_record = play_game(
            get_game(title),
            [SeatedBot(BotIdentity("c", "", "-"), twin) for twin in twins],
            seed=4,
            options={},
            bot_seeds=[seat.bot_seed for seat in record.seats],
        )
        assert [d.action for d in record.decisions] == [d.action for d in twin_record.decisions]
        for seat, twin in enumerate(twins):
            log = (logs / f"{title}-1" / f"seat{seat}.log").read_text()
            assert "decide raised" not in log
            seen = [line.split()[2] for line in log.splitlines() if line.startswith("VIEW ")]
            assert seen == view_digests(twin.received)


DEEP: Any = []
for _ in range(40):  # deeper than a line may nest (SPEC.md §2)
    DEEP = [DEEP]
HOSTILE_FEATURES = [
    # value of "features", the fault expected (None: plays), what is granted
    (["view-patch"] * 60_000, None, {"view-patch"}),
    (["x" * 1_000_000], None, set()),
    (["telepathy", "view-patch", "event-batch"], None, {"view-patch", "event-batch"}),
    ("x" * 1_000_000, "handshake", None),
    ([1, None, True], "handshake", None),
    ([{"view-patch": [{"a": {}}]}], "handshake", None),
    ({"view-patch": True}, "handshake", None),
    (DEEP, "malformed", None),
]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("asked", "fault", "granted"), HOSTILE_FEATURES, ids=range(len(HOSTILE_FEATURES))
)
def test_no_features_value_in_a_hello_breaks_the_referee(make_bot, asked, fault, granted):
    from tests.support.toygame import GAME

    bot = make_bot("features")
    (bot / "features.json").write_text(json.dumps(asked))
    with Lineup([load_bot(bot), load_bot(bot)]) as lineup:
        record = play_game(
            GAME, lineup.seated([0, 1], "g"), seed=1, options={"rounds": 2}, game_id="g"
        )
        if fault is None:
            assert [s.fault for s in record.seats] == ["ok", "ok"]
            assert lineup.processes[0].wire.features == granted
        else:
            assert [s.fault for s in record.seats] == [fault, fault]
            reason = record.seats[0].fault_reason or ""
            assert len(reason) < 300
            if fault == "handshake":
                assert '"features"' in reason
