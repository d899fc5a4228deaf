"""Table talk in PARANOIA (SPEC.md §14, RULES.md "Table talk"): when the talkers speak, and
the structured terms they speak in.

The rulebook: "you may promise to play certain cards, lie (or not) about the cards you hold,
make pacts, complain, threaten and, when fitting, flatter. Keeping promises is not at all
required." So nothing said is binding: the referee carries nothing out, and the terms only
make a promise, a pact or a threat readable by bots of other authors.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from arena.games.base import Decision, Event
from arena.games.talk import Message, TalkWindow
from protocol.legal import choice

if TYPE_CHECKING:
    from arena.games.paranoia.state import ParanoiaState

BEFORE_TURN = "before-turn"
"""The window before each card-play turn taken; the seat whose turn it is speaks first."""
MISSION_END = "mission-end"
"""The window once a mission's Internal Security is over (not after the last mission); the
Team Leader speaks first."""
ROUNDS = {BEFORE_TURN: 1, MISSION_END: 2}
"""Rounds of each window (every round is played, SPEC.md §14). Before a turn, one: the
player announces, the others answer it (a proposal made later in the round waits for the
next window: they come every turn). As a mission ends, two: time to make and answer pacts
for the next mission."""


class ParanoiaTerms:
    """PARANOIA's vocabulary, all of it for the current mission and none of it binding:

    - ``{"spare": s}``: not to target seat s (a card section played on s that wounds it or
      gives it treason). As a promise to s, "I will not target you this mission"; proposed to
      s, a pact: neither targets the other.
    - ``{"target": s}``: to target seat s. As a threat to s, "I will target you"; proposed to
      others, "let us target s".
    - ``{"play": card}``: to play that action card (any card of the set: one may lie about what
      one holds).
    """

    def __init__(self, players: int, card_ids: list[str]) -> None:
        self._players = players
        self._cards = card_ids

    def terms_legal(self, speaker: int) -> dict[str, Any] | None:
        others = [seat for seat in range(self._players) if seat != speaker]
        return choice(
            [{"spare": seat} for seat in others]
            + [{"target": seat} for seat in others]
            + [{"play": card} for card in self._cards]
        )

    def binding(self, terms: Any) -> bool:
        return False  # "Keeping promises is not at all required"

    def carry_out(self, proposal: Message, accepter: int) -> list[Event]:
        return []  # never called: nothing is binding


def window(state: ParanoiaState, label: str, first: int) -> Generator[Decision, Any, None]:
    """A talk window among the talkers, ``first`` speaking first; nothing when fewer than two
    seats talk. Its messages are ``said`` events, each seen by its readers only."""
    if len(state.talkers) < 2:
        return
    state.talk_windows += 1
    rounds = ROUNDS[label]
    talk = TalkWindow(state.talk_windows, label, sorted(state.talkers), first, rounds, state.terms)
    state.talk = talk
    while not talk.done:
        state.context = {"kind": "talk", "window": label}
        answer = yield talk.decision()
        state.context = None
        state.emit(talk.apply(answer))


def max_decisions(players: int) -> int:
    """Decisions one window can take at most."""
    return players * max(ROUNDS.values())
