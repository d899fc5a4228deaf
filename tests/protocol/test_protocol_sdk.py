"""protocol.sdk driven in-process through scripted transcripts, and once as a real process."""

from __future__ import annotations

import io
import json
import sys
import textwrap
from typing import Any

import pytest
from protocol_testkit import ROOT, load_transcript

from protocol import legal, sdk

HELLO = {"type": "hello", "protocol": 1, "arena": "0.1.0"}
TIME = {"decision_ms": 1000, "bank_ms": 5000, "game_ms": 600000}


def game_start(game_id: str = "g1", seat: int = 0, seed: int = 99) -> dict[str, Any]:
    return {
        "type": "game_start",
        "game_id": game_id,
        "game": "toy",
        "seat": seat,
        "players": 2,
        "seed": seed,
        "options": {},
        "time": TIME,
        "view": {"hand": [1, 2]},
    }


def request(request_id: int, desc: dict[str, Any], game_id: str = "g1") -> dict[str, Any]:
    return {
        "type": "request",
        "game_id": game_id,
        "id": request_id,
        "decision": "play",
        "view": {"hand": [1, 2]},
        "legal": desc,
        "time_left_ms": 6000,
    }


def play(script: list[dict[str, Any]], decide=None, **options: Any) -> list[dict[str, Any]]:
    """Run the SDK on a scripted input; return what it wrote, message by message."""
    stdin = io.StringIO("".join(json.dumps(m) + "\n" for m in script))
    stdout = io.StringIO()
    options.setdefault("name", "tester")
    sdk.run(
        decide or (lambda view, desc: legal.default_action(desc)),
        stdin=stdin,
        stdout=stdout,
        **options,
    )
    text = stdout.getvalue()
    assert text == "" or text.endswith("\n")
    return [json.loads(line) for line in text.splitlines()]


def test_handshake_answers_hello_with_name_version_and_protocol_1():
    out = play([HELLO, {"type": "bye"}], name="mybot", version="2.1")
    assert out == [{"type": "hello", "protocol": 1, "name": "mybot", "version": "2.1"}]


def test_every_request_of_the_full_game_transcript_is_answered_with_its_id_legally():
    lines = load_transcript("full_game.jsonl")
    script = [line["msg"] for line in lines if line["dir"] == "to_bot"]
    requests = [m for m in script if m["type"] == "request"]
    out = play(script, decide=lambda view, desc, ctx: legal.random_action(desc, ctx.rng))
    assert out[0]["type"] == "hello"
    assert [a["id"] for a in out[1:]] == [r["id"] for r in requests]
    for answer, req in zip(out[1:], requests, strict=True):
        assert answer["type"] == "action"
        assert legal.is_legal(req["legal"], answer["action"]), (req["legal"], answer)


def test_bye_ends_the_session_and_nothing_after_it_is_read():
    out = play([HELLO, {"type": "bye"}, game_start(), request(1, legal.choice([1]))])
    assert [m["type"] for m in out] == ["hello"]


def test_end_of_input_ends_the_session_like_bye():
    out = play([HELLO, game_start(), request(4, legal.int_range(3, 5))])
    assert out[-1] == {"type": "action", "id": 4, "action": 3}


def test_decide_may_take_a_context_with_the_game_and_the_request():
    seen = []

    def decide(view, desc, ctx):
        seen.append((view, ctx.game.title, ctx.game.seat, ctx.id, ctx.decision, ctx.time_left_ms))
        return desc["options"][-1]

    out = play([HELLO, game_start(seat=1), request(7, legal.choice(["a", "b"]))], decide=decide)
    assert out[-1] == {"type": "action", "id": 7, "action": "b"}
    assert seen == [({"hand": [1, 2]}, "toy", 1, 7, "play", 6000)]


def test_the_context_rng_is_seeded_by_game_seed_and_seat():
    def draws(seed: int, seat: int) -> list[Any]:
        script = [HELLO, game_start(seed=seed, seat=seat)]
        script += [request(i, legal.int_range(0, 10**6)) for i in range(5)]
        return play(script, decide=lambda view, desc, ctx: legal.random_action(desc, ctx.rng))

    assert draws(5, 0) == draws(5, 0)
    assert draws(5, 0) != draws(5, 1)
    assert draws(5, 0) != draws(6, 0)


def test_a_request_for_a_game_that_never_started_is_still_answered():
    out = play(
        [HELLO, request(1, legal.choice(["x"]), game_id="unknown")],
        decide=lambda view, desc, ctx: legal.random_action(desc, ctx.rng),
    )
    assert out[-1] == {"type": "action", "id": 1, "action": "x"}


@pytest.mark.parametrize(
    "decide",
    [lambda view, desc: 1 / 0, lambda view, desc: {1, 2}, lambda view, desc: float("nan")],
    ids=["raises", "returns-a-set", "returns-nan"],
)
def test_a_failing_decide_answers_the_default_action_and_logs_why(capsys, decide):
    desc = legal.record({"n": legal.int_range(2, 4), "say": legal.text(3)}, optional=["say"])
    out = play(
        [HELLO, game_start(), request(3, desc), request(4, legal.choice(["z", "y"]))], decide=decide
    )
    assert out[1:] == [
        {"type": "action", "id": 3, "action": {"n": 2}},
        {"type": "action", "id": 4, "action": "z"},
    ]
    err = capsys.readouterr().err.splitlines()
    marked = [line for line in err if line.startswith(sdk.DECIDE_RAISED)]
    assert len(marked) == 2, err  # one line per failed decision, for `arena check`
    assert "(request 3;" in marked[0] and "default action" in marked[0]
    assert "Error" in marked[0], "it names the exception"


def test_hooks_see_game_start_events_and_game_over_and_a_failing_hook_is_survived(capsys):
    calls = []

    def on_event(game, event):
        calls.append(("event", game.game_id, event["kind"]))
        raise RuntimeError("hook bug")

    script = [
        HELLO,
        game_start(),
        {"type": "event", "game_id": "g1", "event": {"kind": "played", "seat": 1}},
        request(1, legal.choice([5])),
        {
            "type": "game_over",
            "game_id": "g1",
            "status": "complete",
            "reason": None,
            "scores": [1, 0],
            "ranks": [1, 2],
        },
    ]
    out = play(
        script,
        on_game_start=lambda game, view: calls.append(("start", game.game_id, view)),
        on_event=on_event,
        on_game_over=lambda game, message: calls.append(("over", game.game_id, message["ranks"])),
    )
    assert out[-1] == {"type": "action", "id": 1, "action": 5}
    assert calls == [
        ("start", "g1", {"hand": [1, 2]}),
        ("event", "g1", "played"),
        ("over", "g1", [1, 2]),
    ]
    assert "hook bug" in capsys.readouterr().err


def test_unknown_message_types_fields_and_garbage_lines_are_ignored():
    stdin = io.StringIO(
        json.dumps(HELLO)
        + "\n"
        + "this is not json\n"
        + json.dumps({"type": "weather", "sunny": True})
        + "\n"
        + json.dumps({**request(2, legal.choice([9])), "new_field": [1]})
        + "\n"
    )
    stdout = io.StringIO()
    sdk.run(lambda view, desc: desc["options"][0], name="x", stdin=stdin, stdout=stdout)
    assert [json.loads(line) for line in stdout.getvalue().splitlines()][-1] == {
        "type": "action",
        "id": 2,
        "action": 9,
    }


def test_bytes_input_is_read_as_utf8():
    script = [HELLO, request(1, legal.choice(["café", "thé"]))]
    stdin = io.BytesIO("".join(json.dumps(m, ensure_ascii=False) + "\n" for m in script).encode())
    stdout = io.StringIO()
    sdk.run(lambda view, desc: desc["options"][1], name="x", stdin=stdin, stdout=stdout)
    assert json.loads(stdout.getvalue().splitlines()[-1])["action"] == "thé"


def test_print_in_decide_goes_to_stderr_not_to_the_wire(capsys, monkeypatch):
    monkeypatch.setattr(
        sys,
        "stdin",
        io.StringIO(json.dumps(HELLO) + "\n" + json.dumps(request(1, legal.choice([1]))) + "\n"),
    )

    def decide(view, desc):
        print("thinking out loud")
        return 1

    sdk.run(decide, name="x")
    captured = capsys.readouterr()
    wire = [json.loads(line) for line in captured.out.splitlines()]
    assert [m["type"] for m in wire] == ["hello", "action"]
    assert "thinking out loud" in captured.err
    assert sys.stdout is not sys.stderr, "run must restore sys.stdout"


@pytest.mark.parametrize("name", ["", "   ", "x" * 65])
def test_an_invalid_name_is_refused_before_anything_is_sent(name):
    with pytest.raises(ValueError, match="name"):
        play([HELLO], name=name)


def test_legal_actions_lists_a_choice_and_refuses_other_kinds():
    assert sdk.legal_actions(legal.choice([1, "a"])) == [1, "a"]
    with pytest.raises(ValueError, match="range"):
        sdk.legal_actions(legal.int_range(0, 3))


def test_the_sdk_re_exports_the_legal_helpers():
    assert sdk.random_action is legal.random_action
    assert sdk.is_legal is legal.is_legal
    assert sdk.default_action is legal.default_action
    assert sdk.why_illegal is legal.why_illegal
    assert set(sdk.__all__) <= set(dir(sdk))


def test_the_sdk_imports_only_the_stdlib_and_protocol():
    source = (ROOT / "protocol" / "sdk.py").read_text()
    imported = {
        line.split()[1].split(".")[0]
        for line in source.splitlines()
        if line.startswith(("import ", "from "))
    }
    assert imported - {"protocol", "__future__"} <= set(sys.stdlib_module_names), imported


SDK_BOT = textwrap.dedent(
    """
    from protocol import sdk

    def decide(view, legal, ctx):
        print("a stray print")
        return sdk.random_action(legal, ctx.rng)

    sdk.run(decide, name="sdk-bot", version="0")
    """
)


def test_an_sdk_bot_runs_as_a_real_process_flushing_every_line(tmp_path, start_bot):
    (tmp_path / "bot.py").write_text(SDK_BOT)
    bot = start_bot([sys.executable, "bot.py"], tmp_path)
    bot.send(HELLO)
    assert bot.receive() == {"type": "hello", "protocol": 1, "name": "sdk-bot", "version": "0"}
    bot.send(game_start())
    desc = legal.record({"a": legal.choice(["x", "y"]), "b": legal.int_range(0, 9, 3)})
    bot.send(request(1, desc))
    answer = bot.receive()
    assert answer["id"] == 1 and legal.is_legal(desc, answer["action"])
    bot.send({"type": "bye"})
    assert bot.wait() == 0
    assert "a stray print" in bot.stderr
