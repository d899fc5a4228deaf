"""Step 2 of a turn: receiving the scholars waiting in front of the owner's palace.

The work is an agenda of tasks built when the step starts: (a) negotiations with the
no-conflict applicants, their admission and placement; (b) external conflicts in type order,
each one negotiated with its applicants, then its winner chosen and placed; (c) internal
conflicts from the lowest-paid section up, each one negotiated (the incumbent's owner first)
and resolved. Applicants negotiate in turn order from the player after the owner.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arena.games.base import Decision, Event
from arena.games.intrigue.board import Board, Ledger
from arena.games.intrigue.negotiation import Negotiation, Role, Stage, Step
from arena.games.intrigue.scholars import TYPES
from protocol.legal import choice


@dataclass
class Admit:
    """Step a's applicants are admitted, once all of the step's bribes are paid."""

    scholars: list[int]
    """Ids, in negotiation order."""


@dataclass
class Place:
    """The owner puts an admitted scholar into a free section."""

    scholar: int
    """The scholar to place."""
    step: Step
    """The step it was admitted in."""
    replaced: int | None = None
    """Free Replacement: the incumbent it replaced (its section is among the free ones)."""


@dataclass
class Choose:
    """The owner picks the winner of an external conflict; the others are exiled."""

    type: str
    """The scholar type in conflict."""
    applicants: tuple[int, ...]
    """Ids, in negotiation order."""


@dataclass
class KeepOrReplace:
    """The owner keeps the incumbent (the applicants are exiled) or replaces it."""

    type: str
    """The scholar type in conflict."""
    incumbent: int
    """The scholar inside."""
    section: int
    """Its section."""
    applicants: tuple[int, ...]
    """Ids waiting outside, in negotiation order."""


Task = Negotiation | Admit | Place | Choose | KeepOrReplace


class Receiving:
    """One owner receiving its waiting scholars; ``advance`` / ``resolve`` like a small game."""

    def __init__(self, owner: int, board: Board, ledger: Ledger, free_replacement: bool) -> None:
        self.owner = owner
        """The palace owner (the player whose turn it is)."""
        self.board = board
        self.ledger = ledger
        self.free_replacement = free_replacement
        """Free Replacement variant in play."""
        self.deals: dict[int, Negotiation] = {}
        """Settled negotiations of this turn, by scholar id, in settling order."""
        self.tasks: list[Task] = []
        """What remains to do, first task first."""
        self.no_conflict: tuple[int, ...] = ()
        """Step a's applicants, in negotiation order."""
        self.external: tuple[tuple[str, tuple[int, ...]], ...] = ()
        """Step b's conflicts: (type, applicants in negotiation order), in type order."""
        self.internal: tuple[tuple[int, str, int, tuple[int, ...]], ...] = ()
        """Step c's conflicts: (section, type, incumbent, applicants), lowest section first."""

    def begin(self, events: list[Event]) -> None:
        """Sort the waiting scholars into the three steps and build the agenda."""
        board, owner = self.board, self.owner
        waiting = sorted(board.waiting[owner], key=self._turn_order)
        inside = board.inside(owner)
        by_type = {t: [sid for sid in waiting if board.scholar(sid).type == t] for t in TYPES}
        no_conflict = tuple(sid for sid in waiting if _alone_outside(board, sid, inside, by_type))
        external = {
            t: tuple(ids) for t, ids in by_type.items() if t not in inside and len(ids) >= 2
        }
        internal = sorted(
            (inside[t][0], t, inside[t][1], tuple(ids))
            for t, ids in by_type.items()
            if t in inside and ids
        )
        self.no_conflict, self.external = no_conflict, tuple(external.items())
        self.internal = tuple(internal)
        for sid in no_conflict:
            self.tasks.append(self._negotiation(sid, Step.NO_CONFLICT))
        if no_conflict:
            self.tasks.append(Admit(list(no_conflict)))
            self.tasks.extend(Place(sid, Step.NO_CONFLICT) for sid in no_conflict)
        for type_, ids in external.items():  # one conflict at a time, in type order (I6)
            self.tasks.extend(self._negotiation(sid, Step.EXTERNAL) for sid in ids)
            self.tasks.append(Choose(type_, ids))
        for section, type_, incumbent, ids in internal:
            self.tasks.append(
                Negotiation(
                    owner,
                    board.scholar(incumbent),
                    Step.INTERNAL,
                    role=Role.INCUMBENT,
                    incumbent_section=section,
                )
            )
            self.tasks.extend(self._negotiation(sid, Step.INTERNAL) for sid in ids)
            self.tasks.append(KeepOrReplace(type_, incumbent, section, ids))
        if waiting:
            events.append(Event("receiving", self.summary()))

    def summary(self) -> dict[str, Any]:
        """The conflicts found when receiving began (public), built afresh."""
        return {
            "palace": self.owner,
            "no_conflict": list(self.no_conflict),
            "external": [{"type": t, "applicants": list(ids)} for t, ids in self.external],
            "internal": [
                {"type": t, "incumbent": inc, "section": section, "applicants": list(ids)}
                for section, t, inc, ids in self.internal
            ],
        }

    # -- the machine ------------------------------------------------------------------------

    def advance(self, events: list[Event]) -> Decision | None:
        """Do everything automatic; return the next decision, or None when done."""
        while self.tasks:
            task = self.tasks[0]
            if isinstance(task, Negotiation):
                return task.decision(self.ledger)
            if isinstance(task, Admit):
                self.tasks.pop(0)
                for sid in task.scholars:
                    events.append(self._admitted(sid, Step.NO_CONFLICT))
                continue
            if isinstance(task, Place):
                free = self.board.free_sections(self.owner)
                if len(free) == 1:
                    self.tasks.pop(0)
                    self._place(task, free[0], events, forced=True)
                    continue
                return Decision(self.owner, "place", choice([{"section": s} for s in free]))
            if isinstance(task, Choose):
                options = [{"scholar": sid} for sid in task.applicants]
                return Decision(self.owner, "choose", choice(options))
            options = [{"keep": task.incumbent}, *({"replace_with": s} for s in task.applicants)]
            return Decision(self.owner, "keep_or_replace", choice(options))
        return None

    def resolve(self, action: dict[str, Any], events: list[Event]) -> None:
        """Apply a legal answer to the head task's question."""
        task = self.tasks[0]
        if isinstance(task, Negotiation):
            task.resolve(action, self.ledger, events)
            if task.stage is Stage.DONE:
                self.tasks.pop(0)
                self.deals[task.scholar.id] = task
            return
        self.tasks.pop(0)
        if isinstance(task, Place):
            self._place(task, action["section"], events, forced=False)
        elif isinstance(task, Choose):
            winner = action["scholar"]
            events.append(self._admitted(winner, Step.EXTERNAL))
            for sid in task.applicants:
                if sid != winner:
                    self._exile(sid, Step.EXTERNAL, "rejected", events)
            self.tasks.insert(0, Place(winner, Step.EXTERNAL))
        elif isinstance(task, KeepOrReplace):
            self._keep_or_replace(task, action, events)

    def current(self) -> dict[str, Any] | None:
        """What the head task is about (public), for views (codes read as _value_, not
        the slow .value property: this is built twice per view while receiving)."""
        if not self.tasks:
            return None
        task = self.tasks[0]
        if isinstance(task, Negotiation):
            return {
                "step": task.step._value_,
                "scholar": task.scholar.id,
                "type": task.scholar.type,
            }
        if isinstance(task, Place):
            scholar = self.board.scholar(task.scholar)
            return {
                "step": task.step._value_,
                "scholar": task.scholar,
                "type": scholar.type,
                "replaced": task.replaced,
            }
        if isinstance(task, Choose):
            return {
                "step": Step.EXTERNAL._value_,
                "type": task.type,
                "applicants": list(task.applicants),
            }
        if isinstance(task, KeepOrReplace):
            return {
                "step": Step.INTERNAL._value_,
                "type": task.type,
                "incumbent": task.incumbent,
                "section": task.section,
                "applicants": list(task.applicants),
            }
        return {"step": Step.NO_CONFLICT._value_}

    def negotiation(self) -> Negotiation | None:
        """The negotiation in progress, if the head task is one."""
        task = self.tasks[0] if self.tasks else None
        return task if isinstance(task, Negotiation) else None

    # -- pieces -----------------------------------------------------------------------------

    def _turn_order(self, scholar_id: int) -> tuple[int, int]:
        """Players after the owner first (clockwise), then arrival order."""
        seat = self.board.scholar(scholar_id).owner
        return (seat - self.owner) % self.board.players, self.board.waiting[self.owner].index(
            scholar_id
        )

    def _negotiation(self, scholar_id: int, step: Step) -> Negotiation:
        return Negotiation(self.owner, self.board.scholar(scholar_id), step)

    def _keep_or_replace(
        self, task: KeepOrReplace, action: dict[str, Any], events: list[Event]
    ) -> None:
        if "keep" in action:
            deal = self.deals[task.incumbent]
            events.append(
                Event(
                    "kept",
                    {
                        "palace": self.owner,
                        "scholar": task.incumbent,
                        "applicant": deal.applicant,
                        "type": task.type,
                        "asked_section": deal.section,
                        "given_section": task.section,
                        "paid": deal.paid,
                    },
                )
            )
            for sid in task.applicants:
                self._exile(sid, Step.INTERNAL, "rejected", events)
            return
        newcomer = action["replace_with"]
        self._exile(task.incumbent, Step.INTERNAL, "replaced", events)
        for sid in task.applicants:
            if sid != newcomer:
                self._exile(sid, Step.INTERNAL, "rejected", events)
        events.append(self._admitted(newcomer, Step.INTERNAL))
        place = Place(newcomer, Step.INTERNAL, replaced=task.incumbent)
        if self.free_replacement:
            self.tasks.insert(0, place)
        else:  # the newcomer takes the vacated section: the rule, not a choice
            self._place(place, task.section, events, forced=True)

    def _place(self, task: Place, section: int, events: list[Event], *, forced: bool) -> None:
        self.board.admit(task.scholar, self.owner, section)
        scholar = self.board.scholar(task.scholar)
        deal = self.deals[task.scholar]
        events.append(
            Event(
                "placed",
                {
                    "palace": self.owner,
                    "scholar": scholar.id,
                    "applicant": scholar.owner,
                    "type": scholar.type,
                    "step": task.step.value,
                    "asked_section": deal.section,
                    "given_section": section,
                    "paid": deal.paid,
                    "replaced": task.replaced,
                    "forced": forced,
                },
            )
        )

    def _admitted(self, scholar_id: int, step: Step) -> Event:
        scholar = self.board.scholar(scholar_id)
        return Event(
            "admitted",
            {
                "palace": self.owner,
                "scholar": scholar_id,
                "applicant": scholar.owner,
                "type": scholar.type,
                "step": step.value,
            },
        )

    def _exile(self, scholar_id: int, step: Step, reason: str, events: list[Event]) -> None:
        self.board.exile(scholar_id, self.owner)
        scholar = self.board.scholar(scholar_id)
        events.append(
            Event(
                "exiled",
                {
                    "palace": self.owner,
                    "scholar": scholar_id,
                    "owner": scholar.owner,
                    "type": scholar.type,
                    "step": step.value,
                    "reason": reason,
                    "paid": self.deals[scholar_id].paid,
                },
            )
        )


def _alone_outside(
    board: Board, scholar_id: int, inside: dict[str, tuple[int, int]], by_type: dict[str, list[int]]
) -> bool:
    """No conflict: its type is absent from the palace and it is the only applicant of it."""
    type_ = board.scholar(scholar_id).type
    return type_ not in inside and len(by_type[type_]) == 1
