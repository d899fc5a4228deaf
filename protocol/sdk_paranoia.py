"""Helpers for Python bots that play PARANOIA (stdlib only, like the SDK).

`Table` reads a view once per decision: the troubleshooters, the card definitions the view
carries (`section`), whom an effect would act on (`targets`, as the referee resolves them,
CARDS.md), clearance ranks. Used by the bundled bot paranoia-survivor; see
protocol/games/paranoia.md for the views it reads.
"""

from __future__ import annotations

from typing import Any

CLEARANCES = ("RED", "ORANGE", "YELLOW", "GREEN", "BLUE", "INDIGO", "VIOLET", "ULTRAVIOLET")
"""Clearance names, lowest first; the game's score is the index."""


class Table:
    """A seat's view, read once per decision."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.view = view
        """The view as received."""
        self.me: int = view["seat"]
        """This seat."""
        self.ts: list[dict[str, Any]] = view["troubleshooters"]
        """Every troubleshooter's public state, by seat."""
        self.cards: dict[str, Any] = view["cards"]
        """Definitions of the cards this seat can see, by id."""
        self.counters: dict[str, int] = view["counters"]
        """The mission's counters."""
        self.leader: int = view["team_leader"]
        """The Team Leader's seat."""
        mission = view.get("mission")
        self.mission: dict[str, Any] | None = self.cards.get(mission) if mission else None
        """The mission card's definition, if a mission is under way."""

    def t(self, seat: int) -> dict[str, Any]:
        """One troubleshooter's public state."""
        return self.ts[seat]

    def rank(self, seat: int) -> int:
        """A troubleshooter's clearance as a number (RED 0 .. ULTRAVIOLET 7)."""
        return CLEARANCES.index(self.ts[seat]["clearance"])

    def living(self) -> list[int]:
        """The seats whose troubleshooter is alive, in seat order."""
        return [t["seat"] for t in self.ts if t["alive"]]

    def section(self, card: str, kind: str) -> list[dict[str, Any]]:
        """The effects of one section of a card (empty if the card has no such section)."""
        for section in self.cards[card]["sections"]:
            if section["kind"] == kind:
                return section["effects"]
        return []

    def targets(
        self, effect: dict[str, Any], actor: int, target: int | None, answered: int | None
    ) -> list[int]:
        """The seats an effect would act on: ``actor`` plays the card on ``target`` (None for
        untargeted sections), in answer to a card played by ``answered`` (if any). For
        ``most_traitorous`` ties the Team Leader chooses; this guesses the first."""
        who = effect.get("target")
        if who == "target":
            return [target] if target is not None else []
        if who == "self":
            return [actor]
        if who == "answered":
            return [answered] if answered is not None else []
        if who == "team_leader":
            return [self.leader]
        if who == "all":
            n = len(self.ts)
            return [s for s in ((actor + k) % n for k in range(n)) if self.ts[s]["alive"]]
        if who == "most_traitorous":
            living = self.living()
            return [max(living, key=lambda s: self.t(s)["treason"])] if living else []
        return []
