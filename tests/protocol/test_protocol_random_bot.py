"""bots/random as a real subprocess: legal answers with the right ids, reproducible, robust,
and written from the spec alone (nothing imported from this repository)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import tomllib
from typing import Any

from protocol_testkit import ROOT

from protocol import legal

BOT_DIR = ROOT / "bots" / "random"
HELLO = {"type": "hello", "protocol": 1, "arena": "0.1.0"}
DESCRIPTIONS = [
    legal.choice(["pass", {"card": 3, "to": 0}, [1, 2], None, 7.5]),
    legal.int_range(-5, 95, 5),
    legal.int_range(4, 4),
    legal.text(12),
    legal.record(
        {
            "bribe": legal.choice([1000, 4000]),
            "contract": legal.int_range(0, 5),
            "note": legal.text(20),
            "nested": legal.record({"x": legal.int_range(1, 3)}, optional=["x"]),
        },
        optional=["note"],
    ),
]


def game(game_id: str, seed: int, seat: int, requests: int = 40) -> list[dict[str, Any]]:
    """A scripted game: game_start, requests over every description, events, game_over."""
    script: list[dict[str, Any]] = [
        {
            "type": "game_start",
            "game_id": game_id,
            "game": "toy",
            "seat": seat,
            "players": 3,
            "seed": seed,
            "options": {},
            "time": {"decision_ms": 1000, "bank_ms": 5000, "game_ms": 600000},
            "view": {"hand": [1, 2, 3]},
        },
    ]
    for i in range(requests):
        script.append(
            {
                "type": "request",
                "game_id": game_id,
                "id": i + 1,
                "decision": "any",
                "view": {"n": i},
                "legal": DESCRIPTIONS[i % len(DESCRIPTIONS)],
                "time_left_ms": 6000,
            }
        )
        script.append({"type": "event", "game_id": game_id, "event": {"kind": "tick", "n": i}})
    script.append(
        {
            "type": "game_over",
            "game_id": game_id,
            "status": "complete",
            "reason": None,
            "scores": [1, 0, 0],
            "ranks": [1, 2, 2],
        }
    )
    return script


def command() -> list[str]:
    manifest = tomllib.loads((BOT_DIR / "bot.toml").read_text())
    return [sys.executable if part == "{python}" else part for part in manifest["command"]]


def test_the_manifest_names_the_bot_and_runs_it_with_python():
    manifest = tomllib.loads((BOT_DIR / "bot.toml").read_text())
    assert manifest["name"] == "random" and manifest["version"] == "1.0"
    assert manifest["command"] == ["{python}", "bot.py"]


def test_it_plays_a_scripted_game_legally_then_exits_0_on_bye(start_bot):
    bot = start_bot(command(), BOT_DIR)
    bot.send(HELLO)
    assert bot.receive() == {"type": "hello", "protocol": 1, "name": "random", "version": "1.0"}
    for message in game("g1", seed=11, seat=2):
        bot.send(message)
        if message["type"] == "request":
            answer = bot.receive()
            assert answer["type"] == "action" and answer["id"] == message["id"], answer
            reason = legal.why_illegal(message["legal"], answer["action"])
            assert reason is None, f"illegal answer {answer}: {reason}"
    bot.send({"type": "bye"})
    assert bot.wait() == 0


def answers(script: list[dict[str, Any]], extra_input: bytes = b"") -> list[dict[str, Any]]:
    """Feed the whole script at once (then end of input) and collect the answers."""
    data = b"".join(json.dumps(m).encode() + b"\n" for m in script) + extra_input
    done = subprocess.run(
        command(), cwd=BOT_DIR, input=data, capture_output=True, timeout=30, check=False
    )
    assert done.returncode == 0, done.stderr.decode()
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_the_same_seed_and_seat_replay_the_same_answers():
    first = answers([HELLO, *game("g7", seed=3, seat=1)])
    assert first == answers([HELLO, *game("g7", seed=3, seat=1)])
    assert first != answers([HELLO, *game("g7", seed=3, seat=0)])
    assert first != answers([HELLO, *game("g7", seed=4, seat=1)])


def test_every_range_value_and_option_gets_drawn():
    script = [HELLO, *game("g2", seed=1, seat=0, requests=500)]
    requests = {m["id"]: m for m in script if m["type"] == "request"}
    drawn: dict[int, set[str]] = {}
    for answer in answers(script)[1:]:
        index = DESCRIPTIONS.index(requests[answer["id"]]["legal"])
        drawn.setdefault(index, set()).add(repr(answer["action"]))
    assert len(drawn[0]) == 5, "every choice option should come up"
    assert len(drawn[1]) == 21, "every step of the range should come up"


def test_it_survives_unknown_messages_fields_and_garbage_and_stops_at_end_of_input():
    script = [
        {**HELLO, "future": {"x": 1}},
        {"type": "weather", "sunny": True},
        {
            "type": "request",
            "game_id": "never-started",
            "id": 5,
            "decision": "d",
            "view": {},
            "legal": legal.choice(["only"]),
            "time_left_ms": 100,
            "hint": "new field",
        },
        {
            "type": "request",
            "game_id": "never-started",
            "id": 6,
            "decision": "d",
            "view": {},
            "legal": {"kind": "dice", "sides": 6},
            "time_left_ms": 100,
        },
    ]
    out = answers(script, extra_input=b"not json\n[1, 2]\n")
    assert out[1] == {"type": "action", "id": 5, "action": "only"}
    assert out[2]["id"] == 6, "an unknown legal kind is still answered, so the game goes on"
    assert len(out) == 3


def test_it_imports_nothing_but_the_standard_library():
    tree = ast.parse((BOT_DIR / "bot.py").read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add((node.module or "").split(".")[0])
    assert imported <= set(sys.stdlib_module_names), imported - set(sys.stdlib_module_names)
