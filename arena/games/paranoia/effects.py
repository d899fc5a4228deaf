"""The effect interpreter: what each op of the card vocabulary does (CARDS.md says it in words).

Effects are generators because some need a decision in the middle (an optional steal, a
discard chosen by its owner, a tie broken by the Team Leader, a dying action) and then go on.
Every change to the table is reported as an event through ``state.log``.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from arena.games.base import Decision
from arena.games.paranoia.plays import Play
from arena.games.paranoia.vocabulary import Effect, Op, Target, When

if TYPE_CHECKING:
    from arena.games.paranoia.state import ParanoiaState

Flow = Generator[Decision, Any, Any]
"""A piece of the game's flow: yields decisions, receives their answers."""

LOYALTY_TREASON = 2
"""Treason for wounding another loyal troubleshooter; also what a new traitor's giver sheds
(sourced)."""


def apply(state: ParanoiaState, play: Play, effect: Effect) -> Flow:
    """One effect of a play that was not cancelled."""
    op = effect.op
    if op is Op.CANCEL:
        assert play.answers is not None, "a cancel is only playable in answer to a card"
        play.answers.cancelled = True
        state.log("cancelled", {"seat": play.seat, "card": play.card.id, **_of(play.answers)})
        return
    if op is Op.NEGATE_WOUNDS:
        yield from _negate(state, play)
        return
    if op is Op.MISSION_COUNTER:
        counter = effect.counter
        assert counter is not None and effect.amount is not None
        before = state.counters[counter]
        state.counters[counter] = max(0, before + effect.amount)
        state.log(
            "counter", {"counter": counter.value, "from": before, "to": state.counters[counter]}
        )
        return
    if op is Op.END_PHASE:
        state.end_requested = True
        state.log("phase-ending", {"seat": play.seat, "card": play.card.id})
        return
    if op in (Op.STAY_ON_TABLE, Op.GUARD):
        return  # the card is laid on the table once its play resolves (flow.play)
    if effect.when is not None and not _holds(state, effect.when, play.target):
        state.log("no-effect", {"seat": play.seat, "card": play.card.id, "when": effect.when})
        return
    if op is Op.STEAL:
        yield from _steal(state, play, effect)
        return
    targets = yield from _targets(state, play, effect.target)
    for seat in targets:
        if not state.ts[seat].alive:
            continue  # an earlier effect (or death in seat order) may have killed it
        if op is Op.WOUND:
            assert effect.amount is not None
            yield from wound(state, play, seat, effect.amount)
        elif op is Op.DISCARD:
            yield from _discard(state, play, seat, effect)
        else:
            simple(state, seat, effect, giver=play.seat)
            t = state.ts[seat]
            if t.alive and t.wounds >= state.clearances.row(t).max_wounds:
                # demoted to a clearance whose max wounds it already has: killed, by nobody
                t.wounds = state.clearances.row(t).max_wounds
                yield from state.dying(seat, play, state.clearances.traitor(t), None)


def simple(state: ParanoiaState, seat: int, effect: Effect, giver: int | None) -> None:
    """An op on one living troubleshooter that needs no decision (and the only ops a
    mission result may use). ``giver`` is who gives treason (None for a mission result)."""
    t = state.ts[seat]
    op, amount = effect.op, effect.amount or 0
    if op is Op.TREASON:
        add_treason(state, seat, amount, giver)
    elif op is Op.ABSOLVE:
        taken = min(amount, t.treason)
        t.treason -= taken
        if taken:
            state.log("absolved", {"seat": seat, "amount": taken, "treason": t.treason})
    elif op is Op.HEAL:
        healed = min(amount, t.wounds)
        t.wounds -= healed
        if healed:
            state.log("healed", {"seat": seat, "amount": healed, "wounds": t.wounds})
    elif op is Op.DRAW:
        state.draw(seat, amount, "card")
    elif op in (Op.GAIN_CLEARANCE, Op.LOSE_CLEARANCE):
        state.move_clearance(seat, 1 if op is Op.GAIN_CLEARANCE else -1, "card")
    elif op is Op.GAIN_CLONE:
        before = t.clones
        t.clones = min(t.clones + 1, 6)
        state.log("clone-gained", {"seat": seat, "clones": t.clones, "gained": t.clones > before})
    elif op is Op.SKIP_TURN:
        t.skips += 1
        state.log("turn-to-skip", {"seat": seat, "skips": t.skips})
    else:  # pragma: no cover - the loader admits no other op here
        raise AssertionError(f"op {op} is not a simple op")


def add_treason(state: ParanoiaState, seat: int, amount: int, giver: int | None) -> None:
    """Treason on a troubleshooter; whoever makes another loyal one a traitor sheds 2."""
    t = state.ts[seat]
    was_loyal = not state.clearances.traitor(t)
    t.treason += amount
    state.log("treason", {"seat": seat, "amount": amount, "treason": t.treason, "by": giver})
    if giver is not None and giver != seat and was_loyal and state.clearances.traitor(t):
        g = state.ts[giver]
        shed = min(LOYALTY_TREASON, g.treason)
        g.treason -= shed
        state.log("made-traitor", {"seat": giver, "traitor": seat, "shed": shed})


def wound(state: ParanoiaState, play: Play, seat: int, amount: int) -> Flow:
    """Wounds on ``seat`` (or on its Noble Sacrifice guard), with the loyalty economy, and the
    dying action at once when they reach the maximum (ruling 3)."""
    if play.negated:
        state.log("wounds-negated", {"seat": seat, "card": play.card.id})
        return
    attacker = state.ts[play.seat]
    named = state.ts[seat]
    victim = state.guard_of(seat, play.seat) or named
    if seat != play.seat and attacker.alive and not state.clearances.traitor(named):
        attacker.treason += LOYALTY_TREASON
        state.log(
            "loyalty-treason",
            {"seat": play.seat, "wounded": seat, "amount": LOYALTY_TREASON},
        )
    was_traitor = state.clearances.traitor(victim)
    limit = state.clearances.row(victim).max_wounds
    dealt = min(amount, limit - victim.wounds)
    victim.wounds += dealt
    victim.took_wounds = True
    play.wounds_dealt[victim.seat] = play.wounds_dealt.get(victim.seat, 0) + dealt
    state.log(
        "wounded",
        {
            "seat": victim.seat,
            "by": play.seat,
            "card": play.card.id,
            "amount": dealt,
            "wounds": victim.wounds,
            "guarding": seat if victim is not named else None,
        },
    )
    if dealt and victim.wounds >= limit:
        yield from state.dying(victim.seat, play, was_traitor, play.seat)


def _negate(state: ParanoiaState, play: Play) -> Flow:
    """Docbot: the answered play deals no more wounds; played as a dying action it also takes
    back the wounds that play dealt to the dying troubleshooter."""
    cause = play.answers
    assert cause is not None, "negate_wounds is only playable in answer to a card"
    cause.negated = True
    healed = 0
    if play.context == "dying":
        t = state.ts[play.seat]
        healed = min(cause.wounds_dealt.get(play.seat, 0), t.wounds)
        t.wounds -= healed
    state.log("negated", {"seat": play.seat, **_of(cause), "healed": healed})
    yield from ()


def _steal(state: ParanoiaState, play: Play, effect: Effect) -> Flow:
    """Cards at random from the section's target into the player's hand."""
    assert play.target is not None and effect.amount is not None
    thief, victim = state.ts[play.seat], state.ts[play.target]
    if not (thief.alive and victim.alive and victim.hand):
        return
    if effect.optional:
        context = {"from": victim.seat, "amount": effect.amount, "card": play.card.id}
        answer = yield from state.ask(
            thief.seat, "steal", [{"steal": False}, {"steal": True}], context
        )
        if not answer["steal"]:
            state.log("steal-declined", {"seat": thief.seat, "from": victim.seat})
            return
    taken = [
        victim.hand.pop(state.rng.randrange(len(victim.hand)))
        for _ in range(min(effect.amount, len(victim.hand)))
    ]
    thief.hand.extend(taken)
    state.log(
        "stole",
        {"seat": thief.seat, "from": victim.seat, "cards": taken},
        seen_by=frozenset({thief.seat, victim.seat}),
        others={"seat": thief.seat, "from": victim.seat, "count": len(taken)},
    )


def _discard(state: ParanoiaState, play: Play, seat: int, effect: Effect) -> Flow:
    """Cards from the target's hand to the discards, face up: at random or the owner's pick."""
    t = state.ts[seat]
    assert effect.amount is not None
    for _ in range(min(effect.amount, len(t.hand))):
        # The owner is asked whenever it holds more than one card, even if they are all copies
        # of one card (a single option): whether it is asked must depend only on the hand's
        # size, which is public, never on what is in it (ruling 23).
        if effect.choice == "owner" and len(t.hand) > 1:
            options = [{"discard": card} for card in dict.fromkeys(t.hand)]
            context = {"by": play.seat, "card": play.card.id}
            answer = yield from state.ask(seat, "discard", options, context)
            card = answer["discard"]
            t.hand.remove(card)
        else:
            card = t.hand.pop(state.rng.randrange(len(t.hand)))
        state.actions.discards.append(card)
        state.log("discarded", {"seat": seat, "card": card, "by": play.seat})


def _targets(state: ParanoiaState, play: Play, target: Target | None) -> Flow:
    """The seats an effect acts on, in order (may ask the Team Leader to break a tie)."""
    if target is Target.TARGET:
        assert play.target is not None
        return [play.target]
    if target is Target.SELF:
        return [play.seat]
    if target is Target.ANSWERED:
        assert play.answers is not None
        return [play.answers.seat]
    if target is Target.TEAM_LEADER:
        return [state.leader]
    if target is Target.ALL:
        n = state.players
        return [(play.seat + k) % n for k in range(n) if state.ts[(play.seat + k) % n].alive]
    if target is Target.MOST_TRAITOROUS:
        living = [t for t in state.ts if t.alive]
        if not living:
            return []
        most = max(t.treason for t in living)
        tied = [t.seat for t in living if t.treason == most]
        chosen = yield from state.break_tie("most_traitorous", tied)
        return [chosen]
    raise AssertionError(f"effect target {target} needs no target list")  # pragma: no cover


def _holds(state: ParanoiaState, when: When, seat: int | None) -> bool:
    assert seat is not None, "the loader allows 'when' only in targeted sections"
    traitor = state.clearances.traitor(state.ts[seat])
    return traitor if when is When.TARGET_IS_TRAITOR else not traitor


def _of(play: Play) -> dict[str, Any]:
    """Which play an answer acted on, for events."""
    return {"answered_seat": play.seat, "answered_card": play.card.id}
