"""intrigue-shark: an Intrigue heuristic that takes the money and breaks its word when it pays.

As an owner it accepts every bribe, demands as much as the applicant can pay (its cash is
tracked from the public events), then places every admitted scholar in the LOWEST free
section whatever was asked, saving the high sections for later, dearer conflicts; a
newcomer that paid at least as much as the incumbent replaces it. As an applicant it makes
lowball offers with grand promises and always asks for the best section; it remembers, from
the public ``placed`` events (asked_section vs given_section), which owners keep their word,
and pays more to those who do and next to nothing to those who don't. Where it sends its
scholars follows the same memory: high sections at owners who keep their word.
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
    clamp_amount,
    floor_unit,
    replies,
)

NAME = "intrigue-shark"
VERSION = "1.1"


# Sending and choosing. This bot's own strategy, kept in its folder (so its digest covers it):
# intrigue-honest starts from the same code, and either may be tuned without changing the other.

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


PROMISES = (
    "Give me the best hall and my house is yours: double next turn, never a scholar against you.",
    "Seat me high and I will owe you for the whole game. My word is gold.",
    "The finest section, please: I always repay a friend twice over.",
)

TRUSTED_RATE = 0.1
"""Share of a section's worth offered to an owner that keeps its word (scaled by trust)."""
TRUST_THRESHOLD = 0.6
"""Below this trust an owner gets nothing for a section it would not give anyway."""
CONFLICT_RATE = 0.15
"""Share offered when admission itself is at stake (scaled by trust, with a floor)."""
CONFLICT_LIMIT = 0.3
"""The most (as a share of the worth) paid to outbid a rival or to meet a demand."""
CASH_SHARE = 0.35
"""Never more than this share of one's cash on one negotiation."""


# -- shark -------------------------------------------------------------------------------------


class Shark(Player):
    """One seat's player: a Memory across the games of a match, the policy below."""

    name = NAME

    def send(self, view: dict[str, Any], options: list[Any]) -> Any:
        return choose_send(view, options, self.memory)

    def place(self, view: dict[str, Any], options: list[Any]) -> Any:
        """The lowest free section, whatever was asked."""
        return {"section": min(o["section"] for o in options)}

    def choose(self, view: dict[str, Any], options: list[Any]) -> Any:
        table = Table(view)
        return {"scholar": choose_winner(table, self.memory, [o["scholar"] for o in options])}

    # -- as an applicant --

    def offer(self, view: dict[str, Any], legal: dict[str, Any]) -> dict[str, Any]:
        table = Table(view)
        negotiation = view.get("negotiation") or {}
        owner = negotiation.get("palace", table.owner())
        fields = legal["fields"]
        amount_field = fields["amount"]
        if amount_field["max"] <= amount_field["min"]:
            return {"amount": amount_field["min"]}
        step = negotiation.get("step")
        choices = fields.get("section", {}).get("options", [None])
        if negotiation.get("role") == "incumbent" or step == "internal":
            section = table.internal_section(negotiation.get("type", ""))
        else:
            free = table.free(owner)
            section = max(free) if free else None  # always ask for the best
        if section not in choices:
            section = None
        worth = (section or 0) * table.incomes_if_placed_now(table.me, owner)
        trust = trust_in(self.memory, owner)
        if step == "no-conflict":
            # admission is certain: only a word-keeper's section is worth paying for
            amount = TRUSTED_RATE * worth * trust if trust >= TRUST_THRESHOLD else 0
        else:
            amount = CONFLICT_RATE * worth * (0.4 + 0.6 * trust)
            beat = self.rivals_paid(table, negotiation) + UNIT
            if amount < beat <= CONFLICT_LIMIT * worth:
                amount = beat
        amount = min(floor_unit(amount), floor_unit(CASH_SHARE * (view.get("cash") or 0)))
        action: dict[str, Any] = {"amount": clamp_amount(amount, amount_field)}
        if section is not None:
            action["section"] = section
        promise = PROMISES[(table.round + owner) % len(PROMISES)]
        action["promise"] = promise[: fields.get("promise", {}).get("max_length", 140)]
        return action

    @staticmethod
    def rivals_paid(table: Table, negotiation: dict[str, Any]) -> int:
        step, type_ = negotiation.get("step"), negotiation.get("type")
        if step == "no-conflict":
            return 0
        return max(
            (
                int(d.get("paid") or 0)
                for d in table.deals
                if d.get("step") == step
                and d.get("type") == type_
                and d.get("applicant") != table.me
            ),
            default=0,
        )

    def pay(self, view: dict[str, Any], options: list[dict[str, Any]]) -> dict[str, Any]:
        """Admission certain (no conflict: the owner must admit it anyway): walk away, unless
        the owner keeps its word and the demand is a bargain for the section. In a conflict pay
        a bargain demand, else raise as far as it is still a bargain."""
        table = Table(view)
        negotiation = view.get("negotiation") or {}
        pay, raises, walk = replies(options)
        owner = negotiation.get("palace", table.owner())
        section = negotiation.get("section") or 0
        worth = section * table.incomes_if_placed_now(table.me, owner)
        rate = CONFLICT_LIMIT
        if negotiation.get("step") == "no-conflict":
            trust = trust_in(self.memory, owner)
            if trust < TRUST_THRESHOLD:
                return walk
            rate = 1.5 * TRUSTED_RATE * trust
        limit = min(rate * worth, CASH_SHARE * (view.get("cash") or 0))
        if pay is not None and pay["pay"] <= limit:
            return pay
        affordable = [amount for amount in raises if amount <= limit]
        return {"raise": affordable[-1]} if affordable else walk

    # -- as an owner --

    def answer(self, view: dict[str, Any], options: list[dict[str, Any]]) -> dict[str, Any]:
        """Demand all the applicant has (its cash is tracked, up to the cap); after a raise,
        split the difference once more, then take what is offered."""
        negotiation = view.get("negotiation") or {}
        offer = int(negotiation.get("offer") or 0)
        demands = negotiation.get("demands") or []
        if len(demands) >= 2:
            return {"accept": True}
        cash = self.memory.cash_of(negotiation.get("applicant", -1))
        demand = min(offer + 20 * UNIT, floor_unit(cash))
        if demands:
            demand = min(demand, floor_unit((offer + int(demands[-1])) / 2 + UNIT))
        wanted = {"demand": max(offer + UNIT, demand)}
        return wanted if wanted in options else {"accept": True}

    def keep_or_replace(self, view: dict[str, Any], options: list[dict[str, Any]]) -> Any:
        """Replace when the newcomer paid at least as much as the incumbent's owner."""
        table = Table(view)
        keep = next(o for o in options if "keep" in o)
        newcomers = [o["replace_with"] for o in options if "replace_with" in o]
        if not newcomers:
            return keep
        best = choose_winner(table, self.memory, newcomers)
        if table.paid(best) >= table.paid(keep["keep"]):
            return {"replace_with": best}
        return keep


PLAYER = Shark()
decide = PLAYER.decide


if __name__ == "__main__":
    run(
        PLAYER.decide,
        name=NAME,
        version=VERSION,
        on_game_start=PLAYER.on_game_start,
        on_event=PLAYER.on_event,
    )
