"""Plays on the chain and which plays are legal.

A card played goes on the chain (a stack); every other living seat is asked in its response
window (ruling 23), and may answer it if it holds a card that says so; the chain resolves
last-in first-out. This module says what a seat may play now: on its turn,
as a dying action, or in answer to the card on top of the chain.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from arena.games.paranoia.table import Troubleshooter
from arena.games.paranoia.vocabulary import ActionCard, Op, Section, SectionKind, Target

ANSWERING_OPS = frozenset({Op.CANCEL, Op.NEGATE_WOUNDS})
"""Ops that answer the card on top of the chain (so need one there)."""


@dataclass
class Play:
    """One card on the chain."""

    seat: int
    """Who played it."""
    card: ActionCard
    """The card."""
    section: SectionKind
    """The section used (exactly one)."""
    target: int | None
    """The troubleshooter it was played on, for targeted sections."""
    answers: Play | None = None
    """The play it answers (anytime cards), if any."""
    context: str = "turn"
    """How it was played: turn, respond, dying, turn-end (between turns), phase-end."""
    cancelled: bool = False
    """A cancel resolved against it: it will do nothing."""
    negated: bool = False
    """Its wound effects deal no wounds (Docbot)."""
    wounds_dealt: dict[int, int] = field(default_factory=dict)
    """Wounds it has dealt so far, per seat (a dying Docbot takes them back)."""

    @property
    def effects(self) -> Section:
        """The section being used."""
        section = self.card.section(self.section)
        assert section is not None, "plays are built only from the card's own sections"
        return section

    def public(self) -> dict[str, Any]:
        """How it is shown in views and events (every card played is public)."""
        return {
            "seat": self.seat,
            "card": self.card.id,
            "section": self.section._value_,  # not .value: a slow property, and this is hot
            "target": self.target,
            "context": self.context,
            "answers": None if self.answers is None else self.answers.card.id,
            "cancelled": self.cancelled,
            "negated": self.negated,
        }


def _ops(section: Section) -> set[Op]:
    return {e.op for e in section.effects}


def answers(section: Section, top: Play | None) -> bool:
    """Whether this anytime section may be played now, ``top`` being the play on top of the
    chain (None when nothing is being played)."""
    ops = _ops(section)
    if not ops & ANSWERING_OPS:
        return True  # free-standing, e.g. Convincing Story
    if top is None or top.cancelled:
        return False
    for effect in section.effects:
        if effect.op is Op.CANCEL and not _cancellable(top, effect.cancels):
            return False
        if effect.op is Op.NEGATE_WOUNDS and (top.negated or Op.WOUND not in _ops(top.effects)):
            return False
    return True


def _cancellable(top: Play, selectors: Iterable[str]) -> bool:
    for selector in selectors:
        if selector == "any" or selector == top.card.id or selector in top.card.tags:
            return True
        if selector == "cancel" and Op.CANCEL in _ops(top.effects):
            return True
    return False


def _targeted(section: Section) -> bool:
    return any(e.target is Target.TARGET for e in section.effects)


def option(card: str, section: SectionKind, target: int | None) -> dict[str, Any]:
    """A play as it appears among the legal options."""
    return {"play": card, "section": section.value, "target": target}


def section_options(
    card: ActionCard,
    section: Section,
    player: Troubleshooter,
    living: list[Troubleshooter],
) -> list[dict[str, Any]]:
    """Every legal play of one non-anytime section: its targets among the living."""
    kind = section.kind
    if kind in (SectionKind.MISSION, SectionKind.YOURSELF):
        return [option(card.id, kind, None)]
    others = [t for t in living if t.seat != player.seat]
    if kind is SectionKind.TROUBLESHOOTER:
        targets = living
    elif kind is SectionKind.EQUAL_OR_LOWER:
        targets = [t for t in others if t.rank <= player.rank]
    else:  # another, higher: "higher" may be used against anyone (rules: only it, upwards)
        targets = others
    return [option(card.id, kind, t.seat) for t in targets]


def anytime_options(
    card: ActionCard, player: Troubleshooter, living: list[Troubleshooter], top: Play | None
) -> list[dict[str, Any]]:
    """The plays of the card's anytime section allowed now (none if it has none)."""
    section = card.section(SectionKind.ANYTIME)
    if section is None or not answers(section, top):
        return []
    if _targeted(section):
        return [option(card.id, SectionKind.ANYTIME, t.seat) for t in living]
    return [option(card.id, SectionKind.ANYTIME, None)]


def distinct(hand: list[str]) -> list[str]:
    """The hand's card ids, each once, in hand order."""
    return list(dict.fromkeys(hand))


@dataclass
class TableCard:
    """A card staying face up on the table until Internal Security (Noble Sacrifice)."""

    play: Play
    """The play that put it there."""
    guarding: int | None
    """The troubleshooter whose wounds its player takes, if it guards one."""
    active: bool = True
    """False once its player has died: a dead guard redirects nothing (ruling 4)."""

    def public(self) -> dict[str, Any]:
        """How it is shown in views."""
        return {
            "seat": self.play.seat,
            "card": self.play.card.id,
            "guarding": self.guarding,
            "active": self.active,
        }
