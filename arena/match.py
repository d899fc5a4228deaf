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
from arena.seeds import deal_seed, random_deal_key


@dataclass(frozen=True)
class MatchPlan:
    """What to play."""

    game: Game
    bots: tuple[BotManifest, ...]
    """One entry per seat; the same bot may appear more than once."""
    games: int
    seed: int
    """The base seed: game i (0-based) is dealt with arena.seeds.deal_seed(key, seed, i). The
    record keeps each game's actual deal seed, so any game can be replayed alone."""
    options: dict[str, Any]
    time_control: TimeControl = TimeControl()
    fault_policy: FaultPolicy = FaultPolicy.SUBSTITUTE
    log_dir: Path | None = None
    bot_seed_key: bytes | None = None
    """The secret bots' per-game seeds are derived with (None: random, not reproducible)."""
    limits: Limits = DEFAULT_LIMITS
    """Containment of every bot process."""
    deal_seed_key: bytes | None = None
    """The key deal seeds are derived with (Store.deal_seed_key: the same base seed on the same
    database deals the same games). None: a fresh random key, so the deals are not
    reproducible from the base seed."""


def play_match(plan: MatchPlan, on_record: Callable[[int, GameRecord], None]) -> int:
    """Play the plan's games in order, handing each finished record to on_record at once
    (so an interruption loses at most the game in progress). Returns games played."""
    played = 0
    deal_key = plan.deal_seed_key if plan.deal_seed_key is not None else random_deal_key()
    with Lineup(
        plan.bots, time_control=plan.time_control, log_dir=plan.log_dir, limits=plan.limits
    ) as lineup:
        for index in range(plan.games):
            game_id = new_game_id()
            entrants = lineup.seated(rotation(len(plan.bots), index), game_id)
            record = play_game(
                plan.game,
                entrants,
                seed=deal_seed(deal_key, plan.seed, index),
                options=plan.options,
                time_control=plan.time_control,
                fault_policy=plan.fault_policy,
                game_id=game_id,
                bot_seed_key=plan.bot_seed_key,
            )
            on_record(index, record)
            played += 1
    return played
