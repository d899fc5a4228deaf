"""intrigue-honest: an Intrigue heuristic that keeps its word and bids to value.

As an applicant it asks for a specific section and offers a bribe proportional to what that
section will pay it: the section's value times the incomes left (one per turn of its own until
the end, plus the final income). As an owner it places every scholar in the section its
applicant asked for when that section is free, accepts offers in line with what the section
will pay the applicant and demands the fair price otherwise; conflicts go to the highest payer.
It sends scholars where they are likely to be admitted without conflict into high sections
(a type the palace lacks and nobody has queued, an owner whose turn comes soon), spread over
the palaces.

The money seen in public events (income, bribes) is tracked, so every seat's cash is known to
within the bank's minimum bribes; so is who keeps their word (asked vs given sections).
"""

from __future__ import annotations

from typing import Any

from protocol.sdk import run
from protocol.sdk_intrigue import (
    UNIT,
    Player,
    Table,
    ceil_unit,
    choose_winner,
    clamp_amount,
    floor_unit,
    nearest,
)

NAME = "intrigue-honest"
VERSION = "1.0"

PROMISE = "I will place your scholars well: a section asked for is given whenever it is free."

NO_CONFLICT_RATE = 0.08
"""Share of a section's worth offered when admission is certain (only the section is at stake)."""
CONFLICT_RATE = 0.2
"""Share offered when admission itself is at stake (external or internal conflict)."""
CONFLICT_LIMIT = 0.35
"""The most (as a share of the worth) paid to outbid a rival or to meet a demand."""
CASH_SHARE = 0.4
"""Never more than this share of one's cash on one negotiation."""


# -- honest ------------------------------------------------------------------------------------


class Honest(Player):
    """One seat's player: a Memory across the games of a match, the policy below."""

    name = NAME

    # -- as an applicant --

    def wanted(self, table: Table, negotiation: dict[str, Any], owner: int) -> int | None:
        """The section to ask for."""
        if negotiation.get("role") == "incumbent":
            return self.internal_or_none(table, negotiation)
        step = negotiation.get("step")
        if step == "internal":
            return table.internal_section(negotiation.get("type", ""))
        free = table.free(owner)
        if not free:
            return None
        asked = {
            d.get("section") for d in table.deals if d.get("step") == step and d.get("section")
        }
        untaken = [s for s in free if s not in asked]
        return max(untaken or free)

    @staticmethod
    def internal_or_none(table: Table, negotiation: dict[str, Any]) -> int | None:
        return table.internal_section(negotiation.get("type", ""))

    def rivals_paid(self, table: Table, negotiation: dict[str, Any]) -> int:
        """The most a rival paid so far in the same conflict (this is what must be beaten)."""
        step, type_ = negotiation.get("step"), negotiation.get("type")
        return max(
            (
                int(d.get("paid") or 0)
                for d in table.deals
                if d.get("step") == step
                and d.get("type") == type_
                and d.get("applicant") != table.me
                and step != "no-conflict"
            ),
            default=0,
        )

    def offer(self, view: dict[str, Any], legal: dict[str, Any]) -> dict[str, Any]:
        table = Table(view)
        negotiation = view.get("negotiation") or {}
        owner = negotiation.get("palace", table.owner())
        fields = legal["fields"]
        amount_field = fields["amount"]
        if amount_field["max"] <= amount_field["min"]:
            return {"amount": amount_field["min"]}
        section = self.wanted(table, negotiation, owner)
        choices = fields.get("section", {}).get("options", [None])
        if section not in choices:
            section = None
        worth = (section or 0) * table.incomes_if_placed_now(table.me, owner)
        if negotiation.get("step") == "no-conflict":
            amount = NO_CONFLICT_RATE * worth
        else:
            amount = CONFLICT_RATE * worth
            beat = self.rivals_paid(table, negotiation) + UNIT
            if amount < beat <= CONFLICT_LIMIT * worth:
                amount = beat
        amount = min(floor_unit(amount), floor_unit(CASH_SHARE * (view.get("cash") or 0)))
        action: dict[str, Any] = {"amount": clamp_amount(amount, amount_field)}
        if section is not None:
            action["section"] = section
        action["promise"] = PROMISE[: fields.get("promise", {}).get("max_length", 140)]
        return action

    def pay(self, view: dict[str, Any], options: list[dict[str, Any]]) -> dict[str, Any]:
        table = Table(view)
        negotiation = view.get("negotiation") or {}
        owner = negotiation.get("palace", table.owner())
        section = negotiation.get("section") or 0
        worth = section * table.incomes_if_placed_now(table.me, owner)
        demand, offer = options[0], options[-1]
        rate = (
            NO_CONFLICT_RATE * 1.5 if negotiation.get("step") == "no-conflict" else CONFLICT_LIMIT
        )
        cash = view.get("cash") or 0
        if demand["pay"] <= rate * worth and demand["pay"] <= CASH_SHARE * cash:
            return demand
        return offer

    # -- as an owner --

    def fair_price(self, table: Table, negotiation: dict[str, Any]) -> int:
        me = table.me
        section = negotiation.get("section")
        step = negotiation.get("step")
        free = table.free(me)
        if step == "internal":
            section = table.internal_section(negotiation.get("type", "")) or section
        elif section not in free:
            section = min(free) if free else 0
        worth = (section or 0) * table.incomes_if_placed_now(negotiation.get("applicant", me), me)
        rate = NO_CONFLICT_RATE if step == "no-conflict" else CONFLICT_RATE
        return floor_unit(rate * worth)

    def answer(self, view: dict[str, Any], options: list[dict[str, Any]]) -> dict[str, Any]:
        table = Table(view)
        negotiation = view.get("negotiation") or {}
        offer = int(negotiation.get("offer") or 0)
        fair = self.fair_price(table, negotiation)
        if offer >= fair:
            return {"accept": True}
        demand = max(offer + UNIT, min(offer + 20 * UNIT, ceil_unit(fair)))
        wanted = {"demand": demand}
        return wanted if wanted in options else {"accept": True}

    def place(self, view: dict[str, Any], options: list[dict[str, Any]]) -> dict[str, Any]:
        """The asked section when free, keeping my word; several to place in step a: the
        highest payers' asks first, then the sections left over."""
        table = Table(view)
        decision = view.get("decision") or {}
        scholar = decision.get("scholar")
        free = [o["section"] for o in options]
        deal = table.deal(scholar) or {}
        if decision.get("step") != "no-conflict":
            wanted = deal.get("section")
            if wanted is None and decision.get("replaced") is not None:
                wanted = table.internal_section(decision.get("type", ""))
            return {"section": nearest(free, wanted)}
        receiving = view.get("receiving") or {}
        inside_ids = {
            s["scholar"]["id"] for s in table.palaces[table.me]["sections"] if s["scholar"]
        }
        pending = [sid for sid in receiving.get("no_conflict") or [] if sid not in inside_ids]
        if scholar not in pending:
            pending.append(scholar)
        plan: dict[int, int] = {}
        left = list(free)
        by_pay = sorted(pending, key=lambda sid: -table.paid(sid))
        for sid in by_pay:
            asked = (table.deal(sid) or {}).get("section")
            if asked in left:
                plan[sid] = asked
                left.remove(asked)
        for sid in by_pay:
            if sid not in plan and left:
                asked = (table.deal(sid) or {}).get("section")
                plan[sid] = nearest(left, asked)
                left.remove(plan[sid])
        return {"section": plan.get(scholar, min(free))}

    def choose(self, view: dict[str, Any], options: list[dict[str, Any]]) -> dict[str, Any]:
        table = Table(view)
        winner = choose_winner(table, self.memory, [o["scholar"] for o in options])
        return {"scholar": winner}

    def keep_or_replace(self, view: dict[str, Any], options: list[dict[str, Any]]) -> Any:
        table = Table(view)
        keep = next(o for o in options if "keep" in o)
        newcomers = [o["replace_with"] for o in options if "replace_with" in o]
        if not newcomers:
            return keep
        best = choose_winner(table, self.memory, newcomers)
        if table.paid(best) > table.paid(keep["keep"]):
            return {"replace_with": best}
        return keep


PLAYER = Honest()
decide = PLAYER.decide


if __name__ == "__main__":
    run(
        PLAYER.decide,
        name=NAME,
        version=VERSION,
        on_game_start=PLAYER.on_game_start,
        on_event=PLAYER.on_event,
    )
