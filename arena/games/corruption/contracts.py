"""The three governments and the 24 construction contracts.

Provenance (as in RULES.md, kept next to the data on purpose): the value
range ($100,000 to $1,200,000, the dam the dearest, a school or monument the cheapest) and most
names are from reviews of the published game; the exact list and values below are **designed**
for this project.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Government(StrEnum):
    """A government body; members are declared left to right, which is the visiting order."""

    CITY_HALL = "city-hall"
    COUNTY_SEAT = "county-seat"
    CAPITOL = "capitol"


GOVERNMENTS: tuple[Government, ...] = tuple(Government)
"""The governments left to right (City Hall, County Seat, Capitol)."""


@dataclass(frozen=True)
class Contract:
    """One construction contract card."""

    id: int
    """Its number 1..24 in the rules table (the id used on the wire)."""
    name: str
    """Its English name."""
    value: int
    """What it is worth to the player who wins it, in dollars."""


CONTRACTS: tuple[Contract, ...] = (
    Contract(1, "Elementary School", 100_000),
    Contract(2, "Monument", 100_000),
    Contract(3, "Police Station", 150_000),
    Contract(4, "Public Library", 150_000),
    Contract(5, "Fire Station", 200_000),
    Contract(6, "City Park", 200_000),
    Contract(7, "Streetcar Line", 250_000),
    Contract(8, "Hospital Wing", 300_000),
    Contract(9, "Opera House", 300_000),
    Contract(10, "Convention Center", 350_000),
    Contract(11, "University", 400_000),
    Contract(12, "Water Treatment Plant", 400_000),
    Contract(13, "Housing Project", 450_000),
    Contract(14, "Sports Arena", 500_000),
    Contract(15, "Stadium", 500_000),
    Contract(16, "Suspension Bridge", 600_000),
    Contract(17, "State Prison", 600_000),
    Contract(18, "Power Plant", 700_000),
    Contract(19, "Harbor Expansion", 700_000),
    Contract(20, "Subway Line", 800_000),
    Contract(21, "Interstate Expressway", 900_000),
    Contract(22, "Airport", 1_000_000),
    Contract(23, "Highway Tunnel", 1_100_000),
    Contract(24, "Hydro-Electric Dam", 1_200_000),
)
"""All contracts, by number."""

BY_ID: dict[int, Contract] = {c.id: c for c in CONTRACTS}
"""Contract by its number (read-only use)."""
VALUE: dict[int, int] = {c.id: c.value for c in CONTRACTS}
"""Contract value by its number (scores are summed from it at every view)."""

CONTRACTS_PER_GOVERNMENT_PER_ROUND = 2
"""Phase 1 deals two new contracts under each government."""


def contract_json(contract_id: int) -> dict[str, object]:
    """A contract as shown on the wire: id, name, value."""
    contract = BY_ID[contract_id]
    return {"id": contract.id, "name": contract.name, "value": contract.value}
