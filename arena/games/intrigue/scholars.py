"""The pieces: scholar types, palace sections, colours, money and the game's fixed numbers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

TYPES: tuple[str, ...] = ("scientist", "doctor", "priest", "clerk")
"""Scholar types, in the referee's canonical order."""
PER_TYPE = 2
"""Scholars of each type per player."""
SCHOLARS_PER_PLAYER = PER_TYPE * len(TYPES)
"""Eight scholars per player."""

SECTIONS: tuple[int, ...] = (1000, 3000, 6000, 10000)
"""Palace section values in ducats, ascending (the canonical order everywhere)."""
DISPLAY_ORDER: tuple[int, ...] = (1000, 6000, 10000, 3000)
"""How the sections stand on the table, left to right (display only)."""

COLOURS: tuple[str, ...] = ("blue", "yellow", "green", "red", "purple")
"""Seat s plays colour COLOURS[s]."""

START_CASH = 32_000
"""Ducats each player starts with."""
UNIT = 1_000
"""Every amount is a multiple of this."""
MIN_BRIBE = 1_000
"""The smallest offer (the rules' minimum bribe)."""
BANK_BRIBE = MIN_BRIBE
"""What the bank pays for an applicant without money (the no-money rule: the minimum)."""
MAX_DEMAND_STEPS = 20
"""A demand is the current offer plus 1..20 thousand ducats (and never above the last demand)."""
MAX_EXCHANGES = 3
"""Demands the owner may make in one negotiation; after the last one the applicant pays it or
walks away (Ruling I11)."""
PROMISE_LENGTH = 140
"""Longest promise, in characters."""

ROUNDS = 5
"""Turns per player."""
SEND_ROUNDS = 4
"""Rounds with a sending step (none in round 5)."""
SENDS_PER_TURN = 2
"""Scholars sent per turn."""


@dataclass(frozen=True)
class Scholar:
    """One scholar figure."""

    id: int
    """Unique in the game: owner * 8 + index; index 0-1 scientist, 2-3 doctor, 4-5 priest,
    6-7 clerk."""
    owner: int
    """The seat whose colour it wears."""
    type: str
    """One of TYPES."""

    def json(self) -> dict[str, Any]:
        """``{"id", "owner", "type"}``."""
        return {"id": self.id, "owner": self.owner, "type": self.type}


def all_scholars(players: int) -> tuple[Scholar, ...]:
    """Every scholar of the game, by id."""
    return tuple(
        Scholar(owner * SCHOLARS_PER_PLAYER + index, owner, TYPES[index // PER_TYPE])
        for owner in range(players)
        for index in range(SCHOLARS_PER_PLAYER)
    )


def floor_unit(amount: int) -> int:
    """``amount`` rounded down to a multiple of UNIT."""
    return amount // UNIT * UNIT
