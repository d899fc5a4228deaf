"""The SDK's talk (SPEC.md §14): asked for only by a bot that talks, talk requests answered by
its talk function, and protocol/talk.py's helpers build legal answers."""

from __future__ import annotations

import io
import json
from typing import Any

from protocol import features, legal, sdk, talk

OFFERING = {"type": "hello", "protocol": 1, "arena": "0.1.0", "features": list(features.OFFERED)}
START = {
    "type": "game_start",
    "game_id": "g1",
    "game": "toy",
    "seat": 1,
    "players": 3,
    "seed": 5,
    "options": {"talk": [0, 1]},
    "time": {"decision_ms": 1000, "bank_ms": 5000, "game_ms": 600000},
    "view": {},
}
PROPOSAL = {
    "window": 1,
    "round": 1,
    "from": 0,
    "to": 1,
    "act": "propose",
    "terms": {"pay": 5},
    "ref": None,
    "text": "deal?",
}
TALK_LEGAL = legal.record(
    {
        "act": legal.choice(["pass", "propose", "accept", "reject", "promise", "threat", "tell"]),
        "to": legal.choice(["all", 0]),
        "terms": legal.choice([{"pay": 5}, {"ask": 5}]),
        "ref": legal.choice([{"round": 1, "from": 0}]),
        "text": legal.text(140),
    },
    optional=["to", "terms", "ref", "text"],
)
VIEW = {"talk": {"window": "before", "number": 1, "round": 1, "open": True, "messages": [PROPOSAL]}}


def request(request_id: int, decision: str, legal_desc: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "request",
        "game_id": "g1",
        "id": request_id,
        "decision": decision,
        "view": VIEW,
        "legal": legal_desc,
        "time_left_ms": 1000,
    }


def run(script: list[dict[str, Any]], decide, **hooks: Any) -> list[dict[str, Any]]:
    stdin = io.StringIO("".join(json.dumps(m) + "\n" for m in script))
    stdout = io.StringIO()
    sdk.run(decide, name="talker", stdin=stdin, stdout=stdout, **hooks)
    return [json.loads(line) for line in stdout.getvalue().splitlines()]


def test_only_a_bot_with_a_talk_function_asks_for_talk():
    silent = run([OFFERING], lambda view, desc: None)[0]
    assert features.TALK not in silent["features"]
    talker = run([OFFERING], lambda view, desc: None, talk=lambda view, desc: talk.SILENCE)[0]
    assert talker["features"] == [*features.WIRE, features.TALK]


def test_talk_requests_go_to_the_talk_function_and_the_rest_to_decide():
    asked: list[str] = []

    def decide(view, desc):
        asked.append("decide")
        return desc["options"][0]

    def chat(view, desc, ctx):
        asked.append(f"talk {ctx.decision}")
        [proposal] = talk.open_proposals(desc, view)
        return talk.reply(proposal, "accept", text="done")

    out = run(
        [OFFERING, START, request(1, "talk", TALK_LEGAL), request(2, "offer", legal.choice([3]))],
        decide,
        talk=chat,
    )
    assert asked == ["talk talk", "decide"]
    answer = out[1]["action"]
    assert answer == {"act": "accept", "to": 0, "ref": {"round": 1, "from": 0}, "text": "done"}
    assert legal.is_legal(TALK_LEGAL, answer)
    assert out[2]["action"] == 3


def test_the_helpers_build_legal_messages_and_read_a_view():
    assert talk.say("pass") == talk.SILENCE == legal.default_action(TALK_LEGAL)
    message = talk.say("propose", to=0, terms={"ask": 5}, text="your turn")
    assert legal.is_legal(TALK_LEGAL, message)
    assert talk.messages(VIEW) == [PROPOSAL] and talk.messages({}) == []
    assert talk.allowed_terms(TALK_LEGAL) == [{"pay": 5}, {"ask": 5}]
    assert talk.open_proposals(legal.record({"act": legal.choice(["pass"])}), VIEW) == []
    public = {**PROPOSAL, "to": "all"}
    assert talk.reply(public, "reject") == {"act": "reject", "ref": {"round": 1, "from": 0}}
