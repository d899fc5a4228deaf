"""Decisions inside a card's effects (steal, the owner's discard, ties), public discards,
the play cap and the default answers (CARDS.md: steal, discard, most_traitorous; rulings 5,
14, 19, 20)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from paranoia_helpers import (
    AUDIT,
    CLEARANCE_PART,
    DENOUNCE,
    FLAMER,
    PASS,
    RECALL,
    SHIPPED_TEXT,
    TANGLER,
    TEST_MISSION,
    TRUNCHEON,
    act,
    action_toml,
    custom_cards,
    kinds,
    new,
    of_kind,
    one,
    options,
    pass_windows,
    pending,
    play,
    treason,
)

from arena.games.paranoia import GAME


def test_the_hand_flamer_user_may_randomly_pick_a_card_declined() -> None:
    """Known card / optional steal: the Hand Flamer's user "may randomly pick a card": one
    yes/no decision; declining takes nothing."""
    state, _ = new(3, hands=[[FLAMER]], clearances=["RED", "YELLOW", "RED"])
    before = list(state.ts[1].hand)
    act(state, 0, "turn", play(FLAMER, "higher", 1))
    assert pending(state) == (0, "steal")
    assert options(state) == [{"steal": False}, {"steal": True}]
    assert state.view(0)["decision"] == {"kind": "steal", "from": 1, "amount": 1, "card": FLAMER}
    events = act(state, 0, "steal", {"steal": False})
    assert one(events, "steal-declined") == {"seat": 0, "from": 1}
    assert state.ts[1].hand == before and state.ts[1].wounds == 1


def test_the_hand_flamer_user_may_randomly_pick_a_card_accepted() -> None:
    """Known card / optional steal: accepted, one card at random moves to the thief; the
    thief and the victim see which, the others only how many."""
    state, _ = new(3, hands=[[FLAMER]], clearances=["RED", "YELLOW", "RED"])
    before = list(state.ts[1].hand)
    act(state, 0, "turn", play(FLAMER, "higher", 1))
    events = act(state, 0, "steal", {"steal": True})
    stole = next(e for e in events if e.kind == "stole")
    card = stole.data["cards"][0]
    assert card in before and len(state.ts[1].hand) == len(before) - 1
    assert state.ts[0].hand[-1] == card
    assert stole.for_seat(1) == {"kind": "stole", "seat": 0, "from": 1, "cards": [card]}
    assert stole.for_seat(2) == {"kind": "stole", "seat": 0, "from": 1, "count": 1}


def test_no_steal_question_once_the_flamer_has_killed_its_target() -> None:
    """Dead troubleshooters are never affected: the Hand Flamer that killed its target asks
    no steal question."""
    state, _ = new(3, hands=[[FLAMER]], wounds=[0, 1, 0])
    act(state, 0, "turn", play(FLAMER, "equal_or_lower", 1))
    events = act(state, 1, "dying", PASS)
    assert one(events, "died")["seat"] == 1
    assert "stole" not in kinds(events) and "steal-declined" not in kinds(events)
    assert pending(state) == (2, "turn")


def test_the_tangler_steal_is_not_optional_and_nothing_is_taken_from_the_dead() -> None:
    """Known card: Tangler, 1 wound and the user draws a card at random from the target (no
    question); a target the wound killed is dead, and the dead are never affected."""
    state, _ = new(4, hands=[[TANGLER, TANGLER]], wounds=[0, 0, 1, 0])
    events = act(state, 0, "turn", play(TANGLER, "another", 1))
    assert pending(state) == (1, "turn"), "no steal question"
    assert len(one(events, "stole")["cards"]) == 1
    assert len(state.ts[0].hand) == 6 and len(state.ts[1].hand) == 4
    for seat in (1, 2, 3):
        act(state, seat, "turn", {"discard": state.ts[seat].hand[-1]})
    act(state, 0, "turn", play(TANGLER, "another", 2))
    events = act(state, 2, "dying", PASS)
    assert "stole" not in kinds(events)
    assert one(events, "died")["seat"] == 2


def test_a_steal_takes_what_is_there_and_taking_the_last_card_ends_card_play(
    tmp_path: Path,
) -> None:
    """Ruling 5: steal from a hand with fewer cards takes what is there; stealing a living
    troubleshooter's last card ends the card-play phase."""
    cards = custom_cards(
        tmp_path,
        SHIPPED_TEXT[SHIPPED_TEXT.index("[[mission]]") :].replace("count = 9", "count = 8", 1)
        + action_toml("a-grab", "Test Grabber Claw", 1, "another", '{ op = "steal", amount = 3 }'),
        clearance=CLEARANCE_PART.replace("hand_size = 5", "hand_size = 1", 1),
    )
    state, _ = new(3, hands=[["a-grab"]], size=1, cards=cards, mission_cap=1)
    held = list(state.ts[1].hand)
    assert len(held) == 1
    events = act(state, 0, "turn", play("a-grab", "another", 1))
    assert one(events, "stole")["cards"] == held
    assert state.ts[1].hand == []
    assert one(events, "card-play-end") == {"reason": "empty-hand"}


def test_an_owner_chosen_discard_asks_the_owner() -> None:
    """discard (choice owner, Equipment Recall Notice): the target picks the card; every
    discard is face up (ruling 14)."""
    state, _ = new(3, hands=[[RECALL]])
    hand = list(state.ts[2].hand)
    act(state, 0, "turn", play(RECALL, "another", 2))
    assert pending(state) == (2, "discard")
    assert options(state) == [{"discard": c} for c in dict.fromkeys(hand)]
    assert state.view(2)["decision"] == {"kind": "discard", "by": 0, "card": RECALL}
    events = act(state, 2, "discard", {"discard": hand[-1]})
    discarded = next(e for e in events if e.kind == "discarded")
    assert discarded.seen_by is None
    assert discarded.data == {"seat": 2, "card": hand[-1], "by": 0}
    assert state.ts[2].hand == hand[:-1]
    assert state.actions.discards[:2] == [hand[-1], RECALL]


def test_the_owner_is_asked_even_when_its_cards_are_all_copies_of_one() -> None:
    """Ruling 23: whether the owner is asked depends only on its hand's size (public), not on
    what it holds: a hand of five copies of one card is asked, its only option that card
    (the table must not learn that the hand is all copies by not seeing it asked)."""
    state, _ = new(3, hands=[[RECALL], [], [DENOUNCE] * 5])
    act(state, 0, "turn", play(RECALL, "another", 2))
    assert pending(state) == (2, "discard")
    assert options(state) == [{"discard": DENOUNCE}]
    events = act(state, 2, "discard", {"discard": DENOUNCE})
    assert one(events, "discarded") == {"seat": 2, "card": DENOUNCE, "by": 0}
    assert state.ts[2].hand == [DENOUNCE] * 4


def test_an_owner_holding_one_card_is_not_asked(tmp_path: Path) -> None:
    """Ruling 23: a hand of one card (its size is public) has no choice to hide: the card is
    discarded without asking."""
    cards = custom_cards(
        tmp_path,
        SHIPPED_TEXT[SHIPPED_TEXT.index("[[mission]]") :],
        clearance=CLEARANCE_PART.replace("hand_size = 5", "hand_size = 1", 1),
    )
    state, _ = new(3, hands=[[RECALL]], size=1, cards=cards, mission_cap=1)
    held = list(state.ts[2].hand)
    assert len(held) == 1
    events = act(state, 0, "turn", play(RECALL, "another", 2))
    assert one(events, "discarded") == {"seat": 2, "card": held[0], "by": 0}
    assert one(events, "card-play-end") == {"reason": "empty-hand"}
    assert pending(state) is None, "nobody was asked to discard: the game ran to its end"


def test_a_random_discard_is_face_up() -> None:
    """discard (choice random, Truncheon): a seeded random card, discarded face up."""
    state, _ = new(3, hands=[[TRUNCHEON]])
    hand = list(state.ts[1].hand)
    events = act(state, 0, "turn", play(TRUNCHEON, "equal_or_lower", 1))
    events += pass_windows(state)
    discarded = next(e for e in events if e.kind == "discarded")
    assert discarded.seen_by is None and discarded.data["by"] == 0
    assert discarded.data["card"] in hand and len(state.ts[1].hand) == 4
    assert state.ts[1].wounds == 1


def test_a_turn_discard_is_face_up() -> None:
    """Ruling 14: a discard on a turn is face up (public)."""
    state, _ = new(3)
    card = state.ts[0].hand[0]
    events = act(state, 0, "turn", {"discard": card})
    event = next(e for e in events if e.kind == "discarded")
    assert event.seen_by is None and event.data == {"seat": 0, "card": card, "by": None}
    assert state.actions.discards == [card]


def test_most_traitorous_ties_are_chosen_by_the_team_leader() -> None:
    """most_traitorous: the living troubleshooter with most treason; ties chosen by the Team
    Leader (Random Loyalty Audit's mission section)."""
    state, _ = new(3, hands=[[], [AUDIT]], treason=[0, 2, 2])
    act(state, 0, "turn", {"discard": state.ts[0].hand[-1]})
    act(state, 1, "turn", play(AUDIT, "mission"))
    assert pending(state) == (0, "tie")
    assert options(state) == [{"seat": 1}, {"seat": 2}]
    events = act(state, 0, "tie", {"seat": 2})
    assert one(events, "tie-broken") == {
        "test": "most_traitorous",
        "tied": [1, 2],
        "seat": 2,
        "by": 0,
    }
    assert one(events, "made-traitor") == {"seat": 1, "traitor": 2, "shed": 2}
    assert treason(state) == [0, 0, 3]


def test_the_play_cap_ends_card_play(tmp_path: Path) -> None:
    """Ruling 19: after 200 cards played or discarded in one mission, no more turns or
    windows (not even between turns): card play ends."""
    cards = custom_cards(
        tmp_path,
        TEST_MISSION
        + action_toml(
            "a-forms", "Test Forms", 30, "yourself", '{ op = "draw", target = "self", amount = 1 }'
        ),
    )
    state, _ = new(
        3,
        hands=[["a-forms"] * 5] * 3,
        deck=["a-forms"],
        mission="m-one",
        cards=cards,
        mission_cap=1,
    )
    events = []
    turns = responds = 0
    while pending(state) is not None:
        seat, kind = pending(state)
        if kind == "respond":
            assert options(state) == [PASS], "nobody holds a Play Anytime card"
            events += act(state, seat, "respond", PASS, forced=False)
            responds += 1
            continue
        assert kind == "turn"
        events += act(state, seat, "turn", play("a-forms", "yourself"), forced=False)
        turns += 1
    assert turns == 200 and state.plays == 200
    # after each card but the 200th: both other seats about the card, then all three between
    # turns; no phase-end window either
    assert responds == 199 * (2 + 3)
    assert len(of_kind(events, "played")) == 200
    assert one(events, "card-play-end") == {"reason": "play-cap"}
    assert one(events, "game-end")["ended_by"] == "mission-cap"


@pytest.mark.parametrize("seed", range(6))
def test_the_first_option_is_the_documented_default_answer(seed: int) -> None:
    """Ruling 20: the default answer is the first option: discard the first card in hand on a
    turn, pass in a window or a dying action, decline a steal, discard the first card when
    told to choose, the first tied seat. (Whole games with random answers.)"""
    state, _ = GAME.start(4 + seed % 3, seed, {})
    rng = random.Random(seed)
    seen = set()
    while (decision := state.pending()) is not None:
        opts = decision.legal["options"]
        first = opts[0]
        hand = state.ts[decision.seat].hand
        seen.add(decision.kind)
        if decision.kind == "turn":
            assert first == {"discard": hand[0]}
        elif decision.kind in ("respond", "dying"):
            assert first == PASS
        elif decision.kind == "steal":
            assert first == {"steal": False}
        elif decision.kind == "discard":
            assert first == {"discard": hand[0]}
        elif decision.kind == "tie":
            assert first == {"seat": state.context["tied"][0]}
        else:
            raise AssertionError(f"unknown decision kind {decision.kind}")
        state.apply(rng.choice(opts) if rng.random() < 0.7 else first)
        assert state.invariants() == []
    assert {"turn", "respond"} <= seen
    assert state.outcome().detail["ended_by"] in ("last-clone", "mission-cap")
