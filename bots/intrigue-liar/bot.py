"""intrigue-liar: an Intrigue bot that talks to exploit trust: it promises and does not deliver.

Talk (protocol/games/intrigue.md, "Table talk"): words bind nobody, money does; it gives words
freely and takes money gladly. One window at a time:

- **negotiation** (private): as an owner it promises the applicant its palace's best section
  (``{"seat_at": S}``, free or not), asks the bribe its best free section is worth, takes it,
  and then puts every scholar in the lowest free section. As an applicant it promises to bid well for
  the best section and offers the minimum; where admission is certain (no conflict) it walks
  away from every demand.
- **send** (before a player sends): when it is about to send, it promises everyone
  ``{"spare": true}`` (not to send a scholar against theirs: of the same type, waiting in front
  of the same palace or sitting inside it), then sends wherever pays best, which is sometimes
  a challenge of another's scholar.
- **conflict** (before the owner decides): as the owner it says the best paid scholar wins,
  accepts the largest side payment offered (``{"pay": N}``: carried out at once, so that much
  it cannot cheat) and then decides on the bribes alone. As a player it proposes a token
  ``{"pay": 1000}`` and promises, in words only, much more once its scholar is chosen.

It remembers nothing of anybody's word: it counts on the others trusting it.
"""

from __future__ import annotations

from typing import Any

from protocol.sdk_intrigue import (
    Player,
    Table,
    clamp_amount,
    demand_towards,
    floor_unit,
    replies,
)
from protocol.talk import SILENCE, allowed_terms, messages, open_proposals, reply, say

NAME = "intrigue-liar"
VERSION = "1.1"

ASKED_RATE = 0.12
"""Share of the promised section's worth demanded as a bribe."""
CONFLICT_RATE = 0.15
"""Share of a section's worth offered when admission itself is at stake."""
CASH_SHARE = 0.35
"""Never more than this share of one's cash in one negotiation."""
CHALLENGE = 0.5
"""A send into a conflict is worth this share of the section it could win."""
TOKEN = {"pay": 1000}
"""The side payment it offers in a conflict (the rest is words)."""


class Liar(Player):
    """One seat across the games of a match: the public Memory and nothing else."""

    name = NAME

    # -- talk --

    def talk_send(self, view: dict[str, Any], legal: dict[str, Any]) -> Any:
        """Before my own sends, once: promise everyone to spare their scholars (see send)."""
        me = view.get("seat")
        if Table(view).owner() != me or any(m.get("from") == me for m in messages(view)):
            return SILENCE
        if {"spare": True} not in allowed_terms(legal):
            return SILENCE
        text = "Fear not: none of my scholars will go against yours."
        return say("promise", terms={"spare": True}, text=text)

    def talk_conflict(self, view: dict[str, Any], legal: dict[str, Any]) -> Any:
        """As the owner: promise the best paid wins, then take the largest side payment. As a
        player: a token payment, and big words."""
        table = Table(view)
        owner = table.owner()
        round_ = (view.get("talk") or {}).get("round")
        if owner == table.me:
            if round_ == 1:
                return say("tell", text="Pay me under the table: the best paid scholar wins.")
            offers = [
                p
                for p in open_proposals(legal, view)
                if isinstance(p.get("terms"), dict) and isinstance(p["terms"].get("pay"), int)
            ]
            if not offers:
                return SILENCE
            best = max(offers, key=lambda p: p["terms"]["pay"])
            return reply(best, "accept", text="Accepted: your scholar wins.")
        if round_ != 1 or owner not in legal["fields"]["to"]["options"]:
            return SILENCE
        if TOKEN not in allowed_terms(legal):
            return SILENCE
        text = "A token now; ten thousand more once my scholar is chosen."
        return say("propose", to=owner, terms=TOKEN, text=text)

    def talk_negotiation(self, view: dict[str, Any], legal: dict[str, Any]) -> Any:
        """Once: as the owner promise the palace's best section, free or not (even in an
        internal conflict, where only the incumbent's can be given); as the applicant promise
        a good bribe for it."""
        negotiation = view.get("negotiation") or {}
        me = view.get("seat")
        if any(m.get("from") == me for m in messages(view)):
            return SILENCE
        table = Table(view)
        sections = table.palaces[negotiation.get("palace", me)]["sections"]
        best = max(section["value"] for section in sections)
        if negotiation.get("palace") == me:
            text = f"The {best:,} section is yours, on my honour."
            return say("promise", to=negotiation["applicant"], terms={"seat_at": best}, text=text)
        text = "Seat me well and I will pay you handsomely."
        return say("promise", to=negotiation["palace"], terms={"bid_for": best}, text=text)

    # -- as an applicant --

    def offer(self, view: dict[str, Any], legal: dict[str, Any]) -> dict[str, Any]:
        """The minimum where admission is certain; a modest bribe in a conflict."""
        table = Table(view)
        negotiation = view.get("negotiation") or {}
        owner = negotiation.get("palace", table.owner())
        fields = legal["fields"]
        free = table.free(owner)
        section = table.internal_section(negotiation.get("type", "")) or (
            max(free) if free else None
        )
        amount = 0
        if negotiation.get("step") != "no-conflict":
            worth = (section or 0) * table.incomes_if_placed_now(table.me, owner)
            amount = floor_unit(CONFLICT_RATE * worth)
        amount = min(amount, floor_unit(CASH_SHARE * (view.get("cash") or 0)))
        action: dict[str, Any] = {"amount": clamp_amount(amount, fields["amount"])}
        if section in fields.get("section", {}).get("options", []):
            action["section"] = section
        return action

    def pay(self, view: dict[str, Any], options: list[dict[str, Any]]) -> dict[str, Any]:
        """Walk away where admission is certain; in a conflict pay a demand up to twice the
        offer, else walk away."""
        negotiation = view.get("negotiation") or {}
        pay, _, walk = replies(options)
        offer = int(negotiation.get("offer") or 0)
        if negotiation.get("step") == "no-conflict" or pay is None or pay["pay"] > 2 * offer:
            return walk
        return pay

    def send(self, view: dict[str, Any], options: list[Any]) -> Any:
        """Towards the best section to be had, whatever I promised: a free one for a type the
        palace lacks and nobody queued, or a share of the section a conflict could win me (a
        challenge of another's scholar inside, or a place among the others waiting); never
        against a scholar of its own (it would pay twice to compete with itself)."""
        table = Table(view)

        def score(option: dict[str, Any]) -> float:
            palace, type_ = option["palace"], option["scholar"]
            waiting = table.palaces[palace].get("waiting") or []
            inside = table.inside(palace).get(type_)
            rivals = [w for w in waiting if w["type"] == type_]
            if any(r["owner"] == table.me for r in rivals + ([inside[1]] if inside else [])):
                return -1.0
            free = table.free(palace)
            value = float(max(free)) if free else 0.0
            if type_ in table.inside(palace):
                value = float(table.inside(palace)[type_][0])
            if type_ in table.inside(palace) or any(w["type"] == type_ for w in waiting):
                value *= CHALLENGE
            return value

        return max(options, key=score)

    # -- as an owner --

    def answer(self, view: dict[str, Any], options: list[dict[str, Any]]) -> dict[str, Any]:
        """Ask what the promised (best free) section is worth; take what a raise brings."""
        table = Table(view)
        negotiation = view.get("negotiation") or {}
        offer = int(negotiation.get("offer") or 0)
        free = table.free(table.me)
        section = negotiation.get("section") or (max(free) if free else 0)
        incomes = table.incomes_if_placed_now(negotiation.get("applicant", table.me), table.me)
        fair = floor_unit(ASKED_RATE * section * incomes)
        if negotiation.get("demands"):  # it raised: take it rather than risk a walk-away
            return {"accept": True}
        return demand_towards(offer, fair, options)

    def place(self, view: dict[str, Any], options: list[dict[str, Any]]) -> dict[str, Any]:
        """The lowest free section, whatever was promised."""
        return {"section": min(o["section"] for o in options)}

    def choose(self, view: dict[str, Any], options: list[dict[str, Any]]) -> dict[str, Any]:
        table = Table(view)
        return max(options, key=lambda o: table.paid(o["scholar"]))

    def keep_or_replace(self, view: dict[str, Any], options: list[dict[str, Any]]) -> Any:
        """Replace for any newcomer that paid at least as much as the incumbent's owner."""
        table = Table(view)
        keep = next(o for o in options if "keep" in o)
        for option in options:
            if "replace_with" in option and table.paid(option["replace_with"]) >= table.paid(
                keep["keep"]
            ):
                return option
        return keep


PLAYER = Liar()
decide = PLAYER.decide


if __name__ == "__main__":
    PLAYER.play(VERSION, talks=True)
