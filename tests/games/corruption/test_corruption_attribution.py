"""Phase 3: reveal, Swiss allocation, Hit Men, District Attorneys, Reporters, award.

Positions: 3 players, first player 0, contracts 1,2 (City Hall), 3,4 (County Seat), 5,6
(Capitol). Unless a scenario says otherwise seat s dumps its spare bribes on contract 4 + s.
"""

from __future__ import annotations

import pytest
from corruption_helpers import (
    CAP,
    CH,
    CS,
    DA,
    HM,
    REP,
    Where,
    act,
    cards_in_view,
    kinds,
    new,
    of_kind,
    pid,
    plan,
    play_round,
)

from arena.games.corruption.state import CorruptionState


def _round(state: CorruptionState, *moves: list[tuple[str, Where]]) -> list:
    """Play one round where seat s makes moves[s] then dumps spare bribes on 4 + s."""
    return play_round(state, {s: plan(*moves[s], fill=4 + s) for s in range(state.players)})


def _decision(state: CorruptionState) -> tuple[int, str, list]:
    d = state.pending()
    return d.seat, d.kind, d.legal["options"]


# -- reveal -------------------------------------------------------------------------------


def test_attribution_reveals_every_card_to_every_seat() -> None:
    state = new()
    events = _round(state, [("bribe-8000", CH)], [], [])
    [revealed] = of_kind(events, "revealed")
    assert len(revealed["cards"]) == 18
    assert next(e for e in events if e.kind == "revealed").seen_by is None
    assert _decision(state)[1] == "swiss"
    for seat in range(3):
        view = state.view(seat)
        assert view["phase"] == "attribution" and view["revealed"] is True
        assert all("card" in c for c in cards_in_view(view)), f"seat {seat} sees everything"


# -- a. Swiss allocation ------------------------------------------------------------------


def test_swiss_bribes_are_assigned_government_by_government_in_play_order() -> None:
    state = new()
    events = _round(
        state, [("bribe-8000", CAP)], [("bribe-1000", CH)], [("bribe-4000", CS), ("bribe-2000", CH)]
    )
    assert "swiss-assigned" not in kinds(events)
    first = pid(state, 1, "bribe-1000", CH)
    second = pid(state, 2, "bribe-2000", CH)
    county = pid(state, 2, "bribe-4000", CS)
    capitol = pid(state, 0, "bribe-8000", CAP)
    assert _decision(state) == (1, "swiss", [{"contract": 1}, {"contract": 2}])
    assert state.view(0)["decision"] == {"seat": 1, "kind": "swiss", "placement": first}
    [event] = act(state, 1, "swiss", {"contract": 2})
    assert event.data == {
        "seat": 1,
        "placement": first,
        "card": "bribe-1000",
        "government": CH,
        "contract": 2,
        "value": 500,
    }
    assert event.seen_by is None, "each assignment is public before the next is asked"
    assert state.view(0)["decision"]["placement"] == second
    act(state, 2, "swiss", {"contract": 1})
    assert _decision(state) == (2, "swiss", [{"contract": 3}, {"contract": 4}])
    assert state.view(1)["decision"]["placement"] == county
    act(state, 2, "swiss", {"contract": 3})
    assert _decision(state) == (0, "swiss", [{"contract": 5}, {"contract": 6}])
    assert state.view(1)["decision"]["placement"] == capitol
    swiss = {c["placement"]: c for c in state.view(2)["governments"][0]["swiss"]}
    assert (swiss[first]["assigned"], swiss[second]["assigned"]) == (2, 1)


def test_swiss_bribe_counts_half_its_face_value() -> None:
    state = new()
    _round(state, [("bribe-10000", CH)], [("bribe-6000", 1)], [("bribe-4000", 1)])
    events = act(state, 0, "swiss", {"contract": 1})
    award = next(a for a in of_kind(events, "awarded") if a["contract"] == 1)
    assert award["seat"] == 1
    assert award["totals"] == [
        {"seat": 0, "total": 5000},
        {"seat": 1, "total": 6000},
        {"seat": 2, "total": 4000},
    ]


def test_swiss_half_value_can_tie_a_direct_bribe() -> None:
    state = new()
    _round(state, [("bribe-2000", CH)], [("bribe-1000", 1)], [])
    events = act(state, 0, "swiss", {"contract": 1})
    assert of_kind(events, "not-awarded")[0] == {
        "contract": 1,
        "reason": "tie",
        "tied": [0, 1],
        "totals": [{"seat": 0, "total": 1000}, {"seat": 1, "total": 1000}],
    }


def test_swiss_bribe_with_a_single_contract_is_assigned_without_asking() -> None:
    state = new(layout={CH: [1], CS: [3, 4], CAP: [5, 6]})
    events = _round(state, [("bribe-8000", CH)], [], [])
    assert of_kind(events, "swiss-assigned")[0]["contract"] == 1
    assert of_kind(events, "awarded")[0] == {
        "contract": 1,
        "seat": 0,
        "value": 100_000,
        "totals": [{"seat": 0, "total": 4000}],
    }
    assert state.pending().kind == "place" and state.round == 2


def test_swiss_bribe_under_a_government_without_contracts_is_left_unassigned() -> None:
    state = new(layout={CH: [], CS: [3, 4], CAP: [5, 6]})
    events = _round(state, [("bribe-8000", CH)], [], [])
    assert of_kind(events, "swiss-unassigned")[0]["placement"] == 1
    assert "bribe-8000" in state.view(0)["hand"], "it still comes back to its owner"


# -- b. Hit Men ---------------------------------------------------------------------------


@pytest.mark.parametrize("victim", ["district-attorney", "reporter"])
def test_hit_man_must_kill_a_character_on_its_contract(victim: str) -> None:
    state = new()
    _round(state, [(HM, 1)], [(DA, 1)], [(REP, 1)])
    hit_man, attorney, reporter = (pid(state, s, c, 1) for s, c in ((0, HM), (1, DA), (2, REP)))
    assert _decision(state) == (0, "hit", [{"target": attorney}, {"target": reporter}])
    target = attorney if victim == DA else reporter
    events = act(state, 0, "hit", {"target": target})
    assert of_kind(events, "killed")[0] == {
        "seat": 0,
        "hit_man": hit_man,
        "contract": 1,
        "target": target,
        "target_owner": 1 if victim == DA else 2,
        "target_card": victim,
    }
    if victim == DA:
        assert "cancelled" not in kinds(events), "a killed District Attorney cancels nothing"
        assert of_kind(events, "reported")[0]["nothing_to_remove"] is True
    else:
        assert of_kind(events, "cancelled")[0]["contract"] == 1
        assert "reported" not in kinds(events), "a killed Reporter does nothing"


def test_hit_man_with_a_single_target_kills_it_without_asking() -> None:
    state = new()
    events = _round(state, [(HM, 1)], [(DA, 1)], [("bribe-1000", 1)])
    assert of_kind(events, "killed")[0]["target_card"] == DA
    assert "cancelled" not in kinds(events)
    assert of_kind(events, "awarded")[0] == {
        "contract": 1,
        "seat": 2,
        "value": 100_000,
        "totals": [{"seat": 2, "total": 1000}],
    }


def test_hit_man_without_a_target_is_simply_removed() -> None:
    state = new()
    events = _round(state, [(HM, 1)], [("bribe-1000", 1)], [])
    assert of_kind(events, "hit-man-removed") == [{"seat": 0, "hit_man": 1, "contract": 1}]
    assert "killed" not in kinds(events)


def test_hit_man_killed_before_its_turn_does_nothing() -> None:
    state = new()
    _round(state, [(HM, 1)], [(HM, 1)], [(DA, 1)])
    second = pid(state, 1, HM, 1)
    assert _decision(state)[:2] == (0, "hit")
    events = act(state, 0, "hit", {"target": second})
    assert len(of_kind(events, "killed")) == 1
    assert of_kind(events, "cancelled")[0]["contract"] == 1, "the DA it would have killed survives"
    assert state.pending().kind == "place", "the dead Hit Man was never asked"


def test_hit_man_may_kill_its_owners_own_card() -> None:
    state = new()
    _round(state, [(HM, 1), (DA, 1)], [(REP, 1)], [])
    own = pid(state, 0, DA, 1)
    assert {"target": own} in _decision(state)[2]
    events = act(state, 0, "hit", {"target": own})
    assert of_kind(events, "killed")[0]["target_owner"] == 0


def test_hit_men_are_resolved_government_by_government_not_in_play_order() -> None:
    state = new()
    _round(state, [(HM, 5), (REP, 1)], [(DA, 5), (HM, 1)], [(REP, 5), (DA, 1)])
    assert _decision(state)[:2] == (1, "hit"), "City Hall's contract 1 comes before Capitol's 5"
    act(state, 1, "hit", {"target": pid(state, 2, DA, 1)})
    assert _decision(state)[:2] == (0, "hit")


def test_contracts_under_a_government_are_visited_left_to_right_as_laid_out() -> None:
    state = new(layout={CH: [9, 2], CS: [3, 4], CAP: [5, 6]})
    _round(state, [(HM, 2), (REP, 9)], [(DA, 2), (HM, 9)], [(REP, 2), (DA, 9)])
    assert _decision(state)[:2] == (1, "hit"), "9 lies left of 2 under City Hall"


# -- c. District Attorneys ----------------------------------------------------------------


def test_district_attorney_cancels_the_contract_which_stays_and_bribes_go_back() -> None:
    state = new()
    _round(state, [(DA, 1)], [("bribe-10000", 1)], [("bribe-8000", CH)])
    attorney = pid(state, 0, DA, 1)
    swiss = pid(state, 2, "bribe-8000", CH)
    direct = pid(state, 1, "bribe-10000", 1)
    events = act(state, 2, "swiss", {"contract": 1})
    assert of_kind(events, "cancelled") == [
        {"contract": 1, "district_attorneys": [attorney], "returned": [direct, swiss]}
    ]
    assert all(
        e["contract"] != 1 for e in of_kind(events, "awarded") + of_kind(events, "not-awarded")
    )
    view = state.view(0)
    assert view["round"] == 2 and view["governments"][0]["contracts"][0]["id"] == 1
    assert "bribe-10000" in state.view(1)["hand"] and "bribe-8000" in state.view(2)["hand"]


def test_two_district_attorneys_cancel_once() -> None:
    state = new()
    events = _round(state, [(DA, 3)], [(DA, 3)], [("bribe-1000", 3)])
    assert of_kind(events, "cancelled") == [
        {"contract": 3, "district_attorneys": [1, 2], "returned": [3]}
    ]


# -- d. Reporters -------------------------------------------------------------------------


@pytest.mark.parametrize(("removed_owner", "winner"), [(0, 1), (1, 0)])
def test_reporter_removes_one_direct_bribe_of_any_owner(removed_owner: int, winner: int) -> None:
    state = new()
    _round(state, [(REP, 1), ("bribe-10000", 1)], [("bribe-8000", 1)], [("bribe-6000", CH)])
    act(state, 2, "swiss", {"contract": 1})
    reporter = pid(state, 0, REP, 1)
    mine, theirs = pid(state, 0, "bribe-10000", 1), pid(state, 1, "bribe-8000", 1)
    swiss = pid(state, 2, "bribe-6000", CH)
    seat, kind, options = _decision(state)
    assert (seat, kind) == (0, "report")
    assert options == [{"remove": None}, {"remove": theirs}, {"remove": mine}], "play order"
    assert {"remove": swiss} not in options, "a Swiss bribe can never be removed"
    target = mine if removed_owner == 0 else theirs
    events = act(state, 0, "report", {"remove": target})
    assert of_kind(events, "reported")[0] == {
        "seat": 0,
        "reporter": reporter,
        "contract": 1,
        "removed": target,
        "removed_owner": removed_owner,
        "removed_card": "bribe-10000" if removed_owner == 0 else "bribe-8000",
        "nothing_to_remove": False,
    }
    award = next(a for a in of_kind(events, "awarded") if a["contract"] == 1)
    assert award["seat"] == winner
    assert {"seat": 2, "total": 3000} in award["totals"]


def test_reporter_owner_may_pass() -> None:
    state = new()
    _round(state, [(REP, 1), ("bribe-10000", 1)], [("bribe-8000", 1)], [])
    events = act(state, 0, "report", {"remove": None})
    assert of_kind(events, "reported")[0]["removed"] is None
    assert [a["seat"] for a in of_kind(events, "awarded") if a["contract"] == 1] == [0]


def test_reporter_with_only_swiss_bribes_to_remove_is_not_asked() -> None:
    state = new()
    _round(state, [(REP, 1)], [("bribe-8000", CH)], [])
    events = act(state, 1, "swiss", {"contract": 1})
    assert of_kind(events, "reported")[0]["nothing_to_remove"] is True
    assert [a["seat"] for a in of_kind(events, "awarded") if a["contract"] == 1] == [1]


def test_reporters_act_in_play_order_and_the_second_may_find_nothing() -> None:
    state = new()
    _round(state, [(REP, 1)], [(REP, 1)], [("bribe-1000", 1)])
    bribe = pid(state, 2, "bribe-1000", 1)
    assert _decision(state)[:2] == (0, "report")
    events = act(state, 0, "report", {"remove": bribe})
    reported = of_kind(events, "reported")
    assert [r["seat"] for r in reported] == [0, 1]
    assert reported[1]["nothing_to_remove"] is True
    assert of_kind(events, "not-awarded")[0] == {"contract": 1, "reason": "no-bribe", "totals": []}


def test_reporter_on_a_cancelled_contract_does_nothing() -> None:
    state = new()
    events = _round(state, [(DA, 1)], [(REP, 1)], [("bribe-1000", 1)])
    assert of_kind(events, "cancelled")[0]["contract"] == 1
    assert "reported" not in kinds(events)


# -- e. Award -----------------------------------------------------------------------------


def test_single_highest_total_takes_the_contract() -> None:
    state = new()
    events = _round(state, [("bribe-2000", 1)], [("bribe-1000", 1), ("bribe-4000", 1)], [])
    assert of_kind(events, "awarded")[0] == {
        "contract": 1,
        "seat": 1,
        "value": 100_000,
        "totals": [{"seat": 0, "total": 2000}, {"seat": 1, "total": 5000}],
    }
    assert state.view(2)["seats"][1]["contracts_won"][0] == 1
    assert 1 not in [c["id"] for c in state.view(0)["governments"][0]["contracts"]]


def test_tie_for_highest_means_nobody_takes_it_and_it_stays() -> None:
    state = new()
    events = _round(state, [("bribe-4000", 2)], [("bribe-4000", 2)], [("bribe-1000", 2)])
    [tie] = [e for e in of_kind(events, "not-awarded") if e["contract"] == 2]
    assert (tie["reason"], tie["tied"]) == ("tie", [0, 1])
    assert [c["id"] for c in state.view(0)["governments"][0]["contracts"]][:2] == [1, 2]


def test_no_bribe_means_nobody_takes_it() -> None:
    state = new()
    events = _round(state, [(REP, 3)], [], [])
    not_awarded = {e["contract"]: e["reason"] for e in of_kind(events, "not-awarded")}
    assert not_awarded == {1: "no-bribe", 2: "no-bribe", 3: "no-bribe"}
    round_two = state.view(0)["governments"]
    assert [c["id"] for c in round_two[0]["contracts"]][:2] == [1, 2], "they stay for round 2"
    assert [c["id"] for c in round_two[1]["contracts"]][:1] == [3]


def test_award_events_follow_the_visiting_order() -> None:
    state = new()
    events = _round(state, [("bribe-1000", 2)], [("bribe-1000", 3)], [("bribe-1000", 1)])
    order = [e.data["contract"] for e in events if e.kind in ("awarded", "not-awarded")]
    assert order == [1, 2, 3, 4, 5, 6]
