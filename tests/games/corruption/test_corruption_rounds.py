"""Round end, game end, the rulebook's worked example and the apply contract."""

from __future__ import annotations

import pytest
from corruption_helpers import (
    CAP,
    CH,
    CS,
    DA,
    HM,
    REP,
    act,
    dump,
    kinds,
    new,
    of_kind,
    pid,
    plan,
    play_round,
    random_game,
    tie_round,
)

from arena.games.base import IllegalAction

MONUMENT, OPERA, STADIUM, SUBWAY, UNIVERSITY, AIRPORT = 2, 9, 15, 20, 11, 22


def test_rulebook_worked_example() -> None:
    """Players 1-4 are seats 0-3, player 1 first. Expected (Spanish rules, step by step):
    Monument -> player 1 (Swiss 8,000 at 4,000), Opera House cancelled by the DA, Stadium ->
    player 3, Subway -> player 4, University and Airport -> player 2, who leads round 2."""
    state = new(
        4, layout={CH: [MONUMENT, OPERA], CS: [STADIUM, SUBWAY], CAP: [UNIVERSITY, AIRPORT]}
    )
    events = play_round(
        state,
        {
            0: [
                ("bribe-8000", CH),
                ("bribe-10000", AIRPORT),
                ("bribe-1000", STADIUM),
                ("bribe-2000", SUBWAY),
                ("bribe-4000", UNIVERSITY),
                ("bribe-6000", OPERA),
            ],
            1: [
                (DA, OPERA),
                ("bribe-8000", AIRPORT),
                ("bribe-10000", UNIVERSITY),
                ("bribe-1000", MONUMENT),
                ("bribe-2000", STADIUM),
                ("bribe-4000", SUBWAY),
            ],
            2: [
                (REP, AIRPORT),
                ("bribe-10000", AIRPORT),
                ("bribe-8000", STADIUM),
                ("bribe-1000", SUBWAY),
                ("bribe-2000", MONUMENT),
                ("bribe-6000", UNIVERSITY),
            ],
            3: [
                (REP, AIRPORT),
                ("bribe-10000", SUBWAY),
                ("bribe-4000", STADIUM),
                ("bribe-2000", UNIVERSITY),
                ("bribe-1000", MONUMENT),
                ("bribe-6000", OPERA),
            ],
        },
    )
    assert of_kind(events, "placed")[0]["face_up"] is False, "Swiss: face down in a face-up slot"
    # a. player 1 assigns the Swiss 8,000 (worth 4,000) to the Monument, the DA being on the Opera
    assert state.pending().legal["options"] == [{"contract": MONUMENT}, {"contract": OPERA}]
    events = act(state, 0, "swiss", {"contract": MONUMENT})
    # c. the Opera House is cancelled (before any Reporter acts); it stays for round 2
    assert of_kind(events, "cancelled")[0]["contract"] == OPERA
    assert state.pending().kind == "report"
    # d. player 3's Reporter (played first) removes player 1's 10,000 ...
    p1_airport, p3_airport = (
        pid(state, 0, "bribe-10000", AIRPORT),
        pid(state, 2, "bribe-10000", AIRPORT),
    )
    assert state.pending().seat == 2
    events = act(state, 2, "report", {"remove": p1_airport})
    # ... then player 4's removes player 3's 10,000
    events += act(state, 3, "report", {"remove": p3_airport})
    assert [(r["seat"], r["removed_owner"]) for r in of_kind(events, "reported")] == [
        (2, 0),
        (3, 2),
    ]
    awards = {e["contract"]: e["seat"] for e in of_kind(events, "awarded")}
    assert awards == {MONUMENT: 0, STADIUM: 2, SUBWAY: 3, UNIVERSITY: 1, AIRPORT: 1}
    assert of_kind(events, "round-end")[0]["contracts_left"][CH][0] == OPERA
    first = of_kind(events, "first-player")[0]
    assert (first["round"], first["seat"], first["reason"]) == (2, 1, "leader")


def test_characters_leave_after_their_round_whatever_happened_to_them() -> None:
    state = new()
    events = play_round(
        state,
        {
            0: plan((HM, 1), (REP, 3), fill=4),
            1: plan((DA, 1), fill=5),
            2: plan(fill=6),
        },
    )
    leaving = of_kind(events, "characters-leave")[0]["cards"]
    assert sorted((c["owner"], c["card"]) for c in leaving) == [(0, HM), (0, REP), (1, DA)]
    hands = [state.view(s)["hand"] for s in range(3)]
    assert HM not in hands[0] and hands[0].count(REP) == 1 and DA not in hands[1]
    assert [len(h) for h in hands] == [8, 9, 10]
    assert sorted(c.value for c in state.gone[0]) == [HM, REP]


def test_bribes_return_to_hand_after_attribution() -> None:
    state = new()
    play_round(state, {0: plan(("bribe-10000", CH), fill=1), 1: plan(fill=1), 2: plan(fill=2)})
    act(state, 0, "swiss", {"contract": 2})
    for seat in range(3):
        hand = state.view(seat)["hand"]
        assert hand[:6] == [
            "bribe-1000",
            "bribe-2000",
            "bribe-4000",
            "bribe-6000",
            "bribe-8000",
            "bribe-10000",
        ]


def test_end_of_game_ranks_by_value_then_contract_count() -> None:
    # seat 0: 1,200,000 in 1 contract; seat 1: 1,100,000 + 100,000 in 2; seat 2: 1,000,000 + 100,000
    state = new(
        3,
        round_no=4,
        won={0: [24], 1: [23, 1], 2: [22, 2]},
        layout={CH: [3, 4], CS: [5, 6], CAP: [7, 8]},
    )
    events = tie_round(state, 3)
    assert state.pending() is None
    outcome = state.outcome()
    assert outcome.scores == (1_200_000, 1_200_000, 1_100_000)
    assert outcome.ranks == (2, 1, 3)
    assert outcome.detail["contracts_won"] == [[24], [23, 1], [22, 2]]
    assert outcome.detail["contracts_left"] == {CH: [3, 4], CS: [5, 6], CAP: [7, 8]}, (
        "score nothing"
    )
    end = of_kind(events, "game-end")[0]
    assert end == {
        "scores": [1_200_000, 1_200_000, 1_100_000],
        "ranks": [2, 1, 3],
        "contracts_won": [[24], [23, 1], [22, 2]],
    }


def test_end_of_game_full_tie_shares_the_rank() -> None:
    # 1,000,000 + 150,000 against 900,000 + 250,000, both in two contracts
    state = new(
        3, round_no=4, won={0: [22, 3], 1: [21, 7]}, layout={CH: [4, 5], CS: [6, 8], CAP: [9, 10]}
    )
    tie_round(state, 4)
    assert state.outcome().ranks == (1, 1, 3)


def test_game_lasts_four_rounds_and_deals_all_24_contracts() -> None:
    state, events, _ = random_game(5, 2, [])
    assert [e["round"] for e in of_kind(events, "round-start")] == [1, 2, 3, 4]
    dealt = [d["id"] for e in of_kind(events, "round-start") for d in e["dealt"]]
    assert sorted(dealt) == list(range(1, 25))
    assert kinds(events)[-1] == "game-end"
    assert state.view(0)["phase"] == "over" and state.view(0)["turn"] is None


def test_illegal_action_raises_and_leaves_the_state_unchanged() -> None:
    state = new()
    before = dump([state.table_view(), *(state.view(s) for s in range(3))])
    for bad in (
        {"card": "bribe-3000", "contract": 1},
        {"card": "bribe-1000", "contract": 99},
        {"card": DA, "swiss": CH},
        {"peek": 1},
        None,
        "bribe-1000",
        {},
    ):
        with pytest.raises(IllegalAction):
            state.apply(bad)
    assert dump([state.table_view(), *(state.view(s) for s in range(3))]) == before


def test_look_alike_numbers_are_stored_as_the_legal_option() -> None:
    state = new()
    state.apply({"card": "bribe-1000", "contract": 1.0})
    assert dump(state.table_view()).count('"contract":1.0') == 0
    assert (
        state.table.placements[0].contract == 1 and type(state.table.placements[0].contract) is int
    )


def test_no_decision_after_the_game_is_over() -> None:
    state, _, _ = random_game(3, 4, [])
    assert state.pending() is None
    with pytest.raises(IllegalAction):
        state.apply({"card": "bribe-1000", "contract": 1})


def test_outcome_is_refused_before_the_end() -> None:
    with pytest.raises(ValueError):
        new().outcome()


def test_table_view_shows_hands_deck_and_every_card() -> None:
    state = new(layout={CH: [1, 2], CS: [3, 4], CAP: [5, 6]})
    for seat in range(3):
        act(state, seat, "place", {"card": "bribe-1000", "contract": 1})
    act(state, 0, "place", {"card": "bribe-8000", "contract": 2})
    table = state.table_view()
    cards = table["governments"][0]["contracts"][1]["cards"]
    assert cards[0]["card"] == "bribe-8000" and cards[0]["face_up"] is False
    assert table["seat"] is None and len(table["hands"]) == 3 and len(table["deck"]) == 18
    assert "hands" not in state.view(0) and "deck" not in state.view(0)
