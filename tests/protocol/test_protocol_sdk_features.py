"""protocol.sdk and the wire features (SPEC.md §13): it asks for what the referee offers and
undoes every feature before calling the bot, which sees plain v1 messages only."""

from __future__ import annotations

import io
import json
from typing import Any

from protocol import features, sdk

OFFERING = {"type": "hello", "protocol": 1, "arena": "0.1.0", "features": list(features.OFFERED)}
START = {
    "type": "game_start",
    "game_id": "g1",
    "game": "toy",
    "seat": 0,
    "players": 2,
    "seed": 5,
    "options": {},
    "time": {"decision_ms": 1000, "bank_ms": 5000, "game_ms": 600000},
    "view": {"hand": [1, 2], "round": 1},
}
PRODUCT = {"kind": "choice", "options": ["pass"], "products": [{"card": [1, 2], "to": ["a", "b"]}]}


def run(script: list[dict[str, Any]], decide, **hooks: Any) -> list[dict[str, Any]]:
    stdin = io.StringIO("".join(json.dumps(m) + "\n" for m in script))
    stdout = io.StringIO()
    sdk.run(decide, name="tester", stdin=stdin, stdout=stdout, **hooks)
    return [json.loads(line) for line in stdout.getvalue().splitlines()]


def patched_request(request_id: int, patch: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "type": "request",
        "id": request_id,
        "decision": "play",
        "view_patch": patch,
        "legal": PRODUCT,
        "time_left_ms": 6000,
    }


def test_the_sdk_asks_for_what_is_offered_and_nothing_from_a_referee_that_offers_none():
    hello = run([OFFERING], lambda view, desc: None)[0]
    assert hello["features"] == list(features.WIRE)  # talk only with a talk function
    plain = run([{"type": "hello", "protocol": 1, "arena": "0"}], lambda view, desc: None)[0]
    assert plain == {"type": "hello", "protocol": 1, "name": "tester", "version": ""}


def test_decide_sees_whole_views_listed_options_and_a_plain_request():
    seen: list[tuple[Any, Any, dict[str, Any]]] = []

    def decide(view, desc, ctx):
        seen.append((view, desc, ctx.request))
        view["hand"].clear()  # a bot may change what it is given: the next patch still applies
        return desc["options"][-1]

    events: list[tuple[str, dict[str, Any]]] = []
    script = [
        OFFERING,
        START,
        {"type": "events", "events": [{"kind": "dealt"}, {"kind": "played", "seat": 1}]},
        patched_request(1, [{"op": "add", "path": "/hand/-", "value": 3}]),
        patched_request(2, [{"op": "replace", "path": "/round", "value": 2}]),
        {"type": "game_over", "game_id": "g1", "status": "complete", "reason": None},
    ]
    out = run(script, decide, on_event=lambda game, event: events.append((game.game_id, event)))
    assert [view for view, _, _ in seen] == [
        {"hand": [], "round": 1},  # as decide left it: it was given {"hand": [1, 2, 3], ...}
        {"hand": [], "round": 2},
    ]
    assert seen[0][1]["options"] == [
        {"card": 1, "to": "a"},
        {"card": 1, "to": "b"},
        {"card": 2, "to": "a"},
        {"card": 2, "to": "b"},
        "pass",
    ]
    request = seen[1][2]
    assert request["game_id"] == "g1" and "view_patch" not in request and request["id"] == 2
    assert events == [("g1", {"kind": "dealt"}), ("g1", {"kind": "played", "seat": 1})]
    assert [m["action"] for m in out[1:]] == ["pass", "pass"]


def test_decide_got_the_whole_view_before_changing_it():
    views: list[str] = []
    script = [OFFERING, START, patched_request(1, [{"op": "add", "path": "/hand/-", "value": 3}])]
    run(script, lambda view, desc: views.append(json.dumps(view)) or "pass")
    assert views == ['{"hand": [1, 2, 3], "round": 1}']


def test_a_patch_that_does_not_apply_is_logged_like_a_raising_decide(capsys):
    script = [
        OFFERING,
        START,
        patched_request(1, [{"op": "replace", "path": "/nowhere/0", "value": 1}]),
        patched_request(2, [{"op": "replace", "path": "/round", "value": 2}]),
    ]
    out = run(script, lambda view, desc: "pass")
    # the default action of the expanded choice: the first combination of the first product
    assert [m["action"] for m in out[1:]] == [{"card": 1, "to": "a"}] * 2
    log = capsys.readouterr().err
    assert log.count(sdk.DECIDE_RAISED) == 2 and "PatchError" in log
