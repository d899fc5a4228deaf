"""Card-set figures by simulation: does the designed set play like the game?

Plays in-process games (the referee's game objects, no subprocesses) for three kinds of table
at every size from 3 to 8: all random bots, one paranoia-survivor among random bots, and all
paranoia-survivor; prints, per kind, missions per game (median and worst), deaths and
executions per mission, the share of games stopped by the game cap, and the survivor's win
share against its fair share. CARDS.md quotes its output.

    .venv/bin/python -m arena.games.paranoia.simulate --games 60

A tool for whoever tunes cards.toml, not part of the referee: it loads the bot's decide into
this process, unsandboxed, so give it only a bot you trust (the default is the bundled one,
found from the current directory, the repository's root).
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
from pathlib import Path
from typing import Any

from arena.games import get_game
from protocol import legal

DEFAULT_BOT = Path("bots/paranoia-survivor")


def load_decide(bot: Path) -> Any:
    """The ``decide`` function of the bot folder's bot.py (a paranoia-survivor-like bot)."""
    source = bot / "bot.py"
    if not source.is_file():
        raise SystemExit(
            f"no bot.py in {bot}: run this from the repository's root, or pass --bot with a "
            "bot folder whose bot.py defines decide(view, legal)"
        )
    spec = importlib.util.spec_from_file_location("paranoia_survivor", source)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.decide


def play(players: int, seed: int, smart: set[int], decide: Any) -> dict[str, Any]:
    """One game; the seats in ``smart`` play paranoia-survivor, the others random."""
    game = get_game("paranoia")
    state, events = game.start(players, seed, {})
    rng = random.Random(seed)
    while (decision := state.pending()) is not None:
        if decision.seat in smart:
            action = decide(state.view(decision.seat), decision.legal)
        else:
            action = legal.random_action(decision.legal, rng)
        events += state.apply(action)
    outcome = state.outcome()
    died = [e.data for e in events if e.kind == "died"]
    winners = [s for s in range(players) if outcome.ranks[s] == 1]
    return {
        "missions": outcome.detail["missions"],
        "capped": outcome.detail["ended_by"] == "mission-cap",
        "deaths": sum(not d["execution"] for d in died),
        "executions": sum(d["execution"] for d in died),
        "smart_wins": sum(1 for s in winners if s in smart) / len(winners),
    }


def table(kind: str, games: int, decide: Any) -> dict[str, Any]:
    rows = []
    for seed in range(games):
        players = 3 + seed % 6
        smart = {
            "random": set(),
            "one survivor": {seed % players},
            "all survivors": set(range(players)),
        }[kind]
        rows.append((players, smart, play(players, seed, smart, decide)))
    missions = [r["missions"] for _, _, r in rows]
    total = sum(missions)
    fair = sum(len(smart) / players for players, smart, _ in rows)
    won = sum(r["smart_wins"] for _, _, r in rows)
    return {
        "kind": kind,
        "games": games,
        "median": statistics.median(missions),
        "worst": max(missions),
        "deaths": sum(r["deaths"] for _, _, r in rows) / total,
        "executions": sum(r["executions"] for _, _, r in rows) / total,
        "capped": sum(r["capped"] for _, _, r in rows) / games,
        "edge": (won / fair) if kind == "one survivor" else None,
        "share": (won / games) if kind == "one survivor" else None,
        "fair": (fair / games) if kind == "one survivor" else None,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60, help="games per kind of table")
    parser.add_argument(
        "--bot",
        type=Path,
        default=DEFAULT_BOT,
        help=f"the smart bot's folder (default {DEFAULT_BOT}, from the repository's root)",
    )
    args = parser.parse_args(argv)
    decide = load_decide(args.bot)
    print(
        "| table (3-8 players) | games | missions median | worst | deaths/mission "
        "| executions/mission | game cap | survivor wins (fair share) |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for kind in ("random", "one survivor", "all survivors"):
        f = table(kind, args.games, decide)
        edge = "—" if f["edge"] is None else f"{f['share']:.1%} ({f['fair']:.1%}), {f['edge']:.2f}×"
        print(
            f"| {kind} | {f['games']} | {f['median']:g} | {f['worst']} | {f['deaths']:.2f} "
            f"| {f['executions']:.2f} | {f['capped']:.1%} | {edge} |"
        )
    by_size(max(1, args.games // 6), decide)


def by_size(games: int, decide: Any) -> None:
    """All-survivor tables size by size: where the game cap is reached."""
    print()
    print("| all survivors, players | games | missions median | worst | game cap |")
    print("|---|---|---|---|---|")
    for players in range(3, 9):
        rows = [play(players, seed, set(range(players)), decide) for seed in range(games)]
        missions = [r["missions"] for r in rows]
        capped = sum(r["capped"] for r in rows) / games
        print(
            f"| {players} | {games} | {statistics.median(missions):g} | {max(missions)} "
            f"| {capped:.1%} |"
        )


if __name__ == "__main__":
    main()
