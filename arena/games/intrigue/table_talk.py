"""Intrigue's table talk (SPEC.md §14, RULES.md "Table talk"): where talk windows open, and the
game's vocabulary of terms.

The rules' haggling is more than the bribe: "under-the-table bribes, promises of future favours,
threats of retaliation". Among the seats that talk, arena opens a window

- before each turn's scholars are sent (every talker: where to send is what deals are about),
- before each negotiation, between its two parties only (private by construction),
- before the owner decides a conflict (choose, keep or replace), between the owner and the
  players of the scholars in it.

Binding terms are side payments, carried out through the ledger when accepted: ``{"pay": n}``
(the speaker pays whoever accepts) and ``{"ask": n}`` (whoever accepts pays the speaker). They
are under the table (Ruling I12): seen by the proposal's readers only. Everything else is a
promise that binds nobody: ``{"seat_at": s}`` (I will seat your scholar in section s),
``{"bid_for": s}`` (I will pay you well for section s) and ``{"spare": true}`` (I will not send
a scholar against yours).
"""

from __future__ import annotations

from typing import Any

from arena.games.base import Event
from arena.games.intrigue.board import Ledger
from arena.games.intrigue.scholars import SECTIONS, SEND_ROUNDS, UNIT
from arena.games.talk import Message, TalkWindow
from protocol.legal import choice

ROUNDS = 2
"""Rounds of every Intrigue talk window: a proposal, then its answer."""
SIDE_PAYMENT_STEPS = 20
"""A side payment is 1,000 .. 20,000 ducats."""
SEND, NEGOTIATION, CONFLICT = "send", "negotiation", "conflict"
"""The windows' labels (``view["talk"]["window"]``)."""
PROMISES: tuple[dict[str, Any], ...] = (
    *({"seat_at": section} for section in SECTIONS),
    *({"bid_for": section} for section in SECTIONS),
    {"spare": True},
)
"""The non-binding terms, the same for every speaker."""


class IntrigueTerms:
    """The terms of one window (talk.Terms): its side payments are seen by the proposal's
    readers among the window's talkers."""

    def __init__(self, ledger: Ledger, talkers: frozenset[int]) -> None:
        self.ledger = ledger
        self.talkers = talkers

    def terms_legal(self, speaker: int) -> dict[str, Any]:
        """Pay up to what the speaker holds (only it sees this), ask up to the cap, promise."""
        top = min(self.ledger.cash[speaker] // UNIT, SIDE_PAYMENT_STEPS)
        pays = [{"pay": UNIT * k} for k in range(1, top + 1)]
        asks = [{"ask": UNIT * k} for k in range(1, SIDE_PAYMENT_STEPS + 1)]
        return choice([*pays, *asks, *PROMISES])

    def binding(self, terms: Any) -> bool:
        """Side payments bind; promises do not."""
        return isinstance(terms, dict) and ("pay" in terms or "ask" in terms)

    def carry_out(self, proposal: Message, accepter: int) -> list[Event]:
        """Pay the side payment, or say (to the same readers) that the payer could not."""
        terms = proposal.terms
        if "pay" in terms:
            payer, payee, amount = proposal.speaker, accepter, terms["pay"]
        else:
            payer, payee, amount = accepter, proposal.speaker, terms["ask"]
        body = {
            "from": payer,
            "to": payee,
            "amount": amount,
            "window": proposal.window,
            "round": proposal.round,
            "proposer": proposal.speaker,
        }
        readers = proposal.readers(self.talkers)
        if self.ledger.cash[payer] < amount:
            return [Event("side-payment-failed", body, seen_by=readers)]
        self.ledger.pay_side(payer, payee, amount)
        return [Event("side-paid", body, seen_by=readers)]


class Windows:
    """The game's talk windows: which points have had theirs, the open one, and the last one
    each seat took part in (its view's ``talk``)."""

    def __init__(self, talkers: frozenset[int]) -> None:
        self.talkers = talkers
        """Seats that talk (public: in the game options)."""
        self.open: TalkWindow | None = None
        """The window in progress."""
        self.held: set[tuple[Any, ...]] = set()
        """The points (see ``offer``) whose window has been held."""
        self.last: dict[int, TalkWindow] = {}
        """Per talker: the last window it took part in."""
        self.count = 0
        """Windows opened so far (the next one's number is one more)."""
        self.latest: TalkWindow | None = None
        """The last window opened (the table's view shows it whole)."""

    def offer(
        self,
        point: tuple[Any, ...],
        label: str,
        seats: set[int],
        first: int,
        ledger: Ledger,
    ) -> TalkWindow | None:
        """Open the window for this point of the game among ``seats`` that talk, once; the
        open window (None when there is none: fewer than two talkers, or already held)."""
        if self.open is not None:
            return self.open
        if point in self.held:
            return None
        self.held.add(point)
        speakers = frozenset(seats) & self.talkers
        if len(speakers) < 2:
            return None
        self.count += 1
        terms = IntrigueTerms(ledger, speakers)
        window = TalkWindow(self.count, label, sorted(speakers), first, ROUNDS, terms)
        for seat in speakers:
            self.last[seat] = window
        self.open = self.latest = window
        return window

    def apply(self, action: dict[str, Any]) -> list[Event]:
        """A talk answer to the open window; closes it when it is done."""
        assert self.open is not None
        events = self.open.apply(action)
        if self.open.done:
            self.open = None
        return events

    def table(self) -> dict[str, Any] | None:
        """The last window opened, every message of it (the table's view, for replays)."""
        window = self.latest
        if window is None:
            return None
        return {
            "window": window.label,
            "number": window.number,
            "round": window.round,
            "open": not window.done,
            "talkers": sorted(window.talkers),
            "messages": [m.json() for m in window.messages],
        }

    def view(self, seat: int) -> dict[str, Any] | None:
        """A talker's ``talk``: the last window it took part in (None before its first)."""
        window = self.last.get(seat)
        return window.view(seat) if window is not None else None


def max_decisions(players: int, scholars: int) -> int:
    """Talk decisions in a game at most, when every seat talks: a send window per turn of
    the sending rounds, a negotiation window per negotiation (two per scholar at most, as
    applicant and as the incumbent it challenges), a conflict window per conflict (each exiles
    a scholar at least, so one per scholar at most)."""
    send = SEND_ROUNDS * players * players * ROUNDS
    negotiation = scholars * 2 * 2 * ROUNDS
    conflict = scholars * players * ROUNDS
    return send + negotiation + conflict
