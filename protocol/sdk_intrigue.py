"""Helpers for Python bots that play Intrigue (stdlib only, like the SDK).

What any Intrigue bot needs, whatever its strategy: reading a view (`Table`), following the
public money and who kept their word from the events (`Memory`: every seat's cash to within
the bank's minimum bribes; asked vs given sections), amounts in the game's units, `safe`,
which makes a decide function total, and `Player`, which routes each decision kind to a
method. Strategy (where to send, whom to trust, what to bid) belongs in the bots: a bot's
digest covers only its own folder, so a strategy kept here could change under a rated bot.
See protocol/games/intrigue.md for the views and events these read.
"""

from __future__ import annotations

import sys
import traceback
from abc import ABC, abstractmethod
from typing import Any

from protocol.legal import default_action, why_illegal
from protocol.sdk import run
from protocol.talk import SILENCE

# The game's constants, from the rules (protocol/games/intrigue.md); the views do not carry
# them. tests/bots/test_intrigue_bots.py checks they equal the engine's
# (arena/games/intrigue/scholars.py), so they cannot drift apart.
ROUNDS = 5
"""Rounds in a game (then a final income)."""
SEND_ROUNDS = 4
"""Rounds in which scholars are sent."""
UNIT = 1000
"""Every amount of money is a multiple of this."""
START_CASH = 32_000
"""Each seat's cash at the start."""
SCHOLARS_PER_PLAYER = 8
"""A scholar's id is its owner's seat times this, plus its index."""


def floor_unit(amount: float) -> int:
    return max(0, int(amount) // UNIT * UNIT)


def ceil_unit(amount: float) -> int:
    return max(0, -(-int(amount) // UNIT) * UNIT)


class Memory:
    """What the public events tell: everybody's cash and who kept their word."""

    def __init__(self) -> None:
        self.kept_total = 0
        """Across games: placements that gave the asked section when it was free."""
        self.tested_total = 0
        """Across games: placements where the asked section was free."""
        self.new_game()

    def new_game(self) -> None:
        self.cash: dict[int, int] = {}
        self.kept: dict[int, list[int]] = {}
        """Owner seat -> [kept, tested] this game."""
        self.occupied: dict[tuple[int, int], int] = {}
        """(palace, section) -> scholar inside."""

    def cash_of(self, seat: int) -> int:
        return self.cash.get(seat, START_CASH)

    def on_event(self, event: dict[str, Any]) -> None:
        kind = event.get("kind")
        if kind == "start-player":
            self.new_game()
        elif kind == "income":
            seat = event["seat"]
            self.cash[seat] = self.cash_of(seat) + int(event.get("amount") or 0)
        elif kind == "negotiated":
            paid = int(event.get("paid") or 0)
            palace, applicant = event["palace"], event["applicant"]
            if not event.get("paid_by_bank"):
                self.cash[applicant] = self.cash_of(applicant) - paid
            self.cash[palace] = self.cash_of(palace) + paid
        elif kind == "placed":
            palace, asked, given = (
                event["palace"],
                event.get("asked_section"),
                event["given_section"],
            )
            if (
                not event.get("forced")
                and asked is not None
                and (palace, asked) not in self.occupied
            ):
                record = self.kept.setdefault(palace, [0, 0])
                record[1] += 1
                self.tested_total += 1
                if given == asked:
                    record[0] += 1
                    self.kept_total += 1
            self.occupied[(palace, given)] = event["scholar"]
        elif kind == "exiled" and event.get("reason") == "replaced":
            for key, scholar in list(self.occupied.items()):
                if scholar == event["scholar"]:
                    del self.occupied[key]


class Word:
    """Table talk's promises of sections (``{"seat_at": S}``, protocol/games/intrigue.md) made
    to one seat, and who broke them: an owner that promised me section S and then put my
    scholar in a lower one lied (the talk bots' memory of who to trust, across games)."""

    def __init__(self) -> None:
        self.me = -1
        self.promised: dict[int, int] = {}
        """Owner seat -> the section it last promised me, until my next scholar is placed."""
        self.broken: dict[int, int] = {}
        """Owner seat -> promises to me it broke, this game."""
        self.kept: dict[int, int] = {}
        """Owner seat -> promises to me it kept, this game."""

    def new_game(self, me: int) -> None:
        self.me = me
        self.promised, self.broken, self.kept = {}, {}, {}

    def lied(self, owner: int) -> bool:
        return self.broken.get(owner, 0) > 0

    def on_event(self, event: dict[str, Any]) -> None:
        kind = event.get("kind")
        if kind == "said":
            terms = event.get("terms")
            if (
                event.get("to") == self.me
                and isinstance(terms, dict)
                and isinstance(terms.get("seat_at"), int)
            ):
                self.promised[event["from"]] = terms["seat_at"]
        elif kind == "placed" and event.get("applicant") == self.me:
            section = self.promised.pop(event.get("palace", -1), None)
            if section is not None:
                tally = self.kept if event.get("given_section", 0) >= section else self.broken
                tally[event["palace"]] = tally.get(event["palace"], 0) + 1


def promise_to_me(view: dict[str, Any], speaker: int) -> int | None:
    """The section ``speaker`` promised this seat in the talk of the view (its last window),
    or None."""
    me = view.get("seat")
    talk = view.get("talk") or {}
    section = None
    for message in talk.get("messages") or []:
        terms = message.get("terms")
        if (
            message.get("from") == speaker
            and message.get("to") in (me, "all")
            and isinstance(terms, dict)
            and isinstance(terms.get("seat_at"), int)
        ):
            section = terms["seat_at"]
    return section


class Table:
    """Questions about the view."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.view = view
        self.me: int = view["seat"]
        self.players: int = view["players"]
        self.round: int = view.get("round") or 1
        self.start: int = view.get("start_player") or 0
        self.palaces: list[dict[str, Any]] = view["palaces"]
        self.deals: list[dict[str, Any]] = view.get("deals") or []

    def pos(self, seat: int) -> int:
        return (seat - self.start) % self.players

    def owner(self) -> int:
        """Whose turn it is (the palace receiving)."""
        turn = self.view.get("turn")
        decision = self.view.get("decision") or {}
        return decision.get("palace", turn if turn is not None else self.me)

    def incomes_if_placed_now(self, applicant: int, owner: int) -> int:
        """Incomes a scholar placed during owner's current turn earns its applicant."""
        later = 1 if self.pos(applicant) > self.pos(owner) else 0
        return max(1, ROUNDS - self.round + 1 + later)

    def incomes_if_sent_now(self) -> int:
        """Incomes of a scholar sent this turn, placed at its owner's next turn."""
        return max(1, ROUNDS + 1 - self.round)

    def free(self, palace: int) -> list[int]:
        return [s["value"] for s in self.palaces[palace]["sections"] if s["scholar"] is None]

    def inside(self, palace: int) -> dict[str, tuple[int, dict[str, Any]]]:
        """type -> (section, scholar)."""
        return {
            s["scholar"]["type"]: (s["value"], s["scholar"])
            for s in self.palaces[palace]["sections"]
            if s["scholar"] is not None
        }

    def deal(self, scholar: int) -> dict[str, Any] | None:
        for deal in self.deals:
            if deal.get("scholar") == scholar:
                return deal
        return None

    def paid(self, scholar: int) -> int:
        deal = self.deal(scholar)
        return int((deal or {}).get("paid") or 0)

    def internal_section(self, type_: str) -> int | None:
        receiving = self.view.get("receiving") or {}
        for conflict in receiving.get("internal") or []:
            if conflict.get("type") == type_:
                return conflict.get("section")
        return None

    def between(self, palace: int) -> int:
        """Players sending before palace's owner next receives (not me, not the owner)."""
        mine, theirs = self.pos(self.me), self.pos(palace)
        if theirs > mine:
            return theirs - mine - 1
        after_me = self.players - mine - 1
        return after_me if self.round >= SEND_ROUNDS else after_me + theirs


def nearest(free: list[int], wanted: int | None, fallback_low: bool = True) -> int:
    """The free section closest to the wanted one (the lower on a tie); lowest (or highest)
    free when nothing was asked."""
    if wanted is None:
        return min(free) if fallback_low else max(free)
    return min(free, key=lambda s: (abs(s - wanted), s))


def clamp_amount(amount: int, field: dict[str, Any]) -> int:
    low, high, step = field.get("min", 0), field.get("max", 0), field.get("step", UNIT) or UNIT
    amount = max(low, min(high, amount))
    return low + (amount - low) // step * step


def replies(options: list[Any]) -> tuple[dict[str, Any] | None, list[int], dict[str, Any]]:
    """A ``pay`` request's options split: the option paying the demand (None when the seat
    cannot afford it), the amounts it may raise its offer to (ascending; none after the last
    demand), and the option walking away (nothing paid)."""
    pay = next((o for o in options if isinstance(o, dict) and "pay" in o), None)
    raises = sorted(o["raise"] for o in options if isinstance(o, dict) and "raise" in o)
    walk = next((o for o in options if isinstance(o, dict) and "refuse" in o), {"refuse": True})
    return pay, raises, walk


def demand_towards(offer: int, target: int, options: list[Any]) -> dict[str, Any]:
    """An ``answer``: accept an offer that reaches ``target``, else demand ``target`` (within
    the demands allowed: at least offer + 1,000, at most the highest listed)."""
    demands = [o["demand"] for o in options if isinstance(o, dict) and "demand" in o]
    if offer >= target or not demands:
        return {"accept": True}
    return {"demand": min(max(demands), max(min(demands), ceil_unit(target)))}


def safe(decide_impl: Any, name: str) -> Any:
    """Make decide total: a legal answer whatever happens (an illegal or failed answer is
    logged to stderr under the bot's name and replaced by the default action)."""

    def decide(view: dict[str, Any], legal: dict[str, Any], ctx: Any = None) -> Any:
        try:
            action = decide_impl(view, legal)
            reason = why_illegal(legal, action)
            if reason is None:
                return action
            print(f"{name}: illegal answer {action!r}: {reason}", file=sys.stderr)
        except Exception:  # a bad guess must never cost the game: log it, answer the default
            traceback.print_exc(file=sys.stderr)
        return default_action(legal)

    return decide


class Player(ABC):
    """One seat's player across the games of a match: a Memory fed by the SDK hooks, and a
    ``decide`` (made total by ``safe``) that sends each decision kind to the method of that
    name. A bot subclasses it, sets ``name`` and writes offer, answer, pay, place, choose,
    keep_or_replace and send."""

    name = "intrigue-player"
    """The bot's name, for its stderr log."""

    def __init__(self) -> None:
        self.memory = Memory()
        self.decide = safe(self._decide, self.name)
        self.chat = safe(self.talk, self.name)
        """The SDK's talk hook (``run(..., talk=player.chat)``), made total like decide."""

    # hooks (SDK signatures: hook(game, body))
    def on_game_start(self, game: Any, view: dict[str, Any]) -> None:
        self.memory.new_game()

    def on_event(self, game: Any, event: dict[str, Any]) -> None:
        self.memory.on_event(event)

    def _decide(self, view: dict[str, Any], legal: dict[str, Any]) -> Any:
        kind = (view.get("decision") or {}).get("kind")
        if kind == "offer":
            return self.offer(view, legal)
        options = legal.get("options") or []
        if kind in ("answer", "pay", "place", "choose", "keep_or_replace", "send"):
            return getattr(self, kind)(view, options)
        return default_action(legal)

    def play(self, version: str, *, talks: bool = False) -> None:
        """Run this player as a bot process (protocol.sdk.run, with its hooks); ``talks``:
        ask for table talk and answer it with ``talk``."""
        run(
            self.decide,
            name=self.name,
            version=version,
            on_game_start=self.on_game_start,
            on_event=self.on_event,
            talk=self.chat if talks else None,
        )

    def talk(self, view: dict[str, Any], legal: dict[str, Any]) -> Any:
        """A talk request (SPEC.md §14), for a bot run with ``talk=``: sent to the method of
        its window (talk_send, talk_negotiation, talk_conflict; games/intrigue.md), each silent
        unless overridden."""
        window = (view.get("talk") or {}).get("window")
        if window == "send":
            return self.talk_send(view, legal)
        if window == "negotiation":
            return self.talk_negotiation(view, legal)
        if window == "conflict":
            return self.talk_conflict(view, legal)
        return SILENCE

    def talk_send(self, view: dict[str, Any], legal: dict[str, Any]) -> Any:
        """Before a player's sends (every talker): silence unless overridden."""
        return SILENCE

    def talk_negotiation(self, view: dict[str, Any], legal: dict[str, Any]) -> Any:
        """Before a negotiation's offer (its two parties, in private): silence unless
        overridden."""
        return SILENCE

    def talk_conflict(self, view: dict[str, Any], legal: dict[str, Any]) -> Any:
        """Before an owner decides a conflict (the owner and the scholars' players): silence
        unless overridden."""
        return SILENCE

    @abstractmethod
    def offer(self, view: dict[str, Any], legal: dict[str, Any]) -> Any:
        raise NotImplementedError

    @abstractmethod
    def answer(self, view: dict[str, Any], options: list[Any]) -> Any:
        raise NotImplementedError

    @abstractmethod
    def pay(self, view: dict[str, Any], options: list[Any]) -> Any:
        raise NotImplementedError

    @abstractmethod
    def place(self, view: dict[str, Any], options: list[Any]) -> Any:
        raise NotImplementedError

    @abstractmethod
    def choose(self, view: dict[str, Any], options: list[Any]) -> Any:
        raise NotImplementedError

    @abstractmethod
    def keep_or_replace(self, view: dict[str, Any], options: list[Any]) -> Any:
        raise NotImplementedError

    @abstractmethod
    def send(self, view: dict[str, Any], options: list[Any]) -> Any:
        raise NotImplementedError
