"""How fast the report's pages render from a large database: `make bench` runs this on the
10,000-game league database leagues.bench_store builds (python -m leagues.bench_store alone:
100,000). Each figure is what `arena serve` does for one request (open the pages, read, render
the HTML), median of the runs, with the CPU time beside the wall time."""

from __future__ import annotations

import statistics
import time

from arena.benchreport import figure, note
from arena.store import Store
from arena.web import paths
from arena.web.pages import Pages

TARGET_S = 1.0
"""A page opens in under a second (issue 13)."""


def timed_render(store: Store, path: str, repeat: int) -> tuple[float, float, int]:
    """(median wall seconds, median CPU seconds, bytes) of rendering ``path`` afresh."""
    walls, cpus, size = [], [], 0
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        html = Pages(store, live=True).render(path)
        cpus.append(time.process_time() - cpu)
        walls.append(time.perf_counter() - wall)
        if html is None:
            raise RuntimeError(f"no page at {path}")
        size = len(html.encode("utf-8"))
    return statistics.median(walls), statistics.median(cpus), size


def run(store: Store, repeat: int) -> None:
    """Print the figures for the games list, a bot's page and the leaderboards."""
    pages = Pages(store)
    (bot_id, title) = store.db.execute(
        "SELECT bot_id, title FROM title_bot_totals ORDER BY games DESC LIMIT 1"
    ).fetchone()
    bot_page = paths.bot_page(title, pages.keys[bot_id].file_name)
    last = pages.render(paths.GAMES)
    assert last is not None
    measured = {
        "web: games list, first page": (paths.GAMES, True),
        "web: a bot's page": (bot_page, True),
        "web: leaderboards (index)": (paths.INDEX, False),
    }
    for name, (path, has_target) in measured.items():
        wall, cpu, size = timed_render(store, path, repeat)
        value = f"{wall:.3f} s ({cpu:.3f} s CPU, {size // 1024} KB)"
        if has_target:
            figure(name, value, f"< {TARGET_S:g} s", wall < TARGET_S)
        else:
            note(name, value)
