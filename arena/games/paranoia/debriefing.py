"""Phases 4 and 5 of a mission: Debriefing (each living troubleshooter gets the mission's
Success or Failure result) and Internal Security (traitors executed, treason and wounds
discarded, the table cleared)."""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from arena.games.base import Decision
from arena.games.paranoia import effects
from arena.games.paranoia.deaths import die
from arena.games.paranoia.table import Troubleshooter
from arena.games.paranoia.vocabulary import Check, Condition

if TYPE_CHECKING:
    from arena.games.paranoia.state import ParanoiaState


def debrief(state: ParanoiaState) -> Generator[Decision, Any, None]:
    """Every test is judged before any result is given (results change treason, which the
    tests read); the dead neither succeed nor fail; the secret role is revealed."""
    mission = state.mission
    assert mission is not None
    n = state.players
    debriefed = [state.ts[(state.leader + k) % n] for k in range(n)]
    debriefed = [t for t in debriefed if t.alive]
    most_loyal = None
    if any(c.test is Check.IS_MOST_LOYAL for c in mission.success_when) and debriefed:
        fewest = min(t.treason for t in debriefed)
        tied = [t.seat for t in debriefed if t.treason == fewest]
        most_loyal = yield from state.break_tie("most_loyal", tied)
    success = {
        t.seat: all(_passes(state, c, t, most_loyal) for c in mission.success_when)
        for t in debriefed
    }
    state.log(
        "debriefing",
        {
            "mission": mission.id,
            "counters": {c.value: v for c, v in state.counters.items()},
            "secret_role": mission.secret_role,
            "holder": state.secret_holder,
            "results": [{"seat": seat, "success": ok} for seat, ok in success.items()],
        },
    )
    for seat, ok in success.items():
        result = mission.success if ok else (mission.failure or ())
        for effect in result:
            if state.ts[seat].alive:
                effects.simple(state, seat, effect, giver=None)
    for t in debriefed:
        if t.alive and t.wounds >= state.clearances.row(t).max_wounds:
            # demoted to a clearance whose max wounds it has; card play is over, so no dying
            # action (ruling 21)
            die(state, t.seat, None, state.clearances.traitor(t))


ACHIEVEMENTS = frozenset(
    {Check.MISSION_COUNTER_AT_LEAST, Check.TOOK_WOUNDS, Check.KILLED_A_TRAITOR}
)
"""Tests that something was done; a mission without one ("stay alive", "stay loyal") is never
"completed" early: it lasts until card play ends some other way."""


def mission_completed(state: ParanoiaState) -> bool:
    """Whether the Team Leader may declare the mission complete. The seed rules: "if the
    mission has been completed and the Team Leader declares it"; ruled as: the mission has an
    achievement test and some living troubleshooter would succeed if debriefed now (the fewest
    treason counting as most loyal)."""
    mission = state.mission
    assert mission is not None
    alive = [t for t in state.ts if t.alive]
    if not alive or not any(c.test in ACHIEVEMENTS for c in mission.success_when):
        return False
    fewest = min(t.treason for t in alive)
    return any(
        all(
            _passes(state, c, t, t.seat if t.treason == fewest else None)
            for c in mission.success_when
        )
        for t in alive
    )


def _passes(state: ParanoiaState, c: Condition, t: Troubleshooter, most_loyal: int | None) -> bool:
    test = c.test
    if test is Check.ALIVE:
        return True
    if test is Check.MISSION_COUNTER_AT_LEAST:
        assert c.counter is not None and c.value is not None
        return state.counters[c.counter] >= c.value
    if test is Check.MISSION_COUNTER_AT_MOST:
        assert c.counter is not None and c.value is not None
        return state.counters[c.counter] <= c.value
    if test is Check.TOOK_WOUNDS:
        return t.took_wounds
    if test is Check.DID_NOT_DIE:
        return not t.died
    if test is Check.IS_LOYAL:
        return not state.clearances.traitor(t)
    if test is Check.IS_MOST_LOYAL:
        return t.seat == most_loyal
    if test is Check.KILLED_A_TRAITOR:
        return t.killed_traitor
    if test is Check.SECRET_OFFICER_ALIVE:  # "success if the officer survives" the mission
        officer = None if state.secret_holder is None else state.ts[state.secret_holder]
        return officer is not None and officer.alive and not officer.died
    raise AssertionError(f"unknown test {test}")  # pragma: no cover


def internal_security(state: ParanoiaState) -> None:
    """The treason is noted for the final tie-break; every traitor is executed (no dying
    action), from the Team Leader clockwise; then everybody's wounds and treason discarded;
    cards on the table go to the discards; hands are kept."""
    n = state.players
    order = [state.ts[(state.leader + k) % n] for k in range(n)]
    traitors = [t.seat for t in order if t.alive and state.clearances.traitor(t)]
    state.final_treason = [t.treason for t in state.ts]  # as held when Internal Security began
    for seat in traitors:
        state.log("executed", {"seat": seat, "treason": state.ts[seat].treason})
        die(state, seat, None, True, execution=True)
    for t in state.ts:
        t.wounds = t.treason = 0
    cleared = [card.play.card.id for card in state.table]
    state.actions.discards.extend(cleared)
    state.table.clear()
    state.log("internal-security", {"executed": traitors, "cleared": cleared})
