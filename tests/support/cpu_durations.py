"""``pytest --cpu-durations N``: the N tests and the N test files that cost the most CPU time.

pytest's own ``--durations`` measures wall time, which other jobs on the machine stretch; CPU
time is what a test costs wherever it runs. A test's CPU time is counted for its setup, call
and teardown (a module-scoped fixture is charged to the first test that sets it up), for the
test process and everything it starts, bots included. Under xdist each worker measures its
own tests and the figure travels with the test's report.

``getrusage(RUSAGE_CHILDREN)`` is not enough: it counts a child only once reaped, and a
sandboxed bot's time is lost when bubblewrap exits without reaping its init process (it does,
as soon as the bot's exit code is known), and so is every bot the referee kills. So where it
can (as root, with a cgroup v1 ``cpuacct`` tree, as on this project's test machine) the test
process moves itself into a cpuacct cgroup of its own and reads its usage, which the kernel
also charges for every process in the cgroups below (the bots' own, which the referee makes
under its own), killed or not. Elsewhere it falls back to getrusage and says so.
"""

from __future__ import annotations

import os
import resource
import time
from collections import defaultdict
from collections.abc import Callable, Generator

import pytest

from arena.containment import cgroups

_PHASE_CPU = pytest.StashKey[float]()


def rusage_cpu_seconds() -> float:
    """User plus system time of this process and of its children reaped so far."""
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        total += usage.ru_utime + usage.ru_stime
    return total


class OwnCpuCgroup:
    """A cgroup v1 cpuacct group for this process alone and all it starts."""

    def __init__(self, directory: str, left: str) -> None:
        self.directory, self.left = directory, left

    @classmethod
    def enter(cls) -> OwnCpuCgroup | None:
        """Move this process into a fresh cpuacct cgroup below its own; None where it cannot."""
        try:
            mount = cgroups._mounts().get("cpuacct")
            if mount is None:
                return None
            left = os.path.join(mount, cgroups._own_cgroups()["cpuacct"].lstrip("/"))
            directory = os.path.join(left, f"pytest-cpu-{os.getpid()}")
            os.makedirs(directory, exist_ok=True)
            cgroups._write(directory, "cgroup.procs", os.getpid())
        except (OSError, KeyError):
            return None
        return cls(directory, left)

    def cpu_seconds(self) -> float:
        with open(os.path.join(self.directory, "cpuacct.usage")) as usage:
            return int(usage.read()) / 1e9

    def leave(self) -> None:
        """Move back and remove the cgroup (and the referee's empty ones under it)."""
        try:
            cgroups._write(self.left, "cgroup.procs", os.getpid())
        except OSError:
            return
        for _ in range(50):  # killed bots take a moment to leave their cgroups
            try:
                for below, _dirs, _files in os.walk(self.directory, topdown=False):
                    os.rmdir(below)
                return
            except FileNotFoundError:
                return
            except OSError:
                time.sleep(0.01)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.getgroup("terminal reporting").addoption(
        "--cpu-durations",
        type=int,
        default=None,
        metavar="N",
        help="show the N tests and the N files that used the most CPU time (the test process "
        "plus the bots and commands it ran): unlike --durations, load does not change it. "
        "0: all.",
    )


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("cpu_durations") is not None:
        config.pluginmanager.register(CpuDurations(config), "cpu-durations")


class CpuDurations:
    def __init__(self, config: pytest.Config) -> None:
        self.top: int = config.getoption("cpu_durations")
        self.by_test: defaultdict[str, float] = defaultdict(float)
        self.clocks: set[str] = set()
        # xdist's controller runs no test: only the process that runs them needs a clock
        runs_tests = hasattr(config, "workerinput") or not getattr(
            config.option, "numprocesses", None
        )
        self.cgroup = OwnCpuCgroup.enter() if runs_tests else None
        self.clock: Callable[[], float] = (
            self.cgroup.cpu_seconds if self.cgroup else rusage_cpu_seconds
        )
        self.how = "cgroup cpuacct" if self.cgroup else "getrusage: killed bots not counted"

    def pytest_unconfigure(self) -> None:
        if self.cgroup is not None:
            self.cgroup.leave()

    # Each phase is timed around every other implementation of its hook (fixtures included).
    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> Generator[None, None, None]:
        return (yield from self._timed(item))

    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_runtest_call(self, item: pytest.Item) -> Generator[None, None, None]:
        return (yield from self._timed(item))

    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_runtest_teardown(self, item: pytest.Item) -> Generator[None, None, None]:
        return (yield from self._timed(item))

    def _timed(self, item: pytest.Item) -> Generator[None, None, None]:
        start = self.clock()
        try:
            return (yield)
        finally:
            item.stash[_PHASE_CPU] = self.clock() - start

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item
    ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        report = yield
        # an extra attribute of a report is serialised with it, so it reaches xdist's controller
        report.cpu_seconds = item.stash.get(_PHASE_CPU, 0.0)  # type: ignore[attr-defined]
        report.cpu_clock = self.how  # type: ignore[attr-defined]
        return report

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.by_test[report.nodeid] += getattr(report, "cpu_seconds", 0.0)
        self.clocks.add(getattr(report, "cpu_clock", "?"))

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        by_file: defaultdict[str, float] = defaultdict(float)
        for nodeid, seconds in self.by_test.items():
            by_file[nodeid.split("::", 1)[0]] += seconds
        total = sum(self.by_test.values())
        write = terminalreporter.write_line
        for title, table in (("tests", self.by_test), ("files", by_file)):
            terminalreporter.write_sep("=", f"most CPU time: {title}")
            ranked = sorted(table.items(), key=lambda pair: pair[1], reverse=True)
            for name, seconds in ranked[: self.top or None]:
                write(f"{seconds:8.2f}s {name}")
        write(
            f"{total:8.2f}s in all, {len(self.by_test)} tests (measured by {', '.join(self.clocks)})"
        )
