"""Receiving scholars: no conflict, external conflicts, internal conflicts, their order, and
the Free Replacement variant."""

from __future__ import annotations

from typing import Any

from intrigue_helpers import (
    CLE,
    DOC,
    PRI,
    SCI,
    accept_all,
    act,
    kinds,
    negotiate,
    new,
    of_kind,
    options,
    scholar_id,
)

from arena.games.intrigue.state import IntrigueState


def trace(state: IntrigueState, answers: dict[str, Any]) -> list[tuple[str, int, Any]]:
    """Play the whole receiving step with fixed answers per decision kind (offers of 1,000
    accepted); return (kind, seat, what it was about) for each decision."""
    seen = []
    while (decision := state.pending()) is not None and decision.kind != "send":
        about = state.view(decision.seat)["decision"]
        if decision.kind == "offer":
            seen.append(("offer", decision.seat, (about["step"], about["type"])))
            negotiate(state, decision.seat, about["palace"], 1000)
        else:
            seen.append((decision.kind, decision.seat, about.get("type")))
            act(state, decision.seat, decision.kind, answers[decision.kind](state))
    return seen


def first(state: IntrigueState) -> Any:
    return options(state)[0]


def test_no_conflict_applicants_are_admitted_even_for_nothing_and_placed_where_the_owner_likes():
    state, _ = new(3, seat=0, round_no=2, waiting={0: [(2, PRI), (1, DOC)]})
    negotiate(state, 1, 0, 0, section=10000, promise="10,000 or you will regret it")
    events = negotiate(state, 2, 0, 0, section=10000)
    admitted = of_kind(events, "admitted")
    assert [a["scholar"] for a in admitted] == [10, 20], "seat 1 (after the owner) first"
    assert options(state) == [{"section": s} for s in (1000, 3000, 6000, 10000)], (
        "the owner must admit: its only choice is the section"
    )
    placed = of_kind(act(state, 0, "place", {"section": 1000}), "placed")
    assert placed[0] | {"asked_section": 10000, "given_section": 1000, "paid": 0} == placed[0]
    assert options(state) == [{"section": s} for s in (3000, 6000, 10000)]
    placed = of_kind(act(state, 0, "place", {"section": 10000}), "placed")
    assert (placed[0]["scholar"], placed[0]["asked_section"], placed[0]["given_section"]) == (
        20,
        10000,
        10000,
    )
    assert state.board.sections[0] == {1000: 10, 3000: None, 6000: None, 10000: 20}
    decision = state.pending()
    assert decision is not None and (decision.seat, decision.kind) == (0, "send")


def test_negotiations_go_in_turn_order_from_the_player_after_the_owner() -> None:
    state, _ = new(
        5,
        seat=2,
        round_no=2,
        waiting={2: [(1, DOC), (3, PRI), (0, SCI), (4, CLE)]},
    )
    seats = [seat for kind, seat, _ in trace(state, {"place": first}) if kind == "offer"]
    assert seats == [3, 4, 0, 1]


def test_one_seats_several_scholars_negotiate_in_arrival_order() -> None:
    state, _ = new(3, seat=0, round_no=2, waiting={0: [(2, PRI), (1, DOC), (2, SCI)]})
    offers = [about for kind, _, about in trace(state, {"place": first}) if kind == "offer"]
    assert offers == [("no-conflict", DOC), ("no-conflict", PRI), ("no-conflict", SCI)]


def test_the_three_steps_come_in_order_no_conflict_external_internal() -> None:
    state, events = new(
        3,
        seat=0,
        round_no=2,
        inside={0: {3000: (1, SCI)}},
        waiting={0: [(2, SCI), (2, DOC), (1, DOC), (2, PRI)]},
    )
    assert of_kind(events, "receiving") == [
        {
            "palace": 0,
            "no_conflict": [scholar_id(state, 2, PRI, 0)],
            "external": [{"type": DOC, "applicants": [10, 18]}],
            "internal": [{"type": SCI, "incumbent": 8, "section": 3000, "applicants": [16]}],
        }
    ]
    seen = trace(state, {"place": first, "choose": first, "keep_or_replace": first})
    assert seen == [
        ("offer", 2, ("no-conflict", PRI)),
        ("place", 0, PRI),
        ("offer", 1, ("external", DOC)),
        ("offer", 2, ("external", DOC)),
        ("choose", 0, DOC),
        ("place", 0, DOC),
        ("offer", 1, ("internal", SCI)),
        ("offer", 2, ("internal", SCI)),
        ("keep_or_replace", 0, SCI),
    ]


def test_an_external_conflict_collects_every_bribe_admits_one_and_exiles_the_others() -> None:
    state, _ = new(4, seat=0, round_no=2, waiting={0: [(2, DOC), (1, DOC), (3, DOC)]})
    negotiate(state, 1, 0, 3000)
    negotiate(state, 2, 0, 5000)
    negotiate(state, 3, 0, 0)
    assert state.ledger.cash == [40000, 29000, 27000, 32000], "every applicant has paid"
    assert options(state) == [{"scholar": 10}, {"scholar": 18}, {"scholar": 26}]
    events = act(state, 0, "choose", {"scholar": 26})
    assert kinds(events) == ["admitted", "exiled", "exiled"]
    exiled = of_kind(events, "exiled")
    assert [(e["scholar"], e["reason"], e["paid"]) for e in exiled] == [
        (10, "rejected", 3000),
        (18, "rejected", 5000),
    ]
    placed = of_kind(act(state, 0, "place", {"section": 10000}), "placed")
    assert (placed[0]["scholar"], placed[0]["given_section"], placed[0]["step"]) == (
        26,
        10000,
        "external",
    )
    assert state.board.island == [10, 18]
    assert state.ledger.cash == [40000, 29000, 27000, 32000], "no bribe comes back"


def internal_position(**kwargs: Any) -> IntrigueState:
    """Seat 0's palace: seat 3's doctor in the 6,000 section, seat 1's doctor at the door."""
    state, _ = new(
        4, seat=0, round_no=2, inside={0: {6000: (3, DOC)}}, waiting={0: [(1, DOC)]}, **kwargs
    )
    return state


def test_in_an_internal_conflict_the_incumbents_owner_negotiates_first() -> None:
    state = internal_position()
    decision = state.pending()
    assert decision is not None and (decision.seat, decision.kind) == (3, "offer"), (
        "seat 3 owns the doctor inside: it negotiates before seat 1, though seat 1 plays first"
    )
    negotiate(state, 3, 0, 4000, section=6000)
    negotiate(state, 1, 0, 7000, section=10000)
    assert options(state) == [{"keep": 26}, {"replace_with": 10}]


def test_keeping_the_incumbent_exiles_the_applicants() -> None:
    state = internal_position()
    negotiate(state, 3, 0, 4000, section=6000)
    negotiate(state, 1, 0, 7000)
    events = act(state, 0, "keep_or_replace", {"keep": 26})
    assert of_kind(events, "kept") == [
        {
            "palace": 0,
            "scholar": 26,
            "applicant": 3,
            "type": DOC,
            "asked_section": 6000,
            "given_section": 6000,
            "paid": 4000,
        }
    ]
    assert [(e["scholar"], e["reason"]) for e in of_kind(events, "exiled")] == [(10, "rejected")]
    assert state.board.sections[0][6000] == 26 and state.board.island == [10]
    assert state.ledger.cash == [43000, 25000, 32000, 28000]


def test_a_replacement_takes_the_same_section_without_a_question() -> None:
    state = internal_position()
    negotiate(state, 3, 0, 0)
    negotiate(state, 1, 0, 7000, section=10000)
    events = act(state, 0, "keep_or_replace", {"replace_with": 10})
    assert kinds(events) == ["exiled", "admitted", "placed"]
    exiled = of_kind(events, "exiled")
    assert [(e["scholar"], e["reason"]) for e in exiled] == [(26, "replaced")]
    placed = of_kind(events, "placed")[0]
    assert (placed["scholar"], placed["given_section"], placed["replaced"], placed["forced"]) == (
        10,
        6000,
        26,
        True,
    )
    assert placed["asked_section"] == 10000
    decision = state.pending()
    assert decision is not None and decision.kind == "send", "no placement question"


def test_free_replacement_lets_the_owner_choose_among_free_sections_and_the_vacated_one() -> None:
    state = internal_position(variants=("free-replacement",))
    negotiate(state, 3, 0, 0)
    negotiate(state, 1, 0, 7000, section=10000)
    events = act(state, 0, "keep_or_replace", {"replace_with": 10})
    assert kinds(events) == ["exiled", "admitted"]
    assert options(state) == [{"section": s} for s in (1000, 3000, 6000, 10000)]
    placed = of_kind(act(state, 0, "place", {"section": 10000}), "placed")[0]
    assert (placed["given_section"], placed["replaced"], placed["forced"]) == (10000, 26, False)
    assert state.board.sections[0] == {1000: None, 3000: None, 6000: None, 10000: 10}


def test_free_replacement_into_a_full_palace_keeps_the_vacated_section() -> None:
    state, _ = new(
        3,
        seat=0,
        round_no=3,
        variants=("free-replacement",),
        inside={0: {1000: (1, SCI), 3000: (2, DOC), 6000: (1, PRI), 10000: (2, CLE)}},
        waiting={0: [(1, DOC)]},
    )
    negotiate(state, 2, 0, 0)
    negotiate(state, 1, 0, 0)
    events = act(state, 0, "keep_or_replace", {"replace_with": 10})
    placed = of_kind(events, "placed")[0]
    assert (placed["given_section"], placed["forced"]) == (3000, True), "the only free one"


def test_several_internal_conflicts_are_resolved_from_the_lowest_paid_section_up() -> None:
    state, _ = new(
        3,
        seat=0,
        round_no=3,
        inside={0: {10000: (1, PRI), 1000: (2, CLE)}},
        waiting={0: [(2, PRI), (1, CLE)]},
    )
    seen = trace(state, {"keep_or_replace": first})
    assert seen == [
        ("offer", 2, ("internal", CLE)),
        ("offer", 1, ("internal", CLE)),
        ("keep_or_replace", 0, CLE),
        ("offer", 1, ("internal", PRI)),
        ("offer", 2, ("internal", PRI)),
        ("keep_or_replace", 0, PRI),
    ]


def test_a_seat_may_negotiate_as_incumbent_and_as_applicant_in_one_conflict() -> None:
    state, _ = new(3, seat=0, round_no=3, inside={0: {3000: (1, DOC)}}, waiting={0: [(1, DOC)]})
    roles = []
    while (decision := state.pending()) is not None and decision.kind == "offer":
        roles.append((decision.seat, state.view(1)["negotiation"]["role"]))
        negotiate(state, 1, 0, 0)
    assert roles == [(1, "incumbent"), (1, "applicant")]
    assert options(state) == [{"keep": 10}, {"replace_with": 11}]


def test_a_placement_with_one_free_section_is_not_asked() -> None:
    state, _ = new(
        3,
        seat=0,
        round_no=3,
        inside={0: {1000: (1, SCI), 3000: (2, DOC), 6000: (1, PRI)}},
        waiting={0: [(2, CLE)]},
    )
    events = accept_all(state, 0)
    placed = of_kind(events, "placed")[0]
    assert (placed["given_section"], placed["forced"]) == (10000, True)
    decision = state.pending()
    assert decision is not None and decision.kind == "send"


def test_external_conflicts_are_settled_one_at_a_time_in_type_order() -> None:
    """The rules negotiate each external conflict and decide it before the next one (as the
    internal ones); they do not order the conflicts, arena takes them in type order (I6)."""
    state, _ = new(
        4,
        seat=0,
        round_no=2,
        waiting={0: [(3, PRI), (1, DOC), (2, PRI), (3, DOC)]},
    )
    seen = trace(state, {"place": first, "choose": first})
    assert seen == [
        ("offer", 1, ("external", DOC)),
        ("offer", 3, ("external", DOC)),
        ("choose", 0, DOC),
        ("place", 0, DOC),
        ("offer", 2, ("external", PRI)),
        ("offer", 3, ("external", PRI)),
        ("choose", 0, PRI),
        ("place", 0, PRI),
    ]
