"""Player cards, the variants and the face-up schedule each variant implies."""

from __future__ import annotations

from collections import Counter
from enum import StrEnum


class Card(StrEnum):
    """A player card kind; declaration order is the canonical order (hands, options)."""

    BRIBE_1000 = "bribe-1000"
    BRIBE_2000 = "bribe-2000"
    BRIBE_4000 = "bribe-4000"
    BRIBE_6000 = "bribe-6000"
    BRIBE_8000 = "bribe-8000"
    BRIBE_10000 = "bribe-10000"
    DISTRICT_ATTORNEY = "district-attorney"
    REPORTER = "reporter"
    HIT_MAN = "hit-man"


CARD_ORDER: tuple[Card, ...] = tuple(Card)
"""Every card kind in canonical order."""

BRIBE_VALUE: dict[Card, int] = {
    Card.BRIBE_1000: 1000,
    Card.BRIBE_2000: 2000,
    Card.BRIBE_4000: 4000,
    Card.BRIBE_6000: 6000,
    Card.BRIBE_8000: 8000,
    Card.BRIBE_10000: 10000,
}
"""Face value of each bribe, in dollars (a Swiss account bribe counts half)."""

BRIBES: tuple[Card, ...] = tuple(BRIBE_VALUE)
"""The six bribes, cheapest first."""

CHARACTERS: tuple[Card, ...] = (Card.DISTRICT_ATTORNEY, Card.REPORTER, Card.HIT_MAN)
"""Cards that may only go under contracts and leave the game after their round."""

CARDS_PLACED_PER_ROUND = 6
"""Each player places exactly six cards per round."""

ROUNDS = 4
"""A game is four rounds."""

SLOTS: tuple[int, ...] = tuple(range(1, CARDS_PLACED_PER_ROUND + 1))
"""A player's placement numbers within a round (1..6)."""


def is_bribe(card: Card) -> bool:
    """True for the six bribe cards."""
    return card in BRIBE_VALUE


def starting_hand(closed: bool) -> Counter[Card]:
    """One player's set: six bribes, plus (unless Closed) a DA, two Reporters and a Hit Man."""
    hand: Counter[Card] = Counter(BRIBES)
    if not closed:
        hand.update((Card.DISTRICT_ATTORNEY, Card.REPORTER, Card.REPORTER, Card.HIT_MAN))
    return hand


def hand_list(hand: Counter[Card]) -> list[str]:
    """A hand as card codes in canonical order (one entry per card)."""
    # hot (the asked seat's hand, in every view): hand.get, not Counter's slow __missing__;
    # codes read as _value_, not the slow .value property
    codes: list[str] = []
    for card in CARD_ORDER:
        count = hand.get(card)
        if count is not None and count > 0:
            codes += [card._value_] * count
    return codes


class Variant(StrEnum):
    """An optional rule (RULES.md, Variants)."""

    DOWN_THE_RIVER = "down-the-river"
    STUD_LIBRE = "stud-libre"
    CLOSED = "closed"
    LITTLE_BLACK_BOOK = "little-black-book"


SCHEDULE_VARIANTS: frozenset[Variant] = frozenset(
    {Variant.DOWN_THE_RIVER, Variant.STUD_LIBRE, Variant.CLOSED}
)
"""Variants that each replace the face-up schedule, hence mutually exclusive."""

PEEKS_PER_GAME = 2
"""Little Black Book: peeks each player may spend over the whole game."""

_DOWN_THE_RIVER: dict[int, frozenset[int]] = {
    1: frozenset({3}),
    2: frozenset({3, 4}),
    3: frozenset({2, 3, 4}),
    4: frozenset({2, 3, 4, 5}),
}


def face_up_schedule(variants: frozenset[Variant], round_no: int) -> frozenset[int] | None:
    """The slots placed face up in this round, or None when the first player chooses them
    (Stud Libre)."""
    if Variant.STUD_LIBRE in variants:
        return None
    if Variant.CLOSED in variants:
        return frozenset()
    if Variant.DOWN_THE_RIVER in variants:
        return _DOWN_THE_RIVER[round_no]
    return frozenset(range(1, round_no + 1))


def all_slot_subsets() -> list[list[int]]:
    """Every choice of face-up slots (64), fewest first, then in lexicographic order."""
    subsets = [[s for s in SLOTS if mask >> (s - 1) & 1] for mask in range(1 << len(SLOTS))]
    return sorted(subsets, key=lambda subset: (len(subset), subset))
