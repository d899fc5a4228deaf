"""The PARANOIA title: static facts and ``start`` (base.Game)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from arena.games import talk
from arena.games.base import Event, check_players
from arena.games.paranoia import state as _state
from arena.games.paranoia import tabletalk
from arena.games.paranoia.cardset import load_cardset
from arena.games.paranoia.describe import describe as _describe
from arena.games.paranoia.flow import PLAY_CAP
from arena.games.paranoia.vocabulary import CardSet

MAX_PLAYERS = 8
MISSION_CAP = 40
"""The game cap: missions before a game is stopped and scored as it stands (designed)."""


def max_decisions(cards: CardSet, players: int = MAX_PLAYERS) -> int:
    """An upper bound on decisions in one game.

    Every decision that can put a card into play is asked only while fewer than PLAY_CAP cards
    were played this mission, and each play brings at most: its response window (players - 1
    asks), the window between turns (players asks: a turn ends only after a card played or
    discarded), the talk window before the turn, and per effect one dying action per
    troubleshooter, one steal question, one owner's discard per card discarded, one tie. Add the phase-end window (one ask per seat), a
    debriefing tie, the Team Leader's "complete" and two talk windows (the turn that declares
    the mission complete plays nothing; the window as the mission ends).

    Since ruling 23 every window asks every other living seat (most with only a pass), so
    normal games now pay the window term in full: about 3.6 times the decisions at 5 seats.
    The bound already counted every seat, so it needs no raise: over 30 games per table size
    (3-8) of random and of all-survivor tables the most seen was 5,193 decisions in a game and
    387 in one mission (8 survivors), against 272,400 and 6,810 for 8 seats.
    """
    sections = [s for a in cards.actions for s in a.sections]
    effects = max(len(s.effects) for s in sections)
    discard = max((e.amount or 0 for s in sections for e in s.effects), default=0)
    talking = tabletalk.max_decisions(players)
    per_play = 1 + (players - 1) + players + talking + effects * (players + 1 + discard + 1)
    per_mission = PLAY_CAP * per_play + players + 2 + 2 * talking
    return MISSION_CAP * per_mission


@dataclass
class ParanoiaGame:
    """PARANOIA Mandatory Bonus Fun, as ruled in RULES.md beside this module, with the
    designed card set of cards.toml (CARDS.md)."""

    title: str = "paranoia"
    """Name on the command line and in the database."""
    min_players: int = 3
    """Fewest seats."""
    max_players: int = MAX_PLAYERS
    """Most seats (eight troubleshooter cards in the box)."""
    variants: tuple[str, ...] = ()
    """No variants."""
    cards: CardSet = field(default_factory=load_cardset)
    """The card set (cards.toml)."""
    max_decisions: int = 0
    """Upper bound on decisions in one game (computed from the card set)."""
    supports_talk: bool = True
    """Seats that ask for talk (SPEC.md §14) get talk windows."""

    def __post_init__(self) -> None:
        self.max_decisions = max_decisions(self.cards)

    def normalize_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """``{"variants": []}`` and the talking seats the referee set (``"talk"``, SPEC.md
        §14); BadOptions names the fix."""
        return talk.normalize_options(options, self.variants)

    def start(
        self, players: int, seed: int, options: dict[str, Any]
    ) -> tuple[_state.ParanoiaState, list[Event]]:
        """A new game (leader drawn, first mission dealt) and its events so far."""
        check_players(self, players)
        talkers = talk.talkers(self.normalize_options(options), players)
        return _state.start(players, seed, self.cards, MISSION_CAP, talkers)

    def describe(self, event: dict[str, Any]) -> str:
        """An event body in words (for replays)."""
        return _describe(event)


GAME = ParanoiaGame()
"""The title object the referee uses."""
