"""The PARANOIA state: everything on the table, and the base.GameState interface.

The flow of missions lives in flow.py as a generator that yields each decision and receives its
answer; ``apply`` sends the answer in and runs the game to its next decision. That keeps the
hard parts (response windows inside response windows, a dying action in the middle of a card's
effects) as plain nested calls instead of a hand-built stack of phases.
"""

from __future__ import annotations

import random
from collections.abc import Generator
from typing import Any

from arena.games.base import Decision, Event, Outcome, checked_action, ranks_from_keys
from arena.games.paranoia import flow as _flow
from arena.games.paranoia import invariants as _invariants
from arena.games.paranoia import tabletalk
from arena.games.paranoia import view as _view
from arena.games.paranoia.flow import Phase
from arena.games.paranoia.plays import Play, TableCard
from arena.games.paranoia.table import Clearances, Troubleshooter, action_deck, mission_deck
from arena.games.paranoia.vocabulary import CLEARANCES, CardSet, Mission, MissionCounter
from arena.games.talk import TalkWindow
from arena.games.view_parts import ViewParts
from protocol.legal import choice


class ParanoiaState:
    """A game in progress (base.GameState). Changed only by ``apply``."""

    def __init__(
        self,
        players: int,
        seed: int,
        cards: CardSet,
        mission_cap: int,
        talkers: frozenset[int] = frozenset(),
    ) -> None:
        self.players = players
        """Number of seats (3..8)."""
        self.cards = cards
        """The card set in play."""
        self.mission_cap = mission_cap
        """The game ends after this many missions at the latest (the game cap)."""
        self.rng = random.Random(seed)
        """The game's only source of chance: leader, decks, steals, random discards, roles."""
        self.actions_by_id = {a.id: a for a in cards.actions}
        """Action cards by id."""
        self.missions_by_id = {m.id: m for m in cards.missions}
        """Missions by id."""
        self.ts = [Troubleshooter(seat) for seat in range(players)]
        """The troubleshooters, by seat."""
        self.clearances = Clearances(cards, self.ts)
        """The clearance table and supply."""
        self.view_parts = ViewParts()
        """The parts of this game's views kept between decisions (view.py, view_parts.py)."""
        self.actions = action_deck(cards, self.rng)
        """The Action deck and its discards."""
        self.missions = mission_deck(cards, self.rng)
        """The Mission deck; each finished mission goes to its discards."""
        self.leader = 0
        """The Team Leader's seat."""
        self.phase = Phase.CARD_PLAY
        self.mission_number = 0
        """Missions begun (1 during the first)."""
        self.mission: Mission | None = None
        """The mission being played."""
        self.counters = dict.fromkeys(MissionCounter, 0)
        """The mission's counters."""
        self.secret_holder: int | None = None
        """The seat holding the mission's secret role, if it hands one out."""
        self.turn: int | None = None
        """Whose card-play turn it is (None outside card play)."""
        self.turns_taken = 0
        """Card-play turns begun this mission (skipped ones included)."""
        self.plays = 0
        """Cards played or discarded this mission (the play cap counts them)."""
        self.chain: list[Play] = []
        """Plays not yet resolved, bottom first."""
        self.table: list[TableCard] = []
        """Cards staying on the table until Internal Security."""
        self.end_requested = False
        """A card ended the card-play phase (Abort Mission)."""
        self.completed = False
        """The Team Leader declared the mission complete."""
        self.game_ending = False
        """Someone lost its last clone: this mission is the last."""
        self.final_treason: list[int] | None = None
        """Treason as held just before the last Internal Security discarded it (tie-break)."""
        self.ended_by: str | None = None
        """Why the game ended: last-clone or mission-cap."""
        self.context: dict[str, Any] | None = None
        """What the pending decision is about (shown in the decider's view)."""
        self.talkers = talkers
        """The seats that talk (options["talk"], SPEC.md §14); talk windows need two."""
        self.terms = tabletalk.ParanoiaTerms(players, list(self.actions_by_id))
        """The structured terms talk may use (none binding)."""
        self.talk: TalkWindow | None = None
        """The current or last talk window."""
        self.talk_windows = 0
        """Talk windows opened so far (their numbers)."""
        self._events: list[Event] = []
        self._pending: Decision | None = None
        self._flow: Generator[Decision, Any, None] = _flow.game(self)

    # -- base.GameState ---------------------------------------------------------------------

    def pending(self) -> Decision | None:
        """The decision the game waits for, or None once the game is over."""
        return self._pending

    def apply(self, action: Any) -> list[Event]:
        """Apply the pending decision's answer; return the events it caused, in order."""
        return self.apply_checked(checked_action(self._pending, action))

    def apply_checked(self, action: Any) -> list[Event]:
        """``apply`` for an answer already checked (GameState.apply_checked)."""
        return self._run(action)

    def view(self, seat: int) -> dict[str, Any]:
        """Everything this seat may know now; a talker's adds the talk it may read (``talk``:
        the current or last window, None before the first)."""
        view = _view.seat_view(self, seat)
        if seat in self.talkers:
            view["talk"] = None if self.talk is None else self.talk.view(seat)
        return view

    def table_view(self) -> dict[str, Any]:
        """Everything, hidden or not (every message of the current or last talk window)."""
        view = _view.table_view(self)
        if self.talkers:
            talk = self.talk
            view["talk"] = None if talk is None else [m.json() for m in talk.messages]
        return view

    def outcome(self) -> Outcome:
        """Score = clearance rank (0 RED .. 7 ULTRAVIOLET); ties broken by fewer treason as held
        before the last Internal Security; still tied: shared rank."""
        if self.phase is not Phase.OVER or self.final_treason is None:
            raise ValueError("the game is not over yet")
        treason = self.final_treason
        ranks = ranks_from_keys([(t.rank, -treason[t.seat]) for t in self.ts])
        detail = {
            "clearances": [CLEARANCES[t.rank] for t in self.ts],
            "treason": list(treason),
            "clones": [t.clones for t in self.ts],
            "missions": self.mission_number,
            "ended_by": self.ended_by,
        }
        return Outcome(tuple(float(t.rank) for t in self.ts), ranks, detail)

    def invariants(self) -> list[str]:
        """Broken invariants, in words."""
        return _invariants.broken(self)

    # -- used by flow.py and effects.py -------------------------------------------------------

    def log(
        self,
        kind: str,
        data: dict[str, Any],
        seen_by: frozenset[int] | None = None,
        others: dict[str, Any] | None = None,
    ) -> None:
        """Record an event of the decision being applied."""
        self._events.append(Event(kind, data, seen_by, others))

    def emit(self, events: list[Event]) -> None:
        """Record events built elsewhere (a talk window's)."""
        self._events.extend(events)

    def ask(
        self, seat: int, kind: str, options: list[Any], context: dict[str, Any]
    ) -> Generator[Decision, Any, Any]:
        """Ask ``seat`` to pick one of ``options``; return its answer."""
        self.context = {"kind": kind, **context}
        answer = yield Decision(seat, kind, choice(options))
        self.context = None
        return answer

    def break_tie(self, test: str, tied: list[int]) -> Generator[Decision, Any, int]:
        """One of ``tied``: the Team Leader's choice ("ties chosen by the Team Leader"); the
        seeded RNG when the leader is dead (ruling 6)."""
        if len(tied) == 1:
            return tied[0]
        if not self.ts[self.leader].alive:
            seat = self.rng.choice(tied)
            self.log("tie-broken", {"test": test, "tied": tied, "seat": seat, "by": None})
            return seat
        options = [{"seat": seat} for seat in tied]
        answer = yield from self.ask(self.leader, "tie", options, {"test": test, "tied": tied})
        self.log(
            "tie-broken", {"test": test, "tied": tied, "seat": answer["seat"], "by": self.leader}
        )
        return int(answer["seat"])

    def draw(self, seat: int, count: int, reason: str) -> None:
        """``count`` cards from the Action deck into a hand (fewer if the deck and the
        discards run dry)."""
        drawn: list[str] = []
        for _ in range(count):
            card, reshuffled = self.actions.draw()
            if reshuffled:
                self.log("reshuffled", {"cards": len(self.actions.cards) + 1})
            if card is None:
                break
            drawn.append(card)
        self.ts[seat].hand.extend(drawn)
        self.log(
            "drew",
            {"seat": seat, "cards": drawn, "reason": reason},
            seen_by=frozenset({seat}),
            others={"seat": seat, "count": len(drawn), "reason": reason},
        )

    def move_clearance(self, seat: int, step: int, reason: str) -> None:
        """One clearance up (+1) or down (-1), if the supply and the table allow it."""
        t = self.ts[seat]
        before = t.rank
        moved = self.clearances.move(t, step)
        self.log(
            "clearance",
            {
                "seat": seat,
                "from": CLEARANCES[before],
                "to": CLEARANCES[t.rank],
                "moved": moved,
                "reason": reason,
            },
        )

    def guard_of(self, seat: int, attacker: int) -> Troubleshooter | None:
        """The living Noble Sacrifice guard who takes wounds meant for ``seat`` from another
        troubleshooter's card (the most recent guard, ruling 4), if any."""
        if attacker == seat:
            return None
        for card in reversed(self.table):
            if card.guarding == seat and card.active and self.ts[card.play.seat].alive:
                return self.ts[card.play.seat]
        return None

    def dying(
        self, seat: int, cause: Play, was_traitor: bool, killer: int | None
    ) -> Generator[Decision, Any, None]:
        """The dying action of a troubleshooter whose wounds reached the maximum (flow.py)."""
        return _flow.dying(self, seat, cause, was_traitor, killer)

    def _run(self, action: Any) -> list[Event]:
        self._events = []
        try:
            self._pending = self._flow.send(action)
        except StopIteration:
            self._pending = None
        return self._events


def start(
    players: int,
    seed: int,
    cards: CardSet,
    mission_cap: int,
    talkers: frozenset[int] = frozenset(),
) -> tuple[ParanoiaState, list[Event]]:
    """A new game, run to its first decision, and the events so far."""
    state = ParanoiaState(players, seed, cards, mission_cap, talkers)
    return state, state._run(None)
