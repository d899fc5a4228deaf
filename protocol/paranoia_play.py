"""The paranoia-survivor heuristic, shared by the bundled PARANOIA bots (stdlib only, like the
SDK): paranoia-survivor plays it as is; paranoia-loyal and paranoia-traitor play it with a
``regard`` for some seats, from what was said at the table.

Every option is valued from this seat's point of view by reading the card definitions in the
view (so it plays any card set written in the vocabulary, not just the bundled one): clearance
gained is worth most, treason costs more as it nears the traitor line (an execution), wounds
on itself cost more as they near death. It attacks traitors (no loyalty treason, and a kill
sheds all its own treason), pushes rivals over the traitor line (the giver sheds 2 treason),
plays mission sections that move the mission towards a success it would share, answers only
the cards that hurt it, and as Team Leader declares the mission complete when it would
succeed. Dying, it heals itself if it can and otherwise takes revenge (treason no longer
matters to a clone about to die).
"""

from __future__ import annotations

from typing import Any

from protocol.legal import default_action
from protocol.sdk_paranoia import Table

HARMS = frozenset({"wound", "treason"})
"""Ops that *target* a troubleshooter in the talk's sense (protocol/games/paranoia.md, Table
talk: "not to target s" means no card section that wounds s or gives it treason)."""

RESERVE = 1.0
"""What an answer card is worth kept in hand: answer only when it saves more."""
CLEARANCE = 6.0
"""One clearance up (the score)."""


class Seen(Table):
    """The view, read once per decision, and what each thing on it is worth to this seat."""

    def __init__(self, view: dict[str, Any], regard: dict[int, float] | None = None) -> None:
        super().__init__(view)
        self.treason_free = False
        """Dying for sure: treason will be discarded with the clone, so it costs nothing."""
        self.regard = regard or {}
        """Added to the value of each wound or treason this seat's own plays would give a seat
        (negative: spare it, e.g. a pact kept; positive: a grudge)."""

    # -- valuing --------------------------------------------------------------------------

    def treason_cost(self, seat: int, treason: int) -> float:
        """How bad it is for ``seat`` to hold this much treason: only the traitor line at
        Internal Security really matters (treason is discarded there every mission)."""
        if self.treason_free and seat == self.me:
            return 0.0
        limit = self.t(seat)["max_treason"]
        cost = 0.4 * treason
        if treason >= limit:
            cost += self.death_cost(seat) + 1.0  # executed, and fails the loyalty tests
        elif treason == limit - 1:
            cost += 0.8
        return cost

    def death_cost(self, seat: int) -> float:
        """What losing a clone costs ``seat``: little, unless it is its last (the game ends
        and it falls a clearance) or the game would end before it could climb back."""
        if self.t(seat)["clones"] <= 1:
            return CLEARANCE + (2.0 if self.ahead(seat) else 0.0)
        return 1.5 + 1.0 / self.t(seat)["clones"]

    def ahead(self, seat: int) -> bool:
        """Alone at the top clearance: the sooner the game ends, the better for it."""
        top = max(self.rank(s) for s in range(len(self.ts)))
        return self.rank(seat) == top and sum(self.rank(s) == top for s in range(len(self.ts))) == 1

    def at_top(self, seat: int) -> bool:
        """At the top clearance, maybe tied: the game's end would not hurt it."""
        return self.rank(seat) == max(self.rank(s) for s in range(len(self.ts)))

    def treason_delta(self, seat: int, amount: int) -> float:
        """Value to ``seat`` of its treason changing by ``amount``."""
        now = self.t(seat)["treason"]
        return self.treason_cost(seat, now) - self.treason_cost(seat, max(0, now + amount))

    def value(
        self,
        card: str,
        section: str,
        actor: int,
        target: int | None,
        answered: int | None = None,
        only_wounds: bool = False,
    ) -> float:
        """Value to me of this play resolving (positive: good for me)."""
        total = 0.0
        for effect in self.section(card, section):
            op = effect["op"]
            if only_wounds and op != "wound":
                continue
            if op == "mission_counter":
                total += self.counter_value(effect["counter"], effect["amount"])
            elif op == "end_phase":
                total += 2.0 if self.would_succeed() else -1.0
            elif op == "steal":
                if actor == self.me:
                    total += 1.0
                elif target == self.me:
                    total -= 1.0
            elif op == "guard":
                total -= 0.5 if actor == self.me else 0.0
            elif op in ("cancel", "negate_wounds", "stay_on_table"):
                continue
            else:
                when = effect.get("when")
                if when is not None and target is not None:
                    traitor = self.t(target)["traitor"]
                    if traitor != (when == "target_is_traitor"):
                        continue
                for seat in self.targets(effect, actor, target, answered):
                    total += self.on(op, effect.get("amount") or 1, actor, seat)
        return total

    def on(self, op: str, amount: int, actor: int, seat: int) -> float:
        """Value to me of one op on one troubleshooter (with my regard for it, if my own play
        would hurt it)."""
        if op in HARMS and actor == self.me and seat != self.me and seat in self.regard:
            return self.regard[seat] + self._on(op, amount, actor, seat)
        return self._on(op, amount, actor, seat)

    def _on(self, op: str, amount: int, actor: int, seat: int) -> float:
        me = self.me
        t = self.t(seat)
        if op == "wound":
            lethal = t["wounds"] + amount >= t["max_wounds"]
            if seat == me:
                if lethal:
                    return -self.death_cost(me)
                bonus = 0.0
                if self.mission_wants("took_wounds"):
                    bonus = 0.5 * (self.success_worth() + self.failure_cost())
                return bonus - 0.5 * amount
            value = 0.0
            if actor == me:
                if not t["traitor"]:
                    value += self.treason_delta(me, 2)
                elif lethal:
                    value += 1.0 + 0.4 * self.t(me)["treason"]  # a kill sheds all my treason
                    if self.mission_wants("killed_a_traitor"):
                        value += self.success_worth() + self.failure_cost()
            if lethal:
                value += self.kill_value(seat)
            return value
        if op == "treason":
            if seat == me:
                return self.treason_delta(me, amount)
            if actor != me:
                return 0.0
            # nearer the traitor line: executed at Internal Security, free to shoot meanwhile
            value = 0.3 + 0.6 * amount * min(1.0, (t["treason"] + amount) / t["max_treason"])
            if not t["traitor"] and t["treason"] + amount >= t["max_treason"]:
                value += 2.0 + self.treason_delta(me, -2)  # a new traitor: I shed 2
            return value + 0.2 * self.rank(seat)
        if op == "absolve":
            return self.treason_delta(me, -amount) if seat == me else -0.2
        if op == "heal":
            healed = min(amount, t["wounds"])
            return 1.0 * healed if seat == me else -0.1
        if op == "draw":
            return 0.8 * amount if seat == me else -0.2
        if op == "discard":
            return -0.8 * amount if seat == me else 0.4
        if op == "gain_clearance":
            return CLEARANCE if seat == me else -1.5
        if op == "lose_clearance":
            if seat == me:
                return -CLEARANCE
            return 1.5 + 0.5 * self.rank(seat) if actor == me else 0.0
        if op == "gain_clone":
            return 1.0 if seat == me and t["clones"] < 6 else 0.0
        if op == "skip_turn":
            return -1.0 if seat == me else 0.3
        return 0.0

    def kill_value(self, seat: int) -> float:
        """Value to me of another troubleshooter losing a clone."""
        if self.t(seat)["clones"] <= 1:  # its last: the game ends now
            return 8.0 if self.ahead(self.me) else -3.0 + 0.5 * self.rank(self.me)
        # The dead neither succeed nor fail: a rival killed late misses the Success result.
        late = min(t["hand"] for t in self.ts if t["alive"]) <= 2
        denied = self.success_worth() if late else 0.0
        # At the top, every clone lost brings the end (and the win) closer.
        hurry = 1.0 + 2.0 * (6 - self.t(seat)["clones"]) / 6 if self.at_top(self.me) else 0.0
        return 1.0 + 0.3 * (self.rank(seat) - self.rank(self.me)) + 0.6 * denied + hurry

    def failure_cost(self) -> float:
        """Roughly what the mission's Failure result costs me."""
        cost = 0.0
        for effect in (self.mission or {}).get("failure") or []:
            if effect["op"] == "lose_clearance":
                cost += CLEARANCE
            elif effect["op"] == "treason":
                cost -= self.treason_delta(self.me, effect.get("amount", 1))
        return cost

    def success_worth(self) -> float:
        """Roughly what the mission's Success result is worth to one troubleshooter."""
        if not self.mission:
            return 0.0
        worth = 0.0
        for effect in self.mission["success"]:
            if effect["op"] == "gain_clearance":
                worth += CLEARANCE
            elif effect["op"] in ("absolve", "draw"):
                worth += 0.5 * effect.get("amount", 1)
        return worth

    # -- the mission ------------------------------------------------------------------------

    def tests(self) -> list[dict[str, Any]]:
        return self.mission["success_when"] if self.mission else []

    def mission_wants(self, test: str) -> bool:
        return any(c["test"] == test for c in self.tests())

    def would_succeed(self) -> bool:
        """Whether I would pass every test if the mission ended now (as far as I can tell)."""
        me = self.t(self.me)
        for c in self.tests():
            test = c["test"]
            counter = self.counters.get(c.get("counter", ""), 0)
            if test == "mission_counter_at_least" and counter < c["value"]:
                return False
            if test == "mission_counter_at_most" and counter > c["value"]:
                return False
            if test in ("is_loyal", "is_most_loyal") and me["traitor"]:
                return False
            if test == "is_most_loyal" and me["treason"] > min(
                self.t(s)["treason"] for s in self.living()
            ):
                return False
            if test in ("took_wounds", "killed_a_traitor"):
                return False  # not visible in the view: assume not yet
        return True

    def counter_value(self, counter: str, amount: int) -> float:
        now = self.counters.get(counter, 0)
        after = max(0, now + amount)
        value = 0.1
        for c in self.tests():
            if c.get("counter") != counter:
                continue
            if c["test"] == "mission_counter_at_least":
                value += 1.5 * (min(after, c["value"]) - min(now, c["value"]))
            elif c["test"] == "mission_counter_at_most":
                value += 2.0 * ((now > c["value"]) - (after > c["value"]))
        return value


def best_play_value(seen: Seen, card: str, legal_options: list[dict[str, Any]]) -> float:
    values = [
        seen.value(o["play"], o["section"], seen.me, o["target"])
        for o in legal_options
        if o.get("play") == card and o["section"] != "anytime"
    ]
    return max(values, default=0.0)


def choose_turn(seen: Seen, options: list[dict[str, Any]]) -> dict[str, Any]:
    def score(option: dict[str, Any]) -> float:
        if "complete" in option:
            return 3.0 if seen.would_succeed() and not seen.t(seen.me)["traitor"] else -2.0
        if "discard" in option:
            return -0.4 - max(0.0, best_play_value(seen, option["discard"], options))
        value = seen.value(option["play"], option["section"], seen.me, option["target"])
        if option["section"] == "anytime":
            value -= RESERVE  # free, but the card is gone
        return value

    return max(options, key=score)


def choose_answer(seen: Seen, options: list[dict[str, Any]], context: dict[str, Any]):
    top = context.get("answering")

    def score(option: dict[str, Any]) -> float:
        if "pass" in option:
            return 0.0
        card = option["play"]
        effects = seen.section(card, "anytime")
        ops = {e["op"] for e in effects}
        value = -RESERVE
        if top is not None and "cancel" in ops:
            value -= seen.value(top["card"], top["section"], top["seat"], top["target"])
        if top is not None and "negate_wounds" in ops:
            value -= seen.value(
                top["card"], top["section"], top["seat"], top["target"], only_wounds=True
            )
        answered = top["seat"] if top is not None else None
        for effect in effects:
            if effect["op"] in ("cancel", "negate_wounds"):
                continue
            for seat in seen.targets(effect, seen.me, option["target"], answered):
                value += seen.on(effect["op"], effect.get("amount") or 1, seen.me, seat)
        return value

    return max(options, key=score)


def choose_dying(seen: Seen, options: list[dict[str, Any]], context: dict[str, Any]):
    me = seen.t(seen.me)
    over = me["wounds"] - me["max_wounds"] + 1  # wounds to heal to live on
    seen.treason_free = True

    def score(option: dict[str, Any]) -> float:
        if "pass" in option:
            return 0.0
        card, section = option["play"], option["section"]
        healed = 0
        for effect in seen.section(card, section):
            if effect["op"] == "heal" and (
                effect.get("target") == "self" or option["target"] == seen.me
            ):
                healed += effect["amount"]
            if effect["op"] == "negate_wounds":
                healed += over  # takes back the killing card's wounds: enough unless doubly hurt
        saved = 10.0 if healed >= over else 0.0
        return saved + seen.value(card, section, seen.me, option["target"])

    return max(options, key=score)


def choose_discard(seen: Seen, options: list[dict[str, Any]]) -> dict[str, Any]:
    return min(options, key=lambda o: _keep_value(seen, o["discard"]))


def _keep_value(seen: Seen, card: str) -> float:
    best = 0.0
    for section in seen.cards[card]["sections"]:
        if section["kind"] == "anytime":
            best = max(best, RESERVE + 0.5)
        elif section["kind"] in ("mission", "yourself"):
            best = max(best, seen.value(card, section["kind"], seen.me, None))
        else:
            for seat in seen.living():
                if section["kind"] != "troubleshooter" and seat == seen.me:
                    continue
                best = max(best, seen.value(card, section["kind"], seen.me, seat))
    return best


def choose_tie(seen: Seen, options: list[dict[str, Any]], context: dict[str, Any]):
    seats = [o["seat"] for o in options]
    if context.get("test") == "most_loyal":
        return {"seat": seen.me} if seen.me in seats else {"seat": min(seats, key=seen.rank)}
    others = [s for s in seats if s != seen.me] or seats
    return {"seat": max(others, key=seen.rank)}


def decide(
    view: dict[str, Any], legal: dict[str, Any], *, regard: dict[int, float] | None = None
) -> Any:
    """One answer, from the view alone (and the ``regard`` for seats, see Seen). ``regard`` is
    keyword-only: the SDK passes a third positional argument (its context) to a decide that
    takes one."""
    options = legal.get("options") if legal.get("kind") == "choice" else None
    if not options:
        return default_action(legal)
    seen = Seen(view, regard)
    context = view.get("decision") or {}
    kind = context.get("kind")
    if kind == "turn":
        return choose_turn(seen, options)
    if kind == "respond":
        return choose_answer(seen, options, context)
    if kind == "dying":
        return choose_dying(seen, options, context)
    if kind == "steal":
        return {"steal": True}
    if kind == "discard":
        return choose_discard(seen, options)
    if kind == "tie":
        return choose_tie(seen, options, context)
    return default_action(legal)
