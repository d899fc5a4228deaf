"""Every fault a bot can commit, by real misbehaving subprocesses against the real referee."""

from __future__ import annotations

import dataclasses
import gc
import os
import subprocess

import pytest

from arena.lineup import Lineup
from arena.manifest import load_bot
from arena.referee import FaultPolicy, TimeControl, play_game
from tests.support.toygame import GAME

# Short enough for the slow bots to time out (late answers after 1.5 s; silent, sleep and close
# never do), with room for a good bot on a loaded machine: each silent start costs startup_s.
FAST = TimeControl(decision_s=0.6, bank_s=0.4, startup_s=6.0)
# The silent bot's game waits out the whole startup deadline: 3 s, still some 20 times what a
# good fake bot takes to start under the sandbox on a loaded 2-core machine (0.10-0.15 s at a
# load average of 4), and the silent bot's fault and reason are the same at any deadline.
SILENT_START = dataclasses.replace(FAST, startup_s=3.0)

CASES = [
    # mode, at, expected fault, words the reason must contain
    ("sleep", 2, "timeout", "within"),
    ("late", 1, "timeout", "within"),
    ("crash", 2, "crash", "exited with code 3"),
    ("crash-start", 1, "crash", "exited with code 4"),
    ("silent", 1, "timeout", "hello"),
    ("garbage", 1, "malformed", "not JSON"),
    ("badutf8", 1, "malformed", "UTF-8"),
    ("notobject", 1, "malformed", "not an object"),
    ("schema", 1, "schema", '"id"'),
    ("illegal", 2, "illegal", "not one of the 3 legal options"),
    ("wrong-id", 1, "unexpected", "request id"),
    ("twice", 1, "unexpected", "request id"),
    ("version", 1, "handshake", "protocol 99"),
    ("bigline", 1, "malformed", "cap"),
    # Under bubblewrap its monitor process holds the pipe, so a closed stdout is only seen
    # as silence; and a bot's exit takes its whole pid namespace with it, so children no
    # longer hold the pipe open.
    ("close", 1, "timeout", "within"),
    ("child", 1, "crash", "exited with code 0"),
    ("chatty", 1, "schema", "log"),
    ("flood", 1, "unexpected", "more than 16 lines without being asked"),
]


def play(bots, policy=FaultPolicy.SUBSTITUTE, rounds=3, tmp_path=None, clock=FAST):
    manifests = [load_bot(b) for b in bots]
    with Lineup(manifests, time_control=clock, log_dir=tmp_path) as lineup:
        entrants = lineup.seated(list(range(len(bots))), "g1")
        record = play_game(
            GAME,
            entrants,
            seed=7,
            options={"rounds": rounds},
            time_control=clock,
            fault_policy=policy,
            game_id="g1",
        )
    return record, lineup


@pytest.mark.parametrize("mode,at,fault,words", CASES, ids=[c[0] for c in CASES])
def test_fault_is_recorded_and_the_game_completes(make_bot, tmp_path, mode, at, fault, words):
    fds_before, children_before = open_fds(), children()
    record, _ = play(
        [make_bot("good"), make_bot(mode, at), make_bot("good", name="good2")],
        tmp_path=tmp_path,
        clock=SILENT_START if mode == "silent" else FAST,
    )
    faulted = record.seats[1]
    assert faulted.fault == fault, faulted.fault_reason
    assert words in (faulted.fault_reason or ""), faulted.fault_reason
    assert record.status == "complete"
    assert [s.fault for s in (record.seats[0], record.seats[2])] == ["ok", "ok"]
    assert faulted.rank == 3, "a faulted seat ranks last"
    # every decision was made, by the bot before the fault and by the referee after it
    assert len(record.decisions) == 3 * 3
    assert all(d.by_referee for d in record.decisions if d.seat == 1 and d.ms == 0.0)
    assert not any(d.by_referee for d in record.decisions if d.seat != 1)
    assert open_fds() - fds_before == set(), "no pipe or log file left open"
    assert set(children()) - set(children_before) == set(), "no bot process left unreaped"


def test_hung_bot_costs_at_most_its_deadline(make_bot, tmp_path):
    record, _ = play(
        [make_bot("good"), make_bot("sleep", 1), make_bot("good", name="g2")], tmp_path=tmp_path
    )
    # the referee waited decision_s + bank_s once, then played defaults without waiting
    assert record.seats[1].fault == "timeout"
    assert "1000 ms" in (record.seats[1].fault_reason or ""), "decision_s + bank_s"


def test_abort_policy_ends_the_game_unrated(make_bot, tmp_path):
    record, _ = play(
        [make_bot("good"), make_bot("crash", 2), make_bot("good", name="g2")],
        FaultPolicy.ABORT,
        tmp_path=tmp_path,
    )
    assert record.status == "aborted"
    assert "seat 1" in record.termination and "crash" in record.termination
    assert all(s.rank == 0 for s in record.seats)
    assert len(record.decisions) < 9


def test_good_bots_play_clean(make_bot, tmp_path):
    record, lineup = play(
        [make_bot("good"), make_bot("good", name="b"), make_bot("good", name="c")],
        tmp_path=tmp_path,
    )
    assert [s.fault for s in record.seats] == ["ok"] * 3
    assert [s.decisions for s in record.seats] == [3, 3, 3]
    assert sorted(s.rank for s in record.seats) in ([1, 2, 3], [1, 1, 3], [1, 2, 2], [1, 1, 1])
    assert lineup.starts == [1, 1, 1]


def test_stderr_is_captured_and_capped(make_bot, tmp_path):
    record, _ = play(
        [make_bot("stderr"), make_bot("good"), make_bot("good", name="c")], tmp_path=tmp_path
    )
    assert record.seats[0].fault == "ok"
    log = tmp_path / "g1" / "seat0.log"
    assert log.exists(), list(tmp_path.rglob("*"))
    size = log.stat().st_size
    assert 200_000 < size < 300_000, f"log should be capped near 256 KiB, is {size}"
    assert b"log capped" in log.read_bytes()


def test_no_process_outlives_the_lineup(make_bot, tmp_path):
    _, lineup = play([make_bot("child"), make_bot("good"), make_bot("sleep", 2)], tmp_path=tmp_path)
    pids = [p for p in (proc.pid for proc in lineup.processes) if p]
    assert pids == [], "stopped processes forget their pid"
    # the sleeping grandchild of the 'child' bot was in the bot's process group: gone
    out = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True, check=True).stdout
    assert "time.sleep(3600)" not in out


def test_no_file_handle_or_process_is_left_behind_by_hostile_bots(make_bot, tmp_path):
    """Count the referee's open file descriptors and its child processes before and after
    a match against the worst of the hostile bots."""

    before_fds, before_children = open_fds(), children()
    for modes in (
        ["child", "close", "bigline"],
        ["stderr", "crash", "sleep"],
        ["chatty", "garbage", "twice"],
    ):
        play([make_bot(m, 1) for m in modes], tmp_path=tmp_path)
    assert open_fds() - before_fds == set(), "every pipe and log file was closed"
    leftover = set(children()) - set(before_children)
    assert leftover == set(), f"every bot process was reaped: {[_cmdline(p) for p in leftover]}"


def open_fds() -> set[tuple[str, str]]:
    gc.collect()  # objects of earlier tests may still hold descriptors until collected
    found = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            found.add((fd, os.readlink(f"/proc/self/fd/{fd}")))
        except OSError:
            continue  # the descriptor listdir itself used
    return found


def children() -> list[str]:
    return [pid for pid in os.listdir("/proc") if pid.isdigit() and _parent(pid) == os.getpid()]


def _cmdline(pid: str) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            return cmdline.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return "?"


def _parent(pid: str) -> int | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return int(stat.read().rsplit(b")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return None
