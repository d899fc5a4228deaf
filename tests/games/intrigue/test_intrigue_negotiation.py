"""The negotiation: an offer of at least 1,000, then up to three exchanges (the owner demands,
the applicant pays, raises or walks away); no agreement pays nothing; the no-money rule."""

from __future__ import annotations

import pytest
from intrigue_helpers import DOC, act, dump, kinds, negotiate, new, of_kind, options

from arena.games.base import IllegalAction
from arena.games.intrigue.state import IntrigueState
from protocol.legal import choice, int_range, record, text


def one_applicant(cash: list[int] | None = None) -> IntrigueState:
    """Seat 0's turn in round 2, seat 1's doctor alone in front of its palace."""
    state, _ = new(3, seat=0, round_no=2, waiting={0: [(1, DOC)]}, cash=cash)
    return state


def test_the_offer_asks_an_amount_up_to_the_applicants_cash_a_section_and_a_promise() -> None:
    state = one_applicant(cash=[32000, 17000, 32000])
    decision = state.pending()
    assert decision is not None and (decision.seat, decision.kind) == (1, "offer")
    assert decision.legal == record(
        {
            "amount": int_range(1000, 17000, 1000),
            "section": choice([None, 1000, 3000, 6000, 10000]),
            "promise": text(140),
        },
        optional=["section", "promise"],
    )
    view = state.view(1)
    assert view["decision"] == {
        "seat": 1,
        "kind": "offer",
        "palace": 0,
        "step": "no-conflict",
        "scholar": 10,
        "type": DOC,
    }
    assert view["negotiation"]["stage"] == "offer" and view["cash"] == 17000


def test_an_accepted_offer_is_paid_at_once_and_publicly() -> None:
    state = one_applicant()
    events = negotiate(state, 1, 0, 5000, section=10000, promise="the 10,000 one, please")
    assert kinds(events) == ["offered", "negotiated", "admitted"]
    offered = of_kind(events, "offered")[0]
    assert offered == {
        "palace": 0,
        "applicant": 1,
        "scholar": 10,
        "type": DOC,
        "step": "no-conflict",
        "role": "applicant",
        "amount": 5000,
        "section": 10000,
        "promise": "the 10,000 one, please",
        "by_bank": False,
    }
    paid = of_kind(events, "negotiated")[0]
    assert (paid["offer"], paid["demand"], paid["paid"], paid["paid_by_bank"]) == (
        5000,
        None,
        5000,
        False,
    )
    assert all(e.seen_by is None for e in events), "every negotiation step is public"
    assert state.ledger.cash == [37000, 27000, 32000]


def test_the_owner_may_demand_up_to_twenty_thousand_more() -> None:
    state = one_applicant()
    act(state, 1, "offer", {"amount": 2000})
    assert options(state) == [{"accept": True}] + [
        {"demand": 2000 + 1000 * k} for k in range(1, 21)
    ]


def test_after_a_demand_the_applicant_pays_it_raises_below_it_or_walks_away() -> None:
    state = one_applicant()
    act(state, 1, "offer", {"amount": 2000})
    events = act(state, 0, "answer", {"demand": 6000})
    assert (
        of_kind(events, "demanded")[0] | {"offer": 2000, "demand": 6000, "exchange": 1}
        == (of_kind(events, "demanded")[0])
    )
    assert options(state) == [
        {"pay": 6000},
        {"raise": 3000},
        {"raise": 4000},
        {"raise": 5000},
        {"refuse": True},
    ]
    events = act(state, 1, "pay", {"pay": 6000})
    paid = of_kind(events, "negotiated")[0]
    assert (paid["offer"], paid["demand"], paid["paid"], paid["agreed"]) == (2000, 6000, 6000, True)
    assert state.ledger.cash == [38000, 26000, 32000]


def test_haggling_goes_back_and_forth_and_the_owner_never_demands_more_than_before() -> None:
    state = one_applicant()
    act(state, 1, "offer", {"amount": 2000})
    act(state, 0, "answer", {"demand": 8000})
    events = act(state, 1, "pay", {"raise": 4000})
    assert of_kind(events, "raised") == [
        {
            "palace": 0,
            "applicant": 1,
            "scholar": 10,
            "type": DOC,
            "step": "no-conflict",
            "role": "applicant",
            "offer": 4000,
            "demand": 8000,
            "exchange": 1,
        }
    ]
    assert options(state) == [{"accept": True}] + [{"demand": d} for d in range(5000, 9000, 1000)]
    act(state, 0, "answer", {"demand": 8000})  # take it or leave it: the same demand again
    act(state, 1, "pay", {"raise": 5000})
    assert (
        state.view(2)["negotiation"] | {"offers": [2000, 4000, 5000], "demands": [8000, 8000]}
        == (state.view(2)["negotiation"])
    )
    events = act(state, 0, "answer", {"accept": True})
    paid = of_kind(events, "negotiated")[0]
    assert (paid["offers"], paid["demands"], paid["paid"]) == (
        [2000, 4000, 5000],
        [8000, 8000],
        5000,
    )
    assert state.ledger.cash == [37000, 27000, 32000]


def test_after_the_third_demand_the_applicant_may_only_pay_or_walk_away() -> None:
    state = one_applicant()
    act(state, 1, "offer", {"amount": 1000})
    for exchange, (demand, raise_) in enumerate([(9000, 2000), (8000, 3000)], start=1):
        act(state, 0, "answer", {"demand": demand})
        act(state, 1, "pay", {"raise": raise_})
        assert state.view(0)["negotiation"]["demands"][-1] == demand and exchange <= 2
    act(state, 0, "answer", {"demand": 7000})
    assert options(state) == [{"pay": 7000}, {"refuse": True}], "no fourth exchange"


def test_without_agreement_nothing_is_paid_and_a_no_conflict_scholar_is_still_admitted() -> None:
    state = one_applicant()
    act(state, 1, "offer", {"amount": 1000, "section": 10000})
    act(state, 0, "answer", {"demand": 9000})
    events = act(state, 1, "pay", {"refuse": True})
    assert kinds(events) == ["negotiated", "admitted"]
    paid = of_kind(events, "negotiated")[0]
    assert (paid["agreed"], paid["paid"], paid["offer"], paid["demand"]) == (False, 0, 1000, 9000)
    assert state.ledger.cash == [32000, 32000, 32000]
    decision = state.pending()
    assert decision is not None and decision.kind == "place", "the owner must still admit it"


def test_an_applicant_that_can_neither_pay_nor_raise_walks_away_without_being_asked() -> None:
    state = one_applicant(cash=[32000, 2000, 32000])
    act(state, 1, "offer", {"amount": 2000})
    events = act(state, 0, "answer", {"demand": 8000})
    assert kinds(events) == ["demanded", "negotiated", "admitted"]
    assert (
        of_kind(events, "negotiated")[0] | {"agreed": False, "paid": 0}
        == (of_kind(events, "negotiated")[0])
    )
    assert state.ledger.cash == [32000, 2000, 32000]


def test_an_applicant_short_of_the_demand_may_still_raise_to_what_it_has() -> None:
    state = one_applicant(cash=[32000, 5000, 32000])
    act(state, 1, "offer", {"amount": 2000})
    act(state, 0, "answer", {"demand": 8000})
    assert options(state) == [{"raise": 3000}, {"raise": 4000}, {"raise": 5000}, {"refuse": True}]


def test_an_applicant_without_money_offers_the_minimum_and_the_bank_pays_it() -> None:
    state = one_applicant(cash=[32000, 0, 32000])
    decision = state.pending()
    assert decision is not None
    assert decision.legal["fields"]["amount"] == int_range(1000, 1000)
    with pytest.raises(IllegalAction):
        state.apply({"amount": 0})
    events = act(state, 1, "offer", {"amount": 1000, "section": 10000})
    assert kinds(events) == ["offered", "negotiated", "admitted"], "no answer is asked"
    assert of_kind(events, "offered")[0]["by_bank"] is True
    paid = of_kind(events, "negotiated")[0]
    assert (paid["paid"], paid["paid_by_bank"]) == (1000, True)
    assert state.ledger.cash == [33000, 0, 32000]
    assert state.ledger.bank_bribes == [0, 1000, 0]


def test_the_minimum_bribe_is_1000_for_a_seat_with_money() -> None:
    state = one_applicant()
    with pytest.raises(IllegalAction):
        state.apply({"amount": 0})
    events = negotiate(state, 1, 0, 1000)
    assert of_kind(events, "negotiated")[0]["paid"] == 1000


@pytest.mark.parametrize(
    "bad",
    [
        {"amount": 33000},
        {"amount": 1500},
        {"amount": 1000.0},
        {"amount": 1000, "section": 2000},
        {"amount": 1000, "promise": "x" * 141},
        {"amount": 1000, "bribe": 1},
        {"section": 1000},
        "1000",
    ],
)
def test_an_illegal_offer_is_refused_and_changes_nothing(bad) -> None:
    state = one_applicant()
    before = dump(state.table_view()), dump(state.view(1))
    with pytest.raises(IllegalAction):
        state.apply(bad)
    assert (dump(state.table_view()), dump(state.view(1))) == before
    assert state.invariants() == []


def test_a_look_alike_answer_is_stored_in_canonical_form() -> None:
    state = one_applicant()
    events = act(state, 1, "offer", {"amount": 1000, "section": 10000.0})
    section = of_kind(events, "offered")[0]["section"]
    assert section == 10000 and type(section) is int


def test_the_incumbent_may_ask_only_for_its_own_section() -> None:
    state, _ = new(3, seat=0, round_no=2, inside={0: {6000: (2, DOC)}}, waiting={0: [(1, DOC)]})
    decision = state.pending()
    assert decision is not None and (decision.seat, decision.kind) == (2, "offer")
    assert decision.legal["fields"]["section"] == choice([None, 6000])
    assert state.view(2)["negotiation"]["role"] == "incumbent"
