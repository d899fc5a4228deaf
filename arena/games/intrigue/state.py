"""The Intrigue state machine: rounds, turns (income, receiving, sending), ``apply``.

Income needs no decision; receiving is delegated to receiving.py; sending asks the player twice
per turn in rounds 1-4. After round 5 every player collects income once more and the game ends.
"""

from __future__ import annotations

import random
from enum import StrEnum
from typing import Any

from arena.games.base import Decision, Event, Outcome, checked_action, ranks_from_keys
from arena.games.intrigue import invariants as _invariants
from arena.games.intrigue import view as _view
from arena.games.intrigue.board import Board, Ledger
from arena.games.intrigue.negotiation import Negotiation, Stage
from arena.games.intrigue.options import Variant
from arena.games.intrigue.receiving import Choose, KeepOrReplace, Receiving
from arena.games.intrigue.scholars import (
    ROUNDS,
    SEND_ROUNDS,
    SENDS_PER_TURN,
    START_CASH,
    TYPES,
)
from arena.games.intrigue.table_talk import CONFLICT, NEGOTIATION, SEND, Windows
from arena.games.talk import TALK
from arena.games.view_parts import ViewParts
from protocol.legal import choice


class Phase(StrEnum):
    """Where the current turn stands (income is instantaneous, so it never shows)."""

    RECEIVE = "receive"
    SEND = "send"
    OVER = "over"


class IntrigueState:
    """A game in progress (base.GameState). Mutated only by ``apply``."""

    def __init__(
        self,
        players: int,
        seed: int,
        variants: frozenset[Variant],
        talkers: frozenset[int] = frozenset(),
    ) -> None:
        self.players = players
        """Number of seats (3..5)."""
        self.variants = variants
        """Variants in play."""
        self.rng = random.Random(seed)
        """The game's only source of chance: the start player."""
        self.board = Board(players)
        """Where every scholar is."""
        self.ledger = Ledger([START_CASH] * players)
        """Everybody's ducats."""
        self.start_player = 0
        """The seat that takes the first turn of every round."""
        self.round = 0
        """Current round, 1..5 (0 before the first turn)."""
        self.turn_index = 0
        """Turns already taken this round."""
        self.phase = Phase.RECEIVE
        self.receiving: Receiving | None = None
        """Step 2 of the current turn, while it lasts."""
        self.sends_left = 0
        """Scholars the current player must still send this turn."""
        self.talkers = talkers
        """Seats that talk (options["talk"], public); windows open only with two or more."""
        self.talk = Windows(talkers)
        """The talk windows (table_talk.py)."""
        self.view_parts = ViewParts()
        """The parts of this game's views kept between decisions (view.py, view_parts.py)."""
        self._pending: Decision | None = None

    # -- base.GameState ---------------------------------------------------------------------

    def pending(self) -> Decision | None:
        """The decision the game waits for, or None once the game is over."""
        return self._pending

    def apply(self, action: Any) -> list[Event]:
        """Apply the pending decision's answer; return the events it caused, in order."""
        return self.apply_checked(checked_action(self._pending, action))

    def apply_checked(self, action: Any) -> list[Event]:
        """``apply`` for an answer already checked (GameState.apply_checked)."""
        decision = self._pending
        assert decision is not None
        events: list[Event] = []
        if decision.kind == TALK:
            events += self.talk.apply(action)
        elif decision.kind == "send":
            self._send(decision.seat, action, events)
        else:
            assert self.receiving is not None
            self.receiving.resolve(action, events)
        self._advance(events)
        return events

    def view(self, seat: int) -> dict[str, Any]:
        """Everything this seat may know now."""
        return _view.seat_view(self, seat)

    def table_view(self) -> dict[str, Any]:
        """Everything, hidden or not."""
        return _view.table_view(self)

    def outcome(self) -> Outcome:
        """Scores (final ducats) and ranks (ties share); only once the game is over."""
        if self.phase is not Phase.OVER:
            raise ValueError("the game is not over yet")
        cash = list(self.ledger.cash)
        detail = {
            "final_cash": cash,
            "income": list(self.ledger.income),
            "bribes_received": list(self.ledger.received),
            "bribes_paid": list(self.ledger.paid),
            "bank_bribes": list(self.ledger.bank_bribes),
        }
        ranks = ranks_from_keys([(c,) for c in cash])
        return Outcome(scores=tuple(float(c) for c in cash), ranks=ranks, detail=detail)

    def invariants(self) -> list[str]:
        """Broken invariants, in words."""
        return _invariants.broken(self)

    # -- queries ----------------------------------------------------------------------------

    @property
    def current(self) -> int:
        """The seat whose turn it is."""
        return (self.start_player + self.turn_index) % self.players

    @property
    def free_replacement(self) -> bool:
        """The Free Replacement variant is in play."""
        return Variant.FREE_REPLACEMENT in self.variants

    def send_options(self, seat: int) -> list[dict[str, Any]]:
        """Every type still in hand x every other player's palace."""
        counts = self.board.hand_counts(seat)
        return [
            {"scholar": type_, "palace": palace}
            for type_ in TYPES
            if counts[type_] > 0
            for palace in range(self.players)
            if palace != seat
        ]

    # -- flow -------------------------------------------------------------------------------

    def _advance(self, events: list[Event]) -> None:
        """Run everything automatic until the next real decision or the end."""
        while True:
            if self.phase is Phase.OVER:
                self._pending = None
                return
            if self.phase is Phase.RECEIVE:
                assert self.receiving is not None
                decision = self.receiving.advance(events)
                if decision is not None:
                    self._pending = self._talk_first(decision)
                    return
                self.receiving = None
                if self.round <= SEND_ROUNDS:
                    self.phase = Phase.SEND
                    self.sends_left = SENDS_PER_TURN
                else:
                    self._end_turn(events)
                continue
            if self.sends_left == 0:
                self._end_turn(events)
                continue
            options = self.send_options(self.current)
            if len(options) == 1:  # never with 3+ players, but a forced move is not asked
                self._send(self.current, options[0], events, forced=True)
                continue
            self._pending = self._talk_first(Decision(self.current, "send", choice(options)))
            return

    def _talk_first(self, decision: Decision) -> Decision:
        """The talk window due before this decision, if one is (each opens once), else the
        decision itself."""
        window = self.talk.open
        if window is None and len(self.talkers) >= 2:
            window = self._window_before(decision)
        return window.decision() if window is not None else decision

    def _window_before(self, decision: Decision) -> Any:
        """Open the window due before ``decision``: before a turn's sends (every talker),
        before a negotiation's offer (its two parties), before a conflict is decided (the
        owner and the players of the scholars in it)."""
        seat, kind = decision.seat, decision.kind
        point: tuple[Any, ...]
        if kind == "send":
            point = (SEND, self.round, self.turn_index)
            return self.talk.offer(point, SEND, set(range(self.players)), seat, self.ledger)
        receiving = self.receiving
        assert receiving is not None
        task = receiving.tasks[0]
        if isinstance(task, Negotiation) and task.stage is Stage.OFFER:
            point = (NEGOTIATION, self.round, task.palace, task.scholar.id, task.role._value_)
            seats = {task.applicant, task.palace}
            return self.talk.offer(point, NEGOTIATION, seats, seat, self.ledger)
        if isinstance(task, Choose | KeepOrReplace):
            ids = (
                task.applicants if isinstance(task, Choose) else (task.incumbent, *task.applicants)
            )
            seats = {self.board.scholar(sid).owner for sid in ids} | {receiving.owner}
            point = (CONFLICT, self.round, receiving.owner, task.type)
            return self.talk.offer(point, CONFLICT, seats, receiving.owner, self.ledger)
        return None

    def _begin_round(self, events: list[Event]) -> None:
        self.round += 1
        self.turn_index = 0
        events.append(Event("round-start", {"round": self.round}))

    def _begin_turn(self, events: list[Event]) -> None:
        """Step 1 (income) and the start of step 2 (receiving)."""
        seat = self.current
        self.phase = Phase.RECEIVE
        events.append(Event("turn-start", {"round": self.round, "seat": seat}))
        self._collect_income(seat, events, final=False)
        self.receiving = Receiving(seat, self.board, self.ledger, self.free_replacement)
        self.receiving.begin(events)

    def _collect_income(self, seat: int, events: list[Event], *, final: bool) -> None:
        employed = self.board.employed(seat)
        amount = sum(e.section for e in employed)
        self.ledger.pay_income(seat, amount)
        events.append(
            Event(
                "income",
                {
                    "seat": seat,
                    "amount": amount,
                    "final": final,
                    "scholars": [
                        {"scholar": e.scholar.id, "palace": e.palace, "section": e.section}
                        for e in employed
                    ],
                },
            )
        )

    def _send(
        self, seat: int, action: dict[str, Any], events: list[Event], *, forced: bool = False
    ) -> None:
        scholar = self.board.first_in_hand(seat, action["scholar"])
        assert scholar is not None, "send options list only types in hand"
        self.board.send(scholar, action["palace"])
        self.sends_left -= 1
        events.append(
            Event(
                "sent",
                {
                    "seat": seat,
                    "scholar": scholar,
                    "type": action["scholar"],
                    "palace": action["palace"],
                    "forced": forced,
                },
            )
        )

    def _end_turn(self, events: list[Event]) -> None:
        self.turn_index += 1
        if self.turn_index < self.players:
            self._begin_turn(events)
            return
        if self.round < ROUNDS:
            self._begin_round(events)
            self._begin_turn(events)
            return
        self._finish(events)

    def _finish(self, events: list[Event]) -> None:
        """The last income for everybody, then the end."""
        for offset in range(self.players):
            self._collect_income((self.start_player + offset) % self.players, events, final=True)
        self.phase = Phase.OVER
        self.receiving = None
        outcome = self.outcome()
        events.append(
            Event("game-end", {"scores": list(self.ledger.cash), "ranks": list(outcome.ranks)})
        )


def start(
    players: int, seed: int, variants: frozenset[Variant], talkers: frozenset[int] = frozenset()
) -> tuple[IntrigueState, list[Event]]:
    """A new game and its setup events (start player, round 1, the first turn)."""
    return begin(IntrigueState(players, seed, variants, talkers))


def begin(state: IntrigueState) -> tuple[IntrigueState, list[Event]]:
    """Play a fresh state's setup (start player, round 1, the first turn) and return its events.

    ``start`` is this on a new state; a test may change the fresh state first (e.g. the
    starting cash of the hidden-information twin games)."""
    players = state.players
    state.start_player = state.rng.randrange(players)
    events = [Event("start-player", {"seat": state.start_player, "reason": "random"})]
    state._begin_round(events)
    state._begin_turn(events)
    state._advance(events)
    return state, events
