"""The Paranoia card set's vocabulary: the values a card, a mission and an effect are made of.

Sections, effect ops and their parameters, targets, mission tests, and the typed card values
the loader (cardset.py) builds from cards.toml. CARDS.md says what every op does.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from arena.configfile import ConfigFileError


class CardSetError(ConfigFileError):
    """The card data is malformed; the message names the card (or table) and the field."""


class Provenance(StrEnum):
    """What a value rests on."""

    SOURCED = "sourced"
    PARTIAL = "partial"
    DESIGNED = "designed"


class SectionKind(StrEnum):
    """Which part of an action card is used, i.e. what it is played on."""

    MISSION = "mission"
    TROUBLESHOOTER = "troubleshooter"
    ANOTHER = "another"
    HIGHER = "higher"
    EQUAL_OR_LOWER = "equal_or_lower"
    YOURSELF = "yourself"
    ANYTIME = "anytime"


TARGETED_KINDS = frozenset(SectionKind) - {SectionKind.MISSION, SectionKind.YOURSELF}
"""Section kinds that name a troubleshooter as ``target``."""


class Op(StrEnum):
    """An effect's operation; exactly what each does is in CARDS.md."""

    WOUND = "wound"
    HEAL = "heal"
    TREASON = "treason"
    ABSOLVE = "absolve"
    MISSION_COUNTER = "mission_counter"
    DRAW = "draw"
    STEAL = "steal"
    DISCARD = "discard"
    CANCEL = "cancel"
    NEGATE_WOUNDS = "negate_wounds"
    GAIN_CLEARANCE = "gain_clearance"
    LOSE_CLEARANCE = "lose_clearance"
    GAIN_CLONE = "gain_clone"
    SKIP_TURN = "skip_turn"
    END_PHASE = "end_phase"
    STAY_ON_TABLE = "stay_on_table"
    GUARD = "guard"


class Target(StrEnum):
    """Whom an effect acts on."""

    TARGET = "target"
    SELF = "self"
    ANSWERED = "answered"
    ALL = "all"
    TEAM_LEADER = "team_leader"
    MOST_TRAITOROUS = "most_traitorous"


class MissionCounter(StrEnum):
    """A mission counter (all start at 0 and never fall below 0)."""

    PROGRESS = "progress"
    WOUNDS = "wounds"
    TREASON = "treason"


class When(StrEnum):
    """A guard on one effect, tested on the section's target as the effect resolves."""

    TARGET_IS_TRAITOR = "target_is_traitor"
    TARGET_IS_LOYAL = "target_is_loyal"


class Check(StrEnum):
    """A mission success test, evaluated for each living troubleshooter at Debriefing."""

    ALIVE = "alive"
    MISSION_COUNTER_AT_LEAST = "mission_counter_at_least"
    MISSION_COUNTER_AT_MOST = "mission_counter_at_most"
    TOOK_WOUNDS = "took_wounds"
    DID_NOT_DIE = "did_not_die"
    IS_LOYAL = "is_loyal"
    IS_MOST_LOYAL = "is_most_loyal"
    KILLED_A_TRAITOR = "killed_a_traitor"
    SECRET_OFFICER_ALIVE = "secret_officer_alive"


CLEARANCES = ("RED", "ORANGE", "YELLOW", "GREEN", "BLUE", "INDIGO", "VIOLET", "ULTRAVIOLET")
"""Clearance names, lowest first."""
SOURCED_SUPPLY = dict(zip(CLEARANCES, (8, 7, 6, 5, 4, 3, 2, 2)))
"""Clearance cards in the box (sourced)."""
SOURCED_MAX_TREASON = {"RED": 3}
"""The only sourced max treason."""
# fmt: off
KNOWN_ACTION_NAMES = (
    "Abort Mission", "Better Idea", "Golden Opportunity", "Bribe", "Convincing Story",
    "Noble Sacrifice", "Hand Flamer", "New Improved Treasonous Activity List", "Tangler",
    "Docbot", "Spurious Logic",
)
# fmt: on
"""Action card names known from the published game."""
KNOWN_MISSION_NAMES = ("Go 'Outdoors'", "Internal Security Officer", "Bake the Traitor")
"""Mission names known from the published game."""
SECRET_ROLES = ("internal-security-officer",)
"""Secret roles a mission may hand out."""
TAGS = ("weapon",)
"""Declared card tags (usable as ``cancel`` selectors); ``cancel`` is derived."""
BOX_BUDGET = 104
"""Mission plus action cards in the published box."""

_TARGETED = (frozenset({"target"}), frozenset({"when"}))
_COUNTED = (frozenset({"target", "amount"}), frozenset({"when"}))
_BARE: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())
PARAMS: dict[Op, tuple[frozenset[str], frozenset[str]]] = {
    **dict.fromkeys((Op.WOUND, Op.HEAL, Op.TREASON, Op.ABSOLVE, Op.DRAW), _COUNTED),
    **dict.fromkeys((Op.GAIN_CLEARANCE, Op.LOSE_CLEARANCE, Op.GAIN_CLONE, Op.SKIP_TURN), _TARGETED),
    **dict.fromkeys((Op.NEGATE_WOUNDS, Op.END_PHASE, Op.STAY_ON_TABLE), _BARE),
    Op.MISSION_COUNTER: (frozenset({"counter", "amount"}), frozenset({"when"})),
    Op.STEAL: (frozenset({"amount"}), frozenset({"optional", "when"})),
    Op.DISCARD: (frozenset({"target", "amount", "choice"}), frozenset({"when"})),
    Op.CANCEL: (frozenset({"cancels"}), frozenset()),
    Op.GUARD: (frozenset({"target"}), frozenset()),
}
"""Each op's (required, optional) parameters besides ``op``."""
RESULT_OPS = frozenset(
    {Op.TREASON, Op.ABSOLVE, Op.DRAW, Op.GAIN_CLEARANCE, Op.LOSE_CLEARANCE, Op.GAIN_CLONE}
)
"""Ops a mission's Success or Failure result may use (always on ``self``)."""
DISCARD_CHOICES = ("random", "owner")


@dataclass(frozen=True)
class ClearanceProvenance:
    """Provenance of each number in one clearance row."""

    supply: Provenance
    """Of the number of cards of this clearance."""
    hand_size: Provenance
    """Of the hand size."""
    max_wounds: Provenance
    """Of the max wounds."""
    max_treason: Provenance
    """Of the max treason."""


@dataclass(frozen=True)
class Clearance:
    """One row of the clearance table."""

    name: str
    """RED .. ULTRAVIOLET."""
    rank: int
    """0 for RED up to 7 for ULTRAVIOLET."""
    supply: int
    """Clearance cards of this colour in the box; gains and losses stop when it runs out."""
    hand_size: int
    """Cards a troubleshooter is dealt up to."""
    max_wounds: int
    """Wounds at which the troubleshooter is killed."""
    max_treason: int
    """Treason at which the troubleshooter is a traitor."""
    provenance: ClearanceProvenance
    """What each number rests on."""


@dataclass(frozen=True)
class Effect:
    """One step of a section or result, interpreted by the engine (see CARDS.md)."""

    op: Op
    """The operation."""
    target: Target | None = None
    """Whom it acts on, for ops that take a target."""
    amount: int | None = None
    """How many (wounds, treason, cards, counter steps; signed for mission_counter)."""
    counter: MissionCounter | None = None
    """The mission counter, for mission_counter."""
    choice: str | None = None
    """For discard: ``random`` or ``owner`` (the discarding player chooses)."""
    optional: bool = False
    """For steal: the player may decline ("may randomly pick a card")."""
    cancels: tuple[str, ...] = ()
    """For cancel: selectors ``any``, ``cancel``, a tag, or card ids."""
    when: When | None = None
    """If set, the effect happens only when this holds."""


@dataclass(frozen=True)
class Section:
    """One section of an action card; a play uses exactly one."""

    kind: SectionKind
    """What the card is played on."""
    effects: tuple[Effect, ...]
    """Resolved in order."""


@dataclass(frozen=True)
class Card:
    """What every mission and action card has."""

    id: str
    """Kebab-case id, unique across the set."""
    name: str
    """Printed name (a published name only if provenance is sourced or partial)."""
    count: int
    """Copies in the deck (designed for every card)."""
    provenance: Provenance
    """What its name and effect rest on."""
    note: str
    """One line saying what the provenance rests on."""


@dataclass(frozen=True)
class ActionCard(Card):
    """An action card (one entry; ``count`` copies go in the Action deck)."""

    tags: tuple[str, ...]
    """Declared tags, e.g. ``weapon``."""
    sections: tuple[Section, ...]
    """Its sections; always one of kind ``mission``."""

    def __hash__(self) -> int:
        # Its id is unique in the set: the generated hash walks every nested field, and
        # view.action_json looks a card up for every card in a view, at every decision.
        return hash(self.id)

    def section(self, kind: SectionKind) -> Section | None:
        """The section of that kind, if the card has one."""
        return next((s for s in self.sections if s.kind == kind), None)


@dataclass(frozen=True)
class Condition:
    """One success test of a mission; all of a mission's tests must hold."""

    test: Check
    """What is tested."""
    counter: MissionCounter | None = None
    """For the mission_counter tests."""
    value: int | None = None
    """The bound for the mission_counter tests."""


@dataclass(frozen=True)
class Mission(Card):
    """A mission card (``count`` copies go in the Mission deck)."""

    secret_role: str | None
    """A secret role handed out at the Mission phase, if any."""
    success_when: tuple[Condition, ...]
    """Tests every living troubleshooter must meet to succeed."""
    success: tuple[Effect, ...]
    """The Success result, on each succeeding troubleshooter."""
    failure: tuple[Effect, ...] | None
    """The Failure result; None means the card has none (everyone alive succeeds)."""

    def __hash__(self) -> int:
        return hash(self.id)  # as ActionCard's: unique in the set, cheap for view.mission_json


@dataclass(frozen=True)
class CardSet:
    """The whole set."""

    clearances: tuple[Clearance, ...]
    """The clearance table, RED first."""
    missions: tuple[Mission, ...]
    """Mission cards (distinct entries)."""
    actions: tuple[ActionCard, ...]
    """Action cards (distinct entries)."""

    @property
    def mission_count(self) -> int:
        """Mission cards in the deck, copies included."""
        return sum(m.count for m in self.missions)

    @property
    def action_count(self) -> int:
        """Action cards in the deck, copies included."""
        return sum(a.count for a in self.actions)

    def clearance(self, name: str) -> Clearance:
        """The table row for a clearance name."""
        return next(c for c in self.clearances if c.name == name)
