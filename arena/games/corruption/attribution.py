"""Phase 3: the five attribution steps (RULES.md, Phase 3).

Each step runs over every contract before the next starts. Steps that need a player's choice
(Swiss allocation, Hit Men, Reporters) walk a queue of placements in visiting order and ask the
owner only when there is a real choice; forced moves are applied here and reported as events.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from arena.games.base import Decision, Event
from arena.games.corruption.cards import BRIBE_VALUE, CHARACTERS, Card, is_bribe
from arena.games.corruption.contracts import BY_ID, GOVERNMENTS
from arena.games.corruption.table import Layout, Status, Table
from protocol.legal import choice


class Step(StrEnum):
    """Where attribution stands; the District Attorney and award steps need no decision."""

    SWISS = "swiss"
    HIT = "hit"
    REPORT = "report"
    DONE = "done"


DECISION_KIND: dict[Step, str] = {Step.SWISS: "swiss", Step.HIT: "hit", Step.REPORT: "report"}
"""The Decision.kind asked at each step."""


class Attribution:
    """Runs the five steps over one round's table."""

    def __init__(self, table: Table, layout: Layout) -> None:
        self.table = table
        self.layout = layout
        self.step = Step.SWISS
        """The step being run."""
        self.queue: list[int] = [p.id for g in GOVERNMENTS for p in table.on_swiss(g)]
        """Placements the current step visits, in visiting order."""
        self.cursor = 0
        """Index in ``queue`` of the placement being resolved."""
        self.awards: list[tuple[int, int]] = []
        """(contract, seat) for every contract awarded, once the award step has run."""

    @property
    def current(self) -> int | None:
        """The placement whose owner is (or is about to be) asked, if any."""
        if self.step is Step.DONE or self.cursor >= len(self.queue):
            return None
        return self.queue[self.cursor]

    def advance(self, events: list[Event]) -> Decision | None:
        """Run forced moves and automatic steps until a real choice is needed (returned) or
        the last step is done (None)."""
        while self.step is not Step.DONE:
            if self.cursor >= len(self.queue):
                self._next_step(events)
                continue
            pid = self.queue[self.cursor]
            options = self._options(pid)
            if options is None or len(options) <= 1:
                if options == []:
                    self._nothing_to_do(pid, events)
                elif options is not None:
                    self._resolve(pid, options[0], events)
                self.cursor += 1
                continue
            seat = self.table.by_id[pid].owner
            return Decision(seat=seat, kind=DECISION_KIND[self.step], legal=choice(options))
        return None

    def resolve(self, action: dict[str, Any], events: list[Event]) -> None:
        """Apply the (already validated) answer to the pending decision."""
        self._resolve(self.queue[self.cursor], action, events)
        self.cursor += 1

    # -- the steps ------------------------------------------------------------------------

    def _next_step(self, events: list[Event]) -> None:
        self.cursor = 0
        if self.step is Step.SWISS:
            self.step = Step.HIT
            self.queue = [p.id for p in self.table.on_contract(self.layout, Card.HIT_MAN)]
        elif self.step is Step.HIT:
            self._cancel_by_district_attorneys(events)
            self.step = Step.REPORT
            self.queue = [
                p.id
                for p in self.table.on_contract(self.layout, Card.REPORTER)
                if p.contract not in self.table.cancelled and self.table.alive(p.id)
            ]
        else:
            self._award(events)
            self.step = Step.DONE
            self.queue = []

    def _options(self, pid: int) -> list[dict[str, Any]] | None:
        """The legal answers for this placement's turn; None when it does nothing at all
        (killed before its turn)."""
        table = self.table
        p = table.by_id[pid]
        if self.step is Step.SWISS:
            return [{"contract": c} for c in self.layout[p.government]]
        if not table.alive(pid):
            return None
        here = table.under(p.contract) if p.contract is not None else []
        if self.step is Step.HIT:
            return [
                {"target": q.id}
                for q in here
                if q.id != pid and q.card in CHARACTERS and table.alive(q.id)
            ]
        bribes = [{"remove": q.id} for q in here if is_bribe(q.card) and table.alive(q.id)]
        # Passing is offered first so that the referee's default answer removes nothing.
        return [{"remove": None}, *bribes] if bribes else []

    def _nothing_to_do(self, pid: int, events: list[Event]) -> None:
        table = self.table
        p = table.by_id[pid]
        if self.step is Step.SWISS:
            table.assigned[pid] = None
            events.append(
                Event(
                    "swiss-unassigned",
                    {
                        "seat": p.owner,
                        "placement": pid,
                        "card": p.card.value,
                        "government": p.government.value,
                    },
                )
            )
        elif self.step is Step.HIT:
            table.status[pid] = Status.REMOVED
            table.by[pid] = None
            events.append(
                Event("hit-man-removed", {"seat": p.owner, "hit_man": pid, "contract": p.contract})
            )
        else:
            events.append(_reported(p.owner, pid, p.contract, None, None, nothing_to_remove=True))

    def _resolve(self, pid: int, action: dict[str, Any], events: list[Event]) -> None:
        table = self.table
        p = table.by_id[pid]
        if self.step is Step.SWISS:
            contract = action["contract"]
            table.assigned[pid] = contract
            events.append(
                Event(
                    "swiss-assigned",
                    {
                        "seat": p.owner,
                        "placement": pid,
                        "card": p.card.value,
                        "government": p.government.value,
                        "contract": contract,
                        "value": BRIBE_VALUE[p.card] // 2,
                    },
                )
            )
        elif self.step is Step.HIT:
            target = table.by_id[action["target"]]
            table.status[target.id] = Status.KILLED
            table.by[target.id] = pid
            events.append(
                Event(
                    "killed",
                    {
                        "seat": p.owner,
                        "hit_man": pid,
                        "contract": p.contract,
                        "target": target.id,
                        "target_owner": target.owner,
                        "target_card": target.card.value,
                    },
                )
            )
        else:
            removed = action["remove"]
            if removed is not None:
                table.status[removed] = Status.REMOVED
                table.by[removed] = pid
            events.append(
                _reported(p.owner, pid, p.contract, removed, table, nothing_to_remove=False)
            )

    def _cancel_by_district_attorneys(self, events: list[Event]) -> None:
        table = self.table
        for government in GOVERNMENTS:
            for contract in self.layout[government]:
                attorneys = [
                    p.id
                    for p in table.under(contract)
                    if p.card == Card.DISTRICT_ATTORNEY and table.alive(p.id)
                ]
                if not attorneys:
                    continue
                table.cancelled.append(contract)
                returned = [
                    p.id
                    for p in table.placements
                    if is_bribe(p.card)
                    and table.alive(p.id)
                    and (p.contract == contract or table.assigned.get(p.id) == contract)
                ]
                events.append(
                    Event(
                        "cancelled",
                        {
                            "contract": contract,
                            "district_attorneys": attorneys,
                            "returned": returned,
                        },
                    )
                )

    def _award(self, events: list[Event]) -> None:
        table = self.table
        for government in GOVERNMENTS:
            for contract in self.layout[government]:
                if contract in table.cancelled:
                    continue
                totals = table.totals(contract)
                shown = [{"seat": s, "total": totals[s]} for s in sorted(totals)]
                best = max(totals.values(), default=0)
                leaders = [s for s in sorted(totals) if totals[s] == best]
                if not totals:
                    events.append(
                        Event(
                            "not-awarded",
                            {"contract": contract, "reason": "no-bribe", "totals": shown},
                        )
                    )
                elif len(leaders) > 1:
                    events.append(
                        Event(
                            "not-awarded",
                            {
                                "contract": contract,
                                "reason": "tie",
                                "tied": leaders,
                                "totals": shown,
                            },
                        )
                    )
                else:
                    self.awards.append((contract, leaders[0]))
                    events.append(
                        Event(
                            "awarded",
                            {
                                "contract": contract,
                                "seat": leaders[0],
                                "value": BY_ID[contract].value,
                                "totals": shown,
                            },
                        )
                    )


def _reported(
    seat: int,
    reporter: int,
    contract: int | None,
    removed: int | None,
    table: Table | None,
    *,
    nothing_to_remove: bool,
) -> Event:
    victim = table.by_id[removed] if table is not None and removed is not None else None
    return Event(
        "reported",
        {
            "seat": seat,
            "reporter": reporter,
            "contract": contract,
            "removed": removed,
            "removed_owner": victim.owner if victim else None,
            "removed_card": victim.card.value if victim else None,
            "nothing_to_remove": nothing_to_remove,
        },
    )
