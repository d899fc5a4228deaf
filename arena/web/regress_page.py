"""`arena regress --html FILE`: the gate's verdict as a page, with the sequential test's path
between its bounds and a link to the replay of every game played.

The page is FILE; its assets and the games' replays go in a folder beside it, FILE's stem +
"_files", so the whole can be opened from disk or kept as a CI artifact. The caller (the
leagues layer, which runs the gate) hands over plain data: this module knows no league type.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from arena.record import GameRecord
from arena.web import paths
from arena.web.pages import replay_html
from arena.web.site import copy_static
from arena.web.templating import environment


@dataclass(frozen=True)
class PairRow:
    """One duplicate pair as the page lists it."""

    number: int
    seat: int
    candidate_rank: int
    baseline_rank: int
    difference: float
    faults: str
    """Who faulted in the pair, in words ("" when nobody)."""
    candidate_game: str | None
    baseline_game: str | None


@dataclass(frozen=True)
class TestPath:
    """The log-likelihood ratio after each pair, and the bounds it was tested against."""

    __test__ = False  # not a pytest test class, despite the name

    llr: Sequence[float]
    lower: float
    upper: float

    def chart(self) -> dict[str, Any]:
        pairs = len(self.llr)
        return {
            "x": list(range(1, pairs + 1)),
            "llr": [round(value, 4) for value in self.llr],
            "lower": [self.lower] * pairs,
            "upper": [self.upper] * pairs,
            "xlabel": "pairs played",
            "ylabel": "log-likelihood ratio",
            "integers": True,
        }


def files_folder(page: Path) -> Path:
    return page.with_name(f"{page.stem}_files")


def write_regress_page(
    page: Path,
    *,
    verdict: str,
    summary: str,
    explanation: str,
    facts: list[tuple[str, str]],
    path: TestPath,
    pairs: list[PairRow],
    games: Sequence[GameRecord],
) -> None:
    """Write the page to ``page`` and, beside it, its assets and every game's replay."""
    folder = files_folder(page)
    folder.mkdir(parents=True, exist_ok=True)
    copy_static(folder)
    (folder / "games").mkdir(exist_ok=True)
    for record in games:
        (folder / paths.game_page(record.game_id)).write_text(
            replay_html(record, asset_prefix="../static/", home=f"../../{page.name}"),
            encoding="utf-8",
        )
    linked = {record.game_id for record in games}
    html = (
        environment()
        .get_template("regress.html")
        .render(
            root=f"{quote(folder.name)}/",
            nav=False,
            live=False,
            seq=0,
            url=lambda to: to,
            charts=True,
            heading=f"Regression gate: {verdict}",
            section="",
            footer="arena regress",
            verdict=verdict,
            summary=summary,
            explanation=explanation,
            facts=facts,
            path=path.chart(),
            pairs=[
                pair
                if pair.candidate_game in linked and pair.baseline_game in linked
                else PairRow(**{**pair.__dict__, "candidate_game": None, "baseline_game": None})
                for pair in pairs
            ],
            linked=bool(linked),
            games_folder=f"{quote(folder.name)}/",
            game_page=paths.game_page,
        )
    )
    page.write_text(html, encoding="utf-8")
