"""One negotiation, haggled as the rules play it: the applicant offers (1,000 at least), the
owner accepts or demands more, the applicant pays the demand, raises its offer or walks away, and
so on for at most MAX_EXCHANGES demands (Ruling I11). The amount agreed is paid at once, publicly,
and is final; without agreement nothing is paid."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from arena.games.base import Decision, Event
from arena.games.intrigue.board import Ledger
from arena.games.intrigue.scholars import (
    BANK_BRIBE,
    MAX_DEMAND_STEPS,
    MAX_EXCHANGES,
    MIN_BRIBE,
    PROMISE_LENGTH,
    SECTIONS,
    UNIT,
    Scholar,
    floor_unit,
)
from protocol.legal import choice, int_range, record, text


class Step(StrEnum):
    """The three ordered parts of receiving scholars."""

    NO_CONFLICT = "no-conflict"
    EXTERNAL = "external"
    INTERNAL = "internal"


class Role(StrEnum):
    """Who negotiates: a scholar waiting outside, or the owner of the scholar inside (first,
    in an internal conflict)."""

    APPLICANT = "applicant"
    INCUMBENT = "incumbent"


class Stage(StrEnum):
    """The next question of a negotiation."""

    OFFER = "offer"
    ANSWER = "answer"
    PAY = "pay"
    DONE = "done"


WALK_AWAY: dict[str, Any] = {"refuse": True}
"""The applicant's answer that ends a negotiation without agreement (nothing is paid)."""


def offer_legal(cash: int, sections: list[int | None]) -> dict[str, Any]:
    """The applicant's offer: the minimum bribe up to what it can pay (the minimum, paid by the
    bank, when it has no money), the section it asks for, a public promise."""
    top = floor_unit(cash)
    amount = int_range(MIN_BRIBE, top, UNIT) if top >= UNIT else int_range(BANK_BRIBE, BANK_BRIBE)
    return record(
        {
            "amount": amount,
            "section": choice(sections),
            "promise": text(PROMISE_LENGTH),
        },
        optional=["section", "promise"],
    )


def answer_legal(offer: int, last_demand: int | None) -> dict[str, Any]:
    """The owner's answer: accept, or demand 1,000 .. 20,000 more than the offer, and never more
    than its last demand (it may repeat it: take it or leave it)."""
    top = offer + UNIT * MAX_DEMAND_STEPS
    if last_demand is not None:
        top = min(top, last_demand)
    demands = [{"demand": amount} for amount in range(offer + UNIT, top + 1, UNIT)]
    return choice([{"accept": True}, *demands])


def reply_options(cash: int, offer: int, demand: int, may_raise: bool) -> list[dict[str, Any]]:
    """The applicant's reply to a demand: pay it (when it can), raise its offer to something it
    can pay below the demand (unless that was the last demand), or walk away."""
    options: list[dict[str, Any]] = []
    if cash >= demand:
        options.append({"pay": demand})
    if may_raise:
        top = min(demand - UNIT, floor_unit(cash))
        options.extend({"raise": amount} for amount in range(offer + UNIT, top + 1, UNIT))
    options.append(WALK_AWAY)
    return options


@dataclass
class Negotiation:
    """A negotiation between a palace owner and the owner of one scholar. Changed only by
    ``resolve``, which counts its calls in ``moves`` (views keep a negotiation's JSON while
    ``moves`` is unchanged)."""

    palace: int
    """The palace owner's seat (the one paid)."""
    scholar: Scholar
    """The scholar negotiated for; its owner is the applicant."""
    step: Step
    """The receiving step it belongs to."""
    role: Role = Role.APPLICANT
    """Applicant outside, or incumbent inside."""
    incumbent_section: int | None = None
    """For an incumbent: the section it holds."""
    stage: Stage = Stage.OFFER
    """What is asked next."""
    offers: list[int] = field(default_factory=list)
    """The applicant's offers, the first one and each raise."""
    demands: list[int] = field(default_factory=list)
    """The owner's demands (at most MAX_EXCHANGES)."""
    section: int | None = None
    """The section asked for (None: none)."""
    promise: str = ""
    """Free text, public, not binding."""
    by_bank: bool = False
    """True when the applicant had no money and the bank pays the minimum."""
    paid: int | None = None
    """The amount paid, once settled (0 without agreement)."""
    agreed: bool | None = None
    """Once settled: whether the two agreed."""
    moves: int = field(default=0, repr=False, compare=False)
    """How many times ``resolve`` changed it (the only way it changes)."""

    @property
    def applicant(self) -> int:
        """The seat paying."""
        return self.scholar.owner

    @property
    def offer(self) -> int:
        """The applicant's latest offer (0 before it offers)."""
        return self.offers[-1] if self.offers else 0

    @property
    def demand(self) -> int | None:
        """The owner's latest demand, if any."""
        return self.demands[-1] if self.demands else None

    def section_choices(self) -> list[int | None]:
        """Sections one may ask for: any (or none); an incumbent only its own (or none)."""
        if self.role is Role.INCUMBENT:
            return [None, self.incumbent_section]
        return [None, *SECTIONS]

    def decision(self, ledger: Ledger) -> Decision:
        """The pending question (never called once settled)."""
        if self.stage is Stage.OFFER:
            legal = offer_legal(ledger.cash[self.applicant], self.section_choices())
            return Decision(self.applicant, "offer", legal)
        if self.stage is Stage.ANSWER:
            return Decision(self.palace, "answer", answer_legal(self.offer, self.demand))
        assert self.stage is Stage.PAY
        return Decision(self.applicant, "pay", choice(self._replies(ledger)))

    def resolve(self, action: dict[str, Any], ledger: Ledger, events: list[Event]) -> None:
        """Apply a legal answer to the pending question."""
        self.moves += 1
        if self.stage is Stage.OFFER:
            self.offers.append(action["amount"])
            self.section = action.get("section")
            self.promise = action.get("promise", "")
            self.by_bank = ledger.cash[self.applicant] < UNIT
            events.append(Event("offered", self._offered_json()))
            if self.by_bank:
                self._settle(BANK_BRIBE, ledger, events)
            else:
                self.stage = Stage.ANSWER
        elif self.stage is Stage.ANSWER:
            if "accept" in action:
                self._settle(self.offer, ledger, events)
                return
            self.demands.append(action["demand"])
            events.append(Event("demanded", self._exchange_json()))
            self.stage = Stage.PAY
            replies = self._replies(ledger)
            if replies == [WALK_AWAY]:  # it can neither pay nor raise: not asked (Ruling I9)
                self._settle(0, ledger, events)
        elif "pay" in action:
            self._settle(action["pay"], ledger, events)
        elif "raise" in action:
            self.offers.append(action["raise"])
            events.append(Event("raised", self._exchange_json()))
            self.stage = Stage.ANSWER
        else:
            self._settle(0, ledger, events)

    def json(self) -> dict[str, Any]:
        """The negotiation so far, as everybody may see it. Written out member by member (no
        properties, no merged _who()): views rebuild the one in progress at most decisions."""
        offers, demands, scholar = self.offers, self.demands, self.scholar
        stage = self.stage
        return {
            "palace": self.palace,
            "applicant": scholar.owner,
            "scholar": scholar.id,
            "type": scholar.type,
            "step": self.step._value_,
            "role": self.role._value_,
            "stage": stage._value_,
            "offer": None if stage is Stage.OFFER else offers[-1] if offers else 0,
            "section": self.section,
            "promise": self.promise,
            "by_bank": self.by_bank,
            "demand": demands[-1] if demands else None,
            "offers": list(offers),
            "demands": list(demands),
            "paid": self.paid,
            "agreed": self.agreed,
        }

    def _replies(self, ledger: Ledger) -> list[dict[str, Any]]:
        assert self.demand is not None
        may_raise = len(self.demands) < MAX_EXCHANGES
        return reply_options(ledger.cash[self.applicant], self.offer, self.demand, may_raise)

    def _who(self) -> dict[str, Any]:
        # enum codes read as _value_ (.value is a slow property on Python 3.11): this is in
        # every view while receiving, once per deal of the round
        return {
            "palace": self.palace,
            "applicant": self.applicant,
            "scholar": self.scholar.id,
            "type": self.scholar.type,
            "step": self.step._value_,
            "role": self.role._value_,
        }

    def _offered_json(self) -> dict[str, Any]:
        return {
            **self._who(),
            "amount": self.offer,
            "section": self.section,
            "promise": self.promise,
            "by_bank": self.by_bank,
        }

    def _exchange_json(self) -> dict[str, Any]:
        """A demand or a raise: the offer and demand standing, and which exchange it is."""
        return {
            **self._who(),
            "offer": self.offer,
            "demand": self.demand,
            "exchange": len(self.demands),
        }

    def _settle(self, amount: int, ledger: Ledger, events: list[Event]) -> None:
        """Pay the amount agreed (0 and agreed=False when the applicant walked away)."""
        agreed = amount > 0
        if agreed:
            ledger.pay_bribe(self.applicant, self.palace, amount, by_bank=self.by_bank)
        self.paid = amount
        self.agreed = agreed
        self.stage = Stage.DONE
        events.append(
            Event(
                "negotiated",
                {
                    **self._who(),
                    "offer": self.offer,
                    "section": self.section,
                    "promise": self.promise,
                    "demand": self.demand,
                    "offers": list(self.offers),
                    "demands": list(self.demands),
                    "agreed": agreed,
                    "paid": amount,
                    "paid_by_bank": self.by_bank,
                },
            )
        )
