"""Phases 1 and 2: dealing, first player, turns, placements and face-up schedules."""

from __future__ import annotations

import pytest
from corruption_helpers import (
    BRIBES,
    CAP,
    CH,
    CS,
    DA,
    HM,
    REP,
    act,
    kinds,
    new,
    of_kind,
    place,
    plan,
    play_round,
    random_game,
    tie_round,
)

from arena.games.base import IllegalAction
from arena.games.corruption import GAME
from arena.games.corruption.cards import Variant, face_up_schedule


def test_round_one_deals_two_contracts_under_each_government_from_the_deck_top() -> None:
    state, events = GAME.start(3, 11, {"variants": []})
    deck_before = [d["id"] for d in of_kind(events, "round-start")[0]["dealt"]]
    layout = {g: list(ids) for g, ids in of_kind(events, "round-start")[0]["contracts"].items()}
    assert layout == {CH: deck_before[0:2], CS: deck_before[2:4], CAP: deck_before[4:6]}
    assert state.view(0)["deck_count"] == 18
    assert len(state.table_view()["deck"]) == 18


def test_unawarded_contracts_stay_under_their_government_and_six_new_ones_join() -> None:
    state, events = GAME.start(3, 5, {"variants": []})
    before = of_kind(events, "round-start")[0]["contracts"]
    contract = before[CH][0]
    events = tie_round(state, contract)
    assert of_kind(events, "not-awarded")[0] == {
        "contract": contract,
        "reason": "tie",
        "tied": [0, 1, 2],
        "totals": [{"seat": s, "total": 31000} for s in range(3)],
    }
    after = of_kind(events, "round-start")[0]["contracts"]
    for government, old in before.items():
        assert after[government][: len(old)] == old, "old contracts keep their place, left"
        assert len(after[government]) == len(old) + 2
    assert state.view(0)["deck_count"] == 12


def test_round_one_first_player_is_seeded_random() -> None:
    firsts = {of_kind(GAME.start(5, seed, {})[1], "first-player")[0]["seat"] for seed in range(30)}
    assert len(firsts) > 1
    again = [of_kind(GAME.start(5, 7, {})[1], "first-player")[0] for _ in range(2)]
    assert again[0] == again[1] and again[0]["reason"] == "random"


def _first_player_of_next_round(won: dict[int, list[int]], seed: int = 0) -> dict:
    state = new(
        3,
        round_no=3,
        won=won,
        seed=seed,
        first_player=0,
        layout={CH: [7, 8], CS: [9, 10], CAP: [11, 12]},
    )
    events = tie_round(state, 7)
    return of_kind(events, "first-player")[0]


def test_first_player_is_the_leader_by_value() -> None:
    event = _first_player_of_next_round({0: [1, 2], 1: [24], 2: [3]})
    assert (event["seat"], event["reason"], event["round"]) == (1, "leader", 4)


def test_first_player_value_tie_goes_to_more_contracts() -> None:
    # seat 0: 1,200,000 in one contract; seat 1: 1,000,000 + 200,000 in two.
    event = _first_player_of_next_round({0: [24], 1: [22, 5]})
    assert (event["seat"], event["reason"]) == (1, "leader")


def test_first_player_full_tie_is_seeded_random_among_the_tied() -> None:
    seen = set()
    for seed in range(20):
        event = _first_player_of_next_round({0: [3], 1: [4]}, seed=seed)
        assert event["reason"] == "leader-tie-random" and event["tied"] == [0, 1]
        seen.add(event["seat"])
    assert seen == {0, 1}


def test_turns_go_in_seat_order_from_the_first_player() -> None:
    state = new(4, first_player=2)
    seats = []
    for _ in range(8):
        decision = state.pending()
        seats.append(decision.seat)
        place(state, decision.seat, BRIBES[(len(seats) - 1) // 4], 1)
    assert seats == [2, 3, 0, 1, 2, 3, 0, 1]


def test_each_player_places_exactly_six_cards_per_round() -> None:
    state = new(3)
    plans = {s: plan(fill=6) for s in range(3)}
    plans[0] = plan((DA, 1), (REP, 2), fill=6)
    events = play_round(state, plans)
    assert len(of_kind(events, "placed")) == 18
    placed = of_kind(events, "placed")
    assert sorted(e["slot"] for e in placed if e["seat"] == 0) == [1, 2, 3, 4, 5, 6]
    # after the round seat 0 keeps its 4 unplayed cards and gets its bribes back
    assert len(state.view(0)["hand"]) == 10 - 2


def test_no_seventh_placement_is_asked() -> None:
    state = new(3, layout={CH: [1, 2], CS: [3, 4], CAP: [5, 6]})
    plans = {s: plan(fill=6) for s in range(3)}
    plans[0] = plan((REP, 1), fill=6)
    plans[1] = plan(fill=1)
    events = play_round(state, plans)
    assert "revealed" in kinds(events)
    # reporter on 1 with a bribe there: the attribution asks seat 0, not a 7th placement
    assert state.pending().kind == "report"


def test_characters_cannot_go_on_a_swiss_account() -> None:
    state = new(3)
    options = state.pending().legal["options"]
    assert {"card": DA, "contract": 1} in options
    for card in (DA, REP, HM):
        for government in (CH, CS, CAP):
            assert {"card": card, "swiss": government} not in options
    with pytest.raises(IllegalAction):
        state.apply({"card": HM, "swiss": CH})


def test_bribes_may_go_on_every_swiss_account_and_every_contract() -> None:
    state = new(3)
    options = state.pending().legal["options"]
    for government in (CH, CS, CAP):
        assert {"card": "bribe-6000", "swiss": government} in options
    for contract in range(1, 7):
        assert {"card": "bribe-6000", "contract": contract} in options
    assert len(options) == 6 * 9 + 3 * 6  # 6 bribes x (6 contracts + 3 accounts) + 3 characters


@pytest.mark.parametrize(
    ("variants", "expected"),
    [
        ((), {1: {1}, 2: {1, 2}, 3: {1, 2, 3}, 4: {1, 2, 3, 4}}),
        ((Variant.DOWN_THE_RIVER,), {1: {3}, 2: {3, 4}, 3: {2, 3, 4}, 4: {2, 3, 4, 5}}),
        ((Variant.CLOSED,), {1: set(), 2: set(), 3: set(), 4: set()}),
        ((Variant.LITTLE_BLACK_BOOK,), {1: {1}, 2: {1, 2}, 3: {1, 2, 3}, 4: {1, 2, 3, 4}}),
    ],
)
def test_face_up_schedule_per_round(variants: tuple[Variant, ...], expected: dict) -> None:
    for round_no, slots in expected.items():
        assert face_up_schedule(frozenset(variants), round_no) == slots
    # ... and the placements of a real game follow it (Swiss cards always face down)
    _, events, _ = random_game(4, 3, [v.value for v in variants])
    for placed in of_kind(events, "placed"):
        wanted = placed["slot"] in expected[placed["round"]] and not placed["swiss"]
        assert placed["face_up"] is wanted, placed


def test_swiss_bribe_is_face_down_even_in_a_face_up_slot_and_uses_the_slot() -> None:
    state = new(3, first_player=0)
    events = place(state, 0, "bribe-8000", CH)
    first = of_kind(events, "placed")[0]
    assert (first["slot"], first["face_up"], first["swiss"]) == (1, False, True)
    assert state.view(1)["governments"][0]["swiss"][0].get("card") is None
    place(state, 1, "bribe-1000", 1)
    place(state, 2, "bribe-1000", 1)
    second = of_kind(place(state, 0, "bribe-10000", 1), "placed")[0]
    assert (second["slot"], second["face_up"]) == (2, False), "slot 1 was used by the Swiss card"


def test_face_down_placement_is_told_to_others_without_the_card() -> None:
    state = new(3, first_player=0)
    for seat in range(3):
        place(state, seat, "bribe-1000", 1)  # slot 1: face up in round 1
    [event] = place(state, 0, "bribe-10000", 2)
    assert event.for_seat(0)["card"] == "bribe-10000"
    assert "card" not in event.for_seat(1) and "card" not in event.for_seat(2)
    assert event.for_seat(1)["placement"] == event.data["placement"]
    visible = state.view(1)["governments"][0]["contracts"][1]["cards"][0]
    assert "card" not in visible and visible["owner"] == 0 and visible["face_up"] is False
    own = state.view(0)["governments"][0]["contracts"][1]["cards"][0]
    assert own["card"] == "bribe-10000"


def test_face_up_placement_is_public() -> None:
    state = new(3, first_player=0)
    [event] = place(state, 0, DA, 3)
    assert event.seen_by is None and event.data["face_up"] is True
    assert all(event.for_seat(s)["card"] == DA for s in range(3))
    assert state.view(2)["governments"][1]["contracts"][0]["cards"][0]["card"] == DA


def test_closed_variant_has_no_characters_and_every_card_face_down() -> None:
    state = new(3, variants=("closed",))
    options = state.pending().legal["options"]
    assert all(o["card"].startswith("bribe-") for o in options)
    events = play_round(state, {s: plan(fill=1 + s) for s in range(3)})
    assert all(not e["face_up"] for e in of_kind(events, "placed"))
    assert len(state.view(0)["hand"]) == 6, "all six bribes come back"


def test_stud_libre_first_player_chooses_the_face_up_slots_each_round() -> None:
    state = new(3, variants=("stud-libre",), first_player=1)
    decision = state.pending()
    assert (decision.seat, decision.kind) == (1, "face_up_slots")
    options = decision.legal["options"]
    assert (
        len(options) == 64
        and {"face_up": []} in options
        and {"face_up": [1, 2, 3, 4, 5, 6]} in options
    )
    events = act(state, 1, "face_up_slots", {"face_up": [2, 5]})
    assert of_kind(events, "face-up-slots") == [{"round": 1, "face_up": [2, 5], "chosen_by": 1}]
    assert state.view(0)["face_up_slots"] == [2, 5]
    events = play_round(state, {s: plan(fill=1 + s) for s in range(3)})
    for placed in of_kind(events, "placed"):
        assert placed["face_up"] is (placed["slot"] in (2, 5))
    # the next round asks the new first player again
    decision = state.pending()
    assert decision.kind == "face_up_slots"
    assert decision.seat == of_kind(events, "first-player")[0]["seat"]


def test_stud_libre_rejects_slot_lists_that_are_not_offered() -> None:
    state = new(3, variants=("stud-libre",), first_player=0)
    for bad in ({"face_up": [5, 2]}, {"face_up": [7]}, {"face_up": [1, 1]}, [1, 2]):
        with pytest.raises(IllegalAction):
            state.apply(bad)
