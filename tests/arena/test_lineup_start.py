"""A lineup starts its bots side by side: every one is launched before any handshake is awaited,
the handshakes are awaited together, each within its own startup time, and a bot that cannot
start harms none of the others (real sandboxed subprocesses throughout)."""

from __future__ import annotations

import pytest

from arena.botprocess import BotProcess
from arena.games import get_game
from arena.lineup import Lineup
from arena.manifest import load_bot
from arena.referee import TimeControl, play_game
from tests.support.toygame import GAME

CLOCK = TimeControl(decision_s=5.0, bank_s=0.0, startup_s=30.0)

NOISY_START = """\
import json, sys
sys.stderr.write("x" * (1 << 20) + "\\n")  # far more than a pipe holds: blocks until read
sys.stderr.flush()
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "hello", "protocol": 1, "name": "noisy", "version": "0"}),
              flush=True)
    elif message["type"] == "bye":
        break
"""


def test_every_bot_is_launched_before_any_handshake_is_awaited(bundled_bot, monkeypatch):
    calls: list[tuple[str, int]] = []
    unsent: list[int] = []
    launch, check_hello = BotProcess.launch, BotProcess._check_hello

    def recording_launch(self: BotProcess, timeout_s: float) -> None:
        launch(self, timeout_s)
        calls.append(("launch", self.pid or 0))
        unsent.append(len(self._outbox))

    def recording_check(self: BotProcess) -> None:
        calls.append(("hello", self.pid or 0))
        check_hello(self)

    monkeypatch.setattr(BotProcess, "launch", recording_launch)
    monkeypatch.setattr(BotProcess, "_check_hello", recording_check)
    manifests = [load_bot(bundled_bot("random"))] * 5
    with Lineup(manifests, time_control=CLOCK) as lineup:
        seated = lineup.seated(range(5), "g1")
        pids = [process.pid for process in lineup.processes]
        record = play_game(get_game("corruption"), seated, seed=3, options={}, time_control=CLOCK)
    assert [kind for kind, _ in calls] == ["launch"] * 5 + ["hello"] * 5, calls
    # each bot had its hello at its launch, when its startup time began, not once the
    # lineup's other bots were launched
    assert unsent == [0] * 5
    assert sorted(pid for _, pid in calls[:5]) == sorted(pids), "one launch per process"
    assert [seat.start_error for seat in seated] == [None] * 5
    assert record.status == "complete"
    assert [seat.fault for seat in record.seats] == ["ok"] * 5


def test_a_bot_that_cannot_start_spoils_none_of_the_others(make_bot, tmp_path):
    unrunnable = tmp_path / "unrunnable"
    unrunnable.mkdir()
    (unrunnable / "bot.toml").write_text('name = "u"\nversion = "0"\ncommand = ["./missing"]\n')
    bots = [
        make_bot("good"),
        make_bot("version"),  # answers the hello, but with a protocol this referee lacks
        make_bot("crash-start"),  # exits before the hello
        unrunnable,  # refused before launch
        make_bot("good", name="good2"),
    ]
    with Lineup([load_bot(b) for b in bots], time_control=CLOCK, log_dir=tmp_path) as lineup:
        seated = lineup.seated(range(5), "g1")
        failed = [process.pid for process in lineup.processes[1:4]]
        record = play_game(
            GAME, seated, seed=7, options={"rounds": 2}, time_control=CLOCK, game_id="g1"
        )
    assert failed == [None] * 3, "each bot that failed to start was stopped"
    assert [s.start_error.fault if s.start_error else None for s in seated] == [
        None,
        "handshake",
        "crash",
        "start",
        None,
    ]
    assert "exited with code 4" in str(seated[2].start_error.reason)
    assert record.status == "complete"
    assert [seat.fault for seat in record.seats] == ["ok", "handshake", "crash", "start", "ok"]
    assert [seat.decisions for seat in record.seats] == [2, 0, 0, 0, 2]
    assert lineup.starts == [1, 1, 1, 1, 1]


def test_a_silent_bot_takes_no_startup_time_from_the_others(make_bot, tmp_path):
    """While the referee waits out a silent bot, it keeps reading the others: one that writes
    a megabyte to stderr before answering would otherwise stall on its full pipe until the
    silent one timed out, and then be past its own deadline too."""
    noisy = tmp_path / "noisy"
    noisy.mkdir()
    (noisy / "noisy.py").write_text(NOISY_START)
    (noisy / "bot.toml").write_text(
        'name = "noisy"\nversion = "0"\ncommand = ["{python}", "noisy.py"]\n'
    )
    clock = TimeControl(startup_s=3.0)
    manifests = [load_bot(make_bot("silent")), load_bot(noisy)]
    with Lineup(manifests, time_control=clock, log_dir=tmp_path) as lineup:
        seated = lineup.seated(range(2), "g1")
        noisy_running = lineup.processes[1].alive
    assert seated[0].start_error is not None and seated[0].start_error.fault == "timeout"
    assert "3000 ms" in seated[0].start_error.reason
    assert seated[1].start_error is None and noisy_running
    log = tmp_path / "between-games" / f"{manifests[1].digest}.log"
    assert log.stat().st_size > 200_000, "its startup stderr was read while it started"


def test_an_interrupted_start_leaves_no_bot_half_started(bundled_bot, monkeypatch):
    check_hello = BotProcess._check_hello
    checked: list[int] = []

    def interrupted_at_the_second(self: BotProcess) -> None:
        checked.append(1)
        if len(checked) == 2:
            raise KeyboardInterrupt
        check_hello(self)

    monkeypatch.setattr(BotProcess, "_check_hello", interrupted_at_the_second)
    with Lineup([load_bot(bundled_bot("random"))] * 3, time_control=CLOCK) as lineup:
        with pytest.raises(KeyboardInterrupt):
            lineup.seated(range(3), "g1")
        assert [process.pid for process in lineup.processes] == [None] * 3
        assert not any(process.alive for process in lineup.processes)
