"""Little Black Book: two peeks per game at face-down cards under contracts."""

from __future__ import annotations

import pytest
from corruption_helpers import CH, DA, act, cards_in_view, new, pid, place

from arena.games.base import IllegalAction
from arena.games.corruption.state import CorruptionState


def _opening(variants: tuple[str, ...] = ("little-black-book",)) -> CorruptionState:
    """Round 1, first player 0: three face-up cards, then seat 0's face-down 10,000 under
    contract 2 and seat 1's face-down 8,000 on City Hall's Swiss account; seat 2 to play."""
    state = new(3, variants=variants, first_player=0)
    place(state, 0, "bribe-1000", 1)
    place(state, 1, "bribe-1000", 1)
    place(state, 2, "bribe-1000", 1)
    place(state, 0, "bribe-10000", 2)
    place(state, 1, "bribe-8000", CH)
    return state


def _peeks(state: CorruptionState) -> list[dict]:
    return [o for o in state.pending().legal["options"] if "peek" in o]


def test_peek_options_are_other_players_face_down_cards_under_contracts_only() -> None:
    state = _opening()
    hidden = pid(state, 0, "bribe-10000", 2)
    # not seat 1's Swiss card (never), not the face-up cards (already known), not own cards
    assert _peeks(state) == [{"peek": hidden}]


def test_no_peeks_without_the_variant() -> None:
    assert _peeks(_opening(variants=())) == []


def test_peek_is_seen_only_by_the_peeker() -> None:
    state = _opening()
    hidden = pid(state, 0, "bribe-10000", 2)
    [event] = act(state, 2, "place", {"peek": hidden})
    assert event.kind == "peeked"
    assert event.for_seat(2) == {
        "kind": "peeked",
        "seat": 2,
        "placement": hidden,
        "owner": 0,
        "peeks_left": 1,
        "card": "bribe-10000",
    }
    assert event.for_seat(1) == {
        "kind": "peeked",
        "seat": 2,
        "placement": hidden,
        "owner": 0,
        "peeks_left": 1,
    }
    shown = {c["placement"]: c for c in cards_in_view(state.view(2))}
    assert shown[hidden]["card"] == "bribe-10000"
    assert "card" not in {c["placement"]: c for c in cards_in_view(state.view(1))}[hidden]
    view = state.view(2)
    assert view["peeks_left"] == 1
    assert view["peeked"] == [{"round": 1, "placement": hidden, "owner": 0, "card": "bribe-10000"}]
    assert state.view(1)["seats"][2]["peeks_left"] == 1, "peeks spent are public"
    assert state.view(1)["peeked"] == []


def test_peek_does_not_use_the_turn_and_is_not_offered_twice() -> None:
    state = _opening()
    act(state, 2, "place", {"peek": pid(state, 0, "bribe-10000", 2)})
    decision = state.pending()
    assert (decision.seat, decision.kind) == (2, "place")
    assert _peeks(state) == [], "the only face-down card is already known"
    with pytest.raises(IllegalAction):
        state.apply({"peek": pid(state, 0, "bribe-10000", 2)})


def test_peeks_are_limited_to_two_per_game() -> None:
    state = new(3, variants=("little-black-book",), first_player=0)
    for seat in range(3):
        place(state, seat, "bribe-1000", 1)
    place(state, 0, "bribe-2000", 2)
    place(state, 1, DA, 3)
    first, second = pid(state, 0, "bribe-2000", 2), pid(state, 1, DA, 3)
    act(state, 2, "place", {"peek": first})
    act(state, 2, "place", {"peek": second})
    assert state.view(2)["peeks_left"] == 0
    place(state, 2, "bribe-4000", 4)
    place(state, 0, "bribe-4000", 4)
    place(state, 1, "bribe-4000", 5)
    assert state.pending().seat == 2
    assert _peeks(state) == [], "two face-down cards of others unseen, but no peeks left"
    with pytest.raises(IllegalAction):
        state.apply({"peek": pid(state, 0, "bribe-4000", 4)})
    place(state, 2, "bribe-6000", 4)
    assert state.pending().seat == 0 and len(_peeks(state)) == 4, "seat 0 still has its peeks"


def test_peeking_is_not_offered_on_face_up_slot_decisions_of_stud_libre() -> None:
    state = new(3, variants=("stud-libre", "little-black-book"), first_player=0)
    assert all("peek" not in o for o in state.pending().legal["options"])
