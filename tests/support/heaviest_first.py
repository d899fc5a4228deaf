"""Run the longest test files first, so that under xdist no long file starts last.

`make test` hands whole files to its workers (``--dist loadfile``, ``--no-loadscope-reorder``)
in collection order. xdist's own reordering puts the files with the most tests first, which
left the cluster and crash-safety files (a few tests of a minute each) for the end, with one
worker idle while the other finished them. Here the files below move to the front in this
order, longest first; every other file keeps its place after them. The list only orders: a
file missing from it, or named here and gone, changes nothing but the run's length.

Measured with ``pytest -n 2 --durations 0`` (each file's summed wall time, which is what
keeps a worker busy: bots waiting on clocks cost time but little CPU); refresh it when a
file's cost changes much.
"""

from __future__ import annotations

import pytest

LONGEST_FILES = (
    "tests/cluster/test_cluster_leagues.py",
    "tests/arena/test_fuzz_bot_replies.py",
    "tests/leagues/test_league_run.py",
    "tests/leagues/test_regress_run.py",
    "tests/web/test_replay_browser.py",
    "tests/web/test_site.py",
    "tests/leagues/test_crash_safety.py",
    "tests/arena/test_hidden_information.py",
    "tests/arena/test_referee_faults.py",
    "tests/games/test_conformance.py",
    "tests/leagues/test_schedule.py",
    "tests/cli/test_cli.py",
    "tests/protocol/test_protocol_codec.py",
    "tests/cli/test_check_reports.py",
    "tests/cli/test_rerun.py",
    "tests/leagues/test_sequential.py",
    "tests/packaging/test_wheel_install.py",
    "tests/attacks/test_attack_protocol.py",
)
RANK = {path: rank for rank, path in enumerate(LONGEST_FILES)}


def file_of(item: pytest.Item) -> str:
    return item.nodeid.split("::", 1)[0]


@pytest.hookimpl(trylast=True)  # after every other reordering (e.g. a conftest's own)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # sorted() is stable: within a file, and among the files not listed, the order stays
    items[:] = sorted(items, key=lambda item: RANK.get(file_of(item), len(RANK)))
