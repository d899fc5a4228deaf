"""Phase 3, card play: turns, sections and targets, and what ends the phase."""

from __future__ import annotations

from pathlib import Path

import pytest
from paranoia_helpers import (
    ABORT,
    BANDAGE,
    BETTER_IDEA,
    CONE,
    DENOUNCE,
    ESCORT,
    GOLDEN,
    LASER,
    NERVE_GAS,
    OUTDOORS,
    PAPERWORK,
    PASS,
    PILL,
    REQUISITION,
    STORY,
    SURVEY,
    TANGLER,
    act,
    action_toml,
    custom_cards,
    discard_turn,
    kinds,
    new,
    of_kind,
    one,
    options,
    pass_windows,
    pending,
    play,
    play_turn,
    wounds,
)

from arena.games.base import IllegalAction


def targets(state, card: str, section: str) -> list[int | None]:
    """The targets offered for one section of a card in the pending decision."""
    return [
        o["target"] for o in options(state) if o.get("play") == card and o["section"] == section
    ]


def test_turns_go_clockwise_from_the_team_leader() -> None:
    """Card play: the Team Leader plays first, then each troubleshooter clockwise."""
    state, _ = new(4, leader=2)
    seats = []
    for _ in range(6):
        seat, kind = pending(state)
        assert kind == "turn"
        seats.append(seat)
        discard_turn(state, seat)
    assert seats == [2, 3, 0, 1, 2, 3]
    assert state.view(0)["turn"] == 0


def test_a_turn_must_play_or_discard_one_card() -> None:
    """Card play: on your turn you must play or discard one card (there is no pass)."""
    state, _ = new(3)
    opts = options(state)
    assert opts and all(set(o) in ({"discard"}, {"play", "section", "target"}) for o in opts)
    assert {o["discard"] for o in opts if "discard" in o} == set(state.ts[0].hand)
    with pytest.raises(IllegalAction):
        state.apply(PASS)
    events = discard_turn(state, 0, state.ts[0].hand[0])
    assert one(events, "discarded")["seat"] == 0 and len(state.ts[0].hand) == 5
    assert pending(state) == (1, "turn"), "one card is the whole turn"


def test_a_play_uses_exactly_one_section() -> None:
    """Card play: a card is played using exactly one of its sections: the laser's "higher"
    section on an equal target deals its 1 wound, not the other section's 2 as well."""
    state, _ = new(3, hands=[[LASER]], clearances=["RED", "YELLOW", "YELLOW"])
    state2, _ = new(3, hands=[[LASER]], clearances=["YELLOW", "YELLOW", "YELLOW"])
    # RED against a YELLOW target: only "higher"
    assert targets(state, LASER, "higher") == [1, 2]
    assert targets(state, LASER, "equal_or_lower") == []
    # YELLOW against YELLOW: either section
    assert targets(state2, LASER, "equal_or_lower") == [1, 2]
    play_turn(state2, 0, LASER, "higher", 1)
    assert wounds(state2) == [0, 1, 0]
    assert state2.counters["wounds"] == 0, "the mission section was not used"
    with pytest.raises(IllegalAction):
        state.apply(play(LASER, "another", 1))


def test_against_a_higher_clearance_only_the_higher_section() -> None:
    """Card play: against a higher-clearance target only its "higher" section may be used;
    against an equal or lower one either section."""
    state, _ = new(4, hands=[[LASER]], leader=0, clearances=["ORANGE", "YELLOW", "ORANGE", "RED"])
    assert targets(state, LASER, "higher") == [1, 2, 3]
    assert targets(state, LASER, "equal_or_lower") == [2, 3]
    with pytest.raises(IllegalAction):
        state.apply(play(LASER, "equal_or_lower", 1))
    events = act(state, 0, "turn", play(LASER, "equal_or_lower", 2))
    assert one(events, "wounded")["amount"] == 2 and wounds(state) == [0, 0, 2, 0]


def test_another_excludes_yourself_troubleshooter_includes_yourself() -> None:
    """Card play: a card is played on a troubleshooter, yourself included unless it says
    "another"; "yourself" and "mission" sections take no target."""
    state, _ = new(4, hands=[[TANGLER, BANDAGE, PILL]])
    assert targets(state, TANGLER, "another") == [1, 2, 3]
    assert targets(state, BANDAGE, "troubleshooter") == [0, 1, 2, 3]
    assert targets(state, PILL, "yourself") == [None]
    assert targets(state, PILL, "mission") == [None]
    with pytest.raises(IllegalAction):
        state.apply(play(TANGLER, "another", 0))


def test_dead_troubleshooters_cannot_be_targeted() -> None:
    """Death: dead troubleshooters cannot be targeted, by a turn's play or an anytime play."""
    state, _ = new(4, hands=[[LASER], [TANGLER, STORY]], wounds=[0, 0, 1, 0])
    act(state, 0, "turn", play(LASER, "equal_or_lower", 2))
    assert pending(state) == (1, "respond")
    act(state, 1, "respond", PASS)
    act(state, 2, "dying", PASS)
    assert not state.ts[2].alive
    pass_windows(state)
    assert pending(state) == (1, "turn")
    assert targets(state, TANGLER, "another") == [0, 3]
    assert targets(state, STORY, "anytime") == [0, 1, 3]
    with pytest.raises(IllegalAction):
        state.apply(play(TANGLER, "another", 2))


def test_play_anytime_on_your_own_turn_does_not_use_the_turn() -> None:
    """Card play / ruling 8: a free-standing Play Anytime section may be played on one's own
    turn and does not count as the turn's play."""
    state, _ = new(3, hands=[[STORY]])
    events = act(state, 0, "turn", play(STORY, "anytime", 2))
    assert one(events, "treason") == {"seat": 2, "amount": 1, "treason": 1, "by": 0}
    assert pending(state) == (0, "turn"), "still seat 0's turn"
    assert STORY not in state.ts[0].hand
    discard_turn(state, 0)
    assert pending(state) == (1, "turn")


def test_a_cancelled_card_still_counts_as_the_turns_play() -> None:
    """Cancel (CARDS.md): the cancelled card is discarded, none of its effects happen, and it
    still counts as its player's play for the turn."""
    state, _ = new(3, hands=[[GOLDEN], [BETTER_IDEA]])
    act(state, 0, "turn", play(GOLDEN, "yourself"))
    events = act(state, 1, "respond", play(BETTER_IDEA, "anytime"))
    assert one(events, "fizzled") == {"seat": 0, "card": GOLDEN}
    assert "drew" not in kinds(events) and GOLDEN in state.actions.discards
    assert pending(state) == (1, "turn")


def test_phase_ends_when_a_living_troubleshooter_has_no_cards_left_after_answers() -> None:
    """Phase end: a living troubleshooter with no cards left ends card play, but Play Anytime
    cards may still answer its last card first."""
    state, _ = new(3, hands=[[], [DENOUNCE], [STORY]])
    for _ in range(4):
        discard_turn(state, 0, state.ts[0].hand[-1])
        discard_turn(state, 1, state.ts[1].hand[-1])
        discard_turn(state, 2, state.ts[2].hand[-1])
    discard_turn(state, 0, state.ts[0].hand[-1])
    assert state.ts[1].hand == [DENOUNCE] and state.ts[2].hand == [STORY]
    act(state, 1, "turn", play(DENOUNCE, "another", 0))
    assert state.ts[1].hand == []
    assert pending(state) == (2, "respond"), "the last card can still be answered"
    events = act(state, 2, "respond", play(STORY, "anytime", 0))
    given = of_kind(events, "treason")
    assert [(t["by"], t["treason"]) for t in given] == [(2, 1), (1, 2)]
    assert one(events, "card-play-end") == {"reason": "empty-hand"}
    last_treason = max(i for i, k in enumerate(kinds(events)) if k == "treason")
    assert kinds(events).index("card-play-end") > last_treason


def test_team_leader_declares_the_mission_complete() -> None:
    """Phase end / ruling 11: once every seat has had a turn and the mission has been
    completed, the Team Leader may declare it complete at the start of its turn."""
    state, _ = new(3, mission=ESCORT, hands=[[GOLDEN], [PAPERWORK]])
    assert state.view(0)["decision"] == {"kind": "turn", "can_complete": False}
    play_turn(state, 0, GOLDEN, "mission")
    play_turn(state, 1, PAPERWORK, "mission")
    assert state.counters["progress"] == 3
    discard_turn(state, 2)
    assert state.view(0)["decision"] == {"kind": "turn", "can_complete": True}
    assert options(state)[-1] == {"complete": True}
    events = act(state, 0, "turn", {"complete": True})
    assert one(events, "mission-complete") == {"seat": 0}
    assert one(events, "card-play-end") == {"reason": "completed"}
    assert one(events, "debriefing")["results"] == [
        {"seat": 0, "success": True},
        {"seat": 1, "success": True},
        {"seat": 2, "success": True},
    ]


def test_only_the_team_leader_declares_and_took_wounds_is_an_achievement() -> None:
    """Ruling 11: ``took_wounds`` is an achievement test (Go 'Outdoors'); only the Team
    Leader, at its turn, may declare the mission complete."""
    state, _ = new(3, mission=OUTDOORS, hands=[[LASER]], clearances=["RED", "YELLOW", "RED"])
    play_turn(state, 0, LASER, "higher", 1)
    assert {"complete": True} not in options(state), "seat 1 is not the Team Leader"
    discard_turn(state, 1)
    assert {"complete": True} not in options(state)
    discard_turn(state, 2)
    events = act(state, 0, "turn", {"complete": True})
    assert one(events, "card-play-end") == {"reason": "completed"}
    assert one(events, "debriefing")["results"][1] == {"seat": 1, "success": True}


def test_a_new_team_leader_cannot_declare_before_every_seat_had_a_turn() -> None:
    """Ruling 11: a Team Leader who took over mid-mission must still wait until every seat
    has had a turn, though the mission is achieved (seat 2 took wounds)."""
    state, _ = new(
        4,
        mission=OUTDOORS,
        hands=[[CONE]],
        wounds=[1, 0, 0, 0],
        clearances=["RED", "RED", "YELLOW", "RED"],
    )
    act(state, 0, "turn", play(CONE, "another", 2))
    act(state, 0, "dying", PASS)
    assert state.leader == 1 and pending(state) == (1, "turn")
    assert {"complete": True} not in options(state)
    discard_turn(state, 1)
    discard_turn(state, 2)
    events = discard_turn(state, 3)
    assert one(events, "turn-skipped") == {"seat": 0, "reason": "dead"}
    assert pending(state) == (1, "turn")
    assert options(state)[-1] == {"complete": True}


def test_mission_not_complete_cannot_be_declared_complete() -> None:
    """Ruling 11: the mission must *be* completed (Escort needs progress 3)."""
    state, _ = new(3, mission=ESCORT, hands=[[GOLDEN]])
    play_turn(state, 0, GOLDEN, "mission")
    discard_turn(state, 1)
    discard_turn(state, 2)
    assert state.counters["progress"] == 2
    assert {"complete": True} not in options(state)
    with pytest.raises(IllegalAction):
        state.apply({"complete": True})


def test_a_stay_alive_mission_is_never_completed_early() -> None:
    """Ruling 11: a "stay alive / stay loyal" mission has no achievement test: never
    completed early."""
    state, _ = new(3, mission=SURVEY)
    for seat in (0, 1, 2, 0, 1, 2):
        assert {"complete": True} not in options(state)
        discard_turn(state, seat)
    assert state.view(0)["decision"]["can_complete"] is False


def test_complete_needs_every_seat_to_have_had_a_turn(tmp_path: Path) -> None:
    """Ruling 11: declaring the mission complete needs every seat to have had a turn this
    mission, even when the mission is already achieved."""
    cards = custom_cards(
        tmp_path,
        """
[[mission]]
id = "m-done"
name = "Test Done Mission"
count = 1
provenance = "designed"
note = "designed for arena"
success_when = [{ test = "mission_counter_at_least", counter = "progress", value = 0 }]
success = [{ op = "absolve", target = "self", amount = 1 }]
failure = []
"""
        + action_toml("a-one", "Test Forms", 30),
    )
    state, _ = new(3, hands=[["a-one"] * 5] * 3, deck=["a-one"], mission="m-done", cards=cards)
    assert {"complete": True} not in options(state)
    discard_turn(state, 0)
    discard_turn(state, 1)
    discard_turn(state, 2)
    assert options(state)[-1] == {"complete": True}


def test_abort_mission_ends_the_card_play_phase_after_its_answers() -> None:
    """Phase end: Abort Mission ends card play once it resolves (anytime answers first)."""
    state, _ = new(3, hands=[[ABORT], [], [STORY]])
    act(state, 0, "turn", play(ABORT, "mission"))
    assert pending(state) == (2, "respond")
    events = act(state, 2, "respond", play(STORY, "anytime", 1))
    order = kinds(events)
    assert order.index("treason") < order.index("phase-ending") < order.index("card-play-end")
    assert one(events, "card-play-end") == {"reason": "aborted"}
    assert one(events, "debriefing")["mission"] == SURVEY


def test_a_cancelled_abort_mission_does_not_end_the_phase() -> None:
    """Phase end: an Abort Mission cancelled by Better Idea ends nothing."""
    state, _ = new(3, hands=[[ABORT], [BETTER_IDEA]])
    act(state, 0, "turn", play(ABORT, "mission"))
    events = act(state, 1, "respond", play(BETTER_IDEA, "anytime"))
    assert "card-play-end" not in kinds(events) and "phase-ending" not in kinds(events)
    assert pending(state) == (1, "turn")


def test_phase_ends_when_only_one_troubleshooter_is_alive() -> None:
    """Phase end: only one troubleshooter alive ends card play."""
    state, _ = new(3, hands=[[NERVE_GAS]], wounds=[0, 1, 1])
    act(state, 0, "turn", play(NERVE_GAS, "yourself"))
    act(state, 1, "dying", PASS)
    events = act(state, 2, "dying", PASS)
    assert [d["seat"] for d in of_kind(events, "died")[:1]] == [2]
    assert one(events, "card-play-end") == {"reason": "one-left"}
    assert kinds(events).index("card-play-end") == kinds(events).index("resolved") + 1
    assert one(events, "debriefing")["results"] == [{"seat": 0, "success": True}]


def test_skip_turn_skips_the_targets_next_turn() -> None:
    """skip_turn (Requisition Lost in Triplicate): the target's next turn is skipped."""
    state, _ = new(3, hands=[[REQUISITION]])
    events = play_turn(state, 0, REQUISITION, "another", 1)
    assert one(events, "turn-to-skip") == {"seat": 1, "skips": 1}
    assert one(events, "turn-skipped") == {"seat": 1, "reason": "card"}
    assert pending(state) == (2, "turn")
    discard_turn(state, 2)
    discard_turn(state, 0)
    assert pending(state) == (1, "turn"), "only one turn is skipped"


def test_a_skip_turn_not_used_is_lost_when_the_mission_ends() -> None:
    """Ruling 2: a troubleshooter with a skip_turn and no turn left in the mission loses it."""
    state, _ = new(3, hands=[[REQUISITION], [ABORT]], mission_cap=2)
    play_turn(state, 0, REQUISITION, "another", 2)
    assert state.ts[2].skips == 1
    events = play_turn(state, 1, ABORT, "mission")
    assert one(events, "mission")["number"] == 2
    assert state.ts[2].skips == 0
    discard_turn(state, 0)
    events = discard_turn(state, 1)
    assert "turn-skipped" not in kinds(events)
    assert pending(state) == (2, "turn")


def test_skip_turn_of_the_team_leader_from_the_mission_section() -> None:
    """skip_turn on ``team_leader``: the current Team Leader's next turn is skipped."""
    state, _ = new(3, hands=[[], [REQUISITION]], leader=0)
    discard_turn(state, 0)
    events = play_turn(state, 1, REQUISITION, "mission")
    assert one(events, "turn-to-skip") == {"seat": 0, "skips": 1}
    events = discard_turn(state, 2)
    assert of_kind(events, "turn-skipped") == [{"seat": 0, "reason": "card"}]
    assert pending(state) == (1, "turn")


def test_complete_is_offered_only_at_the_start_of_the_leaders_turn() -> None:
    """Rules / ruling 11: the Team Leader declares the mission complete "at the start of its
    turn"; once it has played a Play Anytime card that turn, the chance has passed."""
    state, _ = new(3, mission=ESCORT, hands=[[GOLDEN, STORY], [PAPERWORK]])
    play_turn(state, 0, GOLDEN, "mission")
    play_turn(state, 1, PAPERWORK, "mission")
    discard_turn(state, 2)
    assert options(state)[-1] == {"complete": True}
    act(state, 0, "turn", play(STORY, "anytime", 2))
    pass_windows(state)
    assert pending(state) == (0, "turn"), "a Play Anytime card does not use the turn"
    assert {"complete": True} not in options(state)
    assert state.view(0)["decision"] == {"kind": "turn", "can_complete": False}
