"""Where every scholar is (hand, waiting in front of a palace, inside, island) and the money."""

from __future__ import annotations

from dataclasses import dataclass

from arena.games.intrigue.scholars import SECTIONS, START_CASH, TYPES, Scholar, all_scholars


@dataclass(frozen=True)
class Employed:
    """A scholar inside a palace."""

    scholar: Scholar
    """Who."""
    palace: int
    """The palace owner's seat."""
    section: int
    """The section's value in ducats."""


class Board:
    """The scholars' positions. Changed only through its methods, which keep each scholar in
    exactly one place."""

    def __init__(self, players: int) -> None:
        self.players = players
        """Number of seats (and palaces)."""
        self.scholars: tuple[Scholar, ...] = all_scholars(players)
        """Every scholar, indexed by id."""
        self.hands: list[list[int]] = [
            [s.id for s in self.scholars if s.owner == seat] for seat in range(players)
        ]
        """Unsent scholar ids per seat, ascending."""
        self.waiting: list[list[int]] = [[] for _ in range(players)]
        """Scholar ids in front of each palace, in arrival order."""
        self.sections: list[dict[int, int | None]] = [
            dict.fromkeys(SECTIONS) for _ in range(players)
        ]
        """Per palace: section value -> the scholar id inside, or None."""
        self.island: list[int] = []
        """Exiled scholar ids, in order of exile."""

    # -- queries ----------------------------------------------------------------------------

    def scholar(self, scholar_id: int) -> Scholar:
        """The scholar with this id."""
        return self.scholars[scholar_id]

    def inside(self, palace: int) -> dict[str, tuple[int, int]]:
        """Type -> (section, scholar id) for the scholars inside a palace."""
        return {
            self.scholars[sid].type: (section, sid)
            for section, sid in self.sections[palace].items()
            if sid is not None
        }

    def free_sections(self, palace: int) -> list[int]:
        """The empty sections of a palace, ascending."""
        return [section for section, sid in self.sections[palace].items() if sid is None]

    def section_of(self, palace: int, scholar_id: int) -> int | None:
        """The section a scholar occupies in this palace, or None."""
        for section, sid in self.sections[palace].items():
            if sid == scholar_id:
                return section
        return None

    def first_in_hand(self, seat: int, type_: str) -> int | None:
        """The lowest id of this type the seat still holds, or None."""
        for sid in self.hands[seat]:
            if self.scholars[sid].type == type_:
                return sid
        return None

    def hand_counts(self, seat: int) -> dict[str, int]:
        """Scholars of each type the seat still holds (every type listed)."""
        counts = dict.fromkeys(TYPES, 0)
        for sid in self.hands[seat]:
            counts[self.scholars[sid].type] += 1
        return counts

    def employed(self, seat: int) -> list[Employed]:
        """The seat's scholars inside palaces (always other players'), palace by palace."""
        return [
            Employed(self.scholars[sid], palace, section)
            for palace in range(self.players)
            for section, sid in self.sections[palace].items()
            if sid is not None and self.scholars[sid].owner == seat
        ]

    # -- moves ------------------------------------------------------------------------------

    def send(self, scholar_id: int, palace: int) -> None:
        """From its owner's hand to the front of a palace."""
        self.hands[self.scholars[scholar_id].owner].remove(scholar_id)
        self.waiting[palace].append(scholar_id)

    def admit(self, scholar_id: int, palace: int, section: int) -> None:
        """From the front of a palace into one of its free sections."""
        assert self.sections[palace][section] is None, "the section is taken"
        self.waiting[palace].remove(scholar_id)
        self.sections[palace][section] = scholar_id

    def exile(self, scholar_id: int, palace: int) -> None:
        """From the front of a palace, or from inside it, to the island."""
        if scholar_id in self.waiting[palace]:
            self.waiting[palace].remove(scholar_id)
        else:
            section = self.section_of(palace, scholar_id)
            assert section is not None, "the scholar is neither waiting nor inside"
            self.sections[palace][section] = None
        self.island.append(scholar_id)


class Ledger:
    """Every player's ducats and where they came from (the bank is unlimited)."""

    def __init__(self, start_cash: list[int]) -> None:
        self.start = list(start_cash)
        """Ducats each seat started with (32,000 in a real game)."""
        self.cash = list(start_cash)
        """Ducats each seat holds now (secret to the others)."""
        self.income = [0] * len(start_cash)
        """Income each seat has collected from the bank."""
        self.received = [0] * len(start_cash)
        """Bribes each seat has collected, bank-paid ones included."""
        self.paid = [0] * len(start_cash)
        """Bribes each seat has paid out of its own cash."""
        self.bank_bribes = [0] * len(start_cash)
        """Bribes the bank paid on each seat's behalf (no-money rule)."""
        self.side_paid = [0] * len(start_cash)
        """Side payments (table talk's binding deals) each seat has paid."""
        self.side_received = [0] * len(start_cash)
        """Side payments each seat has received."""

    @classmethod
    def standard(cls, players: int) -> Ledger:
        """Everybody starts with 32,000 ducats."""
        return cls([START_CASH] * players)

    def pay_income(self, seat: int, amount: int) -> None:
        """The bank pays a seat its income."""
        self.cash[seat] += amount
        self.income[seat] += amount

    def pay_bribe(self, payer: int, payee: int, amount: int, *, by_bank: bool) -> None:
        """A bribe from payer (or from the bank on its behalf) to payee."""
        if by_bank:
            self.bank_bribes[payer] += amount
        else:
            assert self.cash[payer] >= amount, "a seat cannot pay more than it holds"
            self.cash[payer] -= amount
            self.paid[payer] += amount
        self.cash[payee] += amount
        self.received[payee] += amount

    def pay_side(self, payer: int, payee: int, amount: int) -> None:
        """A side payment agreed in table talk, from one seat's cash to another's."""
        assert self.cash[payer] >= amount, "a seat cannot pay more than it holds"
        self.cash[payer] -= amount
        self.side_paid[payer] += amount
        self.cash[payee] += amount
        self.side_received[payee] += amount
