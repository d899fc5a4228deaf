"""The negotiation exchange: offer, answer (accept or one demand), pay; the no-money rule."""

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
            "amount": int_range(0, 17000, 1000),
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


@pytest.mark.parametrize("pay", [6000, 2000])
def test_after_a_demand_the_applicant_pays_the_demand_or_its_offer(pay) -> None:
    state = one_applicant()
    act(state, 1, "offer", {"amount": 2000})
    events = act(state, 0, "answer", {"demand": 6000})
    assert of_kind(events, "demanded")[0]["demand"] == 6000
    assert options(state) == [{"pay": 6000}, {"pay": 2000}]
    events = act(state, 1, "pay", {"pay": pay})
    paid = of_kind(events, "negotiated")[0]
    assert (paid["offer"], paid["demand"], paid["paid"]) == (2000, 6000, pay)
    assert state.ledger.cash == [32000 + pay, 32000 - pay, 32000]


def test_an_applicant_that_cannot_afford_the_demand_pays_its_offer_without_being_asked() -> None:
    state = one_applicant(cash=[32000, 5000, 32000])
    act(state, 1, "offer", {"amount": 2000})
    events = act(state, 0, "answer", {"demand": 8000})
    assert kinds(events) == ["demanded", "negotiated", "admitted"]
    assert of_kind(events, "negotiated")[0]["paid"] == 2000
    assert state.ledger.cash == [34000, 3000, 32000]
    decision = state.pending()
    assert decision is not None and decision.kind == "place"


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


def test_a_zero_offer_is_legal_for_a_seat_with_money() -> None:
    state = one_applicant()
    events = negotiate(state, 1, 0, 0)
    assert of_kind(events, "negotiated")[0]["paid"] == 0
    assert state.ledger.cash == [32000, 32000, 32000]


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
