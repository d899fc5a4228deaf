"""intrigue-trusty: an Intrigue bot that talks, keeps its word and remembers who broke theirs.

Talk (protocol/games/intrigue.md, "Table talk"): as an owner, in each negotiation's private
window it promises the applicant a section (``{"seat_at": S}``: the best free one nobody else
was promised) and then gives exactly that section; it asks a bribe in line with what the
section will pay. As an applicant it pays for a promised section in proportion to its worth,
unless the owner has broken a promise to it this game: a liar gets the minimum, its demands
are walked away from, and no scholar of mine is sent to its palace while another will do.
Against an owner that does not talk it bids low for the section it asks for.
"""

from __future__ import annotations

from typing import Any

from protocol.sdk_intrigue import (
    Player,
    Table,
    Word,
    clamp_amount,
    demand_towards,
    floor_unit,
    promise_to_me,
    replies,
)
from protocol.talk import SILENCE, messages, say

NAME = "intrigue-trusty"
VERSION = "1.0"

PROMISED_RATE = 0.12
"""Share of a promised section's worth paid to an owner that keeps its word."""
UNPROMISED_RATE = 0.03
"""Share paid for a section asked for but not promised (admission is certain anyway)."""
CONFLICT_RATE = 0.2
"""Share paid when admission itself is at stake."""
LIMIT = 1.5
"""A demand is met up to this many times the bid."""
CASH_SHARE = 0.4
"""Never more than this share of one's cash in one negotiation."""
LIAR_PENALTY = 20_000
"""Expected ducats a send to a liar's palace is marked down by."""


class Trusty(Player):
    """One seat across the games of a match: the public Memory, the Word (who lied to me) and
    the promises I made as an owner this turn."""

    name = NAME

    def __init__(self) -> None:
        super().__init__()
        self.word = Word()
        self.mine: dict[int, int] = {}
        """Scholar id -> the section I promised it (as its palace's owner)."""

    def on_game_start(self, game: Any, view: dict[str, Any]) -> None:
        super().on_game_start(game, view)
        self.word.new_game(view.get("seat", -1))
        self.mine = {}

    def on_event(self, game: Any, event: dict[str, Any]) -> None:
        super().on_event(game, event)
        self.word.on_event(event)

    # -- talk --

    def talk(self, view: dict[str, Any], legal: dict[str, Any]) -> Any:
        """In a negotiation at my palace: promise the section I will give, once."""
        negotiation = view.get("negotiation") or {}
        me = view.get("seat")
        if (view.get("talk") or {}).get("window") != "negotiation":
            return SILENCE
        if negotiation.get("palace") != me or any(m.get("from") == me for m in messages(view)):
            return SILENCE
        section = self.promise_for(Table(view), negotiation)
        if section is None:
            return SILENCE
        self.mine[negotiation["scholar"]] = section
        return say(
            "promise",
            to=negotiation["applicant"],
            terms={"seat_at": section},
            text=f"Your scholar gets my {section:,} section. I keep my word.",
        )

    def promise_for(self, table: Table, negotiation: dict[str, Any]) -> int | None:
        """The section I can give this scholar: the conflict's own section inside, else the
        best free one not promised to a scholar still waiting at my door."""
        if negotiation.get("step") == "internal":
            return table.internal_section(negotiation.get("type", ""))
        waiting = {s["id"] for s in table.palaces[table.me].get("waiting") or []}
        taken = {s for sid, s in self.mine.items() if sid in waiting}
        free = [s for s in table.free(table.me) if s not in taken]
        return max(free) if free else None

    # -- as an applicant --

    def bid(self, view: dict[str, Any], negotiation: dict[str, Any]) -> tuple[int, int | None]:
        """What this scholar is worth paying for, and the section to ask for."""
        table = Table(view)
        owner = negotiation.get("palace", table.owner())
        incomes = table.incomes_if_placed_now(table.me, owner)
        promised = promise_to_me(view, owner)
        if negotiation.get("step") == "internal" or negotiation.get("role") == "incumbent":
            section = table.internal_section(negotiation.get("type", ""))
            return floor_unit(CONFLICT_RATE * (section or 0) * incomes), section
        free = table.free(owner)
        section = promised if promised in free else (max(free) if free else None)
        worth = (section or 0) * incomes
        if self.word.lied(owner):
            return 0, section
        if negotiation.get("step") == "external":
            return floor_unit(CONFLICT_RATE * worth), section
        rate = PROMISED_RATE if promised is not None else UNPROMISED_RATE
        return floor_unit(rate * worth), section

    def offer(self, view: dict[str, Any], legal: dict[str, Any]) -> dict[str, Any]:
        negotiation = view.get("negotiation") or {}
        fields = legal["fields"]
        amount, section = self.bid(view, negotiation)
        amount = min(amount, floor_unit(CASH_SHARE * (view.get("cash") or 0)))
        action: dict[str, Any] = {"amount": clamp_amount(amount, fields["amount"])}
        if section in fields.get("section", {}).get("options", []):
            action["section"] = section
        return action

    def pay(self, view: dict[str, Any], options: list[dict[str, Any]]) -> dict[str, Any]:
        """Meet a demand up to LIMIT times my bid; else raise that far; else walk away."""
        negotiation = view.get("negotiation") or {}
        bid, _ = self.bid(view, negotiation)
        limit = min(LIMIT * bid, CASH_SHARE * (view.get("cash") or 0))
        pay, raises, walk = replies(options)
        if pay is not None and pay["pay"] <= limit:
            return pay
        affordable = [amount for amount in raises if amount <= limit]
        return {"raise": affordable[-1]} if affordable else walk

    def send(self, view: dict[str, Any], options: list[Any]) -> Any:
        """A type the palace lacks and nobody queued, at a palace that has not lied to me."""
        table = Table(view)

        def score(option: dict[str, Any]) -> float:
            palace, type_ = option["palace"], option["scholar"]
            waiting = table.palaces[palace].get("waiting") or []
            free = table.free(palace)
            value = float(max(free)) if free else 0.0
            if type_ in table.inside(palace):
                value = 0.3 * table.inside(palace)[type_][0]
            if any(w["type"] == type_ for w in waiting):
                value *= 0.3
            value -= 2000 * sum(w["owner"] == table.me for w in waiting)
            return value - (LIAR_PENALTY if self.word.lied(palace) else 0)

        return max(options, key=score)

    # -- as an owner --

    def answer(self, view: dict[str, Any], options: list[dict[str, Any]]) -> dict[str, Any]:
        """Accept a bribe worth the section promised (or asked); demand it otherwise, once."""
        table = Table(view)
        negotiation = view.get("negotiation") or {}
        offer = int(negotiation.get("offer") or 0)
        section = self.mine.get(negotiation.get("scholar", -1)) or negotiation.get("section") or 0
        incomes = table.incomes_if_placed_now(negotiation.get("applicant", table.me), table.me)
        fair = floor_unit(PROMISED_RATE * section * incomes)
        if negotiation.get("demands"):  # it raised: take it rather than risk a walk-away
            return {"accept": True}
        return demand_towards(offer, fair, options)

    def place(self, view: dict[str, Any], options: list[dict[str, Any]]) -> dict[str, Any]:
        """The section I promised; else the one asked for; else the lowest free."""
        table = Table(view)
        scholar = (view.get("decision") or {}).get("scholar", -1)
        free = [o["section"] for o in options]
        asked = (table.deal(scholar) or {}).get("section")
        for wanted in (self.mine.get(scholar), asked):
            if wanted in free:
                return {"section": wanted}
        return {"section": min(free)}

    def choose(self, view: dict[str, Any], options: list[dict[str, Any]]) -> dict[str, Any]:
        table = Table(view)
        return max(options, key=lambda o: table.paid(o["scholar"]))

    def keep_or_replace(self, view: dict[str, Any], options: list[dict[str, Any]]) -> Any:
        """Replace only for a newcomer that paid more than the incumbent's owner."""
        table = Table(view)
        keep = next(o for o in options if "keep" in o)
        newcomers = [o for o in options if "replace_with" in o]
        best = max(newcomers, key=lambda o: table.paid(o["replace_with"]), default=None)
        if best is not None and table.paid(best["replace_with"]) > table.paid(keep["keep"]):
            return best
        return keep


PLAYER = Trusty()
decide = PLAYER.decide


if __name__ == "__main__":
    PLAYER.play(VERSION, talks=True)
