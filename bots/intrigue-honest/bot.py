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
    SCHOLARS_PER_PLAYER,
    UNIT,
    Memory,
    Player,
    Table,
    ceil_unit,
    clamp_amount,
    floor_unit,
    nearest,
    replies,
)

NAME = "intrigue-honest"
VERSION = "1.1"


# Sending and choosing. This bot's own strategy, kept in its folder (so its digest covers it):
# intrigue-shark starts from the same code, and either may be tuned without changing the other.

INTERNAL_SEND = 0.5
"""Sending into an internal conflict: the share of the incumbent's section expected (the
conflict may be lost, and bribes are paid), split among the applicants."""
EXTERNAL_SEND = 0.7
"""Sending into an external conflict: the same, for a free section."""
INTERFERENCE = 0.08
"""Chance that one rival send lands on the same type and palace before its owner receives."""
SPREAD = 600
"""Ducats of expected income given up to avoid another scholar at a palace that holds mine."""


def trust_in(memory: Memory, owner: int) -> float:
    """How likely the owner is to give the section asked for (Beta prior from all games)."""
    prior = (memory.kept_total + 1) / (memory.tested_total + 2)
    kept, tested = memory.kept.get(owner, [0, 0])
    return (kept + 2 * prior) / (tested + 2)


def expected_section(free: list[int], rivals: int, trust: float) -> float:
    """The section a lone applicant may expect among free ones, with rivals admitted at the same
    step: an owner that keeps its word gives one of the highest (all ask high), else any."""
    if not free:
        return 0.0
    ordered = sorted(free, reverse=True)
    top = ordered[: rivals + 1]
    keep = sum(top) / len(top)
    anyone = sum(ordered) / len(ordered)
    return trust * keep + (1 - trust) * anyone


def send_score(table: Table, memory: Memory, type_: str, palace: int) -> float:
    """The income a scholar of type_ sent to palace may expect, roughly."""
    me = table.me
    incomes = table.incomes_if_sent_now()
    inside = table.inside(palace)
    waiting = table.palaces[palace].get("waiting") or []
    same = [w for w in waiting if w["type"] == type_]
    if any(w["owner"] == me for w in same):
        return -1e9  # competing with myself
    sends_before = 2 * table.between(palace)
    if type_ in inside:
        held, incumbent = inside[type_]
        if incumbent["owner"] == me:
            return -1e9
        # an internal conflict: win it perhaps, and exile a rival's scholar either way
        return held * incomes * INTERNAL_SEND / (len(same) + 2)
    free = table.free(palace)
    rivals = len({w["type"] for w in waiting if w["type"] not in inside and w["type"] != type_})
    worth = expected_section(free, rivals, trust_in(memory, palace)) * incomes
    if same:
        return worth * EXTERNAL_SEND / (len(same) + 1)
    clean = (1 - INTERFERENCE) ** sends_before
    return worth * (clean + (1 - clean) * 0.5)


def choose_send(view: dict[str, Any], options: list[Any], memory: Memory) -> Any:
    table = Table(view)
    mine_at = {p: 0 for p in range(table.players)}
    for p, palace in enumerate(table.palaces):
        mine_at[p] += sum(1 for w in palace.get("waiting") or [] if w["owner"] == table.me)
        mine_at[p] += sum(
            1 for s in palace["sections"] if s["scholar"] and s["scholar"]["owner"] == table.me
        )
    hand = table.palaces[table.me].get("hand") or {}

    def score(option: dict[str, Any]) -> float:
        palace, type_ = option["palace"], option["scholar"]
        value = send_score(table, memory, type_, palace)
        value -= SPREAD * mine_at.get(palace, 0)  # spread over the palaces
        value += 50 * hand.get(type_, 0)  # keep the hand varied for later rounds
        return value

    return max(options, key=score)


def choose_winner(table: Table, memory: Memory, candidates: list[int]) -> int:
    """The highest payer; on a tie, the poorest seat (the least dangerous rival)."""
    owner_of = {}
    for palace in table.palaces:
        for w in palace.get("waiting") or []:
            owner_of[w["id"]] = w["owner"]
    return max(
        candidates,
        key=lambda sid: (
            table.paid(sid),
            -memory.cash_of(owner_of.get(sid, sid // SCHOLARS_PER_PLAYER)),
        ),
    )


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

    def send(self, view: dict[str, Any], options: list[Any]) -> Any:
        return choose_send(view, options, self.memory)

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
        """Pay a demand in line with the section's worth; else raise to that worth (my last
        word); else walk away."""
        table = Table(view)
        negotiation = view.get("negotiation") or {}
        owner = negotiation.get("palace", table.owner())
        section = negotiation.get("section") or 0
        worth = section * table.incomes_if_placed_now(table.me, owner)
        rate = (
            NO_CONFLICT_RATE * 1.5 if negotiation.get("step") == "no-conflict" else CONFLICT_LIMIT
        )
        limit = min(rate * worth, CASH_SHARE * (view.get("cash") or 0))
        pay, raises, walk = replies(options)
        if pay is not None and pay["pay"] <= limit:
            return pay
        affordable = [amount for amount in raises if amount <= limit]
        return {"raise": affordable[-1]} if affordable else walk

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
        """Accept a fair offer; demand the fair price; after a raise, accept anything within a
        quarter of it (haggling further risks the applicant walking away with nothing paid)."""
        table = Table(view)
        negotiation = view.get("negotiation") or {}
        offer = int(negotiation.get("offer") or 0)
        fair = self.fair_price(table, negotiation)
        if offer >= fair or (negotiation.get("demands") and offer >= 0.75 * fair):
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
