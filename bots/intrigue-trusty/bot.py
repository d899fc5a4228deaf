"""intrigue-trusty: an Intrigue bot that talks, keeps its word and remembers who broke theirs.

Talk (protocol/games/intrigue.md, "Table talk"), one window at a time:

- **negotiation** (private, the owner and the applicant): as the owner it promises the
  applicant a section (``{"seat_at": S}``: the best free one nobody else was promised) and then
  gives exactly that section; it asks a bribe in line with what the section will pay. As an
  applicant it pays for a promised section in proportion to its worth.
- **send** (every talker, before a player sends): when it is the one about to send, it promises
  ``{"spare": true}`` to every talker that never broke its word to it (to everyone at once
  when it trusts them all, else privately, one seat per round), as long as two sends that
  spare them remain; and it keeps that promise in the sends that follow.
- **conflict** (the owner and the players of the scholars in the conflict): as a player it
  offers the owner a binding side payment (``{"pay": N}``, carried out at once when accepted)
  when that makes its scholar the best paid and N stays within a share of what the section
  will pay; as the owner it accepts the one side payment that makes its payer the best paid,
  and then decides for that payer's scholar, as its answer says: a scholar's price is its bribe
  plus the side payment its player made me in the conflict's window.

**"Against yours"** (what ``{"spare": true}`` promises not to do; RULES.md, "Receiving
scholars"): scholars compete only with scholars of their own type at one palace. So sending a
scholar of type T to palace P goes against seat X's scholar when X has a scholar of type T
waiting in front of P (an external conflict, or one more applicant in an internal one) or
sitting inside P (an internal conflict that challenges it). A promise made in a send window
holds for the sends of that turn (only the turn's player sends in it).

**Memory**: an owner that broke a ``seat_at`` promise to me, an owner that took my side payment
and then chose another's scholar, or a player that promised me ``spare`` and then sent against
my scholar in that turn, is a liar for the rest of the game: it
gets the minimum bribe and no side payment, its demands are walked away from, no scholar of mine
is sent to its palace while another will do, and it is promised no spare. Against an owner that
does not talk it bids low for the section it asks for.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from protocol.sdk_intrigue import (
    UNIT,
    Player,
    Table,
    Word,
    clamp_amount,
    demand_towards,
    floor_unit,
    promise_to_me,
    replies,
)
from protocol.talk import ALL, SILENCE, allowed_terms, messages, open_proposals, reply, say

NAME = "intrigue-trusty"
VERSION = "1.1"

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
SIDE_RATE = 0.15
"""At most this share of a section's worth is offered as a side payment in a conflict."""
SENDS = 2
"""Sends in a turn: a spare promise must leave this many possible."""
SPARE = {"spare": True}


def against(table: Table, palace: int, type_: str, seat: int) -> bool:
    """Whether sending a scholar of ``type_`` to ``palace`` goes against ``seat``'s scholar:
    one of that type waiting in front of the palace or sitting inside it."""
    rivals = list(table.palaces[palace].get("waiting") or [])
    inside = table.inside(palace).get(type_)
    if inside is not None:
        rivals.append(inside[1])
    return any(s["type"] == type_ and s["owner"] == seat for s in rivals)


def exposed(table: Table, seat: int) -> set[tuple[int, str]]:
    """(palace, type) where a send would go against ``seat``'s scholar."""
    return {
        (palace, type_)
        for palace in range(table.players)
        for type_ in ("scientist", "doctor", "priest", "clerk")
        if against(table, palace, type_, seat)
    }


def can_spare(table: Table, seats: tuple[int, ...]) -> bool:
    """Whether this turn's sends can all avoid the scholars of ``seats``."""
    hand = table.palaces[table.me].get("hand") or {}
    usable = [
        type_
        for type_, count in hand.items()
        if count > 0
        and any(
            not any(against(table, palace, type_, seat) for seat in seats)
            for palace in range(table.players)
            if palace != table.me
        )
    ]
    return sum(hand[type_] for type_ in usable) >= SENDS


def conflict_prices(table: Table) -> tuple[int, dict[int, int], int | None]:
    """The conflict about to be decided (its window is open): its palace, each player's best
    bribe in it (negotiation order), and its section (internal; None for an external one)."""
    owner = table.owner()
    last = table.deals[-1] if table.deals else {}
    type_, step = last.get("type"), last.get("step")
    prices: dict[int, int] = {}
    for deal in table.deals:
        if (deal.get("palace"), deal.get("type"), deal.get("step")) == (owner, type_, step):
            seat = deal["applicant"]
            prices[seat] = max(prices.get(seat, 0), int(deal.get("paid") or 0))
    section = table.internal_section(type_ or "") if step == "internal" else None
    return owner, prices, section


class Trusty(Player):
    """One seat across the games of a match: the public Memory, the Word (who lied to me) and
    the promises I made as an owner this turn."""

    name = NAME

    def __init__(self) -> None:
        super().__init__()
        self.word = Word()
        self.mine: dict[int, int] = {}
        """Scholar id -> the section I promised it (as its palace's owner)."""
        self.spare_broken: set[int] = set()
        """Seats that promised to spare my scholars and sent against one, this game."""
        self.pocketed: set[int] = set()
        """Owners that took my side payment and chose another's scholar, this game."""
        self.paid_owner: int | None = None
        """The owner I paid in the open conflict's window (until it decides)."""
        self.new_turn()

    def new_turn(self) -> None:
        self.to_spare: tuple[int, ...] | None = None
        """The talkers I mean to spare in this turn's sends (chosen in its send window)."""
        self.spared: set[int] = set()
        """The seats I promised to spare this turn: my sends keep clear of their scholars."""
        self.watched: dict[int, set[tuple[int, str]]] = {}
        """Sender -> (palace, type) it promised me not to send to this turn."""
        self.side: dict[int, int] = {}
        """Seat -> the side payment it made me in the open conflict's window."""
        self.window = -1
        """The number of the conflict window where I accepted a side payment."""

    def lied(self, seat: int) -> bool:
        """Whether ``seat`` broke a promise to me this game (a section, or sparing)."""
        return self.word.lied(seat) or seat in self.spare_broken or seat in self.pocketed

    def on_game_start(self, game: Any, view: dict[str, Any]) -> None:
        super().on_game_start(game, view)
        self.word.new_game(view.get("seat", -1))
        self.mine = {}
        self.spare_broken = set()
        self.pocketed = set()
        self.paid_owner = None
        self.new_turn()

    def on_event(self, game: Any, event: dict[str, Any]) -> None:
        super().on_event(game, event)
        self.word.on_event(event)
        kind = event.get("kind")
        if kind == "turn-start":
            self.new_turn()
        elif kind == "sent" and (event["palace"], event["type"]) in self.watched.get(
            event["seat"], set()
        ):
            self.spare_broken.add(event["seat"])
        elif kind == "side-paid" and event.get("from") == self.word.me:
            self.paid_owner = event.get("to")  # it decides next: for my scholar, as it said?
        elif kind == "side-paid" and event.get("to") == self.word.me:
            if event.get("window") == self.window:  # the payment I accepted as the owner
                payer = event["from"]
                self.side[payer] = self.side.get(payer, 0) + int(event["amount"])
        elif kind in ("admitted", "kept") and event.get("palace") == self.paid_owner:
            if event.get("applicant") != self.word.me:
                self.pocketed.add(event["palace"])
            self.paid_owner = None

    # -- talk --

    def talk_send(self, view: dict[str, Any], legal: dict[str, Any]) -> Any:
        """Before my sends: promise to spare the talkers I trust (all at once when I trust them
        all), as far as two sends can spare them. Before another's: note what it promised me."""
        table = Table(view)
        sender = table.owner()
        if sender != table.me:
            if any(
                m.get("from") == sender
                and m.get("to") in (table.me, ALL)
                and m.get("terms") == SPARE
                for m in messages(view)
            ):
                self.watched[sender] = exposed(table, table.me)
            return SILENCE
        talkers = [s for s in legal["fields"]["to"]["options"] if s != ALL]
        if self.to_spare is None:
            trusted = [s for s in talkers if not self.lied(s)]
            self.to_spare = next(
                (
                    seats
                    for size in range(len(trusted), 0, -1)
                    for seats in combinations(trusted, size)
                    if can_spare(table, seats)
                ),
                (),
            )
        if SPARE not in allowed_terms(legal):
            return SILENCE
        if not self.spared and set(self.to_spare) == set(talkers):
            self.spared = set(talkers)
            return say("promise", terms=SPARE, text="None of my scholars will go against yours.")
        waiting = [s for s in self.to_spare if s not in self.spared]
        if not waiting:
            return SILENCE
        self.spared.add(waiting[0])
        text = "None of my scholars will go against yours this turn."
        return say("promise", to=waiting[0], terms=SPARE, text=text)

    def talk_conflict(self, view: dict[str, Any], legal: dict[str, Any]) -> Any:
        """As the owner: invite side payments, then accept the one that makes its payer the
        best paid (and decide for it). As a player: offer the owner what makes mine the best
        paid, within a share of its section's worth."""
        table = Table(view)
        owner, prices, section = conflict_prices(table)
        if owner == table.me:
            return self.take_side_payment(view, legal, prices)
        if any(m.get("from") == table.me for m in messages(view)) or self.lied(owner):
            return SILENCE
        if owner not in legal["fields"]["to"]["options"] or table.me not in prices:
            return SILENCE
        rival = max((p for seat, p in prices.items() if seat != table.me), default=0)
        need = rival - prices[table.me] + UNIT
        if section is None:
            free = table.free(owner)
            promised = self.word.promised.get(owner)
            section = promised if promised in free else min(free, default=0)
        worth = section * table.incomes_if_placed_now(table.me, owner)
        cap = min(SIDE_RATE * worth, CASH_SHARE * (view.get("cash") or 0))
        if need <= 0 or need > cap or {"pay": need} not in allowed_terms(legal):
            return SILENCE
        text = f"{need:,} now, under the table, if you take my scholar."
        return say("propose", to=owner, terms={"pay": need}, text=text)

    def take_side_payment(
        self, view: dict[str, Any], legal: dict[str, Any], prices: dict[int, int]
    ) -> Any:
        """As the owner of the conflict: say how I decide (round 1, before anyone offers),
        then accept the side payment that makes its payer the best paid, if one does."""
        talk = view.get("talk") or {}
        if talk.get("round") == 1:
            return say("tell", text="A side payment counts with the bribe: the best paid wins.")
        offers = {
            p["from"]: (p, p["terms"]["pay"])
            for p in open_proposals(legal, view)
            if isinstance(p.get("terms"), dict) and isinstance(p["terms"].get("pay"), int)
        }
        best, best_total = None, -1
        for seat, price in prices.items():
            total = price + (offers[seat][1] if seat in offers else 0)
            if total > best_total:
                best, best_total = seat, total
        if best not in offers:
            return SILENCE
        self.window = talk.get("number", -1)
        return reply(offers[best][0], "accept", text="Accepted: your scholar wins.")

    def talk_negotiation(self, view: dict[str, Any], legal: dict[str, Any]) -> Any:
        """In a negotiation at my palace: promise the section I will give, once."""
        negotiation = view.get("negotiation") or {}
        me = view.get("seat")
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
        if self.lied(owner):
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
        """A type the palace lacks and nobody queued, at a palace that has not lied to me; never
        against the scholars of a seat I promised to spare this turn."""
        table = Table(view)
        kept = [
            o
            for o in options
            if not any(against(table, o["palace"], o["scholar"], seat) for seat in self.spared)
        ]

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
            return value - (LIAR_PENALTY if self.lied(palace) else 0)

        return max(kept or options, key=score)

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

    def price(self, table: Table, scholar: int) -> int:
        """What a scholar in a conflict paid me: its bribe, and its player's side payment."""
        seat = (table.deal(scholar) or {}).get("applicant", -1)
        return table.paid(scholar) + self.side.get(seat, 0)

    def choose(self, view: dict[str, Any], options: list[dict[str, Any]]) -> dict[str, Any]:
        """The best paid scholar (the side payment I accepted made its payer that)."""
        table = Table(view)
        chosen = max(options, key=lambda o: self.price(table, o["scholar"]))
        self.side = {}
        return chosen

    def keep_or_replace(self, view: dict[str, Any], options: list[dict[str, Any]]) -> Any:
        """Replace only for a newcomer that paid more than the incumbent's owner (bribes and
        side payments)."""
        table = Table(view)
        keep = next(o for o in options if "keep" in o)
        newcomers = [o for o in options if "replace_with" in o]
        best = max(newcomers, key=lambda o: self.price(table, o["replace_with"]), default=None)
        replace = best is not None and self.price(table, best["replace_with"]) > self.price(
            table, keep["keep"]
        )
        self.side = {}
        return best if replace and best is not None else keep


PLAYER = Trusty()
decide = PLAYER.decide


if __name__ == "__main__":
    PLAYER.play(VERSION, talks=True)
