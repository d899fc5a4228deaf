"""A tiny game for referee tests: each seat gets a secret, then picks numbers in turn.

Score = secret + sum of picks. Small enough to reason about, with one hidden fact per seat.
"""

from __future__ import annotations

import random
from typing import Any

from arena.games.base import BadOptions, Decision, Event, IllegalAction, Outcome, ranks_from_keys
from protocol import legal


class ToyState:
    def __init__(self, players: int, seed: int, rounds: int) -> None:
        rng = random.Random(seed)
        self.players = players
        self.secrets = [rng.randint(0, 9) for _ in range(players)]
        self.picks: list[list[int]] = [[] for _ in range(players)]
        self.turn = 0
        self.total_turns = rounds * players

    def pending(self) -> Decision | None:
        if self.turn >= self.total_turns:
            return None
        return Decision(self.turn % self.players, "pick", legal.choice([0, 1, 2]))

    def apply(self, action: Any) -> list[Event]:
        decision = self.pending()
        assert decision is not None
        reason = legal.why_illegal(decision.legal, action)
        if reason:
            raise IllegalAction(reason)
        self.picks[decision.seat].append(action)
        self.turn += 1
        return [Event("picked", {"seat": decision.seat, "value": action})]

    def apply_checked(self, action: Any) -> list[Event]:
        return self.apply(action)  # checked twice: simple beats fast in a test game

    def view(self, seat: int) -> dict[str, Any]:
        return {"secret": self.secrets[seat], "picks": [list(p) for p in self.picks]}

    def table_view(self) -> dict[str, Any]:
        return {"secrets": list(self.secrets), "picks": [list(p) for p in self.picks]}

    def outcome(self) -> Outcome:
        scores = tuple(float(s + sum(p)) for s, p in zip(self.secrets, self.picks))
        return Outcome(scores, ranks_from_keys([(s,) for s in scores]))

    def invariants(self) -> list[str]:
        return []


class ToyGame:
    title = "toy"
    min_players = 2
    max_players = 6
    variants: tuple[str, ...] = ()
    max_decisions = 1000

    def normalize_options(self, options: dict[str, Any]) -> dict[str, Any]:
        unknown = set(options) - {"rounds", "variants"}
        if unknown:
            raise BadOptions(f"unknown options {sorted(unknown)}")
        return {"rounds": int(options.get("rounds", 3))}

    def start(self, players: int, seed: int, options: dict[str, Any]):
        state = ToyState(players, seed, options["rounds"])
        events = [
            Event("dealt", {"seat": s, "secret": state.secrets[s]}, frozenset({s}), {"seat": s})
            for s in range(players)
        ]
        return state, events


GAME = ToyGame()
