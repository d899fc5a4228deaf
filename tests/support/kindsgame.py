"""A game for fuzzing the referee: every kind of legal description at the top level, in turn.

Each seat is asked, round after round, a choice of nested options, a range in steps, a text
and a record holding all three; every text answered is echoed to the whole table in an event,
the way Intrigue announces a promise. Score = the sum of the numbers picked.
"""

from __future__ import annotations

from typing import Any

from arena.games.base import (
    BadOptions,
    Decision,
    Event,
    Outcome,
    checked_action,
    ranks_from_keys,
)
from protocol import legal

DESCRIPTIONS = [
    ("pick", legal.choice([{"card": 3, "to": [0, 1]}, {"card": 4, "to": None}, "pass", 2])),
    ("bid", legal.int_range(-1000, 20_000, 1000)),
    ("say", legal.text(40)),
    (
        "offer",
        legal.record(
            {
                "amount": legal.int_range(0, 9),
                "section": legal.choice([1, 2, None]),
                "promise": legal.text(20),
                "terms": legal.record({"firm": legal.choice([True, False])}, optional=["firm"]),
            },
            optional=["section", "promise"],
        ),
    ),
]


class KindsState:
    def __init__(self, players: int, rounds: int) -> None:
        self.players = players
        self.turn = 0
        self.total_turns = rounds * players * len(DESCRIPTIONS)
        self.scores = [0.0] * players

    def pending(self) -> Decision | None:
        if self.turn >= self.total_turns:
            return None
        kind, desc = DESCRIPTIONS[(self.turn // self.players) % len(DESCRIPTIONS)]
        return Decision(self.turn % self.players, kind, desc)

    def apply(self, action: Any) -> list[Event]:
        decision = self.pending()
        action = checked_action(decision, action)
        assert decision is not None
        seat = decision.seat
        said = ""
        if decision.kind == "bid":
            self.scores[seat] += action / 1000
        elif decision.kind == "say":
            said = action
        elif decision.kind == "offer":
            self.scores[seat] += action["amount"]
            said = action.get("promise", "")
        self.turn += 1
        return [Event(decision.kind, {"seat": seat, "action": action, "said": said})]

    def apply_checked(self, action: Any) -> list[Event]:
        return self.apply(action)  # checked twice: simple beats fast in a test game

    def view(self, seat: int) -> dict[str, Any]:
        return {"turn": self.turn, "scores": list(self.scores)}

    def table_view(self) -> dict[str, Any]:
        return self.view(0)

    def outcome(self) -> Outcome:
        return Outcome(tuple(self.scores), ranks_from_keys([(s,) for s in self.scores]))

    def invariants(self) -> list[str]:
        return []


class KindsGame:
    title = "kinds"
    min_players = 2
    max_players = 6
    variants: tuple[str, ...] = ()
    max_decisions = 10_000

    def normalize_options(self, options: dict[str, Any]) -> dict[str, Any]:
        unknown = set(options) - {"rounds", "variants"}
        if unknown:
            raise BadOptions(f"unknown options {sorted(unknown)}")
        return {"rounds": int(options.get("rounds", 2))}

    def start(self, players: int, seed: int, options: dict[str, Any]):
        return KindsState(players, options["rounds"]), []


GAME = KindsGame()
