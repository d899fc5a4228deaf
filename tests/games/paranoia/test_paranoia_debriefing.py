"""Phases 4 and 5: Debriefing (mission tests and results, the secret role) and Internal
Security (executions, then wounds and treason discarded, hands kept, the table cleared)."""

from __future__ import annotations

from pathlib import Path

from paranoia_helpers import (
    ABORT,
    BAKE,
    BANDAGE,
    CITIZEN,
    CONE,
    DENOUNCE,
    DOCBOT,
    ESCORT,
    FLAMER,
    FLUSH,
    GOLDEN,
    JETPACK,
    LASER,
    LEAFLETS,
    NOBLE,
    OFFICER,
    OUTDOORS,
    PAPERWORK,
    PASS,
    PERMIT,
    PILL,
    REACTOR,
    SURVEY,
    act,
    action_toml,
    clearances,
    custom_cards,
    discard_turn,
    index,
    kinds,
    new,
    of_kind,
    one,
    options,
    pending,
    play,
    play_turn,
    treason,
    wounds,
)


def results(events) -> dict[int, bool]:
    """Debriefing results by seat."""
    return {r["seat"]: r["success"] for r in one(events, "debriefing")["results"]}


def test_those_who_meet_the_condition_get_the_success_result() -> None:
    """Debriefing: living troubleshooters who met the success condition get the Success
    result (Escort: progress 3, one clearance each)."""
    state, _ = new(3, mission=ESCORT, hands=[[GOLDEN], [PAPERWORK]], mission_cap=1)
    play_turn(state, 0, GOLDEN, "mission")
    play_turn(state, 1, PAPERWORK, "mission")
    discard_turn(state, 2)
    events = act(state, 0, "turn", {"complete": True})
    debriefing = one(events, "debriefing")
    assert debriefing["counters"] == {"progress": 3, "wounds": 0, "treason": 0}
    assert results(events) == {0: True, 1: True, 2: True}
    assert [(c["seat"], c["to"]) for c in of_kind(events, "clearance")] == [
        (0, "ORANGE"),
        (1, "ORANGE"),
        (2, "ORANGE"),
    ]
    assert clearances(state) == ["ORANGE"] * 3


def test_the_others_get_the_failure_result() -> None:
    """Debriefing: those who did not meet the condition get the Failure result (Escort
    aborted: 2 treason each, a mission result has no giver)."""
    state, _ = new(3, mission=ESCORT, hands=[[ABORT]], treason=[0, 1, 0])
    events = play_turn(state, 0, ABORT, "mission")
    assert results(events) == {0: False, 1: False, 2: False}
    assert of_kind(events, "treason") == [
        {"seat": 0, "amount": 2, "treason": 2, "by": None},
        {"seat": 1, "amount": 2, "treason": 3, "by": None},
        {"seat": 2, "amount": 2, "treason": 2, "by": None},
    ]
    assert "made-traitor" not in kinds(events)
    assert one(events, "internal-security")["executed"] == [1], "the failure made a traitor"


def test_a_mission_with_only_a_success_result_everyone_alive_succeeds() -> None:
    """Debriefing: a mission with only a Success result: everyone alive succeeds."""
    state, _ = new(4, mission=SURVEY, hands=[[ABORT]], treason=[2, 1, 0, 2])
    events = play_turn(state, 0, ABORT, "mission")
    assert results(events) == {0: True, 1: True, 2: True, 3: True}
    assert [(a["seat"], a["treason"]) for a in of_kind(events, "absolved")] == [
        (0, 1),
        (1, 0),
        (3, 1),
    ]


def test_the_dead_neither_succeed_nor_fail() -> None:
    """Debriefing: the dead neither succeed nor fail."""
    state, _ = new(3, mission=ESCORT, hands=[[LASER], [ABORT]], wounds=[0, 0, 1])
    act(state, 0, "turn", play(LASER, "higher", 2))
    act(state, 2, "dying", PASS)
    events = play_turn(state, 1, ABORT, "mission")
    assert results(events) == {0: False, 1: False}
    assert [t["seat"] for t in of_kind(events, "treason")] == [0, 1]
    assert index(events, "debriefing") < index(events, "new-clone", seat=2)


def test_every_test_is_judged_before_any_result_is_given(tmp_path: Path) -> None:
    """Ruling 15: at Debriefing every test is judged before any result is given (a failure
    that absolves does not make the next seat lose "most loyal")."""
    cards = custom_cards(
        tmp_path,
        """
[[mission]]
id = "m-loyal"
name = "Test Loyalty Contest"
count = 1
provenance = "designed"
note = "designed for arena"
success_when = [{ test = "is_most_loyal" }]
success = [{ op = "gain_clearance", target = "self" }]
failure = [{ op = "absolve", target = "self", amount = 3 }]
"""
        + action_toml("a-end", "Test Recall Order", 30, mission='{ op = "end_phase" }'),
    )
    state, _ = new(
        3,
        hands=[["a-end"] * 5] * 3,
        deck=["a-end"],
        mission="m-loyal",
        cards=cards,
        treason=[2, 1, 2],
        mission_cap=1,
    )
    events = play_turn(state, 0, "a-end", "mission")
    assert results(events) == {0: False, 1: True, 2: False}
    assert clearances(state) == ["RED", "ORANGE", "RED"]
    assert one(events, "game-end")["treason"] == [0, 1, 0]


def test_took_wounds_counts_healed_wounds_and_a_docbot_negation_does_not_wound() -> None:
    """Mission test ``took_wounds``: a troubleshooter that received a wound this mission
    passes, healed or not (Go 'Outdoors': taking wounds earns a clearance)."""
    state, _ = new(
        4,
        mission=OUTDOORS,
        hands=[[LASER, ABORT], [BANDAGE], [], [DOCBOT]],
        clearances=["RED", "YELLOW", "RED", "RED"],
        mission_cap=1,
    )
    act(state, 0, "turn", play(LASER, "higher", 1))
    act(state, 3, "respond", PASS)
    play_turn(state, 1, BANDAGE, "troubleshooter", 1)
    assert wounds(state) == [0, 0, 0, 0] and state.ts[1].took_wounds
    discard_turn(state, 2)
    discard_turn(state, 3)
    events = play_turn(state, 0, ABORT, "mission")
    assert results(events) == {0: False, 1: True, 2: False, 3: False}
    assert [c for c in of_kind(events, "clearance") if c["reason"] == "card"] == [
        {"seat": 1, "from": "YELLOW", "to": "GREEN", "moved": True, "reason": "card"}
    ]


def test_did_not_die_fails_a_troubleshooter_that_died_and_came_back() -> None:
    """Mission test ``did_not_die``: a troubleshooter that lost a clone this mission fails,
    even once its new clone is back (Jetpack: failing costs nothing)."""
    state, _ = new(3, mission=JETPACK, hands=[[LASER, ABORT]], wounds=[0, 1, 0], mission_cap=1)
    act(state, 0, "turn", play(LASER, "higher", 1))
    act(state, 1, "dying", PASS)
    discard_turn(state, 2)
    assert state.ts[1].alive, "back at the start of seat 2's turn"
    events = play_turn(state, 0, ABORT, "mission")
    assert results(events) == {0: True, 1: False, 2: True}
    assert clearances(state) == ["ORANGE", "RED", "ORANGE"]
    assert "treason" not in kinds(events)


def test_killed_a_traitor_and_gain_clone() -> None:
    """Mission test ``killed_a_traitor`` (Bake the Traitor): the killer of a traitor
    succeeds (a clearance and a clone, up to 6)."""
    state, _ = new(
        4,
        mission=BAKE,
        hands=[[PERMIT, ABORT]],
        clones=[5, 6, 6, 6],
        treason=[0, 3, 0, 0],
        clearances=["ORANGE", "RED", "ORANGE", "ORANGE"],
        mission_cap=1,
    )
    act(state, 0, "turn", play(PERMIT, "another", 1))
    act(state, 1, "dying", PASS)
    discard_turn(state, 2)
    discard_turn(state, 3)
    events = play_turn(state, 0, ABORT, "mission")
    assert results(events) == {0: True, 1: False, 2: False, 3: False}
    assert one(events, "clone-gained") == {"seat": 0, "clones": 6, "gained": True}
    assert clearances(state)[0] == "YELLOW"


def test_mission_counter_at_most_and_counters_never_below_zero() -> None:
    """Mission test ``mission_counter_at_most`` (Reactor: wounds counter at most 2) and
    mission counters never go below 0 (a Docbot's -1 on an empty counter)."""
    state, _ = new(
        3,
        mission=REACTOR,
        hands=[[DOCBOT, ABORT], [LASER]],
        clearances=["ORANGE", "ORANGE", "ORANGE"],
        mission_cap=1,
    )
    events = play_turn(state, 0, DOCBOT, "mission")
    assert one(events, "counter") == {"counter": "wounds", "from": 0, "to": 0}
    play_turn(state, 1, LASER, "mission")
    discard_turn(state, 2)
    events = play_turn(state, 0, ABORT, "mission")
    assert one(events, "debriefing")["counters"]["wounds"] == 1
    assert results(events) == {0: True, 1: True, 2: True}
    assert clearances(state) == ["YELLOW"] * 3


def test_all_tests_must_pass_and_is_loyal_fails_a_traitor() -> None:
    """Debriefing: success needs *all* the mission's tests (Flush Out: treason counter at
    least 3 and ``is_loyal``); a traitor fails and is then executed."""
    state, _ = new(
        4,
        mission=FLUSH,
        hands=[[DENOUNCE, ABORT], [LEAFLETS], [DENOUNCE]],
        treason=[0, 0, 3, 0],
        mission_cap=1,
    )
    play_turn(state, 0, DENOUNCE, "mission")
    play_turn(state, 1, LEAFLETS, "mission")
    play_turn(state, 2, DENOUNCE, "mission")
    discard_turn(state, 3)
    events = play_turn(state, 0, ABORT, "mission")
    assert one(events, "debriefing")["counters"]["treason"] == 3
    assert results(events) == {0: True, 1: True, 2: False, 3: True}
    assert one(events, "internal-security")["executed"] == [2]
    assert clearances(state) == ["ORANGE", "ORANGE", "RED", "ORANGE"]


def test_most_loyal_ties_are_chosen_by_the_team_leader() -> None:
    """Clearance table / ``is_most_loyal``: the fewest treason among the living; ties chosen
    by the Team Leader."""
    state, _ = new(4, mission=CITIZEN, hands=[[ABORT]], treason=[1, 0, 0, 2])
    play_turn(state, 0, ABORT, "mission")
    assert pending(state) == (0, "tie")
    assert options(state) == [{"seat": 1}, {"seat": 2}]
    assert state.view(0)["decision"] == {"kind": "tie", "test": "most_loyal", "tied": [1, 2]}
    events = act(state, 0, "tie", {"seat": 2})
    assert one(events, "tie-broken") == {"test": "most_loyal", "tied": [1, 2], "seat": 2, "by": 0}
    assert results(events) == {0: False, 1: False, 2: True, 3: False}
    assert [c["seat"] for c in of_kind(events, "clearance") if c["reason"] == "card"] == [2]


def test_a_clear_most_loyal_needs_no_tie_decision() -> None:
    """``is_most_loyal`` without a tie: no decision."""
    state, _ = new(3, mission=CITIZEN, hands=[[ABORT]], treason=[1, 0, 2])
    events = play_turn(state, 0, ABORT, "mission")
    assert "tie-broken" not in kinds(events)
    assert results(events) == {0: False, 1: True, 2: False}


def test_the_secret_role_is_known_only_to_its_holder_until_debriefing() -> None:
    """Secret role: one living troubleshooter is the officer, told privately; nobody else
    learns who until the Debriefing event reveals it."""
    state, events = new(4, mission=OFFICER, hands=[[ABORT]], seed=3)
    holder = state.secret_holder
    assert holder is not None
    role = one(events, "secret-role")
    assert role == {"role": "internal-security-officer", "holder": holder}
    event = next(e for e in events if e.kind == "secret-role")
    for seat in range(4):
        seen = event.for_seat(seat)
        view = state.view(seat)
        assert view["mission_has_secret_role"] is True
        if seat == holder:
            assert seen == {"kind": "secret-role", **role}
            assert view["secret_role"] == role
        else:
            assert seen == {"kind": "secret-role", "role": role["role"], "holder": None}
            assert view["secret_role"] is None
            assert str(holder) not in str(seen)
    events = play_turn(state, 0, ABORT, "mission")
    debriefing = next(e for e in events if e.kind == "debriefing")
    assert debriefing.seen_by is None
    assert debriefing.data["holder"] == holder
    assert debriefing.data["secret_role"] == "internal-security-officer"
    assert results(events) == {0: True, 1: True, 2: True, 3: True}, "the officer survived"


def test_the_officer_mission_fails_when_the_officer_is_dead_at_debriefing() -> None:
    """Internal Security Officer (``secret_officer_alive``): success if the officer is alive;
    shot dead and still dead at Debriefing, every living troubleshooter fails."""
    probe, _ = new(4, mission=OFFICER, seed=5)
    holder = probe.secret_holder
    assert holder is not None
    leader = (holder - 2) % 4
    hands: list[list[str]] = [[], [], [], []]
    hands[leader] = [LASER]
    hands[(leader + 1) % 4] = [ABORT]
    state, _ = new(4, mission=OFFICER, hands=hands, leader=leader, wounds=[1] * 4, seed=5)
    assert state.secret_holder == holder, "the role is drawn from the seed"
    act(state, leader, "turn", play(LASER, "higher", holder))
    act(state, holder, "dying", PASS)
    events = play_turn(state, (leader + 1) % 4, ABORT, "mission")
    assert holder not in results(events), "the dead officer is not debriefed"
    assert set(results(events).values()) == {False}
    assert one(events, "debriefing")["holder"] == holder


def test_internal_security_executes_then_discards_wounds_and_treason_keeps_hands() -> None:
    """Internal Security: traitors executed (no dying action, a clone lost), then everyone's
    wounds and treason discarded; hands are kept; the table is cleared."""
    state, _ = new(
        4,
        mission=ESCORT,
        hands=[[NOBLE, ABORT], [PILL], [], []],
        treason=[0, 3, 1, 0],
        wounds=[0, 0, 1, 0],
        clearances=["ORANGE", "RED", "ORANGE", "RED"],
        mission_cap=1,
    )
    play_turn(state, 0, NOBLE, "another", 2)
    discard_turn(state, 1)
    discard_turn(state, 2)
    discard_turn(state, 3)
    hands = [list(t.hand) for t in state.ts]
    hands[0].remove(ABORT)
    events = play_turn(state, 0, ABORT, "mission")
    assert "dying" not in kinds(events)
    assert one(events, "executed") == {"seat": 1, "treason": 5}
    assert one(events, "died") == {"seat": 1, "by": None, "execution": True, "clones": 5}
    assert one(events, "internal-security") == {"executed": [1], "cleared": [NOBLE]}
    assert index(events, "debriefing") < index(events, "executed")
    assert treason(state) == [0, 0, 0, 0] and wounds(state) == [0, 0, 0, 0]
    assert [t.hand for t in state.ts] == hands
    assert state.table == [] and NOBLE in state.actions.discards


def test_internal_security_executes_from_the_team_leader_clockwise() -> None:
    """Ruling 17: Internal Security executes traitors from the Team Leader clockwise."""
    state, _ = new(
        5,
        mission=ESCORT,
        leader=2,
        hands=[[], [], [ABORT]],
        treason=[3, 3, 0, 0, 3],
        mission_cap=1,
    )
    events = play_turn(state, 2, ABORT, "mission")
    assert of_kind(events, "executed") == [{"seat": s, "treason": 5} for s in (4, 0, 1)]
    assert one(events, "internal-security")["executed"] == [4, 0, 1]


def test_a_team_leader_executed_by_internal_security_is_replaced() -> None:
    """Death / Internal Security: an executed Team Leader is replaced at once by the living
    troubleshooter with the fewest treason (tie: the first to its left), promoted one
    clearance, who leads the next mission."""
    state, _ = new(4, mission=FLUSH, hands=[[ABORT]], treason=[2, 0, 0, 0], mission_cap=2)
    events = play_turn(state, 0, ABORT, "mission")
    assert results(events) == {0: False, 1: False, 2: False, 3: False}
    assert one(events, "internal-security")["executed"] == [0]
    assert one(events, "new-leader") == {"seat": 1, "previous": 0}
    assert index(events, "executed") < index(events, "new-leader")
    assert index(events, "new-leader") < index(events, "internal-security")
    assert one(events, "mission") == {"number": 2, "mission": state.mission.id, "team_leader": 1}
    assert state.leader == 1 and clearances(state) == ["RED", "ORANGE", "RED", "RED"]


def test_an_officer_who_died_and_came_back_did_not_survive_the_mission() -> None:
    """Missions known: Internal Security Officer, "success if the officer survives": a new
    clone of the officer, back before Debriefing, does not make the mission a success."""
    probe, _ = new(4, mission=OFFICER, seed=5)
    holder = probe.secret_holder
    assert holder is not None
    leader = (holder - 1) % 4
    hands: list[list[str]] = [[], [], [], []]
    hands[leader] = [LASER]
    hands[(holder + 1) % 4] = [ABORT]
    state, _ = new(4, mission=OFFICER, seed=5, leader=leader, hands=hands)
    assert state.secret_holder == holder
    act(state, leader, "turn", play(LASER, "equal_or_lower", holder))
    died = act(state, holder, "dying", PASS)
    assert one(died, "died")["seat"] == holder
    assert one(died, "turn-skipped") == {"seat": holder, "reason": "dead"}
    assert one(died, "new-clone") == {"seat": holder, "clones": 5, "when": "turn"}
    assert state.ts[holder].alive, "the officer's new clone is back before Debriefing"
    events = act(state, (holder + 1) % 4, "turn", play(ABORT, "mission"))
    assert set(results(events).values()) == {False}, "the officer did not survive"
    assert holder in results(events), "the new clone is debriefed (and fails)"


def test_a_failure_demotion_to_a_clearance_whose_max_wounds_it_has_kills() -> None:
    """Ruling 21: Killed = wounds >= max wounds; a Failure result that demotes a wounded
    YELLOW (2 of 3 wounds) to ORANGE (max 2) kills it at once, without a dying action."""
    state, _ = new(
        3,
        mission=REACTOR,
        hands=[[FLAMER], [CONE], [ABORT]],
        clearances=["RED", "YELLOW", "RED"],
        wounds=[0, 2, 0],
    )
    play_turn(state, 0, FLAMER, "mission")
    play_turn(state, 1, CONE, "mission")
    assert state.counters["wounds"] == 4
    events = play_turn(state, 2, ABORT, "mission")
    assert results(events) == {0: False, 1: False, 2: False}
    assert one(events, "died") == {"seat": 1, "by": None, "execution": False, "clones": 5}
    assert "dying" not in kinds(events)
    assert clearances(state)[1] == "ORANGE" and state.ts[1].clones == 5
    assert index(events, "died") < index(events, "internal-security")
