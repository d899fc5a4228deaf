"""The talk core (arena/games/talk.py, SPEC.md §14): windows, who reads what, what binds.

A toy vocabulary stands in for a game's: ``{"pay": n}`` (the speaker pays on acceptance,
binding) and ``{"vow": "peace"}`` (binds nobody), over a ledger of cash.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.games import talk
from arena.games.base import BadOptions, Event
from arena.games.talk import Message, NoTerms, TalkWindow
from protocol import legal
from tests.support.examples import examples


class Ledger:
    """Toy terms: binding payments between seats, conserved."""

    def __init__(self, cash: list[int]) -> None:
        self.cash = cash
        self.carried: list[tuple[int, int]] = []

    def terms_legal(self, speaker: int) -> dict[str, Any] | None:
        return legal.choice([{"pay": 1}, {"pay": 5}, {"vow": "peace"}])

    def binding(self, terms: Any) -> bool:
        return "pay" in terms

    def carry_out(self, proposal: Message, accepter: int) -> list[Event]:
        amount = proposal.terms["pay"]
        payer = proposal.speaker
        seen = frozenset((payer, accepter))
        self.carried.append((payer, accepter))
        if self.cash[payer] < amount:
            return [Event("deal-failed", {"from": payer, "to": accepter}, seen_by=seen)]
        self.cash[payer] -= amount
        self.cash[accepter] += amount
        return [Event("paid", {"from": payer, "to": accepter, "amount": amount})]


def run(window: TalkWindow, script: list[dict[str, Any]]) -> list[tuple[int, list[Event]]]:
    """Answer each decision with the next scripted action (each checked legal first)."""
    out = []
    for action in script:
        decision = window.decision()
        assert legal.is_legal(decision.legal, action), (decision.legal, action)
        out.append((decision.seat, window.apply(action)))
    return out


def say(**fields: Any) -> dict[str, Any]:
    return fields


SILENT = {"act": "pass"}


def test_talkers_speak_in_seat_order_from_first_once_per_round():
    window = TalkWindow(1, "before", [0, 2, 3], first=2, rounds=3, terms=NoTerms())
    seats = [seat for seat, _ in run(window, [say(act="tell", text="hi")] * 3)]
    assert seats == [2, 3, 0]
    assert window.round == 2 and not window.done


def test_a_window_runs_all_its_rounds_so_silence_and_private_talk_look_alike():
    """Were a silent round to close the window, seat 2, asked again, would learn that seat 0
    had spoken (here: privately, to seat 1)."""
    spoke = TalkWindow(1, "before", [0, 1, 2], first=0, rounds=2, terms=NoTerms())
    silent = TalkWindow(1, "before", [0, 1, 2], first=0, rounds=2, terms=NoTerms())
    run(spoke, [say(act="tell", to=1), SILENT, SILENT])
    run(silent, [SILENT, SILENT, SILENT])
    for window in (spoke, silent):
        assert not window.done and window.decision().seat == 0 and window.round == 2
        assert window.view(2) == silent.view(2)
        run(window, [SILENT, SILENT, say(act="tell")])
        assert window.done
    assert spoke.max_decisions() == 6


def test_fewer_than_two_talkers_means_no_window():
    assert TalkWindow(1, "before", [3], first=0, rounds=2, terms=NoTerms()).done
    assert TalkWindow(1, "before", [], first=0, rounds=2, terms=NoTerms()).done


def test_silence_is_the_default_action_and_makes_no_event():
    window = TalkWindow(1, "before", [0, 1], first=0, rounds=1, terms=NoTerms())
    decision = window.decision()
    assert decision.kind == talk.TALK
    assert legal.default_action(decision.legal) == SILENT
    assert window.apply(SILENT) == []


def test_a_seat_may_address_everyone_or_one_other_talker_never_itself_or_a_non_talker():
    window = TalkWindow(1, "before", [0, 2, 4], first=2, rounds=1, terms=NoTerms())
    to = window.decision().legal["fields"]["to"]["options"]
    assert to == ["all", 4, 0]


def test_a_private_message_is_seen_by_its_two_parties_only_and_nobody_learns_it_was_sent():
    window = TalkWindow(1, "before", [0, 1, 2], first=0, rounds=1, terms=NoTerms())
    [(_, events)] = run(window, [say(act="promise", to=2, text="I won't")])
    [event] = events
    assert event.kind == "said" and event.seen_by == frozenset({0, 2}) and event.others is None
    assert event.for_seat(1) is None
    assert window.view(1)["messages"] == []
    assert [m["text"] for m in window.view(2)["messages"]] == ["I won't"]


def test_a_public_message_reaches_every_talker_and_only_talkers():
    window = TalkWindow(1, "before", [0, 2], first=0, rounds=1, terms=NoTerms())
    [(_, [event])] = run(window, [say(act="tell", text="hello")])
    assert event.seen_by == frozenset({0, 2})
    assert event.for_seat(1) is None  # seat 1 did not ask for talk


def test_accepting_a_binding_proposal_carries_it_out_once():
    ledger = Ledger([10, 10, 10])
    window = TalkWindow(1, "before", [0, 1, 2], first=0, rounds=2, terms=ledger)
    run(window, [say(act="propose", terms={"pay": 5})])  # seat 0 to everyone
    ref = {"round": 1, "from": 0}
    assert window.decision().legal["fields"]["ref"]["options"] == [ref]
    [(_, events)] = run(window, [say(act="accept", ref=ref)])
    assert [e.kind for e in events] == ["said", "paid"]
    assert ledger.cash == [5, 15, 10]
    assert "ref" not in window.decision().legal["fields"]  # closed: seat 2 cannot take it too
    assert sum(ledger.cash) == 30


def test_a_payer_that_can_no_longer_pay_makes_the_deal_fail_and_moves_no_money():
    ledger = Ledger([3, 10])
    window = TalkWindow(1, "before", [0, 1], first=0, rounds=1, terms=ledger)
    run(window, [say(act="propose", terms={"pay": 5}, to=1)])
    [(_, events)] = run(window, [say(act="accept", ref={"round": 1, "from": 0}, to=0)])
    assert [e.kind for e in events] == ["said", "deal-failed"]
    assert ledger.cash == [3, 10]


def test_non_binding_terms_are_never_carried_out():
    ledger = Ledger([10, 10])
    window = TalkWindow(1, "before", [0, 1], first=0, rounds=1, terms=ledger)
    run(
        window,
        [
            say(act="propose", terms={"vow": "peace"}),
            say(act="accept", ref={"round": 1, "from": 0}),
        ],
    )
    assert ledger.carried == []


def test_a_private_proposal_is_closed_by_its_addressees_refusal_a_public_one_is_not():
    window = TalkWindow(1, "before", [0, 1, 2], first=0, rounds=2, terms=Ledger([9, 9, 9]))
    run(window, [say(act="propose", terms={"pay": 1}, to=1), say(act="propose", terms={"pay": 1})])
    # seat 2 reads only seat 1's public proposal
    assert window.decision().legal["fields"]["ref"]["options"] == [{"round": 1, "from": 1}]
    run(window, [say(act="reject", ref={"round": 1, "from": 1})])
    # round 2, seat 0: seat 1's public proposal is still open after seat 2's refusal
    assert window.decision().legal["fields"]["ref"]["options"] == [{"round": 1, "from": 1}]
    run(window, [SILENT])
    run(window, [say(act="reject", ref={"round": 1, "from": 0}, to=0)])
    # seat 0's private proposal is closed by seat 1's refusal; seat 1's public one stays open
    assert [m.name for m in window._open] == [{"round": 1, "from": 1}]


def test_what_the_legal_description_cannot_say_is_refused_to_the_speaker_alone():
    window = TalkWindow(1, "before", [0, 1, 2], first=0, rounds=2, terms=NoTerms())
    [(_, [refused])] = run(window, [say(act="accept")])
    assert refused.kind == "unsaid" and refused.seen_by == frozenset({0})
    assert "ref" in refused.data["reason"]
    run(window, [say(act="propose", to=2)])  # seat 1 to seat 2, privately
    [(_, [refused])] = run(window, [say(act="accept", ref={"round": 1, "from": 1}, to=0)])
    assert refused.kind == "unsaid" and "sender" in refused.data["reason"]
    assert window.messages[-1].speaker == 1  # neither refusal became a message


def test_a_public_proposal_is_answered_in_public_so_nobody_sees_it_vanish_unexplained():
    window = TalkWindow(1, "before", [0, 1, 2], first=0, rounds=1, terms=NoTerms())
    run(window, [say(act="propose", text="truce?")])
    [(_, [refused])] = run(window, [say(act="accept", ref={"round": 1, "from": 0}, to=0)])
    assert refused.kind == "unsaid" and "public proposal goes to everyone" in refused.data["reason"]
    assert window.decision().legal["fields"]["ref"]["options"] == [{"round": 1, "from": 0}]


def test_a_seat_can_answer_only_open_proposals_it_read_and_did_not_make():
    window = TalkWindow(1, "before", [0, 1, 2], first=0, rounds=2, terms=NoTerms())
    run(window, [say(act="propose", to=1)])
    assert window.decision().legal["fields"]["ref"]["options"] == [{"round": 1, "from": 0}]
    run(window, [SILENT])
    assert "ref" not in window.decision().legal["fields"]  # seat 2 never read it
    run(window, [SILENT])
    assert "ref" not in window.decision().legal["fields"]  # seat 0 made it


@settings(max_examples=examples(60), deadline=None)
@given(
    seed=st.integers(0, 2**32),
    talkers=st.sets(st.integers(0, 5), min_size=2),
    rounds=st.integers(1, 4),
)
def test_random_talk_never_breaks_a_window_and_each_seat_reads_exactly_its_messages(
    seed: int, talkers: set[int], rounds: int
):
    rng = random.Random(seed)
    ledger = Ledger([rng.randrange(0, 8) for _ in range(6)])
    window = TalkWindow(
        3, "any", sorted(talkers), first=rng.randrange(6), rounds=rounds, terms=ledger
    )
    seen: dict[int, list[dict[str, Any]]] = {seat: [] for seat in range(6)}
    steps = 0
    while not window.done:
        decision = window.decision()
        for event in window.apply(legal.random_action(decision.legal, rng)):
            for seat in seen:
                body = event.for_seat(seat)
                if body is not None and body["kind"] == "said":
                    seen[seat].append({k: v for k, v in body.items() if k != "kind"})
        steps += 1
    assert steps <= window.max_decisions()
    assert sum(ledger.cash) >= 0 and all(cash >= 0 for cash in ledger.cash)
    for seat in range(6):
        assert window.view(seat)["messages"] == seen[seat]
        if seat not in talkers:
            assert seen[seat] == []


def test_options_keep_the_talking_seats_sorted_and_refuse_anything_else():
    assert talk.normalize_options({"talk": [3, 1, 1]}, ()) == {"variants": [], "talk": [1, 3]}
    assert talk.normalize_options({}, ()) == {"variants": []}
    assert talk.talkers({"talk": [0, 2]}, 3) == frozenset({0, 2})
    assert talk.talkers({"variants": []}, 3) == frozenset()
    for bad in ("0,1", [True], [-1], [1.0], {"0": 1}):
        with pytest.raises(BadOptions, match="seat numbers"):
            talk.normalize_options({"talk": bad}, ())
    with pytest.raises(BadOptions, match="seat 5"):
        talk.talkers({"talk": [0, 5]}, 3)
    with pytest.raises(BadOptions, match="unknown option"):
        talk.normalize_options({"talk": [0], "chat": 1}, ())


def test_talk_events_read_as_sentences():
    said = {
        "kind": "said",
        "from": 1,
        "to": 2,
        "act": "propose",
        "terms": {"pay": 5},
        "ref": None,
        "text": "deal?",
        "round": 1,
        "window": 1,
    }
    assert talk.describe(said) == 'seat 1 to seat 2 (private): propose {pay: 5} "deal?"'
    assert talk.describe({"kind": "unsaid", "reason": "why"}) == "not sent: why"
    assert talk.describe({"kind": "placed"}) is None
