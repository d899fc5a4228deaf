"""Play Anytime cards: response windows, cancels and their chains, Docbot, the phase-end
window (rules: card play; CARDS.md: cancel, negate_wounds, rulings 1, 7, 8, 9, 23).

Every living seat is asked in every window, most with nothing but a pass (ruling 23); ``act``
passes those unless told otherwise, ``window`` lists every seat asked."""

from __future__ import annotations

from paranoia_helpers import (
    ABORT,
    BETTER_IDEA,
    BRIBE,
    DENOUNCE,
    DOCBOT,
    FLUSH,
    GOLDEN,
    INSPECTION,
    LASER,
    NITAL,
    PASS,
    STORY,
    TANGLER,
    act,
    asked,
    index,
    kinds,
    new,
    of_kind,
    one,
    options,
    pass_windows,
    pending,
    play,
    treason,
    window,
    wounds,
)


def test_a_window_asks_every_other_living_seat_from_the_players_left() -> None:
    """Rulings 7 and 23: after a card is played each *other* living troubleshooter is asked
    once, in turn order from the player's left, whether or not it holds a card it could play
    now (then its only option is a pass); nobody answers its own card."""
    state, _ = new(
        5,
        leader=2,
        hands=[[DOCBOT], [STORY], [TANGLER, BETTER_IDEA], [BRIBE], [INSPECTION]],
    )
    act(state, 2, "turn", play(TANGLER, "another", 4), forced=False)
    context = state.view(3)["decision"]
    assert context["kind"] == "respond" and context["reason"] == "play"
    assert context["answering"]["card"] == TANGLER and context["answering"]["seat"] == 2
    assert state.view(0)["decision"] is None, "only the decider sees the decision's context"
    # seat 3 holds only a Bribe (cancels cancels): it cannot answer a Tangler, and is asked
    assert options(state) == [PASS]
    assert window(state) == [(3, False), (4, True), (0, True), (1, True)]
    assert wounds(state) == [0, 0, 0, 0, 1]
    # then the window between turns (ruling 27): only seat 1's Convincing Story stands alone
    assert window(state) == [(3, False), (4, False), (0, False), (1, True), (2, False)]
    assert pending(state) == (3, "turn")


def test_an_answer_gets_its_own_window_and_resolves_before_the_next_seat_is_asked() -> None:
    """Ruling 7: an answer goes on the chain, gets its own window and resolves before the
    next seat is asked about the card it answered."""
    state, _ = new(4, hands=[[DENOUNCE], [STORY], [STORY], [STORY]])
    act(state, 0, "turn", play(DENOUNCE, "another", 3))
    assert pending(state) == (1, "respond")
    act(state, 1, "respond", play(STORY, "anytime", 2))
    assert [p["card"] for p in state.view(2)["chain"]] == [DENOUNCE, STORY]
    for seat in (2, 3, 0):  # the Convincing Story's window, from seat 1's left
        assert pending(state) == (seat, "respond")
        assert state.view(seat)["decision"]["answering"]["card"] == STORY
        assert (options(state) == [PASS]) == (seat == 0), "seat 0 holds no answer"
        events = act(state, seat, "respond", PASS, forced=False)
    assert one(events, "treason") == {"seat": 2, "amount": 1, "treason": 1, "by": 1}
    assert pending(state) == (2, "respond")
    assert state.view(2)["decision"]["answering"]["card"] == DENOUNCE
    assert treason(state) == [0, 0, 1, 0], "the denunciation has not resolved yet"
    pass_windows(state)
    assert treason(state) == [0, 0, 1, 1]


def test_a_window_closes_once_its_card_is_cancelled() -> None:
    """Ruling 7: a window closes once its card is cancelled: the seats after the canceller
    are not asked about the cancelled card."""
    state, _ = new(4, hands=[[GOLDEN], [BETTER_IDEA], [STORY], [STORY]])
    act(state, 0, "turn", play(GOLDEN, "yourself"))
    act(state, 1, "respond", play(BETTER_IDEA, "anytime"))
    assert state.view(2)["decision"]["answering"]["card"] == BETTER_IDEA
    assert window(state) == [(2, True), (3, True), (0, False)], "about the Better Idea"
    # not asked again about the cancelled Golden Opportunity: next, the window between turns
    assert window(state) == [(1, False), (2, True), (3, True), (0, False)]
    assert pending(state) == (1, "turn")


def test_better_idea_cancels_golden_opportunity() -> None:
    """Known card: Better Idea cancels another card (e.g. Golden Opportunity): it is
    discarded and none of its effects happen."""
    state, _ = new(3, hands=[[GOLDEN], [BETTER_IDEA]], treason=[1, 0, 0])
    hand = len(state.ts[0].hand)
    act(state, 0, "turn", play(GOLDEN, "yourself"))
    events = act(state, 1, "respond", play(BETTER_IDEA, "anytime"))
    assert one(events, "cancelled") == {
        "seat": 1,
        "card": BETTER_IDEA,
        "answered_seat": 0,
        "answered_card": GOLDEN,
    }
    assert one(events, "fizzled") == {"seat": 0, "card": GOLDEN}
    assert "drew" not in kinds(events) and "absolved" not in kinds(events)
    assert len(state.ts[0].hand) == hand - 1 and treason(state) == [1, 0, 0]
    assert state.actions.discards[-2:] == [BETTER_IDEA, GOLDEN]


def test_bribe_cancels_better_idea_so_golden_opportunity_resolves_last_in_first_out() -> None:
    """Known cards / ruling 1: Bribe cancels the Better Idea that answered a Golden
    Opportunity, and the Golden Opportunity then resolves; the chain resolves last in,
    first out. The Golden Opportunity's own player may answer the answer."""
    state, _ = new(3, hands=[[GOLDEN, BRIBE], [BETTER_IDEA]], treason=[1, 0, 0])
    act(state, 0, "turn", play(GOLDEN, "yourself"))
    act(state, 1, "respond", play(BETTER_IDEA, "anytime"), forced=False)
    assert pending(state) == (2, "respond") and options(state) == [PASS], "seat 2 holds none"
    act(state, 2, "respond", PASS, forced=False)
    assert pending(state) == (0, "respond"), "seat 0 may bribe"
    events = act(state, 0, "respond", play(BRIBE, "anytime"))
    cancelled = one(events, "cancelled")
    assert (cancelled["card"], cancelled["answered_card"]) == (BRIBE, BETTER_IDEA)
    bribe_treason = index(events, "treason", seat=0, by=0)
    fizzled = index(events, "fizzled", card=BETTER_IDEA)
    drew = index(events, "drew", seat=0)
    assert index(events, "cancelled") < bribe_treason < fizzled < drew
    assert index(events, "resolved", card=BRIBE) < fizzled < index(events, "resolved", card=GOLDEN)
    assert one(events, "drew")["cards"] == state.ts[0].hand[-2:]
    # the Bribe costs 1 treason, the Golden Opportunity absolves 1
    assert treason(state) == [1, 0, 0]
    assert pending(state) == (1, "turn")


def test_bribe_cannot_answer_a_card_that_cancels_nothing() -> None:
    """cancel selectors: Bribe cancels only a card played for a cancelling section."""
    state, _ = new(3, hands=[[GOLDEN], [BRIBE]])
    act(state, 0, "turn", play(GOLDEN, "yourself"), forced=False)
    assert pending(state) == (1, "respond") and options(state) == [PASS], "it holds a Bribe"
    assert window(state) == [(1, False), (2, False)]
    assert window(state, "turn-end") == [(1, False), (2, False), (0, False)]
    assert pending(state) == (1, "turn")
    assert len(state.ts[0].hand) == 7, "5 + the bonus card - the play + 2 drawn"


def test_nital_gives_treason_to_the_answered_player_when_it_resolves() -> None:
    """Cancel: NITAL cancels the card and gives 1 treason to its player (``answered``);
    making it a traitor, the NITAL's player sheds 2 treason."""
    state, _ = new(3, hands=[[GOLDEN], [NITAL]], treason=[2, 2, 0])
    act(state, 0, "turn", play(GOLDEN, "yourself"))
    events = act(state, 1, "respond", play(NITAL, "anytime"))
    assert one(events, "fizzled") == {"seat": 0, "card": GOLDEN}
    assert one(events, "treason") == {"seat": 0, "amount": 1, "treason": 3, "by": 1}
    assert one(events, "made-traitor") == {"seat": 1, "traitor": 0, "shed": 2}
    assert treason(state) == [3, 0, 0]


def test_a_cancelled_nital_gives_no_treason() -> None:
    """Cancel: NITAL's treason to ``answered`` happens only if the NITAL itself is not
    cancelled; the Golden Opportunity then resolves."""
    state, _ = new(3, hands=[[GOLDEN], [NITAL], [BRIBE]], treason=[2, 0, 0])
    act(state, 0, "turn", play(GOLDEN, "yourself"))
    act(state, 1, "respond", play(NITAL, "anytime"))
    events = act(state, 2, "respond", play(BRIBE, "anytime"))
    events += pass_windows(state)
    assert one(events, "fizzled") == {"seat": 1, "card": NITAL}
    assert of_kind(events, "treason") == [{"seat": 2, "amount": 1, "treason": 1, "by": 2}]
    assert one(events, "drew")["seat"] == 0
    assert treason(state) == [1, 0, 1], "Golden Opportunity absolved 1; Bribe cost 1"


def test_docbot_negates_the_wounds_but_not_the_other_effects() -> None:
    """Known card: Docbot negates damage: none of the answered card's wounds are dealt (so no
    loyalty treason); its other effects (the Tangler's steal) happen."""
    state, _ = new(3, hands=[[TANGLER], [], [DOCBOT]])
    victim = list(state.ts[1].hand)
    act(state, 0, "turn", play(TANGLER, "another", 1))
    assert pending(state) == (2, "respond")
    events = act(state, 2, "respond", play(DOCBOT, "anytime"))
    assert one(events, "negated") == {
        "seat": 2,
        "answered_seat": 0,
        "answered_card": TANGLER,
        "healed": 0,
    }
    assert one(events, "wounds-negated") == {"seat": 1, "card": TANGLER}
    assert "wounded" not in kinds(events) and "loyalty-treason" not in kinds(events)
    stolen = one(events, "stole")["cards"]
    assert len(stolen) == 1 and stolen[0] in victim
    assert wounds(state) == [0, 0, 0] and treason(state) == [0, 0, 0]
    assert len(state.ts[1].hand) == 4 and state.ts[0].hand[-1] == stolen[0]


def test_docbot_answers_only_cards_that_wound() -> None:
    """negate_wounds: a Docbot can only answer a card whose section deals wounds."""
    state, _ = new(3, hands=[[DENOUNCE, LASER], [DOCBOT]])
    act(state, 0, "turn", play(DENOUNCE, "another", 2), forced=False)
    assert window(state) == [(1, False), (2, False)], "a Docbot cannot answer a denunciation"
    assert window(state, "turn-end") == [(1, False), (2, False), (0, False)]
    assert pending(state) == (1, "turn")
    assert treason(state) == [0, 0, 1]


def test_surprise_safety_inspection_cancels_only_weapons() -> None:
    """Designed card: Surprise Safety Inspection cancels a weapon and nothing else."""
    state, _ = new(3, hands=[[DENOUNCE], [LASER], [INSPECTION]])
    act(state, 0, "turn", play(DENOUNCE, "another", 1), forced=False)
    assert window(state) == [(1, False), (2, False)], "a denunciation is no weapon"
    assert window(state, "turn-end") == [(1, False), (2, False), (0, False)]
    assert pending(state) == (1, "turn")
    act(state, 1, "turn", play(LASER, "equal_or_lower", 0))
    assert pending(state) == (2, "respond")
    events = act(state, 2, "respond", play(INSPECTION, "anytime"))
    assert one(events, "fizzled") == {"seat": 1, "card": LASER}
    assert wounds(state) == [0, 0, 0] and treason(state) == [0, 1, 0]
    assert pending(state) == (2, "turn")


def test_an_answer_resolves_first_so_a_story_makes_the_target_a_traitor_before_the_shot() -> None:
    """Ruling 1 and the loyalty economy: a Convincing Story answering a laser resolves first,
    so the laser kills a traitor: no loyalty treason, and the killer sheds all its treason;
    the Story's player, who made the traitor, sheds 2."""
    state, _ = new(3, hands=[[LASER], [STORY]], treason=[2, 2, 2])
    act(state, 0, "turn", play(LASER, "equal_or_lower", 2))
    events = act(state, 1, "respond", play(STORY, "anytime", 2))
    assert one(events, "made-traitor") == {"seat": 1, "traitor": 2, "shed": 2}
    assert "loyalty-treason" not in kinds(events)
    assert one(events, "wounded")["amount"] == 2
    assert pending(state) == (2, "dying")
    events = act(state, 2, "dying", PASS)
    assert one(events, "traitor-killed") == {"seat": 0, "traitor": 2, "shed": 2}
    assert treason(state) == [0, 0, 0]
    assert state.ts[0].killed_traitor


def test_phase_end_window_asks_from_the_team_leader_clockwise() -> None:
    """Rulings 9 and 23: when card play ends each living troubleshooter is asked once, from
    the Team Leader clockwise, whether or not it holds a Play Anytime card it could play; a
    cancel with nothing to cancel is no card it could play."""
    state, _ = new(4, leader=2, hands=[[STORY], [STORY], [ABORT], [STORY, BETTER_IDEA]])
    act(state, 2, "turn", play(ABORT, "mission"))
    assert asked(state) == [3, 0, 1], "Abort Mission's window"
    assert state.view(2)["decision"] == {"kind": "respond", "reason": "phase-end"}
    assert window(state) == [(2, False), (3, True), (0, True), (1, True)], "the phase end"
    assert pending(state) == (2, "turn") and state.mission_number == 2


def test_convincing_story_in_the_phase_end_window_makes_a_traitor_before_debriefing() -> None:
    """Known card / ruling 9: a Convincing Story in the phase-end window can make someone a
    traitor before Debriefing; it then fails the loyalty test and is executed (its giver,
    holding 1 treason, sheds what it has)."""
    state, _ = new(
        4,
        mission=FLUSH,
        leader=2,
        hands=[[STORY], [STORY], [ABORT], [STORY]],
        treason=[2, 1, 0, 0],
    )
    act(state, 2, "turn", play(ABORT, "mission"))
    assert asked(state) == [3, 0, 1], "Abort Mission's window"
    act(state, 3, "respond", PASS)
    act(state, 0, "respond", PASS)
    events = act(state, 1, "respond", play(STORY, "anytime", 0))
    events += act(state, 3, "respond", PASS)
    events += act(state, 0, "respond", PASS)
    assert one(events, "made-traitor") == {"seat": 1, "traitor": 0, "shed": 1}
    assert index(events, "treason", seat=0, by=1) < index(events, "debriefing")
    results = {r["seat"]: r["success"] for r in one(events, "debriefing")["results"]}
    assert results == {2: False, 3: False, 0: False, 1: False}
    assert one(events, "internal-security")["executed"] == [0]
    assert one(events, "executed") == {"seat": 0, "treason": 5}
