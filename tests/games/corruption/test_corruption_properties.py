"""Random playouts over seeds, 3-7 players and every legal variant combination."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from corruption_helpers import cards_in_view, dump, random_game
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.games.base import Event, ranks_from_keys
from arena.games.corruption import GAME
from arena.games.corruption.contracts import BY_ID
from protocol.legal import random_action
from tests.support.examples import examples

COMBOS = [
    [*schedule, *book]
    for schedule in ([], ["closed"], ["down-the-river"], ["stud-libre"])
    for book in ([], ["little-black-book"])
]
CHARACTERS = {"district-attorney", "reporter", "hit-man"}

players_st = st.integers(min_value=3, max_value=7)
seed_st = st.integers(min_value=0, max_value=2**32 - 1)
variants_st = st.sampled_from(COMBOS)


class Watcher:
    """Follows a game from the outside (events and actions only) and checks what each seat
    is shown against what it may know."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.revealed = False
        self.face_up: set[int] = set()
        self.owner: dict[int, int] = {}
        self.peeked: list[set[int]] = [set() for _ in range(players)]
        self.characters_played: list[Counter[int]] = [Counter() for _ in range(players)]
        self.round = 0

    def event(self, event: Event) -> None:
        data = event.data
        for seat in range(self.players):
            body = event.for_seat(seat)
            if body is not None and "card" in body and not self.revealed and "placement" in body:
                placement = body["placement"]
                allowed = (
                    event.kind == "placed" and (data["face_up"] or data["seat"] == seat)
                ) or (event.kind == "peeked" and data["seat"] == seat)
                assert allowed, f"seat {seat} was told the card of placement {placement}: {body}"
            if (
                body is not None
                and event.kind == "placed"
                and not data["face_up"]
                and data["seat"] != seat
            ):
                assert "card" not in body
        if event.kind == "round-start":
            self.revealed = False
            self.face_up.clear()
            self.round = data["round"]
        elif event.kind == "revealed":
            self.revealed = True
        elif event.kind == "placed":
            self.owner[data["placement"]] = data["seat"]
            if data["face_up"]:
                self.face_up.add(data["placement"])
            if data["card"] in CHARACTERS:
                self.characters_played[data["seat"]][self.round] += 1
        elif event.kind == "peeked":
            self.peeked[data["seat"]].add(data["placement"])

    def check_view(self, view: dict[str, Any], seat: int) -> None:
        assert view["seat"] == seat and "hands" not in view and "deck" not in view
        for card in cards_in_view(view):
            placement = card["placement"]
            may_see = (
                view["revealed"]
                or placement in self.face_up
                or card["owner"] == seat
                or placement in self.peeked[seat]
            )
            assert ("card" in card) == may_see, f"seat {seat}: {card}"
        contract_ids = {c["id"] for g in view["governments"] for c in g["contracts"]}
        contract_ids |= {c for s in view["seats"] for c in s["contracts_won"]}
        assert len(contract_ids) == 24 - view["deck_count"], "the deck's contents never show"

    def characters_gone(self, view: dict[str, Any], seat: int) -> None:
        """At a round start every character played earlier is out of the hand for good."""
        played_before = sum(n for r, n in self.characters_played[seat].items() if r < self.round)
        characters = sum(1 for card in view["hand"] if card in CHARACTERS)
        full = 0 if "closed" in view["variants"] else 4
        assert characters == full - played_before


@pytest.mark.slow
@settings(max_examples=examples(40), deadline=None)
@given(players=players_st, seed=seed_st, variants=variants_st)
def test_random_playouts_keep_every_invariant_and_leak_nothing(
    players: int, seed: int, variants: list[str]
) -> None:
    state, events = GAME.start(players, seed, GAME.normalize_options({"variants": variants}))
    watcher = Watcher(players)
    rng = random.Random(seed ^ 0x5EED)
    decisions = 0

    def observe(new_events: list[Event]) -> None:
        for event in new_events:
            watcher.event(event)
            if event.kind == "round-start":
                # apply stops at the round's first decision, so hands are still as dealt
                assert state.round == event.data["round"] and not state.table.placements
                for seat in range(players):
                    watcher.characters_gone(state.view(seat), seat)

    observe(events)
    while (decision := state.pending()) is not None:
        assert len(decision.legal["options"]) >= 2, f"a forced decision was asked: {decision}"
        assert decision.kind in {"place", "face_up_slots", "swiss", "hit", "report"}
        for seat in range(players):
            watcher.check_view(state.view(seat), seat)
        new_events = state.apply(random_action(decision.legal, rng))
        decisions += 1
        assert state.invariants() == [], state.invariants()
        observe(new_events)
        events += new_events
        assert decisions <= GAME.max_decisions

    dealt = sorted(d["id"] for e in events if e.kind == "round-start" for d in e.data["dealt"])
    assert dealt == list(range(1, 25)), "all 24 contracts are dealt over the four rounds"
    outcome = state.outcome()
    won = outcome.detail["contracts_won"]
    assert list(outcome.scores) == [sum(BY_ID[c].value for c in w) for w in won]
    assert outcome.ranks == ranks_from_keys(
        [(outcome.scores[s], len(won[s])) for s in range(players)]
    )
    for seat in range(players):
        hand = state.view(seat)["hand"]
        assert sum(1 for card in hand if card.startswith("bribe-")) == 6, "bribes all come back"
        assert len(state.gone[seat]) == sum(watcher.characters_played[seat].values())


@settings(max_examples=examples(15), deadline=None)
@given(players=players_st, seed=seed_st, variants=variants_st)
def test_same_seed_and_choices_give_identical_json(
    players: int, seed: int, variants: list[str]
) -> None:
    runs = []
    for _ in range(2):
        state, events, actions = random_game(players, seed, variants, choices_seed=seed + 1)
        runs.append(
            dump(
                [
                    [e.truth() for e in events],
                    [[e.for_seat(s) for e in events] for s in range(players)],
                    [state.view(s) for s in range(players)],
                    state.table_view(),
                    [
                        list(state.outcome().scores),
                        list(state.outcome().ranks),
                        state.outcome().detail,
                    ],
                    actions,
                ]
            )
        )
    assert runs[0] == runs[1]


@settings(max_examples=examples(10), deadline=None)
@given(players=players_st, seed=seed_st, variants=variants_st)
def test_replaying_the_recorded_actions_reproduces_the_game(
    players: int, seed: int, variants: list[str]
) -> None:
    original, events, actions = random_game(players, seed, variants)
    replay, replay_events = GAME.start(players, seed, {"variants": variants})
    for action in actions:
        replay_events += replay.apply(action)
    assert dump([e.truth() for e in replay_events]) == dump([e.truth() for e in events])
    assert dump(replay.table_view()) == dump(original.table_view())
