"""The league lock belongs to the runner alone: forked workers that outlive it do not keep it."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import multiprocess
import pytest

from leagues.lock import LeagueBusy, league_lock, lock_path


def open_descriptors(pid: int) -> set[str]:
    """What the process's descriptors point at."""
    found = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            found.add(os.readlink(f"/proc/{pid}/fd/{fd}"))
        except OSError:
            continue
    return found


def test_a_second_holder_is_refused_and_the_lock_is_free_once_released(tmp_path):
    db = tmp_path / "arena.db"
    with league_lock(db, "L"):
        with pytest.raises(LeagueBusy, match=f"by process {os.getpid()}"), league_lock(db, "L"):
            pass
        with league_lock(db, "other league"):
            pass
    with league_lock(db, "L"):
        pass


def test_a_worker_orphaned_by_a_killed_runner_does_not_keep_the_lock(tmp_path):
    """The runner takes the lock, forks a worker and is SIGKILLed; the worker lives on. A new
    runner must get the lock (before the fix the worker's inherited descriptor kept it)."""
    db = tmp_path / "arena.db"
    worker_ready_r, worker_ready_w = os.pipe()
    release_r, release_w = os.pipe()  # the worker lives until this closes
    runner = os.fork()
    if runner == 0:  # the runner
        try:
            os.close(worker_ready_r)
            os.close(release_w)
            with league_lock(db, "L"):
                if os.fork() == 0:  # its worker: report pid and descriptors, then wait
                    try:
                        os.write(worker_ready_w, f"{os.getpid()}\n".encode())
                        os.read(release_r, 1)
                    finally:
                        os._exit(0)
                os.kill(os.getpid(), signal.SIGKILL)  # dies holding the lock, like kill -9
        finally:
            os._exit(1)
    os.close(worker_ready_w)
    os.close(release_r)
    try:
        _, status = os.waitpid(runner, 0)
        assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
        worker = int(os.read(worker_ready_r, 100).decode())
        os.kill(worker, 0)  # the orphan is alive
        assert str(lock_path(db, "L")) not in open_descriptors(worker)
        with league_lock(db, "L"):  # LeagueBusy here was the bug
            pass
    finally:
        os.close(release_w)  # lets the orphan exit
        os.close(worker_ready_r)


def keep_running(ready, release) -> None:
    ready.set()
    release.wait()


def test_pool_workers_forked_while_the_lock_is_held_never_hold_it(tmp_path):
    """As PoolExecutor starts them (multiprocess, fork): the worker has no descriptor of the
    lock file, and once the runner releases, a new runner gets the lock while it still runs."""
    db = tmp_path / "arena.db"
    context = multiprocess.get_context("fork")
    ready, release = context.Event(), context.Event()
    worker = context.Process(target=keep_running, args=(ready, release), daemon=True)
    try:
        with league_lock(db, "L"):
            worker.start()
            assert ready.wait(timeout=60)
            assert str(lock_path(db, "L")) not in open_descriptors(worker.pid)
            assert str(lock_path(db, "L")) in open_descriptors(os.getpid()), "the runner has it"
        assert worker.is_alive()
        with league_lock(db, "L"):
            pass
    finally:
        release.set()
        worker.join(timeout=60)


def test_a_forked_child_leaving_the_with_block_closes_nothing_of_its_own(tmp_path: Path):
    """The child's copy of the lock descriptor was closed at the fork, so its number may be
    reused (here by a file the child opens): leaving the block must not close that file, and
    must not fail."""
    db = tmp_path / "arena.db"
    child = -1
    other = -1
    try:
        with league_lock(db, "L"):
            child = os.fork()
            if child == 0:
                other = os.open(os.devnull, os.O_RDONLY)
    except BaseException:
        if child == 0:
            os._exit(5)  # leaving the block raised in the child
        raise
    if child == 0:
        try:
            os.fstat(other)
        except OSError:
            os._exit(6)  # the child's own file was closed behind its back
        os._exit(0)
    _, status = os.waitpid(child, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    with league_lock(db, "L"):
        pass


def test_the_lock_file_is_removed_when_released_even_by_an_error(tmp_path):
    db = tmp_path / "arena.db"
    with league_lock(db, "L"):
        assert lock_path(db, "L").exists()
    assert not lock_path(db, "L").exists()
    with pytest.raises(KeyboardInterrupt), league_lock(db, "L"):
        raise KeyboardInterrupt  # Ctrl-C
    assert list(tmp_path.iterdir()) == [], "nothing left beside the database"


def test_a_lock_file_removed_under_a_taker_does_not_make_two_holders(tmp_path, monkeypatch):
    """B opens the lock file just before its holder A finishes and removes it; C then takes a
    new lock file under the same name. B can lock its nameless old file, and must not take
    that for the lock: it tries again, finds C's, and is refused."""
    db = tmp_path / "arena.db"
    path = lock_path(db, "L")
    with league_lock(db, "L"):  # A
        stale = os.open(path, os.O_RDWR)  # B, a moment before A removes the file
    with league_lock(db, "L"):  # C
        real_open = os.open
        opened = iter([stale])
        monkeypatch.setattr(os, "open", lambda *args: next(opened, None) or real_open(*args))
        with pytest.raises(LeagueBusy), league_lock(db, "L"):  # B goes on
            pytest.fail("B holds the lock while C does")
        monkeypatch.undo()
        assert next(opened, None) is None, "B did lock its stale file first"
