"""Containment of bot processes: limits, a clean environment, CPU accounting."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from arena.containment.limits import DEFAULT_LIMITS
from arena.lineup import Lineup
from arena.manifest import load_bot
from arena.referee import TimeControl, play_game
from tests.support.paths import FAKEBOT
from tests.support.toygame import GAME

REFEREE_CODE = Path(__file__).resolve().parents[2] / "arena" / "referee.py"
# A hang guard, not a measure: no test here is about the clock, and on a loaded machine a bot
# burning 0.3 s of CPU under its CPU share, or forking up to its cap, takes seconds of wall time.
CLOCK = TimeControl(decision_s=60.0, bank_s=0.0, startup_s=60.0)


def play(bots, tmp_path):
    with Lineup([load_bot(b) for b in bots], time_control=CLOCK, log_dir=tmp_path) as lineup:
        return play_game(
            GAME,
            lineup.seated(list(range(len(bots))), "g"),
            seed=1,
            options={"rounds": 2},
            time_control=CLOCK,
            game_id="g",
        )


def test_cpu_time_tells_a_busy_bot_from_a_waiting_one(make_bot, tmp_path):
    record = play([make_bot("burn"), make_bot("idle"), make_bot("good")], tmp_path)
    burn, idle, _ = record.seats
    assert burn.fault == idle.fault == "ok"
    assert burn.cpu_ms is not None and idle.cpu_ms is not None
    assert burn.cpu_ms >= 400, f"two decisions of 0.3 s CPU each, measured {burn.cpu_ms} ms"
    assert idle.time_ms >= 500, "waiting costs wall-clock time..."
    assert idle.cpu_ms < burn.cpu_ms / 2, "...but not CPU time"


def test_a_memory_hog_fails_inside_its_limit_and_is_recorded(make_bot, tmp_path):
    record = play([make_bot("hog"), make_bot("good"), make_bot("good", name="g2")], tmp_path)
    hog = record.seats[0]
    assert hog.fault == "crash", hog.fault_reason
    assert "MemoryError" in (hog.fault_reason or ""), hog.fault_reason
    assert record.status == "complete" and record.seats[1].fault == "ok"


def test_a_huge_file_is_cut_off_and_left_nowhere_on_the_host(make_bot, tmp_path):
    bot = make_bot("bigfile")
    record = play([bot, make_bot("good"), make_bot("good", name="g2")], tmp_path)
    assert record.seats[0].fault == "crash"
    reason = record.seats[0].fault_reason or ""
    assert "File too large" in reason or "No space left" in reason, reason
    assert not (bot / "big.bin").exists(), "its folder is read-only to it: nothing written there"


def test_a_bot_sees_none_of_the_referees_environment(make_bot, tmp_path, monkeypatch):
    monkeypatch.setenv("ARENA_TEST_SECRET", "do-not-leak")
    play([make_bot("env"), make_bot("good"), make_bot("good", name="g2")], tmp_path)
    logs = "".join(p.read_text() for p in tmp_path.rglob("*.log"))
    names = next(line for line in logs.splitlines() if line.startswith("ENV ")).split()[1:]
    assert "ARENA_TEST_SECRET" not in names
    allowed = {
        "PATH",
        "LANG",
        "LC_ALL",
        "HOME",
        "TMPDIR",
        "PYTHONDONTWRITEBYTECODE",
        "PYTHONUNBUFFERED",
    }
    assert set(names) <= allowed | {"PWD"}, "PWD is set by the sandbox for the working dir"


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="CPU accounting reads /proc")
def test_in_process_bots_report_no_cpu_of_their_own():
    from arena.inprocess import InProcessBot, random_decider
    from arena.record import BotIdentity
    from arena.referee import SeatedBot

    bots = [SeatedBot(BotIdentity("r", "", "-"), InProcessBot(random_decider(s))) for s in range(3)]
    record = play_game(GAME, bots, seed=1, options={})
    assert all(seat.cpu_ms is None for seat in record.seats)


def test_a_fork_bomb_is_capped_and_every_process_of_it_killed(make_bot, tmp_path, bot_processes):
    bomb = make_bot("forkbomb")
    record = play([bomb, make_bot("good"), make_bot("good", name="g2")], tmp_path)
    assert record.status == "complete"
    logs = "".join(p.read_text() for p in tmp_path.rglob("*.log"))
    forked = int(next(line for line in logs.splitlines() if line.startswith("forked")).split()[1])
    assert 0 < forked < DEFAULT_LIMITS.processes, f"the cap holds even for root: {forked} forks"
    assert bot_processes(tmp_path) == [], "children that left the process group were killed too"


def test_a_sandboxed_bot_has_no_network_and_sees_only_its_own_directory(make_bot, tmp_path):
    import shutil
    import socket

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    port = listener.getsockname()[1]
    secret_db = tmp_path / "arena.db"
    secret_db.write_text("the referee's database")
    other_bot = make_bot("good")
    snoop = tmp_path / "snoop"
    snoop.mkdir()
    shutil.copy(FAKEBOT, snoop / "fakebot.py")
    (snoop / "bot.toml").write_text(
        'name = "snoop"\nversion = "0"\n'
        f'command = ["{{python}}", "fakebot.py", "snoop", "1", "{port}", "{secret_db}", '
        f'"{other_bot / "bot.toml"}", "{REFEREE_CODE}", "{snoop / "bot.toml"}", '
        '"/bot/bot.toml"]\n'
    )
    try:
        record = play([snoop, other_bot, make_bot("good", name="g2")], tmp_path)
    finally:
        listener.close()
    assert record.seats[0].fault == "ok", record.seats[0].fault_reason
    said = [
        line
        for p in tmp_path.rglob("*.log")
        for line in p.read_text().splitlines()
        if line.startswith("SNOOP")
    ]
    assert any("network blocked" in line for line in said), said
    assert f"SNOOP {secret_db} hidden" in said, "not the database"
    assert f"SNOOP {other_bot / 'bot.toml'} hidden" in said, "not other bots"
    assert f"SNOOP {REFEREE_CODE} hidden" in said, "not the referee's own code"
    assert f"SNOOP {snoop / 'bot.toml'} hidden" in said, "not even its folder on the host..."
    assert "SNOOP /bot/bot.toml visible" in said, "...but its snapshot, at /bot"
