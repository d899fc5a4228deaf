"""A match: a sequence of games among the same bots, seats rotating, processes kept alive."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.containment.limits import DEFAULT_LIMITS, Limits
from arena.games.base import Game
from arena.lineup import Lineup, rotation
from arena.manifest import BotManifest
from arena.record import GameRecord
from arena.referee import FaultPolicy, TimeControl, new_game_id, play_game


@dataclass(frozen=True)
class MatchPlan:
    """What to play."""

    game: Game
    bots: tuple[BotManifest, ...]
    """One entry per seat; the same bot may appear more than once."""
    games: int
    seed: int
    """Game i (0-based) is played with seed + i, so any game can be replayed alone."""
    options: dict[str, Any]
    time_control: TimeControl = TimeControl()
    fault_policy: FaultPolicy = FaultPolicy.SUBSTITUTE
    log_dir: Path | None = None
    bot_seed_key: bytes | None = None
    """The secret bots' per-game seeds are derived with (None: random, not reproducible)."""
    limits: Limits = DEFAULT_LIMITS
    """Containment of every bot process."""


def play_match(plan: MatchPlan, on_record: Callable[[int, GameRecord], None]) -> int:
    """Play the plan's games in order, handing each finished record to on_record at once
    (so an interruption loses at most the game in progress). Returns games played."""
    played = 0
    with Lineup(
        plan.bots, time_control=plan.time_control, log_dir=plan.log_dir, limits=plan.limits
    ) as lineup:
        for index in range(plan.games):
            game_id = new_game_id()
            entrants = lineup.entrants(rotation(len(plan.bots), index), game_id)
            record = play_game(
                plan.game,
                entrants,
                seed=plan.seed + index,
                options=plan.options,
                time_control=plan.time_control,
                fault_policy=plan.fault_policy,
                game_id=game_id,
                bot_seed_key=plan.bot_seed_key,
            )
            on_record(index, record)
            played += 1
    return played
