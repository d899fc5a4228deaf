"""The per-game wall-clock limit (TimeControl.game_s, SPEC.md §7, Fault.GAME_TIME).

The rules are tested with a scripted clock (each in-process bot advances it by its own
thinking time, so nothing depends on the machine's speed); then once with real subprocesses:
tests/fakebots/fakebot.py in `idle` mode waits 0.3 s at every request.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from arena import referee
from arena.cli.app import app
from arena.lineup import Lineup
from arena.manifest import load_bot
from arena.record import BotIdentity, GameRecord
from arena.referee import FaultPolicy, SeatedBot, TimeControl, play_game, slowest_seat
from protocol import legal
from tests.support.toygame import GAME as TOY


class Clock:
    """A scripted monotonic clock."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Thinker:
    """A transport that takes `seconds` of the scripted clock for every answer."""

    def __init__(self, clock: Clock, seconds: float) -> None:
        self.clock = clock
        self.seconds = seconds
        self.received: list[dict[str, Any]] = []
        self.stopped = False

    def send(self, message: dict[str, Any]) -> None:
        self.received.append(message)

    def ask(self, request: dict[str, Any], timeout_s: float) -> tuple[Any, float]:
        assert not self.stopped, "a faulted seat is never asked again"
        self.received.append(request)
        self.clock.now += self.seconds
        return legal.default_action(request["legal"]), self.seconds

    def flush(self, timeout_s: float) -> None:
        return None

    def stop(self, grace_s: float = 0.0) -> int | None:
        self.stopped = True
        return None

    def cpu_seconds(self) -> float | None:
        return None


@pytest.fixture
def clock(monkeypatch) -> Clock:
    scripted = Clock()
    monkeypatch.setattr(referee, "_clock", scripted)
    return scripted


def game(
    clock: Clock,
    seconds: list[float],
    *,
    game_s: float,
    rounds: int,
    policy: FaultPolicy = FaultPolicy.SUBSTITUTE,
) -> tuple[GameRecord, list[Thinker]]:
    bots = [Thinker(clock, s) for s in seconds]
    entrants = [
        SeatedBot(BotIdentity(f"bot{seat}", "1", f"d{seat}"), bot) for seat, bot in enumerate(bots)
    ]
    time_control = TimeControl(decision_s=100.0, bank_s=0.0, game_s=game_s)
    record = play_game(
        TOY,
        entrants,
        seed=1,
        options={"rounds": rounds},
        time_control=time_control,
        fault_policy=policy,
    )
    return record, bots


def test_the_slowest_seat_is_chosen_the_lowest_on_a_tie():
    assert slowest_seat([1.0, 5.0, 2.0], [0, 1, 2]) == 1
    assert slowest_seat([1.0, 5.0, 2.0], [0, 2]) == 2, "only live seats"
    assert slowest_seat([3.0, 1.0, 3.0], [0, 1, 2]) == 0
    assert slowest_seat([0.0, 0.0], [1]) == 1


def test_a_game_within_its_limit_is_untouched(clock):
    record, _ = game(clock, [1.0, 1.0, 1.0], game_s=9.0, rounds=3)  # exactly 9 s: not past
    assert [s.fault for s in record.seats] == ["ok"] * 3
    assert record.status == "complete"


def test_the_slow_seat_is_faulted_and_the_others_finish(clock):
    """Seat 1 takes 3 s an answer, the others 0.1 s: seat 1's fourth answer takes the game
    from 9.7 s to 12.7 s; before the next request seat 1, which used 12 s of it, is faulted;
    its default moves cost nothing, so the game is back within its limit (0.7 s without
    seat 1) and seats 0 and 2 play every decision."""
    record, bots = game(clock, [0.1, 3.0, 0.1], game_s=10.0, rounds=6)
    assert [s.fault for s in record.seats] == ["ok", "game_time", "ok"]
    reason = record.seats[1].fault_reason or ""
    assert reason == (
        "the game passed its 10 s limit; this seat had used 12 s of it, the most of any seat "
        "still playing"
    )
    assert record.status == "complete"
    assert record.seats[1].rank == 3, "a faulted seat ranks last"
    assert [s.decisions for s in record.seats] == [6, 4, 6]
    assert bots[1].stopped and not bots[0].stopped and not bots[2].stopped
    seat1 = [d.by_referee for d in record.decisions if d.seat == 1]
    assert seat1 == [False] * 4 + [True] * 2


def test_while_the_seats_left_stay_past_the_limit_the_next_slowest_is_faulted(clock):
    """Three slow seats: each fault takes its seat's time off the game's, the next fault comes
    when the seats left have pushed the game past the limit again, slowest first."""
    record, _ = game(clock, [1.0, 2.0, 1.5], game_s=10.0, rounds=20)
    faults = [s.fault for s in record.seats]
    assert faults == ["game_time"] * 3, [s.fault_reason for s in record.seats]
    assert record.status == "complete", "the game always ends: no live seat, no request"
    first = next(d for d in record.decisions if d.by_referee).seat
    assert first == 1, "the slowest seat goes first"
    second_reason = record.seats[2].fault_reason or ""
    assert "without the seats already stopped" in second_reason, second_reason


def test_past_twice_the_limit_a_seat_is_faulted_at_every_request(clock):
    """A table where the credit given back for stopped seats would let the game run on: the
    backstop at twice the limit faults the rest one request after another."""
    record, _ = game(clock, [4.0, 4.0, 4.0, 4.0], game_s=10.0, rounds=20)
    assert all(s.fault == "game_time" for s in record.seats)
    assert clock.now - 1000.0 <= 2 * 10.0 + 4 * 4.0, "at most one decision per seat beyond"
    assert any("twice its 10 s limit" in (s.fault_reason or "") for s in record.seats)


def test_under_the_abort_policy_the_game_ends_unrated(clock):
    record, _ = game(clock, [0.1, 3.0, 0.1], game_s=10.0, rounds=6, policy=FaultPolicy.ABORT)
    assert record.status == "aborted"
    assert "game_time" in record.termination and "seat 1" in record.termination
    assert len(record.decisions) < 18


def test_game_start_tells_each_seat_the_game_clock(clock):
    _, bots = game(clock, [0.1, 0.1], game_s=42.5, rounds=1)
    start = bots[0].received[0]
    assert start["type"] == "game_start"
    assert start["time"] == {"decision_ms": 100_000, "bank_ms": 0, "game_ms": 42_500}


# --- real subprocesses --------------------------------------------------------------------


def test_a_real_bot_idling_at_every_request_is_faulted_and_the_others_complete(make_bot, tmp_path):
    """fakebot `idle` waits 0.3 s per request; the game may take 1 s: the idler is faulted
    once it has pushed the game past its limit, the two quick bots play the game out."""
    clock_ = TimeControl(decision_s=2.0, bank_s=0.0, startup_s=5.0, game_s=1.0)
    bots = [make_bot("good"), make_bot("idle"), make_bot("good", name="g2")]
    with Lineup([load_bot(b) for b in bots], time_control=clock_, log_dir=tmp_path) as lineup:
        record = play_game(
            TOY,
            lineup.seated([0, 1, 2], "g1"),
            seed=7,
            options={"rounds": 12},
            time_control=clock_,
            game_id="g1",
        )
    idler = record.seats[1]
    assert idler.fault == "game_time", (idler.fault, idler.fault_reason)
    assert "passed its 1 s limit" in (idler.fault_reason or "")
    assert "the most of any seat still playing" in (idler.fault_reason or "")
    assert record.status == "complete"
    assert [record.seats[0].fault, record.seats[2].fault] == ["ok", "ok"]
    assert record.seats[0].decisions == record.seats[2].decisions == 12
    assert 3 <= idler.decisions < 12


@pytest.mark.slow
def test_the_command_line_takes_game_ms(make_bot, tmp_path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    idle = str(make_bot("idle"))
    runner = CliRunner()
    checked = runner.invoke(
        app,
        ["check", idle, "--games", "1", "--game-ms", "500", "--logs", str(tmp_path / "logs")],
    )
    assert checked.exit_code == 1, checked.output
    assert "game_time" in checked.output and "passed its 0.5 s limit" in checked.output
    played = runner.invoke(
        app,
        ["play", "corruption", "--bot", idle, "--bot", idle, "--bot", idle]
        + ["--game-ms", "400", "--db", str(tmp_path / "a.db")],
    )
    assert played.exit_code == 0, played.output
    assert "(game_time)" in played.output


def test_regress_takes_game_ms(monkeypatch, tmp_path):
    seen: list[TimeControl] = []

    def capture(plan: Any, on_pair: Any = None, on_record: Any = None) -> Any:
        seen.append(plan.time_control)
        raise KeyboardInterrupt  # stop before any game: only the plan is under test

    monkeypatch.setattr("leagues.regress.run_regress", capture)  # imported when regress runs
    random_bot = str(Path(__file__).resolve().parents[2] / "bots" / "random")
    result = CliRunner().invoke(
        app,
        ["regress", "--game", "corruption", "--candidate", random_bot, "--baseline", random_bot]
        + ["--field", random_bot, "--field", random_bot, "--game-ms", "1234"],
    )
    assert result.exit_code == 130, result.output  # "interrupted before a verdict"
    assert seen and seen[0].game_s == 1.234
