"""Deaths and what follows them: a clone lost, the killer of a traitor rewarded, the end of
the game on a last clone, the Team Leader's succession, and the next clone's arrival.
(The dying action that comes before a death is in flow.py.)"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from arena.games.paranoia.state import ParanoiaState


def die(
    state: ParanoiaState,
    seat: int,
    killer: int | None,
    was_traitor: bool,
    *,
    execution: bool = False,
) -> None:
    """A death: wounds and treason discarded, a clone lost, the next turn skipped; the killer
    of a traitor sheds all its treason; a lost last clone costs a clearance and ends the game;
    a dead Team Leader is replaced."""
    t = state.ts[seat]
    t.alive = False
    t.wounds = t.treason = t.skips = 0
    t.returning = False
    t.clones -= 1
    t.died = True
    for card in state.table:
        if card.play.seat == seat:
            card.active = False
    state.log(
        "died",
        {"seat": seat, "by": killer, "execution": execution, "clones": t.clones},
    )
    if killer is not None and killer != seat and was_traitor:
        k = state.ts[killer]
        state.log("traitor-killed", {"seat": killer, "traitor": seat, "shed": k.treason})
        k.treason = 0
        k.killed_traitor = True
    if t.out:
        state.game_ending = True
        state.log("last-clone", {"seat": seat})
        state.move_clearance(seat, -1, "last-clone")
    if seat == state.leader:
        succession(state, seat)


def succession(state: ParanoiaState, old: int) -> None:
    """The living troubleshooter with the fewest treason (tie: the first to the old leader's
    left) becomes Team Leader and is promoted one clearance."""
    n = state.players
    order = [state.ts[(old + k) % n] for k in range(1, n + 1)]
    candidates = [t for t in order if t.alive]
    if not candidates:
        return  # nobody alive: the leader stays where it is until the next mission
    new = min(candidates, key=lambda t: t.treason)
    state.leader = new.seat
    state.log("new-leader", {"seat": new.seat, "previous": old})
    state.move_clearance(new.seat, 1, "team-leader")


def return_clone(state: ParanoiaState, seat: int, when: str) -> None:
    """A dead troubleshooter's next clone arrives (at the turn after its skipped one, or at
    the next Mission); a Team Leader left dead with nobody to succeed it is replaced now."""
    t = state.ts[seat]
    t.alive = True
    t.returning = False
    state.log("new-clone", {"seat": seat, "clones": t.clones, "when": when})
    if not state.ts[state.leader].alive:
        succession(state, state.leader)
