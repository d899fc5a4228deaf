"""A real Dask cluster for a test: a `dask scheduler` and two `dask worker` processes.

Each process has a working directory of its own; each worker also has its own bot cache
(ARENA_CACHE), so the bots it runs can be told from the head's and from the other worker's
by path (tests.support.processes.bot_processes). No fixed port: the scheduler picks a free
one and writes its address to a scheduler file, which the workers and the test read.
"""

from __future__ import annotations

import functools
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import distributed  # in the test extra: CI always has it
import pytest

START_TIMEOUT_S = 120  # a guard only: they start in a few seconds unless the host is slow


@dataclass
class DaskCluster:
    address: str
    scheduler: subprocess.Popen[bytes]
    workers: list[subprocess.Popen[bytes]]
    caches: list[Path]
    """Each worker's bot cache: where the bots it runs are unpacked."""


def _dask(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    cwd.mkdir(parents=True, exist_ok=True)
    log = open(cwd / "dask.log", "wb")  # read when a test fails to start the cluster
    return subprocess.Popen(
        [sys.executable, "-m", "dask", *args], cwd=cwd, env=env, stdout=log, stderr=log
    )


def _stop(processes: list[subprocess.Popen[bytes]]) -> None:
    for process in processes:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)  # a worker stops its plugins, so its bots
    for process in processes:
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture
def dask_cluster(tmp_path: Path) -> Iterator[DaskCluster]:
    with running_cluster(tmp_path) as cluster:
        yield cluster


@contextmanager
def running_cluster(
    tmp_path: Path, workers: int = 2, worker_env: dict[str, str] | None = None
) -> Iterator[DaskCluster]:
    """A scheduler and `workers` workers (environment: this one's, with worker_env)."""
    scheduler_file = tmp_path / "scheduler" / "scheduler.json"
    scheduler = _dask(
        "scheduler",
        "--host",
        "127.0.0.1",
        "--port",
        "0",
        "--no-dashboard",
        "--scheduler-file",
        str(scheduler_file),
        cwd=tmp_path / "scheduler",
    )
    started: list[subprocess.Popen[bytes]] = []
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while not scheduler_file.exists():
            assert scheduler.poll() is None, (tmp_path / "scheduler" / "dask.log").read_text()
            assert time.monotonic() < deadline, "the scheduler wrote no scheduler file"
            time.sleep(0.05)
        caches = []
        for number in range(workers):
            home = tmp_path / f"worker-{number}"
            caches.append(home / "cache")
            # no nanny: killing the worker's process is the worker dying, not a restart
            started.append(
                _dask(
                    "worker",
                    "--scheduler-file",
                    str(scheduler_file),
                    "--nthreads",
                    "1",
                    "--no-nanny",
                    "--no-dashboard",
                    "--name",
                    f"worker-{number}",
                    "--local-directory",
                    str(home / "dask"),
                    cwd=home,
                    env={**os.environ, "ARENA_CACHE": str(home / "cache"), **(worker_env or {})},
                )
            )
        with distributed.Client(scheduler_file=str(scheduler_file), timeout="60s") as client:
            client.wait_for_workers(workers, timeout=START_TIMEOUT_S)
            address = client.scheduler.address
        yield DaskCluster(address, scheduler, started, caches)
    finally:
        _stop([*started, scheduler])


@pytest.fixture
def start_cluster(tmp_path: Path):
    """start_cluster(workers=2, worker_env=None): a context manager giving a DaskCluster."""
    return functools.partial(running_cluster, tmp_path)
