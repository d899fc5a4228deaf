"""Setup and the first two phases of a mission: Mission (the card revealed) and Deal."""

from __future__ import annotations

from pathlib import Path

from paranoia_helpers import (
    ABORT,
    DENOUNCE,
    ESCORT,
    GOLDEN,
    LASER,
    PAPERWORK,
    TEST_MISSION,
    act,
    action_toml,
    clearances,
    custom_cards,
    discard,
    kinds,
    new,
    of_kind,
    one,
    play,
)

from arena.games.paranoia import GAME


def test_setup_everyone_red_with_six_clones_and_the_leader_promoted_to_orange() -> None:
    """Setup: everyone starts RED with 6 clones; the Team Leader, drawn by the seed, is
    promoted at once to ORANGE."""
    leaders = set()
    for seed in range(12):
        state, events = GAME.start(5, seed, {})
        setup = one(events, "setup")
        leader = setup["team_leader"]
        leaders.add(leader)
        assert state.leader == leader
        assert [t.clones for t in state.ts] == [6] * 5
        assert clearances(state) == ["ORANGE" if s == leader else "RED" for s in range(5)]
        assert [t.wounds for t in state.ts] == [0] * 5 and [t.treason for t in state.ts] == [0] * 5
        assert state.clearances.supply()["RED"] == 8 - 4
        assert state.clearances.supply()["ORANGE"] == 7 - 1
    assert len(leaders) > 1, "the leader is drawn from the seed, not always the same seat"


def test_setup_is_seeded() -> None:
    """Setup: the leader and the shuffled Mission and Action decks come from the seed."""
    a, _ = GAME.start(4, 99, {})
    b, _ = GAME.start(4, 99, {})
    c, _ = GAME.start(4, 100, {})
    assert a.leader == b.leader
    assert a.table_view() == b.table_view()
    assert (a.table_view()["action_deck"], a.table_view()["mission_deck"]) != (
        c.table_view()["action_deck"],
        c.table_view()["mission_deck"],
    )


def test_mission_phase_reveals_the_top_mission_card() -> None:
    """Phase 1: the Team Leader reveals the top Mission card (public)."""
    state, events = new(4, mission=ESCORT, leader=1)
    mission = [e for e in events if e.kind == "mission"]
    assert len(mission) == 1 and mission[0].seen_by is None
    assert mission[0].data == {"number": 1, "mission": ESCORT, "team_leader": 1}
    assert state.mission is not None and state.mission.id == ESCORT
    assert state.view(3)["mission"] == ESCORT
    assert kinds(events)[:2] == ["setup", "mission"]


def test_first_game_start_deals_full_hands_and_the_leader_bonus() -> None:
    """Deal: from empty hands everyone is dealt its hand size (RED/ORANGE 5) and the Team
    Leader one bonus card."""
    state, events = GAME.start(4, 5, {})
    leader = state.leader
    assert [len(t.hand) for t in state.ts] == [6 if s == leader else 5 for s in range(4)]
    drew = of_kind(events, "drew")
    assert [d["seat"] for d in drew] == [(leader + k) % 4 for k in range(4)], "leader first"
    assert all(d["reason"] == "deal" for d in drew)


def test_deal_is_a_top_up_not_a_new_hand() -> None:
    """Deal (ruling 28): each troubleshooter is dealt up to its hand size, keeping what it
    holds; not its hand size again on top of a kept hand."""
    deck = [GOLDEN, LASER, ABORT, PAPERWORK, DENOUNCE, "docbot"]
    state, events = new(
        3, hands=[["tangler"], ["bribe", "bribe", "bribe"], []], size=[1, 3, 0], deck=deck
    )
    drew = of_kind(events, "drew")
    # leader 0: 4 to reach 5 plus the bonus card; seat 1: 2; seat 2: would need 5 but the
    # deck was stacked with 6 cards only, then the shuffled rest follows.
    assert [(d["seat"], len(d["cards"])) for d in drew] == [(0, 5), (1, 2), (2, 5)]
    assert drew[0]["cards"] == [GOLDEN, LASER, ABORT, PAPERWORK, DENOUNCE]
    assert state.ts[0].hand == ["tangler", GOLDEN, LASER, ABORT, PAPERWORK, DENOUNCE]
    assert state.ts[1].hand[:3] == ["bribe"] * 3 and len(state.ts[1].hand) == 5
    assert state.ts[1].hand[3] == "docbot", "the deal goes on from the Team Leader clockwise"
    assert len(state.ts[2].hand) == 5


def test_team_leader_gets_one_bonus_card_on_a_full_hand() -> None:
    """Deal: the Team Leader gets one bonus card; the others, already full, get none."""
    state, events = new(4, leader=2, deck=[GOLDEN])
    drew = {d["seat"]: d["cards"] for d in of_kind(events, "drew")}
    assert drew == {2: [GOLDEN], 3: [], 0: [], 1: []}
    assert [len(t.hand) for t in state.ts] == [5, 5, 6, 5]
    assert state.ts[2].hand[-1] == GOLDEN


def test_a_player_holding_more_than_its_hand_size_keeps_them_and_is_dealt_none() -> None:
    """Deal: a player holding more than its hand size keeps them but is not dealt any."""
    state, events = new(3, size=[5, 7, 5])
    held = list(state.ts[1].hand)
    drew = {d["seat"]: d["cards"] for d in of_kind(events, "drew")}
    assert drew[1] == []
    assert len(held) == 7 and state.ts[1].hand == held


def test_hand_size_follows_the_clearance_table() -> None:
    """Deal: the top-up target is the clearance's hand size (YELLOW 6, RED 5)."""
    state, events = new(
        3, size=[5, 4, 4], clearances=["RED", "YELLOW", "RED"], deck=[GOLDEN, LASER, ABORT]
    )
    drew = {d["seat"]: d["cards"] for d in of_kind(events, "drew")}
    assert drew == {0: [GOLDEN], 1: [LASER, ABORT], 2: drew[2]}
    assert len(drew[2]) == 1
    assert [len(t.hand) for t in state.ts] == [6, 6, 5]


def test_each_deal_is_secret_but_its_size_public() -> None:
    """Hidden information: hands are secret; the number of cards dealt is public."""
    state, events = new(3, size=[3, 5, 5], deck=[GOLDEN, LASER, ABORT])
    dealt = next(e for e in events if e.kind == "drew" and e.data["seat"] == 0)
    assert dealt.for_seat(0) == {
        "kind": "drew",
        "seat": 0,
        "cards": [GOLDEN, LASER, ABORT],
        "reason": "deal",
    }
    assert dealt.for_seat(1) == {"kind": "drew", "seat": 0, "count": 3, "reason": "deal"}
    assert state.view(1)["troubleshooters"][0]["hand"] == 6
    assert "hands" not in state.view(1) and state.view(1)["hand"] == state.ts[1].hand


def test_dead_troubleshooters_return_at_the_next_mission_and_are_dealt() -> None:
    """Death / Deal: a troubleshooter still dead when its mission ends (its skipped turn never
    came) returns as a new clone at the next Mission and is topped up like everyone else."""
    state, _ = new(
        3, hands=[[LASER], [ABORT]], wounds=[0, 0, 1], mission_cap=2, deck=[GOLDEN, LASER]
    )
    act(state, 0, "turn", play(LASER, "equal_or_lower", 2))
    act(state, 2, "dying", {"pass": True})
    assert not state.ts[2].alive
    hand = list(state.ts[2].hand)
    events = act(state, 1, "turn", play(ABORT, "mission"))
    assert one(events, "new-clone") == {"seat": 2, "clones": 5, "when": "mission"}
    assert state.mission_number == 2 and state.ts[2].alive
    assert state.ts[2].hand == hand, "a dead troubleshooter keeps its hand"
    assert state.ts[2].wounds == 0 and state.ts[2].clones == 5


def test_empty_action_deck_reshuffles_the_discards_and_draws_fewer_when_both_run_dry(
    tmp_path: Path,
) -> None:
    """Open information: an empty Action deck is reshuffled from the discards (seeded);
    with both empty a draw takes what there is."""
    cards = custom_cards(
        tmp_path,
        TEST_MISSION
        + action_toml(
            "a-draw", "Test Forms", 16, "yourself", '{ op = "draw", target = "self", amount = 2 }'
        ),
    )
    state, events = new(
        3, hands=[["a-draw"] * 5] * 3, deck=["a-draw"], mission="m-one", cards=cards
    )
    assert state.actions.cards == [] and state.actions.discards == []
    act(state, 0, "turn", discard("a-draw"))
    assert state.actions.discards == ["a-draw"]
    events = act(state, 1, "turn", play("a-draw", "yourself"))
    assert one(events, "reshuffled") == {"cards": 1}
    assert one(events, "drew")["cards"] == ["a-draw"], "one card left anywhere: one drawn"
    assert len(state.ts[1].hand) == 5
    assert state.actions.discards == ["a-draw"], "the played card is discarded after it resolves"
