"""`arena check`: put one bot through the handshake and a few games, and say what it did wrong.

The bot plays against the bundled random bot, in a different seat each game and under each
variant of the game in turn, so every kind of decision the title has is asked of it.

Seeds: a check records nothing and rates nothing, so it has no secret to keep. Its deal seeds
and the bots' seeds are derived (arena.seeds, arena.referee.seat_seed) with CHECK_KEY, a key
that is public on purpose: `arena check BOT --seed S` plays exactly the same games on every
machine, which is what a bot author needs to reproduce a fault. Games that count (`arena
play`, leagues, `arena regress`) derive their seeds with a secret key instead.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from arena.containment.limits import DEFAULT_LIMITS, Limits
from arena.faults import Fault
from arena.games.base import Game
from arena.lineup import Lineup
from arena.manifest import BotManifest
from arena.record import GameRecord
from arena.referee import TimeControl, new_game_id, play_game
from arena.seeds import deal_seed, derive_deal_key
from protocol.sdk import DECIDE_RAISED

CHECK_KEY = b"arena check: public on purpose, so that a check can be repeated exactly"
"""The key a check's seeds are derived with (see the module docstring): not a secret."""
MAX_ERROR_CHARS = 300
"""How much of one line of a bot's stderr a report quotes (the bot chooses its length)."""


@dataclass
class CheckReport:
    """What a check found."""

    bot: BotManifest
    games: list[GameRecord] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)
    """The checked bot's seat in each game."""
    startup_error: str | None = None
    """Why the bot could not even start and say hello (then no game was played)."""
    restarts: int = 0
    decide_errors: list[tuple[int, str]] = field(default_factory=list)
    """(game number, what was raised) for each time the bot's decide raised: the SDK answers
    a default action then, which is legal, so only its stderr (protocol.sdk.DECIDE_RAISED)
    shows the bug."""
    handshake_name: str = ""
    handshake_version: str = ""
    features: frozenset[str] = frozenset()
    """The wire features (SPEC.md §13) the bot negotiated in its handshake."""

    @property
    def faults(self) -> list[tuple[int, Fault, str]]:
        """(game number, fault, reason) for every game in which the bot faulted."""
        found: list[tuple[int, Fault, str]] = []
        for number, (record, seat) in enumerate(zip(self.games, self.seats), start=1):
            mine = record.seats[seat]
            if mine.fault != Fault.OK:
                found.append((number, mine.fault, mine.fault_reason or ""))
        return found

    @property
    def passed(self) -> bool:
        return (
            self.startup_error is None
            and not self.faults
            and not self.decide_errors
            and bool(self.games)
        )

    @property
    def decision_times_ms(self) -> list[float]:
        return [
            d.ms
            for record, seat in zip(self.games, self.seats)
            for d in record.decisions
            if d.seat == seat and not d.by_referee
        ]

    def timing_summary(self) -> str:
        times = self.decision_times_ms
        if not times:
            return "no decisions answered"
        return (
            f"{len(times)} decisions answered; median {statistics.median(times):.1f} ms, "
            f"slowest {max(times):.1f} ms"
        )


def check_variant_sets(game: Game) -> list[list[str]]:
    """The variant sets a check cycles through: none, then each variant alone."""
    return [[]] + [[variant] for variant in game.variants]


def run_check(
    game: Game,
    bot: BotManifest,
    opponent: BotManifest,
    *,
    games: int,
    players: int,
    seed: int,
    time_control: TimeControl,
    log_dir: Path | None,
    variants: list[list[str]] | None = None,
    on_game: Callable[[int, GameRecord, int], None] | None = None,
    limits: Limits = DEFAULT_LIMITS,
    key: bytes = CHECK_KEY,
) -> CheckReport:
    """Play `games` games of `bot` against copies of `opponent` and report its faults.

    Game i is dealt with deal_seed(derive_deal_key(key), seed, i), and the bots' seeds are
    derived with key, so the same seed and key play the same games.
    """
    report = CheckReport(bot)
    deal_key = derive_deal_key(key)
    variant_sets = variants or check_variant_sets(game)
    with Lineup(
        [bot] + [opponent] * (players - 1),
        time_control=time_control,
        log_dir=log_dir,
        limits=limits,
    ) as lineup:
        process = lineup.processes[0]
        error = lineup.ensure_running(range(players)).get(0)  # the opponents start alongside
        if error is not None:
            report.startup_error = f"{error.fault}: {error.reason}"
            return report
        report.handshake_name, report.handshake_version = process.hello_name, process.hello_version
        report.features = process.wire.features
        for index in range(games):
            seat = index % players
            order = [0] * players
            others = iter(range(1, players))
            for s in range(players):
                order[s] = 0 if s == seat else next(others)
            game_id = new_game_id()
            record = play_game(
                game,
                lineup.seated(order, game_id),
                seed=deal_seed(deal_key, seed, index),
                options={"variants": variant_sets[index % len(variant_sets)]},
                time_control=time_control,
                game_id=game_id,
                bot_seed_key=key,
            )
            report.games.append(record)
            report.seats.append(seat)
            if on_game is not None:
                on_game(index, record, seat)
        report.restarts = lineup.starts[0] - 1
    if log_dir is not None:  # read once the bots have stopped: all their stderr is written
        for number, (record, seat) in enumerate(zip(report.games, report.seats), start=1):
            log = log_dir / record.game_id / f"seat{seat}.log"
            report.decide_errors += [(number, error) for error in decide_errors(log)]
    return report


def decide_errors(log: Path) -> list[str]:
    """What a bot's decide raised, from the lines the SDK writes to its stderr log."""
    try:
        text = log.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:  # the bot wrote nothing to stderr in that game
        return []
    return [
        line.removeprefix(DECIDE_RAISED).strip()[:MAX_ERROR_CHARS]
        for line in text.splitlines()
        if line.startswith(DECIDE_RAISED)
    ]
