"""In-process bots: a decide function behind the Transport seam, for tests and benchmarks.

No process, no pipe, no JSON: what is left is the game and the referee, which is exactly
what the benchmark compares subprocess bots against.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from arena.wire import SeatWire
from protocol import legal

Decide = Callable[[dict[str, Any], dict[str, Any]], Any]


class InProcessBot:
    """A Transport that answers requests by calling decide(view, legal) directly.

    decide gets the view object itself, not a copy, and must not change it: views share parts
    with the other seats' views and the next ones (arena/games/view_parts.py), as a process's
    decoded copy never could."""

    def __init__(self, decide: Decide, features: frozenset[str] = frozenset()) -> None:
        self.decide = decide
        self.received: list[dict[str, Any]] = []
        self.keep_messages = False
        """Set True to keep every message sent (tests of what a seat is told)."""
        self.wire = SeatWire(features)
        """The wire form a bot process that negotiated these features would be sent."""
        self.lines: list[bytes] = []
        self.keep_lines = False
        """Set True to keep the bytes a bot process would be sent (in the wire form)."""

    def send(self, message: dict[str, Any]) -> None:
        if self.keep_messages:
            self.received.append(message)
        if self.keep_lines:
            self._keep(self.wire.line(message))

    def _keep(self, line: bytes) -> None:
        # b"": an event held for the next batch (wire feature event-batch), sent as a line
        # of its own just before the next message: one entry per line
        self.lines.extend(line.splitlines(keepends=True))

    def ask(self, request: dict[str, Any], timeout_s: float) -> tuple[Any, float]:
        self.send(request)
        started = time.perf_counter()
        action = self.decide(request["view"], request["legal"])
        return action, time.perf_counter() - started

    def flush(self, timeout_s: float) -> None:
        if self.keep_lines:
            self._keep(self.wire.flush())

    def stop(self, grace_s: float = 0.0) -> int | None:
        return None

    def cpu_seconds(self) -> float | None:
        return None  # shares the referee's process: no separate accounting


def random_decider(seed: int) -> Decide:
    """A decide function choosing uniformly among the legal actions, seeded."""
    rng = random.Random(seed)
    return lambda view, legal_desc: legal.random_action(legal_desc, rng)
