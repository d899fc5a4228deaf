"""The flow of a game: missions, the deal, card play with its response windows, dying actions,
deaths and leader succession. Debriefing and Internal Security are in debriefing.py.

Every function here is a generator: it yields a Decision whenever a seat must answer and gets
the answer back from ``yield``. Response windows are nested calls (a card answering a card
answering a card), so the chain resolves last-in first-out by construction.
"""

from __future__ import annotations

from collections.abc import Generator
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from arena.games.base import Decision
from arena.games.paranoia import debriefing, effects, tabletalk
from arena.games.paranoia.deaths import die, return_clone
from arena.games.paranoia.plays import (
    Play,
    TableCard,
    anytime_options,
    distinct,
    section_options,
)
from arena.games.paranoia.vocabulary import MissionCounter, Op, SectionKind

if TYPE_CHECKING:
    from arena.games.paranoia.state import ParanoiaState

Flow = Generator[Decision, Any, Any]


class Phase(StrEnum):
    """The mission's phase (the Mission and Deal phases need no decision, so never show)."""

    CARD_PLAY = "card-play"
    DEBRIEFING = "debriefing"
    INTERNAL_SECURITY = "internal-security"
    OVER = "over"


PASS = {"pass": True}
"""The answer that plays nothing in a response window or as a dying action."""
PLAY_CAP = 200
"""Cards played or discarded in one mission before its card play stops (a guard against
endless missions; never reached in simulation)."""


def game(state: ParanoiaState, *, draw_leader: bool = True) -> Flow:
    """Setup, then missions until someone loses its last clone or the game cap is reached.
    ``draw_leader=False`` keeps a leader and clearances already set (test positions)."""
    if draw_leader:
        state.leader = state.rng.randrange(state.players)
        state.clearances.move(state.ts[state.leader], 1)
    state.log("setup", {"players": state.players, "team_leader": state.leader})
    while True:
        yield from mission(state)
        if state.game_ending:
            state.ended_by = "last-clone"
            break
        if state.mission_number >= state.mission_cap:
            state.ended_by = "mission-cap"
            break
    state.phase = Phase.OVER
    outcome = state.outcome()
    state.log(
        "game-end",
        {
            "ended_by": state.ended_by,
            "missions": state.mission_number,
            "scores": list(outcome.scores),
            "ranks": list(outcome.ranks),
            **outcome.detail,
        },
    )


def mission(state: ParanoiaState) -> Flow:
    """One mission: its five phases."""
    _begin_mission(state)
    _deal(state)
    state.phase = Phase.CARD_PLAY
    yield from _card_play(state)
    yield from _phase_end_window(state)
    state.phase = Phase.DEBRIEFING
    yield from debriefing.debrief(state)
    state.phase = Phase.INTERNAL_SECURITY
    debriefing.internal_security(state)
    if not state.game_ending and state.mission_number < state.mission_cap:
        yield from tabletalk.window(state, tabletalk.MISSION_END, state.leader)
    assert state.mission is not None
    state.missions.discards.append(state.mission.id)


def _begin_mission(state: ParanoiaState) -> None:
    """Phase 1: new clones for the dead, fresh mission counters, the top Mission card and
    its secret role."""
    state.mission_number += 1
    for t in state.ts:
        if not t.alive and not t.out:
            return_clone(state, t.seat, "mission")
        t.took_wounds = t.died = t.killed_traitor = False
        t.skips = 0
    state.counters = dict.fromkeys(MissionCounter, 0)
    state.turns_taken = state.plays = 0
    state.end_requested = state.completed = False
    card_id, reshuffled = state.missions.draw()
    assert card_id is not None, "every finished mission goes back to the mission discards"
    if reshuffled:
        state.log("missions-reshuffled", {"cards": len(state.missions.cards) + 1})
    state.mission = state.missions_by_id[card_id]
    state.secret_holder = None
    state.log(
        "mission",
        {"number": state.mission_number, "mission": card_id, "team_leader": state.leader},
    )
    role = state.mission.secret_role
    if role is not None:
        living = [t.seat for t in state.ts if t.alive]
        state.secret_holder = state.rng.choice(living)
        state.log(
            "secret-role",
            {"role": role, "holder": state.secret_holder},
            seen_by=frozenset({state.secret_holder}),
            others={"role": role, "holder": None},
        )


def _deal(state: ParanoiaState) -> None:
    """Phase 2: every living troubleshooter topped up to its hand size, from the Team Leader
    clockwise; the Team Leader gets one bonus card."""
    n = state.players
    for k in range(n):
        t = state.ts[(state.leader + k) % n]
        if not t.alive:
            continue
        want = max(0, state.clearances.row(t).hand_size - len(t.hand))
        state.draw(t.seat, want + (1 if t.seat == state.leader else 0), "deal")


def living(state: ParanoiaState) -> list[Any]:
    """The living troubleshooters, by seat."""
    return [t for t in state.ts if t.alive]


def phase_over(state: ParanoiaState) -> str | None:
    """Why card play must end now, or None."""
    if state.game_ending:
        return "last-clone"
    if state.end_requested:
        return "aborted"
    if state.completed:
        return "completed"
    alive = living(state)
    if len(alive) <= 1:
        return "one-left"
    if any(not t.hand for t in alive):
        return "empty-hand"
    if state.plays >= PLAY_CAP:
        return "play-cap"
    return None


def _card_play(state: ParanoiaState) -> Flow:
    """Phase 3: turns clockwise from the Team Leader until the phase ends."""
    seat = state.leader
    while (reason := phase_over(state)) is None:
        for t in state.ts:
            if t.returning:
                return_clone(state, t.seat, "turn")
        if (reason := phase_over(state)) is not None:
            break
        state.turn = seat
        t = state.ts[seat]
        if t.out:
            pass  # no more clones: its turns pass silently
        elif not t.alive:
            t.returning = True  # this was its skipped turn; it is back at the next turn
            state.log("turn-skipped", {"seat": seat, "reason": "dead"})
        elif t.skips:
            t.skips -= 1
            state.log("turn-skipped", {"seat": seat, "reason": "card"})
        else:
            yield from tabletalk.window(state, tabletalk.BEFORE_TURN, seat)
            state.log("turn", {"seat": seat})
            discarded = yield from _turn(state, seat)
            yield from _turn_end_window(state, seat, discarded)
        state.turns_taken += 1
        seat = (seat + 1) % state.players
    state.turn = None
    state.log("card-play-end", {"reason": reason})


def _turn(state: ParanoiaState, seat: int) -> Flow:
    """Play or discard one card; Play Anytime cards played first do not use the turn. Returns
    the card discarded, if the turn ended in a discard."""
    t = state.ts[seat]
    at_start = True
    while t.alive and phase_over(state) is None:
        can_complete = (
            at_start  # "at the start of its turn", not after a Play Anytime card
            and seat == state.leader
            and state.turns_taken >= state.players
            and debriefing.mission_completed(state)
        )
        at_start = False
        options = turn_options(state, seat, can_complete)
        answer = yield from state.ask(seat, "turn", options, {"can_complete": can_complete})
        if "complete" in answer:
            state.completed = True
            state.log("mission-complete", {"seat": seat})
            return
        if "discard" in answer:
            t.hand.remove(answer["discard"])
            state.actions.discards.append(answer["discard"])
            state.plays += 1
            state.log("discarded", {"seat": seat, "card": answer["discard"], "by": None})
            return str(answer["discard"])
        yield from play(state, seat, answer, "turn")
        if answer["section"] != SectionKind.ANYTIME:
            return None
    return None


def turn_options(state: ParanoiaState, seat: int, can_complete: bool) -> list[dict[str, Any]]:
    """A turn's legal answers: discards first (the default answer discards), then plays."""
    t = state.ts[seat]
    alive = living(state)
    cards = [state.actions_by_id[c] for c in distinct(t.hand)]
    options: list[dict[str, Any]] = [{"discard": card.id} for card in cards]
    for card in cards:
        for section in card.sections:
            if section.kind is SectionKind.ANYTIME:
                options += anytime_options(card, t, alive, None)
            else:
                options += section_options(card, section, t, alive)
    if can_complete:
        options.append({"complete": True})
    return options


def play(
    state: ParanoiaState,
    seat: int,
    answer: dict[str, Any],
    context: str,
    answers: Play | None = None,
) -> Flow:
    """A card played: on the chain, its response window, then its effects (or nothing, if a
    cancel resolved against it)."""
    t = state.ts[seat]
    card = state.actions_by_id[answer["play"]]
    t.hand.remove(card.id)
    entry = Play(seat, card, SectionKind(answer["section"]), answer["target"], answers, context)
    state.plays += 1
    state.chain.append(entry)
    state.log("played", {**entry.public(), "depth": len(state.chain)})
    yield from _window(state, entry)
    if entry.cancelled:
        state.log("fizzled", {"seat": seat, "card": card.id})
    else:
        for effect in entry.effects.effects:
            yield from effects.apply(state, entry, effect)
    assert state.chain[-1] is entry, "the chain resolves last-in first-out"
    state.chain.pop()
    ops = {e.op for e in entry.effects.effects}
    if not entry.cancelled and Op.STAY_ON_TABLE in ops:
        guard = next((e for e in entry.effects.effects if e.op is Op.GUARD), None)
        guarding = entry.target if guard else None
        state.table.append(TableCard(entry, guarding))
        state.log("on-table", {"seat": seat, "card": card.id, "guarding": guarding})
    else:
        state.actions.discards.append(card.id)
        if not entry.cancelled:  # a cancelled card's "fizzled" event already said it
            state.log("resolved", {"seat": seat, "card": card.id})


def _window(state: ParanoiaState, top: Play) -> Flow:
    """The response window of a play: each other living seat, in turn order from the player's
    left, is asked once, whether or not it holds a card it could play now (ruling 23: who is
    asked, and so how long a window takes, must not tell the table who holds an answer); an
    answer gets its own window (and resolves) before the next seat is asked."""
    n = state.players
    for k in range(1, n):
        if top.cancelled or state.plays >= PLAY_CAP:
            return
        seat = (top.seat + k) % n
        if not state.ts[seat].alive:
            continue
        options = _answers(state, seat, top)  # none: {"pass": true} is its only option
        context = {"reason": "play", "answering": top.public()}
        answer = yield from state.ask(seat, "respond", [PASS, *options], context)
        if "play" in answer:
            yield from play(state, seat, answer, "respond", answers=top)


def _answers(state: ParanoiaState, seat: int, top: Play | None) -> list[dict[str, Any]]:
    """Anytime plays ``seat`` could make now, ``top`` being the play to answer (if any)."""
    t = state.ts[seat]
    alive = living(state)
    options: list[dict[str, Any]] = []
    for card_id in distinct(t.hand):
        options += anytime_options(state.actions_by_id[card_id], t, alive, top)
    return options


def _turn_end_window(state: ParanoiaState, seat: int, discarded: str | None) -> Flow:
    """Between two turns (ruling 27): once ``seat``'s turn is over, each living seat is asked
    once, from its left, whether or not it holds a Play Anytime card it could play now (ruling
    23). After a discard (``"reason": "discard"``) the discarder is not asked: it could play
    any such card on its turn before discarding, and nothing has happened since. After a card
    played and resolved (``"reason": "turn-end"``) the player is asked last: its card's outcome
    is news to it too. No window once card play is over: the phase-end window follows."""
    n = state.players
    if discarded is None:
        context: dict[str, Any] = {"reason": "turn-end", "seat": seat}
    else:
        context = {"reason": "discard", "discarded": {"seat": seat, "card": discarded}}
    for k in range(1, n + 1):
        asked = (seat + k) % n
        if phase_over(state) is not None:
            return
        if not state.ts[asked].alive or (asked == seat and discarded is not None):
            continue
        options = _answers(state, asked, None)  # none: {"pass": true} is its only option
        answer = yield from state.ask(asked, "respond", [PASS, *options], context)
        if "play" in answer:
            yield from play(state, asked, answer, "turn-end")


def _phase_end_window(state: ParanoiaState) -> Flow:
    """As the phase (and so the mission, maybe the game) ends: each living seat is asked once,
    from the Team Leader clockwise, whether or not it holds a Play Anytime card it could play
    (ruling 23)."""
    first = state.leader
    n = state.players
    for k in range(n):
        seat = (first + k) % n
        if not state.ts[seat].alive or state.plays >= PLAY_CAP:
            continue
        options = _answers(state, seat, None)  # none: {"pass": true} is its only option
        answer = yield from state.ask(seat, "respond", [PASS, *options], {"reason": "phase-end"})
        if "play" in answer:
            yield from play(state, seat, answer, "phase-end")


def dying(
    state: ParanoiaState, seat: int, cause: Play, was_traitor: bool, killer: int | None
) -> Flow:
    """Wounds reached the maximum: one card at once, plus any Play Anytime cards (a Docbot may
    take back the wounds of the card that caused them); still at the maximum afterwards, the
    troubleshooter dies. ``killer`` dealt the fatal wound (None: a demotion did it)."""
    t = state.ts[seat]
    state.log("dying", {"seat": seat, "by": killer, "card": cause.card.id})
    limit = state.clearances.row
    while t.alive and t.hand and t.wounds >= limit(t).max_wounds and state.plays < PLAY_CAP:
        options = dying_options(state, seat, cause)
        context = {"cause": cause.public(), "wounds": t.wounds}
        answer = yield from state.ask(seat, "dying", [PASS, *options], context)
        if "play" not in answer:
            break
        anytime = answer["section"] == SectionKind.ANYTIME
        yield from play(state, seat, answer, "dying", cause if anytime else None)
        if not anytime:
            break  # the dying action itself; Play Anytime cards do not use it
    if not t.alive:
        return  # killed again by its own dying action's consequences (already handled)
    if t.wounds < limit(t).max_wounds:
        state.log("survived", {"seat": seat, "wounds": t.wounds})
        return
    die(state, seat, killer, was_traitor)


def dying_options(state: ParanoiaState, seat: int, cause: Play) -> list[dict[str, Any]]:
    """A dying action: any card's non-anytime section, or a Play Anytime card: a
    negate_wounds answer to the card that caused the wounds, or a free-standing one."""
    t = state.ts[seat]
    alive = living(state)
    options: list[dict[str, Any]] = []
    for card_id in distinct(t.hand):
        card = state.actions_by_id[card_id]
        for section in card.sections:
            if section.kind is not SectionKind.ANYTIME:
                options += section_options(card, section, t, alive)
            elif any(e.op is Op.NEGATE_WOUNDS for e in section.effects):
                options += anytime_options(card, t, alive, cause)
            elif not any(e.op is Op.CANCEL for e in section.effects):
                options += anytime_options(card, t, alive, None)
    return options
