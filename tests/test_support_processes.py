"""bot_processes sees a test's own bots, orphans included, so "no bot is left" means something."""

from __future__ import annotations

import contextlib
import subprocess
import time
from pathlib import Path

import psutil


def test_an_orphaned_process_of_the_test_is_still_found_and_a_finished_one_is_not(
    tmp_path: Path, bot_processes
) -> None:
    # sh starts a sleeper in the background and exits at once: the sleeper is orphaned, the
    # way a bot is when its league worker is killed.
    subprocess.run(["sh", "-c", "sleep 60 >/dev/null 2>&1 &"], cwd=tmp_path, check=True)
    try:
        # The background child is a copy of sh until it has exec'd sleep, which may come
        # after sh returned: wait for the exec (it came late in one run under load).
        deadline = time.monotonic() + 30
        found = bot_processes(tmp_path)
        while not all(name.startswith("sleep") for name in found) and time.monotonic() < deadline:
            time.sleep(0.01)
            found = bot_processes(tmp_path)
        assert len(found) == 1 and found[0].startswith("sleep"), found
        assert bot_processes(tmp_path / "elsewhere") == [], "only processes under the folder"
    finally:
        for child in psutil.Process().children():
            with contextlib.suppress(psutil.Error):
                if child.cwd() == str(tmp_path):
                    child.kill()
                    child.wait(10)
    deadline = time.monotonic() + 10
    while bot_processes(tmp_path) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert bot_processes(tmp_path) == []
