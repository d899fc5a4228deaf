"""Helpers for PARANOIA scenario tests: build a position, then play it through ``apply``.

Hands are padded to a full hand with harmless filler cards (no Play Anytime section, so a
filler never gives a seat anything to play in a response window) and the leader's bonus card
is stacked as a filler too, unless the test says otherwise: every deal is then known exactly.
Every living seat is asked in every response window (ruling 23); ``act`` passes the windows
that offer nothing but a pass, ``window`` and ``asked`` show every seat asked.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from arena.games.base import Event
from arena.games.paranoia import flow as _flow
from arena.games.paranoia.cardset import DEFAULT_PATH, load_cardset
from arena.games.paranoia.state import ParanoiaState
from arena.games.paranoia.vocabulary import CLEARANCES, CardSet

PASS = {"pass": True}

# Card ids of the shipped set (cards.toml), by the name used in the tests.
ABORT = "abort-mission"
BETTER_IDEA = "better-idea"
GOLDEN = "golden-opportunity"
BRIBE = "bribe"
STORY = "convincing-story"
NOBLE = "noble-sacrifice"
FLAMER = "hand-flamer"
NITAL = "new-improved-treasonous-activity-list"
TANGLER = "tangler"
DOCBOT = "docbot"
SPURIOUS = "spurious-logic"
LASER = "surplus-laser-pistol"
CONE = "experimental-cone-rifle"
TRUNCHEON = "truncheon-of-corrective-guidance"
NERVE_GAS = "nerve-gas-sampler-pack"
PERMIT = "summary-execution-permit"
DENOUNCE = "anonymous-denunciation-form"
LEAFLETS = "planted-commie-leaflets"
REQUISITION = "requisition-lost-in-triplicate"
PILL = "happiness-pill-ration"
SEMINAR = "mandatory-loyalty-seminar"
BANDAGE = "bandage-of-questionable-origin"
VOUCHER = "clone-vat-priority-voucher"
COMMENDATION = "unsolicited-commendation"
DEMOTION = "misfiled-demotion-memo"
PAPERWORK = "mandatory-paperwork-bundle"
RECALL = "equipment-recall-notice"
INSPECTION = "surprise-safety-inspection"
AUDIT = "random-loyalty-audit"

# Missions.
OUTDOORS = "go-outdoors"
OFFICER = "internal-security-officer"
BAKE = "bake-the-traitor"
ESCORT = "escort-the-experimental-vending-machine"
SURVEY = "routine-happiness-survey"
REACTOR = "reactor-coolant-leak-inspection"
FLUSH = "flush-out-the-commie-mutant-cell"
JETPACK = "field-test-the-rnd-jetpack"
CITIZEN = "citizen-of-the-month-nomination"
ENVELOPE = "deliver-the-sealed-envelope"

FILLER = [
    *[PAPERWORK] * 3,
    *[SEMINAR] * 2,
    *[RECALL] * 2,
    *[VOUCHER] * 2,
    *[REQUISITION] * 3,
    *[DENOUNCE] * 5,
    *[LEAFLETS] * 4,
    *[SPURIOUS] * 3,
    *[COMMENDATION] * 2,
    *[DEMOTION] * 2,
    *[AUDIT] * 2,
    *[PILL] * 3,
    *[BANDAGE] * 3,
]
"""Shipped cards with no Play Anytime section, in the order they are used as padding (the
list holds each at most as many times as the set has copies)."""


def start_position(
    players: int,
    *,
    mission: str,
    hands: list[list[str]],
    deck: list[str] | None = None,
    leader: int = 0,
    clearances: list[str] | None = None,
    treason: list[int] | None = None,
    wounds: list[int] | None = None,
    clones: list[int] | None = None,
    cards: CardSet | None = None,
    mission_cap: int = 40,
    seed: int = 0,
    talkers: frozenset[int] = frozenset(),
) -> tuple[ParanoiaState, list[Event]]:
    """A game about to begin ``mission`` with ``leader`` leading, each seat holding
    ``hands[seat]``, the Action deck's top cards being ``deck`` (first drawn first; the rest of
    the set shuffled beneath), and the given clearances, treason, wounds and clones; the seats
    in ``talkers`` talk. The flow
    then runs as in play (deal top-ups included) to its first decision; everything after that
    goes through ``apply``."""
    state = ParanoiaState(players, seed, cards or load_cardset(), mission_cap, talkers)
    rest = list(state.actions.cards)
    deck = deck or []
    for card in [c for hand in hands for c in hand] + deck:
        rest.remove(card)  # ValueError: more copies asked for than the set has
    state.actions.cards = rest + deck[::-1]
    missions = state.missions.cards
    missions.remove(mission)
    missions.append(mission)
    state.leader = leader
    for t in state.ts:
        t.hand = list(hands[t.seat])
        t.rank = CLEARANCES.index(clearances[t.seat]) if clearances else 0
        t.treason = treason[t.seat] if treason else 0
        t.wounds = wounds[t.seat] if wounds else 0
        t.clones = clones[t.seat] if clones else t.clones
    state._flow = _flow.game(state, draw_leader=False)
    return state, state._run(None)


def new(
    players: int = 4,
    *,
    hands: list[list[str]] | None = None,
    size: int | list[int] = 5,
    deck: list[str] | None = None,
    mission: str = "routine-happiness-survey",
    **kwargs: Any,
) -> tuple[ParanoiaState, list[Event]]:
    """A game about to begin ``mission`` (see start_position). Each hand is padded with
    filler to ``size`` cards (an int, or one per seat) and, when ``deck`` is None, the leader's
    bonus card is a filler."""
    hands = [list(h) for h in (hands or [[] for _ in range(players)])]
    hands += [[] for _ in range(players - len(hands))]
    sizes = size if isinstance(size, list) else [size] * players
    used = Counter(c for h in hands for c in h) + Counter(deck or [])
    pool = _spare(used)
    for seat, hand in enumerate(hands):
        while len(hand) < sizes[seat]:
            hand.append(pool.pop(0))
    if deck is None:
        deck = [pool.pop(0)]
    state, events = start_position(players, mission=mission, hands=hands, deck=deck, **kwargs)
    assert state.invariants() == []
    return state, events


def _spare(used: Counter[str]) -> list[str]:
    """Filler cards still free once ``used`` are taken out of the set."""
    left = Counter(used)
    spare = []
    for card in FILLER:
        if left[card] > 0:
            left[card] -= 1
        else:
            spare.append(card)
    return spare


def pending(state: ParanoiaState) -> tuple[int, str] | None:
    """(seat, kind) of the pending decision, None once the game is over."""
    decision = state.pending()
    return None if decision is None else (decision.seat, decision.kind)


def options(state: ParanoiaState) -> list[Any]:
    """The options of the pending decision."""
    decision = state.pending()
    assert decision is not None, "the game is over"
    return decision.legal["options"]


def only_pass(state: ParanoiaState) -> bool:
    """The pending decision is a response window in which its seat can play nothing: its only
    option is ``{"pass": true}`` (ruling 23 asks such seats all the same)."""
    decision = state.pending()
    return (
        decision is not None and decision.kind == "respond" and decision.legal["options"] == [PASS]
    )


def pass_forced(state: ParanoiaState) -> list[Event]:
    """Answer every pending response window that offers nothing but a pass; the events (a
    window's last pass lets its card resolve)."""
    events: list[Event] = []
    while only_pass(state):
        events += state.apply(PASS)
        assert state.invariants() == [], state.invariants()
    return events


def act(
    state: ParanoiaState, seat: int, kind: str, answer: Any, *, forced: bool = True
) -> list[Event]:
    """Answer the pending decision, checking it is the one expected; the invariants hold.

    Every living seat is asked in every response window (ruling 23), most of them with
    nothing to play but a pass. The scenarios name the decisions that matter, so response
    windows offering only a pass are passed (``pass_forced``) before the expected decision
    if it is not pending yet, and after the answer; ``forced=False`` leaves the ones after
    it pending. The events returned include theirs."""
    decision = state.pending()
    assert decision is not None, "the game is over"
    events: list[Event] = []
    if (decision.seat, decision.kind) != (seat, kind):
        events += pass_forced(state)
        decision = state.pending()
        assert decision is not None, "the game is over"
    assert (decision.seat, decision.kind) == (seat, kind), (
        f"expected seat {seat} to decide {kind!r}, pending is seat {decision.seat} "
        f"{decision.kind!r} ({state.context})"
    )
    events += state.apply(answer)
    assert state.invariants() == [], state.invariants()
    if forced:
        events += pass_forced(state)
    return events


def play(card: str, section: str, target: int | None = None) -> dict[str, Any]:
    """A play as it appears among the options."""
    return {"play": card, "section": section, "target": target}


def discard(card: str) -> dict[str, Any]:
    """A discard on a turn (or one chosen by its owner)."""
    return {"discard": card}


def pass_windows(state: ParanoiaState, *, dying: bool = False) -> list[Event]:
    """Pass every pending response window (and dying action, if ``dying``)."""
    events: list[Event] = []
    allowed = {"respond", "dying"} if dying else {"respond"}
    while (decision := state.pending()) is not None and decision.kind in allowed:
        events += act(state, decision.seat, decision.kind, PASS)
    return events


def window(state: ParanoiaState, about: str | None = None) -> list[tuple[int, bool]]:
    """Pass pending response windows while they are about the same thing as the first one
    (the card being answered, the discard, the turn's end or the phase end), or about
    ``about`` (a card id, "discard", "turn-end" or "phase-end"); for each seat asked, in order: (seat, whether it had anything to play)."""
    seats: list[tuple[int, bool]] = []
    while (decision := state.pending()) is not None and decision.kind == "respond":
        subject = _subject(state)
        about = about or subject
        if subject != about:
            break
        seats.append((decision.seat, decision.legal["options"] != [PASS]))
        act(state, decision.seat, "respond", PASS, forced=False)
    return seats


def asked(state: ParanoiaState, about: str | None = None) -> list[int]:
    """The seats ``window`` asked, in order."""
    return [seat for seat, _ in window(state, about)]


def _subject(state: ParanoiaState) -> str:
    context = state.context or {}
    if context.get("reason") in ("phase-end", "turn-end", "discard"):
        return str(context["reason"])
    return context["answering"]["card"]


def discard_turn(state: ParanoiaState, seat: int, card: str | None = None) -> list[Event]:
    """``seat`` discards (the given card, or its last: the padding comes after the cards a
    test gives) on its turn; windows passed."""
    card = card or state.ts[seat].hand[-1]
    events = act(state, seat, "turn", discard(card))
    return events + pass_windows(state)


def play_turn(
    state: ParanoiaState, seat: int, card: str, section: str, target: int | None = None
) -> list[Event]:
    """``seat`` plays a card on its turn; every response window after it is passed."""
    events = act(state, seat, "turn", play(card, section, target))
    return events + pass_windows(state)


def kinds(events: list[Event]) -> list[str]:
    """Event kinds in order."""
    return [e.kind for e in events]


def of_kind(events: list[Event], kind: str) -> list[dict[str, Any]]:
    """The data of every event of this kind."""
    return [e.data for e in events if e.kind == kind]


def one(events: list[Event], kind: str) -> dict[str, Any]:
    """The data of the only event of this kind."""
    found = of_kind(events, kind)
    assert len(found) == 1, f"{len(found)} {kind!r} events in {kinds(events)}"
    return found[0]


def index(events: list[Event], kind: str, **match: Any) -> int:
    """Position of the first event of this kind whose data has these values."""
    for i, e in enumerate(events):
        if e.kind == kind and all(e.data.get(k) == v for k, v in match.items()):
            return i
    raise AssertionError(f"no {kind!r} event with {match} in {kinds(events)}")


def treason(state: ParanoiaState) -> list[int]:
    """Every seat's treason."""
    return [t.treason for t in state.ts]


def wounds(state: ParanoiaState) -> list[int]:
    """Every seat's wounds."""
    return [t.wounds for t in state.ts]


def clearances(state: ParanoiaState) -> list[str]:
    """Every seat's clearance name."""
    return [state.clearances.row(t).name for t in state.ts]


SHIPPED_TEXT = Path(DEFAULT_PATH).read_text(encoding="utf-8")
CLEARANCE_PART = SHIPPED_TEXT[: SHIPPED_TEXT.index("[[mission]]")]
"""The shipped clearance table, as TOML, for custom card sets."""
TEST_MISSION = """
[[mission]]
id = "m-one"
name = "Test Mission"
count = 1
provenance = "designed"
note = "designed for arena"
success_when = [{ test = "alive" }]
success = [{ op = "absolve", target = "self", amount = 1 }]
"""
"""A one-card Mission deck ("m-one": everyone alive succeeds) for custom card sets."""
PROGRESS = '{ op = "mission_counter", counter = "progress", amount = 1 }'
"""The mission effect of most test cards."""


def action_toml(
    card_id: str,
    name: str,
    count: int,
    *section: str,
    mission: str = PROGRESS,
) -> str:
    """One designed action card as TOML: a mission section with the ``mission`` effect and,
    if given, one more section as ``(kind, effects)``, e.g. ``("another", '{ op = ... }')``."""
    text = f"""
[[action]]
id = "{card_id}"
name = "{name}"
count = {count}
provenance = "designed"
note = "designed for arena"
[[action.sections]]
kind = "mission"
effects = [{mission}]
"""
    if section:
        kind, effects = section
        text += f"""[[action.sections]]
kind = "{kind}"
effects = [{effects}]
"""
    return text


def custom_cards(tmp_path: Path, text: str, clearance: str = CLEARANCE_PART) -> CardSet:
    """A card set from the shipped clearance table (or ``clearance``) and ``text``."""
    path = tmp_path / "cards.toml"
    path.write_text(clearance + text, encoding="utf-8")
    return load_cardset(path)
