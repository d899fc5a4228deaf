"""Wounds, the loyalty economy, dying actions, death, new clones and leader succession
(rules: Loyalty economy, Death; CARDS.md: wound, treason, guard; rulings 3, 4, 12, 13, 16,
18)."""

from __future__ import annotations

from pathlib import Path

from paranoia_helpers import (
    ABORT,
    BETTER_IDEA,
    CLEARANCE_PART,
    CONE,
    DEMOTION,
    DENOUNCE,
    DOCBOT,
    LASER,
    NERVE_GAS,
    NOBLE,
    PASS,
    PERMIT,
    PILL,
    SHIPPED_TEXT,
    SPURIOUS,
    STORY,
    VOUCHER,
    act,
    clearances,
    custom_cards,
    discard_turn,
    index,
    kinds,
    new,
    of_kind,
    one,
    options,
    pass_windows,
    pending,
    play,
    play_turn,
    treason,
    wounds,
)

# ---------------------------------------------------------------- the loyalty economy


def test_wounding_another_loyal_troubleshooter_costs_two_treason_each_time() -> None:
    """Loyalty economy: wounding another loyal troubleshooter gives the attacker 2 treason,
    each time (once per target per effect, however many wounds)."""
    state, _ = new(
        3, hands=[[LASER, LASER]], clearances=["YELLOW", "YELLOW", "YELLOW"], treason=[0, 0, 0]
    )
    events = play_turn(state, 0, LASER, "equal_or_lower", 1)
    assert one(events, "loyalty-treason") == {"seat": 0, "wounded": 1, "amount": 2}
    assert one(events, "wounded")["amount"] == 2
    assert treason(state) == [2, 0, 0] and wounds(state) == [0, 2, 0]
    discard_turn(state, 1)
    discard_turn(state, 2)
    events = play_turn(state, 0, LASER, "higher", 2)
    assert one(events, "loyalty-treason") == {"seat": 0, "wounded": 2, "amount": 2}
    assert treason(state) == [4, 0, 0] and wounds(state) == [0, 2, 1]


def test_wounding_yourself_or_a_traitor_costs_no_treason() -> None:
    """Loyalty economy: only *another loyal* troubleshooter's wounds cost treason (the Cone
    Rifle's wound to its own user and a wound to a traitor are free)."""
    state, _ = new(
        3,
        hands=[[CONE], [LASER]],
        clearances=["RED", "YELLOW", "RED"],
        treason=[0, 0, 3],
    )
    events = play_turn(state, 0, CONE, "another", 1)
    assert of_kind(events, "loyalty-treason") == [{"seat": 0, "wounded": 1, "amount": 2}]
    assert wounds(state) == [1, 2, 0] and treason(state) == [2, 0, 3]
    events = play_turn(state, 1, LASER, "higher", 2)
    assert "loyalty-treason" not in kinds(events)
    assert wounds(state) == [1, 2, 1] and treason(state) == [2, 0, 3]


def test_making_someone_a_traitor_sheds_two_treason_from_the_giver() -> None:
    """Loyalty economy: giving a troubleshooter the treason point that makes it a traitor
    costs the giver 2 treason (not below 0); more treason on a traitor, or treason that does
    not make a traitor, sheds nothing."""
    state, _ = new(
        4,
        hands=[[DENOUNCE, DENOUNCE], [DENOUNCE]],
        clearances=["ORANGE", "RED", "RED", "RED"],
        treason=[3, 1, 0, 1],
    )
    events = play_turn(state, 0, DENOUNCE, "another", 3)
    assert "made-traitor" not in kinds(events) and treason(state) == [3, 1, 0, 2]
    discard_turn(state, 1)
    discard_turn(state, 2)
    discard_turn(state, 3)
    events = play_turn(state, 0, DENOUNCE, "another", 3)
    assert one(events, "made-traitor") == {"seat": 0, "traitor": 3, "shed": 2}
    assert treason(state) == [1, 1, 0, 3]
    events = play_turn(state, 1, DENOUNCE, "another", 3)
    assert "made-traitor" not in kinds(events), "already a traitor"
    assert treason(state) == [1, 1, 0, 4]


def test_spurious_logic_makes_a_traitor_sheds_two_then_absolves_one() -> None:
    """Known card (designed effect) and the loyalty economy: Spurious Logic gives the target 1
    treason (a new traitor costs its giver 2) and absolves its player 1."""
    state, _ = new(3, hands=[[SPURIOUS]], clearances=["ORANGE", "RED", "RED"], treason=[3, 2, 0])
    events = play_turn(state, 0, SPURIOUS, "another", 1)
    assert one(events, "made-traitor") == {"seat": 0, "traitor": 1, "shed": 2}
    assert one(events, "absolved") == {"seat": 0, "amount": 1, "treason": 0}
    assert kinds(events).index("made-traitor") < kinds(events).index("absolved")
    assert treason(state) == [0, 3, 0]


def test_dealing_the_fatal_wound_to_a_traitor_sheds_all_the_killers_treason() -> None:
    """Loyalty economy: dealing the fatal wound to a traitor makes the killer lose all its
    treason (the Summary Execution Permit only hurts traitors)."""
    state, _ = new(3, hands=[[PERMIT]], treason=[2, 3, 0])
    act(state, 0, "turn", play(PERMIT, "another", 1))
    assert pending(state) == (1, "dying")
    events = act(state, 1, "dying", PASS)
    assert one(events, "traitor-killed") == {"seat": 0, "traitor": 1, "shed": 2}
    assert one(events, "died") == {"seat": 1, "by": 0, "execution": False, "clones": 5}
    assert treason(state) == [0, 0, 0]
    assert state.ts[0].killed_traitor


def test_a_when_condition_that_fails_does_nothing() -> None:
    """``when``: the Permit's wounds need a traitor target; on a loyal one nothing happens."""
    state, _ = new(3, hands=[[PERMIT]], treason=[0, 2, 0])
    events = play_turn(state, 0, PERMIT, "another", 1)
    assert one(events, "no-effect") == {"seat": 0, "card": PERMIT, "when": "target_is_traitor"}
    assert wounds(state) == [0, 0, 0] and treason(state) == [0, 2, 0]


# ---------------------------------------------------------------- dying actions


def test_a_dying_action_that_heals_saves_the_troubleshooter() -> None:
    """Death / ruling 12: at max wounds the troubleshooter plays one card at once; if that
    brings its wounds below the maximum it lives on."""
    state, _ = new(3, hands=[[LASER], [PILL, STORY]], wounds=[0, 1, 0], treason=[0, 1, 0])
    act(state, 0, "turn", play(LASER, "higher", 1))
    assert pending(state) == (1, "respond"), "the Story may answer the laser first"
    events = act(state, 1, "respond", PASS)
    assert one(events, "dying") == {"seat": 1, "by": 0, "card": LASER}
    assert state.view(1)["decision"]["wounds"] == 2
    opts = options(state)
    assert opts[0] == PASS, "the dying action is optional"
    assert play(PILL, "yourself") in opts
    events = act(state, 1, "dying", play(PILL, "yourself"))
    events += pass_windows(state)
    assert one(events, "survived") == {"seat": 1, "wounds": 1}
    assert "died" not in kinds(events)
    assert state.ts[1].alive and wounds(state) == [0, 1, 0] and treason(state) == [2, 0, 0]


def test_a_dying_troubleshooter_may_also_play_play_anytime_cards() -> None:
    """Death: the dying action is one card from hand at once "(plus any Play Anytime
    cards)": a free-standing Play Anytime card (Convincing Story) may be played during the
    dying action without using it (as on one's own turn, ruling 8), and the dying
    troubleshooter is then still asked for its one card."""
    state, _ = new(3, hands=[[LASER], [STORY, PILL]], wounds=[0, 1, 0])
    act(state, 0, "turn", play(LASER, "higher", 1))
    act(state, 1, "respond", PASS)
    assert pending(state) == (1, "dying")
    assert play(STORY, "anytime", 2) in options(state)
    events = act(state, 1, "dying", play(STORY, "anytime", 2))
    assert one(events, "treason") == {"seat": 2, "amount": 1, "treason": 1, "by": 1}
    assert pending(state) == (1, "dying"), "the Story did not use the dying action"
    events = act(state, 1, "dying", play(PILL, "yourself"))
    assert one(events, "survived") == {"seat": 1, "wounds": 1}


def test_a_dying_docbot_takes_back_the_wounds_of_the_card_that_caused_them() -> None:
    """Ruling 12 / negate_wounds: a Docbot played as the dying action on the card that caused
    the wounds removes those wounds again."""
    state, _ = new(3, hands=[[LASER], [DOCBOT]], wounds=[0, 0, 0])
    act(state, 0, "turn", play(LASER, "equal_or_lower", 1))
    act(state, 1, "respond", PASS)  # the Docbot could answer the laser; it waits
    assert wounds(state) == [0, 2, 0]
    assert play(DOCBOT, "anytime") in options(state)
    events = act(state, 1, "dying", play(DOCBOT, "anytime"))
    assert one(events, "negated")["healed"] == 2
    assert one(events, "survived") == {"seat": 1, "wounds": 0}
    assert state.ts[1].alive and wounds(state) == [0, 0, 0]


def test_others_may_answer_a_dying_action() -> None:
    """Ruling 12: others may answer the dying action in its window: a Better Idea cancels the
    dying Docbot and the troubleshooter dies."""
    state, _ = new(3, hands=[[LASER], [DOCBOT], [BETTER_IDEA]])
    act(state, 0, "turn", play(LASER, "equal_or_lower", 1))
    pass_windows(state)
    act(state, 1, "dying", play(DOCBOT, "anytime"))
    assert pending(state) == (2, "respond")
    assert state.view(2)["decision"]["answering"]["card"] == DOCBOT
    events = act(state, 2, "respond", play(BETTER_IDEA, "anytime"))
    assert one(events, "fizzled") == {"seat": 1, "card": DOCBOT}
    # a Play Anytime card does not use the dying action: still dying, it is asked again
    assert pending(state) == (1, "dying")
    events = act(state, 1, "dying", PASS)
    assert one(events, "died") == {"seat": 1, "by": 0, "execution": False, "clones": 5}
    assert "survived" not in kinds(events) and state.ts[1].clones == 5


def test_a_troubleshooter_with_no_cards_has_no_dying_action(tmp_path: Path) -> None:
    """Ruling 12: a troubleshooter with no cards has no dying action: it simply dies."""
    # a card set whose RED hand size is 1, so a hand is soon empty
    cards = custom_cards(
        tmp_path,
        SHIPPED_TEXT[SHIPPED_TEXT.index("[[mission]]") :],
        clearance=CLEARANCE_PART.replace("hand_size = 5", "hand_size = 1", 1),
    )
    state, _ = new(3, hands=[[], [CONE], []], size=1, wounds=[0, 1, 0], cards=cards)
    discard_turn(state, 0)
    events = act(state, 1, "turn", play(CONE, "another", 0))
    assert pending(state) == (0, "dying"), "seat 0 still holds a card"
    events = act(state, 0, "dying", PASS)
    assert [d["seat"] for d in of_kind(events, "dying")] == [1]
    assert [d["seat"] for d in of_kind(events, "died")] == [0, 1]
    assert index(events, "died", seat=0) < index(events, "dying", seat=1)
    assert index(events, "dying", seat=1) == index(events, "died", seat=1) - 1


def test_a_demotion_to_a_clearance_whose_max_wounds_are_reached_kills() -> None:
    """Clearance table / Death: "Killed: wounds >= max wounds"; a troubleshooter whose wounds
    reach its maximum takes a dying action. A YELLOW with 2 wounds demoted to ORANGE (max 2)
    has reached its maximum."""
    state, _ = new(
        3, hands=[[DEMOTION]], clearances=["YELLOW", "YELLOW", "YELLOW"], wounds=[0, 2, 0]
    )
    events = act(state, 0, "turn", play(DEMOTION, "another", 1))
    assert one(events, "clearance")["to"] == "ORANGE"
    assert pending(state) == (1, "dying")


def test_a_troubleshooter_at_its_max_wounds_is_killed_by_the_next_wound() -> None:
    """Death: whatever put a living troubleshooter at its maximum wounds (here a demotion
    from YELLOW to ORANGE with 2 wounds), a further wound must bring the dying action; it
    cannot shrug wounds off forever."""
    state, _ = new(
        3,
        hands=[[DEMOTION], [], [LASER]],
        clearances=["YELLOW", "YELLOW", "YELLOW"],
        wounds=[0, 2, 0],
    )
    play_turn(state, 0, DEMOTION, "another", 1)
    if pending(state) == (1, "dying"):  # the demotion itself killed (as it should)
        events = act(state, 1, "dying", PASS)
        assert one(events, "died")["seat"] == 1
        return
    discard_turn(state, 1)
    act(state, 2, "turn", play(LASER, "higher", 1))
    assert pending(state) == (1, "dying"), f"seat 1 at {state.ts[1].wounds} wounds, alive"


# ---------------------------------------------------------------- death and new clones


def test_death_discards_wounds_and_treason_loses_a_clone_and_skips_the_next_turn() -> None:
    """Death / ruling 13: the dead troubleshooter's wounds and treason are discarded, it loses
    a clone, skips its next turn and returns as a new clone at the start of the turn after."""
    state, _ = new(4, hands=[[LASER]], wounds=[0, 1, 0, 0], treason=[0, 2, 0, 0])
    act(state, 0, "turn", play(LASER, "higher", 1))
    events = act(state, 1, "dying", PASS)
    assert one(events, "died") == {"seat": 1, "by": 0, "execution": False, "clones": 5}
    t = state.ts[1]
    assert (t.wounds, t.treason, t.clones) == (0, 0, 5)
    assert one(events, "turn-skipped") == {"seat": 1, "reason": "dead"}
    assert kinds(events)[-5:] == ["died", "resolved", "turn-skipped", "new-clone", "turn"]
    assert one(events, "new-clone") == {"seat": 1, "clones": 5, "when": "turn"}
    assert one(events, "turn") == {"seat": 2}
    assert state.ts[1].alive
    discard_turn(state, 2)
    discard_turn(state, 3)
    discard_turn(state, 0)
    assert pending(state) == (1, "turn"), "the new clone plays its next turn"


def test_dying_on_your_own_turn_skips_your_next_turn() -> None:
    """Death: a troubleshooter killed on its own turn (its Cone Rifle's backfire) skips its
    next turn, then returns."""
    state, _ = new(
        4, hands=[[], [CONE]], wounds=[0, 1, 0, 0], clearances=["RED", "RED", "YELLOW", "RED"]
    )
    discard_turn(state, 0)
    act(state, 1, "turn", play(CONE, "another", 2))
    act(state, 1, "dying", PASS)
    assert not state.ts[1].alive and pending(state) == (2, "turn")
    discard_turn(state, 2)
    discard_turn(state, 3)
    events = discard_turn(state, 0)
    assert of_kind(events, "turn-skipped") == [{"seat": 1, "reason": "dead"}]
    assert one(events, "new-clone")["seat"] == 1
    assert pending(state) == (2, "turn")


def test_a_clone_voucher_gains_a_clone_up_to_six() -> None:
    """gain_clone (Clone Vat Priority Voucher): the target gains a clone, up to 6."""
    state, _ = new(3, hands=[[VOUCHER], [VOUCHER]], clones=[4, 6, 6])
    events = play_turn(state, 0, VOUCHER, "yourself")
    assert one(events, "clone-gained") == {"seat": 0, "clones": 5, "gained": True}
    events = play_turn(state, 1, VOUCHER, "yourself")
    assert one(events, "clone-gained") == {"seat": 1, "clones": 6, "gained": False}
    assert [t.clones for t in state.ts] == [5, 6, 6]


# ---------------------------------------------------------------- leader succession


def test_a_dead_team_leader_is_replaced_by_the_least_treasonous_and_promoted() -> None:
    """Death: a dead Team Leader is replaced, right after its dying action, by the living
    troubleshooter with the fewest treason (tie: the first to the old leader's left), who is
    promoted one clearance."""
    state, _ = new(
        4,
        hands=[[], [], [], [LASER]],
        clearances=["ORANGE", "RED", "RED", "RED"],
        wounds=[1, 0, 0, 0],
        treason=[0, 2, 1, 1],
    )
    for seat in (0, 1, 2):
        discard_turn(state, seat)
    act(state, 3, "turn", play(LASER, "higher", 0))
    assert pending(state) == (0, "dying")
    events = act(state, 0, "dying", PASS)
    assert one(events, "new-leader") == {"seat": 2, "previous": 0}
    assert index(events, "died", seat=0) < index(events, "new-leader")
    clearance = one(events, "clearance")
    assert clearance == {
        "seat": 2,
        "from": "RED",
        "to": "ORANGE",
        "moved": True,
        "reason": "team-leader",
    }
    assert state.leader == 2 and clearances(state) == ["ORANGE", "RED", "ORANGE", "RED"]
    assert state.view(1)["team_leader"] == 2


def test_succession_tie_goes_to_the_first_living_to_the_old_leaders_left() -> None:
    """Death: succession ties go to the first *living* troubleshooter to the old leader's
    left (Nerve Gas kills the leader, then its successor)."""
    state, _ = new(
        4, leader=1, hands=[[], [NERVE_GAS]], wounds=[0, 1, 1, 0], clearances=["RED"] * 4
    )
    act(state, 1, "turn", play(NERVE_GAS, "yourself"))
    events = act(state, 1, "dying", PASS)
    assert one(events, "new-leader") == {"seat": 2, "previous": 1}
    events = act(state, 2, "dying", PASS)
    assert one(events, "new-leader") == {"seat": 3, "previous": 2}
    assert state.leader == 3
    assert clearances(state) == ["RED", "RED", "ORANGE", "ORANGE"]


def test_a_dead_leader_with_nobody_alive_stays_leader_until_the_first_new_clone() -> None:
    """Ruling 16: a dead Team Leader with nobody alive to succeed it stays leader until the
    first new clone arrives, which then succeeds it and is promoted."""
    state, _ = new(3, hands=[[NERVE_GAS]], wounds=[1, 1, 1], mission_cap=2)
    act(state, 0, "turn", play(NERVE_GAS, "yourself"))
    act(state, 0, "dying", PASS)
    assert state.leader == 1
    act(state, 1, "dying", PASS)
    assert state.leader == 2
    events = act(state, 2, "dying", PASS)
    assert "new-leader" not in kinds(events[: index(events, "card-play-end")])
    assert one(events, "debriefing")["results"] == []
    first_clone = index(events, "new-clone", seat=0)
    assert of_kind(events, "new-leader") == [{"seat": 0, "previous": 2}]
    assert first_clone < index(events, "new-leader") < index(events, "new-clone", seat=1)
    assert state.leader == 0 and clearances(state) == ["ORANGE", "ORANGE", "ORANGE"]


# ---------------------------------------------------------------- Nerve Gas, "all"


def test_nerve_gas_wounds_everyone_in_seat_order_from_the_player_with_each_dying_at_once() -> None:
    """Ruling 3: ``all`` wounds hit in seat order from the player; each death's dying action
    happens at once, before the next troubleshooter is wounded."""
    state, _ = new(4, leader=2, hands=[[], [], [NERVE_GAS]], wounds=[1, 0, 0, 1])
    events = act(state, 2, "turn", play(NERVE_GAS, "yourself"))
    assert [w["seat"] for w in of_kind(events, "wounded")] == [2, 3]
    assert pending(state) == (3, "dying") and wounds(state) == [1, 0, 1, 2]
    events = act(state, 3, "dying", PASS)
    assert [w["seat"] for w in of_kind(events, "wounded")] == [0]
    assert pending(state) == (0, "dying") and wounds(state) == [2, 0, 1, 0]
    events = act(state, 0, "dying", PASS)
    assert [w["seat"] for w in of_kind(events, "wounded")] == [1]
    assert [d["seat"] for d in of_kind(events, "died")] == [0]
    assert wounds(state) == [0, 1, 1, 0]
    assert treason(state) == [0, 0, 6, 0], "three loyal others wounded: 2 treason each"


def test_no_loyalty_treason_for_an_attacker_already_dead() -> None:
    """Ruling 18: loyalty treason is not charged to an attacker already dead when its card's
    wound lands (Nerve Gas that killed its player first)."""
    state, _ = new(3, hands=[[NERVE_GAS]], wounds=[1, 0, 0])
    act(state, 0, "turn", play(NERVE_GAS, "yourself"))
    events = act(state, 0, "dying", PASS)
    assert [w["seat"] for w in of_kind(events, "wounded")] == [1, 2]
    assert "loyalty-treason" not in kinds(events)
    assert treason(state) == [0, 0, 0] and wounds(state) == [0, 1, 1]


# ---------------------------------------------------------------- Noble Sacrifice


def test_noble_sacrifice_stays_on_the_table_and_takes_wounds_meant_for_the_guarded() -> None:
    """Known card / guard: Noble Sacrifice stays on the table; every wound another
    troubleshooter's card would deal to the guarded one is dealt to its player instead, the
    attacker paying loyalty treason as if it had wounded the guarded; the guarded one's own
    card still wounds it."""
    state, _ = new(
        4,
        hands=[[], [NOBLE], [CONE], [LASER]],
        clearances=["RED", "YELLOW", "RED", "YELLOW"],
    )
    discard_turn(state, 0)
    events = play_turn(state, 1, NOBLE, "another", 2)
    assert one(events, "on-table") == {"seat": 1, "card": NOBLE, "guarding": 2}
    assert state.view(0)["table"] == [{"seat": 1, "card": NOBLE, "guarding": 2, "active": True}]
    assert NOBLE not in state.actions.discards
    events = play_turn(state, 2, CONE, "another", 3)
    assert [(w["seat"], w["amount"]) for w in of_kind(events, "wounded")] == [(3, 2), (2, 1)]
    events = play_turn(state, 3, LASER, "higher", 2)
    assert one(events, "wounded") == {
        "seat": 1,
        "by": 3,
        "card": LASER,
        "amount": 1,
        "wounds": 1,
        "guarding": 2,
    }
    assert one(events, "loyalty-treason") == {"seat": 3, "wounded": 2, "amount": 2}
    assert wounds(state) == [0, 1, 1, 2]


def test_a_dead_guard_no_longer_redirects_wounds() -> None:
    """Ruling 4: a Noble Sacrifice guard who is dead no longer redirects wounds (not even
    once its new clone is back)."""
    state, _ = new(4, hands=[[LASER], [NOBLE], [], [LASER]], wounds=[0, 1, 0, 0])
    discard_turn(state, 0)
    play_turn(state, 1, NOBLE, "another", 2)
    discard_turn(state, 2)
    act(state, 3, "turn", play(LASER, "higher", 2))
    assert pending(state) == (1, "dying"), "the guard took the wound"
    act(state, 1, "dying", PASS)
    assert state.view(0)["table"][0]["active"] is False
    events = play_turn(state, 0, LASER, "higher", 2)
    assert one(events, "wounded")["seat"] == 2 and one(events, "wounded")["guarding"] is None
    assert wounds(state)[2] == 1


def test_two_guards_on_one_troubleshooter_the_most_recent_takes_the_wounds() -> None:
    """Ruling 4: two guards on one troubleshooter: the most recent takes the wounds."""
    state, _ = new(5, hands=[[], [NOBLE], [NOBLE], [], [LASER]])
    discard_turn(state, 0)
    play_turn(state, 1, NOBLE, "another", 3)
    play_turn(state, 2, NOBLE, "another", 3)
    discard_turn(state, 3)
    events = play_turn(state, 4, LASER, "higher", 3)
    assert one(events, "wounded")["seat"] == 2
    assert wounds(state) == [0, 0, 1, 0, 0]


def test_when_the_most_recent_guard_is_dead_the_older_living_guard_takes_the_wounds() -> None:
    """Ruling 4: a dead guard no longer redirects; the other guard still does."""
    state, _ = new(5, hands=[[], [NOBLE], [NOBLE], [], [LASER, LASER]], wounds=[0, 0, 1, 0, 0])
    discard_turn(state, 0)
    play_turn(state, 1, NOBLE, "another", 3)
    play_turn(state, 2, NOBLE, "another", 3)
    discard_turn(state, 3)
    act(state, 4, "turn", play(LASER, "higher", 3))
    assert pending(state) == (2, "dying"), "the most recent guard took the wound"
    act(state, 2, "dying", PASS)
    discard_turn(state, 0)
    events = discard_turn(state, 1)
    assert one(events, "new-clone")["seat"] == 2, "back, but no longer a guard"
    discard_turn(state, 3)
    events = play_turn(state, 4, LASER, "higher", 3)
    assert one(events, "wounded")["seat"] == 1 and one(events, "wounded")["guarding"] == 3
    assert wounds(state) == [0, 1, 0, 0, 0]


def test_internal_security_discards_the_cards_on_the_table() -> None:
    """Known card / Internal Security: a Noble Sacrifice lies on the table until Internal
    Security discards it."""
    state, _ = new(3, hands=[[NOBLE], [ABORT]], mission_cap=2)
    play_turn(state, 0, NOBLE, "another", 2)
    events = play_turn(state, 1, ABORT, "mission")
    assert one(events, "internal-security") == {"executed": [], "cleared": [NOBLE]}
    assert state.table == [] and NOBLE in state.actions.discards
    assert state.view(2)["table"] == []
    assert STORY not in state.ts[0].hand
