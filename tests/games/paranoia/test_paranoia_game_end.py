"""The end of the game (last clone, game cap), the final ranking, and the limited clearance
supply (rules: End of game, Components; rulings 9, 10, 17)."""

from __future__ import annotations

import pytest
from paranoia_helpers import (
    ABORT,
    COMMENDATION,
    DEMOTION,
    ESCORT,
    LASER,
    NERVE_GAS,
    PASS,
    STORY,
    SURVEY,
    act,
    clearances,
    discard_turn,
    index,
    kinds,
    new,
    one,
    pending,
    play,
    play_turn,
    treason,
)


def test_losing_the_last_clone_goes_straight_to_debriefing_and_ends_the_game() -> None:
    """End of game: when a troubleshooter loses its 6th clone, play goes straight to
    Debriefing and that player loses one clearance at once; Debriefing and Internal Security
    run as usual, then the game ends."""
    state, _ = new(
        3,
        mission=SURVEY,
        hands=[[LASER]],
        clearances=["RED", "ORANGE", "RED"],
        clones=[6, 1, 6],
        wounds=[0, 1, 0],
    )
    act(state, 0, "turn", play(LASER, "higher", 1))
    events = act(state, 1, "dying", PASS)
    died = index(events, "died", seat=1)
    assert events[died].data == {"seat": 1, "by": 0, "execution": False, "clones": 0}
    assert kinds(events)[died + 1 : died + 3] == ["last-clone", "clearance"]
    assert one(events, "clearance") == {
        "seat": 1,
        "from": "ORANGE",
        "to": "RED",
        "moved": True,
        "reason": "last-clone",
    }
    assert one(events, "card-play-end") == {"reason": "last-clone"}
    assert "turn" not in kinds(events) and "turn-skipped" not in kinds(events)
    order = kinds(events)
    assert order.index("card-play-end") < order.index("debriefing")
    assert order.index("debriefing") < order.index("internal-security") < order.index("game-end")
    assert 1 not in {r["seat"] for r in one(events, "debriefing")["results"]}
    end = one(events, "game-end")
    assert end["ended_by"] == "last-clone" and end["missions"] == 1
    assert pending(state) is None and state.phase.value == "over"
    assert (state.ts[1].clones, state.ts[1].alive) == (0, False)
    assert state.outcome().detail["ended_by"] == "last-clone"


def test_a_last_clone_lost_to_internal_security_ends_the_game_after_that_mission() -> None:
    """End of game: a 6th clone lost to an execution at Internal Security also ends the game
    after that mission, and costs that player one clearance."""
    state, _ = new(
        3,
        mission=ESCORT,
        hands=[[ABORT]],
        clearances=["RED", "ORANGE", "RED"],
        clones=[6, 1, 6],
        treason=[0, 3, 0],
    )
    events = play_turn(state, 0, ABORT, "mission")
    assert one(events, "executed") == {"seat": 1, "treason": 5}
    assert one(events, "clearance") == {
        "seat": 1,
        "from": "ORANGE",
        "to": "RED",
        "moved": True,
        "reason": "last-clone",
    }
    assert one(events, "game-end")["ended_by"] == "last-clone"
    assert pending(state) is None and state.mission_number == 1
    assert state.outcome().detail["clones"] == [6, 0, 6]


def test_a_red_troubleshooter_losing_its_last_clone_stays_red() -> None:
    """Components: RED cannot fall (the last clone's lost clearance)."""
    state, _ = new(3, hands=[[LASER]], clones=[6, 1, 6], wounds=[0, 1, 0])
    act(state, 0, "turn", play(LASER, "higher", 1))
    events = act(state, 1, "dying", PASS)
    assert one(events, "clearance") == {
        "seat": 1,
        "from": "RED",
        "to": "RED",
        "moved": False,
        "reason": "last-clone",
    }
    assert clearances(state)[1] == "RED"


def test_a_card_already_on_the_chain_still_resolves_after_a_last_clone_is_lost() -> None:
    """Ruling 10: a card already on the chain when a troubleshooter loses its last clone
    still resolves; "straight to Debriefing" means no further turns."""
    state, _ = new(4, hands=[[NERVE_GAS]], clones=[6, 1, 6, 6], wounds=[0, 1, 0, 0])
    act(state, 0, "turn", play(NERVE_GAS, "yourself"))
    events = act(state, 1, "dying", PASS)
    assert index(events, "last-clone") < index(events, "wounded", seat=2)
    assert index(events, "wounded", seat=3) < index(events, "card-play-end")
    assert one(events, "card-play-end") == {"reason": "last-clone"}
    assert "turn" not in kinds(events)
    assert one(events, "game-end")["ended_by"] == "last-clone"


def test_play_anytime_cards_may_still_be_played_as_the_game_ends() -> None:
    """Ruling 9 / card play: the phase-end window is opened for whatever reason card play
    ends, the game's end included: a Convincing Story can still make a traitor, who is then
    executed by Internal Security."""
    state, _ = new(
        3,
        hands=[[LASER], [], [STORY]],
        clones=[6, 1, 6],
        wounds=[0, 1, 0],
        mission=ESCORT,
    )
    act(state, 0, "turn", play(LASER, "higher", 1))
    assert pending(state) == (2, "respond")
    act(state, 2, "respond", PASS)
    act(state, 1, "dying", PASS)
    assert pending(state) == (2, "respond")
    assert state.view(2)["decision"] == {"kind": "respond", "reason": "phase-end"}
    events = act(state, 2, "respond", play(STORY, "anytime", 0))
    # seat 0: 2 loyalty treason + 1 from the Story = 3, a RED traitor; then Escort's failure
    assert one(events, "made-traitor") == {"seat": 2, "traitor": 0, "shed": 0}
    assert one(events, "internal-security")["executed"] == [0]
    assert one(events, "game-end")["ended_by"] == "last-clone"


def test_highest_clearance_wins() -> None:
    """End of game: highest clearance wins (the game cap ends this game after one mission)."""
    state, _ = new(
        3, hands=[[ABORT]], clearances=["ORANGE", "YELLOW", "RED"], mission_cap=1, mission=SURVEY
    )
    with pytest.raises(ValueError):
        state.outcome()
    events = play_turn(state, 0, ABORT, "mission")
    outcome = state.outcome()
    assert outcome.scores == (1.0, 2.0, 0.0)
    assert outcome.ranks == (2, 1, 3)
    assert outcome.detail["clearances"] == ["ORANGE", "YELLOW", "RED"]
    end = one(events, "game-end")
    assert end["ranks"] == [2, 1, 3] and end["scores"] == [1.0, 2.0, 0.0]


def test_clearance_ties_go_to_fewer_treason_as_held_before_internal_security() -> None:
    """End of game: tie -> fewer treason, as held just before Internal Security discards it
    (after the Debriefing results); still tied -> shared rank."""
    state, _ = new(
        4,
        hands=[[ABORT]],
        clearances=["YELLOW", "YELLOW", "YELLOW", "RED"],
        treason=[2, 1, 1, 0],
        mission_cap=1,
        mission=SURVEY,
    )
    play_turn(state, 0, ABORT, "mission")
    assert treason(state) == [0, 0, 0, 0], "Internal Security discarded the treason"
    outcome = state.outcome()
    assert outcome.detail["treason"] == [1, 0, 0, 0], "the Survey absolved 1 before"
    assert outcome.ranks == (3, 1, 1, 4)


def test_the_final_treason_is_read_before_the_executions() -> None:
    """Ruling 17: the treason used for the final tie-break is the treason held when Internal
    Security begins (an executed traitor keeps its high count for the tie-break; its death
    does not make it the most loyal), then traitors are executed and treason discarded."""
    state, _ = new(
        3,
        hands=[[ABORT]],
        clearances=["YELLOW", "YELLOW", "RED"],
        treason=[2, 5, 0],
        mission_cap=1,
        mission=SURVEY,
    )
    events = play_turn(state, 0, ABORT, "mission")
    assert one(events, "executed") == {"seat": 1, "treason": 4}
    assert state.outcome().detail["treason"] == [1, 4, 0]
    assert state.outcome().ranks == (1, 2, 3)


def test_the_game_cap_ends_the_game_and_is_recorded() -> None:
    """End of game: a game cap (a maximum number of missions) ends endless games, recorded
    as such."""
    state, _ = new(3, hands=[[ABORT]], mission_cap=2, mission=SURVEY)
    events = play_turn(state, 0, ABORT, "mission")
    assert one(events, "mission")["number"] == 2
    assert "game-end" not in kinds(events)
    events = []
    while pending(state) is not None:  # mission 2: discards until a hand is empty
        seat, kind = pending(state)
        assert kind == "turn"
        events += discard_turn(state, seat)
    assert one(events, "card-play-end") == {"reason": "empty-hand"}
    end = one(events, "game-end")
    assert end["ended_by"] == "mission-cap" and end["missions"] == 2
    assert state.outcome().detail["ended_by"] == "mission-cap"
    assert state.outcome().detail["missions"] == 2
    assert [t.clones for t in state.ts] == [6, 6, 6]


# ---------------------------------------------------------------- the clearance supply


def test_a_gain_whose_supply_is_empty_leaves_the_troubleshooter_where_it_is() -> None:
    """Components: a troubleshooter who should gain a clearance whose supply is empty stays
    where it is (VIOLET: 2 cards, both held); the card's other effects still happen."""
    state, _ = new(
        4,
        leader=2,
        hands=[[], [], [COMMENDATION]],
        clearances=["VIOLET", "VIOLET", "INDIGO", "RED"],
    )
    assert state.view(0)["supply"]["VIOLET"] == 0
    events = play_turn(state, 2, COMMENDATION, "yourself")
    assert one(events, "clearance") == {
        "seat": 2,
        "from": "INDIGO",
        "to": "INDIGO",
        "moved": False,
        "reason": "card",
    }
    assert clearances(state)[2] == "INDIGO" and treason(state)[2] == 1


def test_a_loss_whose_supply_is_empty_leaves_the_troubleshooter_where_it_is() -> None:
    """Components: the same for losing a clearance (BLUE: 4 cards, all held)."""
    state, _ = new(5, hands=[[DEMOTION]], clearances=["BLUE", "BLUE", "BLUE", "BLUE", "INDIGO"])
    assert state.view(0)["supply"]["BLUE"] == 0
    events = play_turn(state, 0, DEMOTION, "another", 4)
    assert one(events, "clearance") == {
        "seat": 4,
        "from": "INDIGO",
        "to": "INDIGO",
        "moved": False,
        "reason": "card",
    }
    assert clearances(state)[4] == "INDIGO"


def test_ultraviolet_cannot_rise_and_red_cannot_fall() -> None:
    """Components: ULTRAVIOLET cannot rise; RED cannot fall."""
    state, _ = new(3, hands=[[COMMENDATION], [DEMOTION]], clearances=["ULTRAVIOLET", "RED", "RED"])
    events = play_turn(state, 0, COMMENDATION, "yourself")
    assert one(events, "clearance")["moved"] is False
    events = play_turn(state, 1, DEMOTION, "another", 2)
    assert one(events, "clearance") == {
        "seat": 2,
        "from": "RED",
        "to": "RED",
        "moved": False,
        "reason": "card",
    }
    assert clearances(state) == ["ULTRAVIOLET", "RED", "RED"]
    assert treason(state) == [1, 2, 0], "the memo's own cost is still paid"


def test_a_clearance_change_returns_the_old_card_to_the_supply() -> None:
    """Components / gain_clearance: the old clearance card returns to the supply."""
    state, _ = new(3, hands=[[COMMENDATION]])
    before = state.view(1)["supply"]
    play_turn(state, 0, COMMENDATION, "yourself")
    after = state.view(1)["supply"]
    assert (before["RED"], before["ORANGE"]) == (5, 7)
    assert (after["RED"], after["ORANGE"]) == (6, 6)
