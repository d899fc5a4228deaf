"""The Corruption state machine: rounds, phases, the pending decision and ``apply``.

Phase 1 (tenders) needs no decision and runs inside ``_begin_round``; phase 2 (corruption)
asks for face-up slots (Stud Libre) and placements; phase 3 is delegated to attribution.py.
"""

from __future__ import annotations

import random
from collections import Counter
from enum import StrEnum
from typing import Any

from arena.games.base import Decision, Event, Outcome, checked_action, ranks_from_keys
from arena.games.corruption import invariants as _invariants
from arena.games.corruption import view as _view
from arena.games.corruption.attribution import Attribution
from arena.games.corruption.cards import (
    CARDS_PLACED_PER_ROUND,
    CHARACTERS,
    PEEKS_PER_GAME,
    ROUNDS,
    Card,
    Variant,
    all_slot_subsets,
    face_up_schedule,
    starting_hand,
)
from arena.games.corruption.contracts import (
    CONTRACTS,
    CONTRACTS_PER_GOVERNMENT_PER_ROUND,
    GOVERNMENTS,
    VALUE,
    Government,
    contract_json,
)
from arena.games.corruption.placing import Peek, peeked_event, place_options, placed_event
from arena.games.corruption.table import Layout, Placement, Table
from arena.games.view_parts import ViewParts
from protocol.legal import choice


class Phase(StrEnum):
    """Where the round stands (phase 1 is instantaneous, so it never shows)."""

    CORRUPTION = "corruption"
    ATTRIBUTION = "attribution"
    OVER = "over"


class CorruptionState:
    """A game in progress (base.GameState). Mutated only by ``apply``."""

    def __init__(self, players: int, seed: int, variants: frozenset[Variant]) -> None:
        self.players = players
        """Number of seats (3..7)."""
        self.variants = variants
        """Variants in play."""
        self.rng = random.Random(seed)
        """The game's only source of chance: contract shuffle, round-1 first player, ties."""
        self.deck: list[int] = [c.id for c in CONTRACTS]
        """Contract ids still to deal, top first."""
        self.rng.shuffle(self.deck)
        self.layout: Layout = {g: [] for g in GOVERNMENTS}
        """Contracts on the table under each government, left to right."""
        self.won: list[list[int]] = [[] for _ in range(players)]
        """Contracts each seat has won, in the order won."""
        closed = Variant.CLOSED in variants
        self.hands: list[Counter[Card]] = [starting_hand(closed) for _ in range(players)]
        """Cards each seat holds."""
        self.gone: list[list[Card]] = [[] for _ in range(players)]
        """Characters each seat played in earlier rounds (out of the game)."""
        books = PEEKS_PER_GAME if Variant.LITTLE_BLACK_BOOK in variants else 0
        self.peeks_left: list[int] = [books] * players
        """Little Black Book peeks each seat may still spend."""
        self.peeks: list[list[Peek]] = [[] for _ in range(players)]
        """Peeks each seat has spent, in order."""
        self.round = 0
        """Current round, 1..4 (0 before the first deal)."""
        self.phase = Phase.CORRUPTION
        self.first_player = 0
        """Seat that plays first this round."""
        self.face_up: frozenset[int] | None = None
        """Face-up slots this round; None while a Stud Libre first player has not chosen."""
        self.turn = 0
        """Placements made so far this round."""
        self.table = Table()
        """This round's cards."""
        self.attribution: Attribution | None = None
        """Phase 3 progress, during attribution only."""
        self.next_placement = 1
        """Id the next placed card gets."""
        self.view_parts = ViewParts()
        """The parts of this game's views kept between decisions (view.py, view_parts.py)."""
        self._pending: Decision | None = None

    # -- base.GameState -----------------------------------------------------------------

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
        if decision.kind == "face_up_slots":
            self._choose_face_up(decision.seat, action["face_up"], events)
        elif decision.kind == "place":
            if "peek" in action:
                self._peek(decision.seat, action["peek"], events)
            else:
                self._place(decision.seat, action, events)
        else:
            assert self.attribution is not None
            self.attribution.resolve(action, events)
        self._advance(events)
        return events

    def view(self, seat: int) -> dict[str, Any]:
        """Everything this seat may know now."""
        return _view.seat_view(self, seat)

    def table_view(self) -> dict[str, Any]:
        """Everything, hidden or not."""
        return _view.table_view(self)

    def outcome(self) -> Outcome:
        """Scores (dollars of contracts won) and ranks; only once the game is over."""
        if self.phase is not Phase.OVER:
            raise ValueError("the game is not over yet")
        scores = self.scores()
        ranks = ranks_from_keys([(scores[s], len(self.won[s])) for s in range(self.players)])
        detail = {
            "contracts_won": [list(w) for w in self.won],
            "contracts_left": {g.value: list(self.layout[g]) for g in GOVERNMENTS},
        }
        return Outcome(scores=tuple(scores), ranks=ranks, detail=detail)

    def invariants(self) -> list[str]:
        """Broken invariants, in words."""
        return _invariants.broken(self)

    # -- queries ------------------------------------------------------------------------

    def scores(self) -> list[int]:
        """Each seat's total value of contracts won."""
        value = VALUE.__getitem__  # summed in C: this runs at every view
        return [sum(map(value, won)) for won in self.won]

    def seat_to_place(self) -> int:
        """The seat whose turn it is to place (phase 2)."""
        return (self.first_player + self.turn) % self.players

    def peeked_by(self, seat: int) -> set[int]:
        """Placements this seat has peeked at (any round)."""
        return {peek.placement for peek in self.peeks[seat]}

    # -- flow ---------------------------------------------------------------------------

    def _advance(self, events: list[Event]) -> None:
        """Run everything automatic until the next real decision or the end."""
        while True:
            if self.phase is Phase.OVER:
                self._pending = None
                return
            if self.phase is Phase.CORRUPTION:
                if self.face_up is None:
                    legal = choice([{"face_up": s} for s in all_slot_subsets()])
                    self._pending = Decision(self.first_player, "face_up_slots", legal)
                    return
                if self.turn < CARDS_PLACED_PER_ROUND * self.players:
                    seat = self.seat_to_place()
                    options = place_options(
                        seat,
                        self.hands[seat],
                        self.layout,
                        self.table,
                        self.peeks_left[seat],
                        self.peeked_by(seat),
                    )
                    self._pending = Decision(seat, "place", choice(options))
                    return
                self._reveal(events)
                continue
            assert self.attribution is not None
            decision = self.attribution.advance(events)
            if decision is not None:
                self._pending = decision
                return
            self._end_round(events)

    def _begin_round(
        self, events: list[Event], *, deal: bool = True, first_player: int | None = None
    ) -> None:
        """Phase 1 (deal) and the start of phase 2 (first player, face-up slots)."""
        self.round += 1
        self.phase = Phase.CORRUPTION
        self.table = Table()
        self.attribution = None
        self.turn = 0
        dealt = []
        for government in GOVERNMENTS:
            for _ in range(CONTRACTS_PER_GOVERNMENT_PER_ROUND if deal else 0):
                if self.deck:  # never empty in a real game (4 rounds x 6 = 24); tests may differ
                    contract = self.deck.pop(0)
                    self.layout[government].append(contract)
                    dealt.append({"government": government.value, **contract_json(contract)})
        on_table = {g.value: list(self.layout[g]) for g in GOVERNMENTS}
        events.append(
            Event(
                "round-start",
                {
                    "round": self.round,
                    "dealt": dealt,
                    "contracts": on_table,
                    "deck_count": len(self.deck),
                },
            )
        )
        if first_player is None:
            first_player, reason, tied = self._choose_first_player()
        else:
            reason, tied = "chosen", [first_player]
        self.first_player = first_player
        events.append(
            Event(
                "first-player",
                {"round": self.round, "seat": first_player, "reason": reason, "tied": tied},
            )
        )
        self.face_up = face_up_schedule(self.variants, self.round)
        if self.face_up is not None:
            events.append(_face_up_event(self.round, self.face_up, None))

    def _choose_first_player(self) -> tuple[int, str, list[int]]:
        """(seat, reason, seats tied on value and count) for the coming round."""
        if self.round == 1:
            return self.rng.randrange(self.players), "random", list(range(self.players))
        scores = self.scores()
        best = max((scores[s], len(self.won[s])) for s in range(self.players))
        tied = [s for s in range(self.players) if (scores[s], len(self.won[s])) == best]
        if len(tied) == 1:
            return tied[0], "leader", tied
        return self.rng.choice(tied), "leader-tie-random", tied

    def _choose_face_up(self, seat: int, slots: list[int], events: list[Event]) -> None:
        self.face_up = frozenset(slots)
        events.append(_face_up_event(self.round, self.face_up, seat))

    def _peek(self, seat: int, placement_id: int, events: list[Event]) -> None:
        placement = self.table.by_id[placement_id]
        self.peeks_left[seat] -= 1
        self.peeks[seat].append(Peek(self.round, placement_id, placement.owner, placement.card))
        events.append(peeked_event(seat, placement, self.peeks_left[seat]))

    def _place(self, seat: int, action: dict[str, Any], events: list[Event]) -> None:
        card = Card(action["card"])
        contract = action.get("contract")
        if contract is None:
            government = Government(action["swiss"])
        else:
            government = next(g for g in GOVERNMENTS if contract in self.layout[g])
        slot = self.table.placed_by(seat) + 1
        assert self.face_up is not None
        face_up = slot in self.face_up and contract is not None  # Swiss: always face down
        placement = Placement(self.next_placement, seat, card, slot, face_up, government, contract)
        self.next_placement += 1
        self.hands[seat][card] -= 1
        self.table.add(placement)
        self.turn += 1
        events.append(placed_event(self.round, placement))

    def _reveal(self, events: list[Event]) -> None:
        self.table.revealed = True
        cards = [
            {
                "placement": p.id,
                "owner": p.owner,
                "card": p.card.value,
                "slot": p.slot,
                "government": p.government.value,
                "contract": p.contract,
                "swiss": p.swiss,
            }
            for p in self.table.placements
        ]
        events.append(Event("revealed", {"round": self.round, "cards": cards}))
        self.phase = Phase.ATTRIBUTION
        self.attribution = Attribution(self.table, self.layout)

    def _end_round(self, events: list[Event]) -> None:
        assert self.attribution is not None
        for contract, seat in self.attribution.awards:
            for government in GOVERNMENTS:
                if contract in self.layout[government]:
                    self.layout[government].remove(contract)
            self.won[seat].append(contract)
        leaving = []
        for p in self.table.placements:
            if p.card in CHARACTERS:
                self.gone[p.owner].append(p.card)
                leaving.append({"placement": p.id, "owner": p.owner, "card": p.card.value})
            else:
                self.hands[p.owner][p.card] += 1
        events.append(Event("characters-leave", {"round": self.round, "cards": leaving}))
        self.table = Table()
        self.attribution = None
        self.turn = 0
        scores = self.scores()
        events.append(
            Event(
                "round-end",
                {
                    "round": self.round,
                    "scores": scores,
                    "contracts_won": [list(w) for w in self.won],
                    "contracts_left": {g.value: list(self.layout[g]) for g in GOVERNMENTS},
                },
            )
        )
        if self.round < ROUNDS:
            self._begin_round(events)
            return
        self.phase = Phase.OVER
        outcome = self.outcome()
        events.append(
            Event(
                "game-end",
                {
                    "scores": scores,
                    "ranks": list(outcome.ranks),
                    "contracts_won": [list(w) for w in self.won],
                },
            )
        )


def _face_up_event(round_no: int, slots: frozenset[int], chosen_by: int | None) -> Event:
    return Event(
        "face-up-slots", {"round": round_no, "face_up": sorted(slots), "chosen_by": chosen_by}
    )


def start(
    players: int, seed: int, variants: frozenset[Variant]
) -> tuple[CorruptionState, list[Event]]:
    """A new game and the events of its setup (first deal, first player, face-up slots)."""
    state = CorruptionState(players, seed, variants)
    events: list[Event] = []
    state._begin_round(events)
    state._advance(events)
    return state, events
