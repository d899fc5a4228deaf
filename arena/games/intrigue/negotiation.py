"""One negotiation: offer -> answer (accept or one counter-demand) -> pay. At most three
decisions; the amount agreed is paid at once, publicly, and is final."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from arena.games.base import Decision, Event
from arena.games.intrigue.board import Ledger
from arena.games.intrigue.scholars import (
    BANK_BRIBE,
    MAX_DEMAND_STEPS,
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


def offer_legal(cash: int, sections: list[int | None]) -> dict[str, Any]:
    """The applicant's offer: an amount it can pay (1,000 paid by the bank when it has no
    money), the section it asks for, a public promise."""
    top = floor_unit(cash)
    amount = int_range(0, top, UNIT) if top >= UNIT else int_range(BANK_BRIBE, BANK_BRIBE)
    return record(
        {"amount": amount, "section": choice(sections), "promise": text(PROMISE_LENGTH)},
        optional=["section", "promise"],
    )


def answer_legal(offer: int) -> dict[str, Any]:
    """The owner's answer: accept, or demand 1,000 .. 20,000 more than the offer."""
    demands = [{"demand": offer + UNIT * k} for k in range(1, MAX_DEMAND_STEPS + 1)]
    return choice([{"accept": True}, *demands])


@dataclass
class Negotiation:
    """A negotiation between a palace owner and the owner of one scholar."""

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
    offer: int = 0
    """The amount offered."""
    section: int | None = None
    """The section asked for (None: none)."""
    promise: str = ""
    """Free text, public, not binding."""
    by_bank: bool = False
    """True when the applicant had no money and the bank pays the minimum."""
    demand: int | None = None
    """The owner's counter-demand, if any."""
    paid: int | None = None
    """The amount paid, once settled."""

    @property
    def applicant(self) -> int:
        """The seat paying."""
        return self.scholar.owner

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
            return Decision(self.palace, "answer", answer_legal(self.offer))
        assert self.stage is Stage.PAY and self.demand is not None
        return Decision(self.applicant, "pay", choice([{"pay": self.demand}, {"pay": self.offer}]))

    def resolve(self, action: dict[str, Any], ledger: Ledger, events: list[Event]) -> None:
        """Apply a legal answer to the pending question."""
        if self.stage is Stage.OFFER:
            self.offer = action["amount"]
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
            self.demand = action["demand"]
            demanded = {**self._who(), "offer": self.offer, "demand": self.demand}
            events.append(Event("demanded", demanded))
            if ledger.cash[self.applicant] >= self.demand:
                self.stage = Stage.PAY
            else:  # it cannot pay the demand, so it pays its offer (nobody else is told why)
                self._settle(self.offer, ledger, events)
        else:
            self._settle(action["pay"], ledger, events)

    def json(self) -> dict[str, Any]:
        """The negotiation so far, as everybody may see it."""
        offered = self.stage is not Stage.OFFER
        return {
            **self._who(),
            "stage": self.stage._value_,
            "offer": self.offer if offered else None,
            "section": self.section,
            "promise": self.promise,
            "by_bank": self.by_bank,
            "demand": self.demand,
            "paid": self.paid,
        }

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

    def _settle(self, amount: int, ledger: Ledger, events: list[Event]) -> None:
        ledger.pay_bribe(self.applicant, self.palace, amount, by_bank=self.by_bank)
        self.paid = amount
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
                    "paid": amount,
                    "paid_by_bank": self.by_bank,
                },
            )
        )
