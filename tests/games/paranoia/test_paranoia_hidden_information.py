"""No seat learns another seat's hand, the decks' order or a secret role it does not hold.

Five proofs:
- a differential test on the bytes each seat is sent: a game and its twin in which one seat
  holds a different card (swapped with the bottom card of the Action deck), played with the
  same decisions, send every other seat identical bytes until the card could be seen, and ask
  the same seats the same kinds of decision in the same order, also when the swapped-in card is
  an answer card (Play Anytime) that the other twin's holder lacks: who is asked, and so how
  long the table waits between two events, does not tell who holds an answer (ruling 23);
- every response window asks exactly every other living seat in turn order, and the phase-end
  window every living seat from the Team Leader, whatever they hold (ruling 23);
- views are built from what the seat may know: changing everything hidden from a seat (other
  hands, the deck order, the role's holder) leaves its view byte for byte the same;
- what the real referee sends: no other seat's cards in any event, the secret role's holder
  only to its holder, and each seat's requests numbered 1, 2, 3 ... on their own;
- table talk: twin games differing in one private note send every third seat (talker or not)
  identical bytes.
"""

from __future__ import annotations

import random
from typing import Any

import orjson
import pytest

from arena.games import get_game
from arena.games.paranoia.state import ParanoiaState
from arena.games.paranoia.vocabulary import SectionKind
from arena.inprocess import InProcessBot
from arena.record import BotIdentity
from arena.referee import SeatedBot, play_game
from protocol import codec, legal, messages

GAME = get_game("paranoia")
PASS = {"pass": True}


def _uses(option: dict[str, Any], card: str) -> bool:
    return card in (option.get("play"), option.get("discard"))


def _no_anytime(state: ParanoiaState, card: str) -> bool:
    return state.actions_by_id[card].section(SectionKind.ANYTIME) is None


class Twin:
    """One of the two games: ``swapped`` gives seat ``holder`` the deck's bottom card in
    place of the first card of its hand (and puts that card at the bottom). With ``answer``
    the bottom card is the deck's lowest Play Anytime card (moved there in both twins), so
    the swapped holder holds an answer card the other lacks."""

    def __init__(self, players: int, seed: int, swapped: bool, answer: bool = False) -> None:
        self.state, events = GAME.start(players, seed, {})
        state = self.state
        self.holder = (state.leader + 1) % players  # not the first decider
        hand = state.ts[self.holder].hand
        deck = state.actions.cards
        if answer:
            lowest = next(i for i, card in enumerate(deck) if not _no_anytime(state, card))
            deck[0], deck[lowest] = deck[lowest], deck[0]
        bottom = deck[0]
        self.pair = {hand[0], bottom}
        """The two ids that differ between the twins; the holder never plays either."""
        self.ok = len(self.pair) == 2 and _no_anytime(state, hand[0])
        self.ok = self.ok and _no_anytime(state, bottom) != answer
        self.could_answer = False
        """The holder could play one of the pair in the window just asked."""
        if swapped and self.ok:
            hand[0], state.actions.cards[0] = bottom, hand[0]
        self.kept = self._held()
        self.deck = state.actions.cards
        """The deck list with the swapped card at its bottom (a reshuffle replaces it)."""
        self.streams: list[list[bytes]] = [[] for _ in range(players)]
        self.rngs = [random.Random(seed * 100 + s) for s in range(players)]
        self._send_events(events)

    def _held(self) -> int:
        return sum(card in self.pair for card in self.state.ts[self.holder].hand)

    def _send_events(self, events: list[Any]) -> None:
        for event in events:
            for seat, stream in enumerate(self.streams):
                body = event.for_seat(seat)
                if body is not None:
                    stream.append(codec.encode(messages.event("g", body)))

    def revealed(self) -> bool:
        """The swapped cards could now be seen by someone: one left the holder's hand
        (stolen, discarded; it never plays them) or the deck's bottom card was drawn."""
        held, self.kept = self._held(), max(self.kept, self._held())
        deck = self.state.actions.cards
        return held < self.kept or deck is not self.deck or len(deck) <= 1

    def step(self) -> tuple[int, str] | None:
        """Ask and answer one decision; None when the game is over or the cards are in play."""
        state = self.state
        decision = state.pending()
        if decision is None or self.revealed():
            return None
        seat = decision.seat
        request = messages.request("g", 1, decision.kind, state.view(seat), decision.legal, 1000)
        self.streams[seat].append(codec.encode(request))
        options = decision.legal["options"]
        self.could_answer = seat == self.holder and decision.kind == "respond"
        self.could_answer &= any(_uses(o, card) for o in options for card in self.pair)
        if seat == self.holder:
            options = [o for o in options if not any(_uses(o, card) for card in self.pair)]
            if not options:
                return None  # it would have to show its card
        action = self.rngs[seat].choice(options)
        events = state.apply(action)
        if self.revealed():
            return None  # this step's events may show the cards: the comparison ends here
        self._send_events(events)
        return seat, decision.kind


def twins(players: int, seed: int, answer: bool = False) -> tuple[Twin, Twin, int] | None:
    """The two games played side by side while the pair stays hidden, and the number of
    response windows in which only the swapped holder could have answered."""
    first, second = Twin(players, seed, False, answer), Twin(players, seed, True, answer)
    if not first.ok:
        return None
    only_second = 0
    while True:
        a, b = first.step(), second.step()
        assert a == b, "the same decisions are asked in both games"
        only_second += second.could_answer and not first.could_answer
        if a is None:
            return first, second, only_second


@pytest.mark.parametrize("answer", [False, True], ids=["plain-card", "answer-card"])
@pytest.mark.parametrize("players", range(3, 9))
def test_other_seats_receive_identical_bytes_whatever_card_a_seat_holds(players, answer):
    """With ``answer`` the twins differ in whether the holder holds a Play Anytime card:
    ``twins`` asserts that both games ask the same seats the same decisions in the same
    order, which they did not when only seats that could answer were asked."""
    compared = could_answer = 0
    for seed in range(6):
        pair = twins(players, seed, answer)
        if pair is None:
            continue
        first, second, only_second = pair
        could_answer += only_second
        holder = first.holder
        assert first.streams[holder] != second.streams[holder], "the holder sees its own card"
        for seat in range(players):
            if seat != holder:
                assert first.streams[seat] == second.streams[seat], (
                    f"seat {seat} was sent something that depends on seat {holder}'s hand"
                )
                compared += len(first.streams[seat])
    assert compared > 100, "the games ran long enough to prove something"
    if answer:
        assert could_answer > 0, "in some window only one twin's holder could have answered"


class Windows:
    """Follows a game's events and decisions; checks that each response window asked every
    other seat alive when its card was played, in turn order from the player's left (a
    prefix of them if the card was cancelled: its window closes), that the window between
    turns asked every living seat from the turn's player's left (but the player, after a
    discard), and that the phase-end window asked every living seat from the Team Leader
    clockwise."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.alive = [True] * players
        self.leader = -1
        self.open: list[dict[str, Any]] = []
        """Plays not resolved yet (the chain), each with the seats it must ask and has asked."""
        self.phase_end: dict[str, Any] | None = None
        self.between: dict[str, Any] | None = None
        """The window between turns being asked, if any."""
        self.windows = 0
        """Windows checked (phase-end windows included)."""
        self.only_pass = self.could_play = 0
        """Seats asked with nothing but a pass to give, and with a card they could play."""

    def _from(self, first: int) -> list[int]:
        n = self.players
        return [(first + k) % n for k in range(n) if self.alive[(first + k) % n]]

    def asked(self, seat: int, context: dict[str, Any], options: list[Any]) -> None:
        if options == [PASS]:
            self.only_pass += 1
        else:
            self.could_play += 1
        if context["reason"] == "phase-end":
            assert self.phase_end is not None and self.open == []
            self.phase_end["asked"].append(seat)
            return
        if context["reason"] in ("turn-end", "discard"):
            if self.between is None:
                player = context.get("seat", context.get("discarded", {}).get("seat"))
                expected = self._from((player + 1) % self.players)
                if context["reason"] == "discard":
                    expected.remove(player)
                self.between = {"expected": expected, "asked": []}
            self.between["asked"].append(seat)
            return
        window = self.open[-1]
        answering = context["answering"]
        assert (answering["seat"], answering["card"]) == (window["seat"], window["card"])
        window["asked"].append(seat)

    def _close_between(self, whole: bool) -> None:
        """The window between turns is over: the next turn came (``whole``) or card play
        ended (it stops once the phase is over)."""
        if self.between is not None:
            asked, expected = self.between["asked"], self.between["expected"]
            assert asked == (expected if whole else expected[: len(asked)]), (
                f"the window between turns asked {asked}, not {expected}"
            )
            self.between = None
            self.windows += 1

    def event(self, kind: str, data: dict[str, Any]) -> None:
        if kind in ("turn", "turn-skipped", "card-play-end"):
            self._close_between(whole=kind != "card-play-end")
        if kind in ("setup", "mission"):
            self.leader = data["team_leader"]
        elif kind == "new-leader":
            self.leader = data["seat"]
        elif kind in ("died", "new-clone"):
            self.alive[data["seat"]] = kind == "new-clone"
        elif kind == "played":
            others = [seat for seat in self._from(data["seat"]) if seat != data["seat"]]
            self.open.append({**data, "expected": others, "asked": [], "cancelled": False})
        elif kind == "cancelled":
            answered = self.open[-2]  # the canceller resolves on top of the card it answers
            assert (answered["seat"], answered["card"]) == (
                data["answered_seat"],
                data["answered_card"],
            )
            answered["cancelled"] = True
        elif kind in ("resolved", "fizzled", "on-table"):
            window = self.open.pop()
            assert (window["seat"], window["card"]) == (data["seat"], data["card"])
            asked, expected = window["asked"], window["expected"]
            if window["cancelled"]:
                expected = expected[: len(asked)]
            assert asked == expected, f"{window['card']}'s window asked {asked}, not {expected}"
            self.windows += 1
        elif kind == "card-play-end":
            self.phase_end = {"expected": self._from(self.leader), "asked": []}
        elif kind == "debriefing":
            assert self.phase_end is not None
            assert self.phase_end["asked"] == self.phase_end["expected"], "the phase-end window"
            self.phase_end = None
            self.windows += 1


@pytest.mark.parametrize("players", range(3, 9))
def test_every_window_asks_every_living_seat_whatever_it_holds(players):
    """Ruling 23: whether a seat is asked in a response window depends on nothing hidden (its
    hand): every other living seat is asked about every card played, every living seat at
    the phase end, and a seat with nothing to play answers its only option, a pass."""
    windows = only_pass = could_play = 0
    for seed in range(4):
        state, events = GAME.start(players, seed, {})
        rng = random.Random(seed)
        follow = Windows(players)
        while True:
            for event in events:
                follow.event(event.kind, event.data)
            decision = state.pending()
            if decision is None:
                break
            if decision.kind == "respond":
                options = decision.legal["options"]
                assert options[0] == PASS
                follow.asked(decision.seat, state.view(decision.seat)["decision"], options)
            events = state.apply(legal.random_action(decision.legal, rng))
        assert follow.open == [] and follow.phase_end is None
        windows += follow.windows
        only_pass += follow.only_pass
        could_play += follow.could_play
    assert windows > 100, "enough windows to prove something"
    assert only_pass > 100 and could_play > 10, "seats were asked both with and without a card"


def _hide_from(state: ParanoiaState, seat: int, rng: random.Random) -> list[Any]:
    """Change everything ``seat`` may not know; return what is needed to undo it."""
    others = [t for t in state.ts if t.seat != seat and t.hand]
    undo: list[Any] = [list(state.actions.cards), state.secret_holder]
    undo.append([list(t.hand) for t in state.ts])
    rng.shuffle(state.actions.cards)
    if len(others) >= 2:
        a, b = rng.sample(others, 2)
        i, j = rng.randrange(len(a.hand)), rng.randrange(len(b.hand))
        a.hand[i], b.hand[j] = b.hand[j], a.hand[i]
    if state.secret_holder not in (None, seat):
        state.secret_holder = rng.choice([t.seat for t in state.ts if t.seat != seat])
    return undo


def _undo(state: ParanoiaState, undo: list[Any]) -> None:
    state.actions.cards[:] = undo[0]
    state.secret_holder = undo[1]
    for t, hand in zip(state.ts, undo[2], strict=True):
        t.hand[:] = hand


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 5, 8])
def test_a_view_is_the_same_whatever_is_hidden_from_its_seat(players):
    changed_truth = 0
    for seed in range(4):
        state, _ = GAME.start(players, seed, {})
        rng = random.Random(seed)
        steps = 0
        while (decision := state.pending()) is not None and steps < 400:
            for seat in range(players):
                before = orjson.dumps(state.view(seat))
                truth = orjson.dumps(state.table_view())
                undo = _hide_from(state, seat, rng)
                changed_truth += orjson.dumps(state.table_view()) != truth
                assert orjson.dumps(state.view(seat)) == before, (
                    f"seat {seat}'s view depends on something hidden from it"
                )
                _undo(state, undo)
            state.apply(legal.random_action(decision.legal, rng))
            steps += 1
    assert changed_truth > 100, "the hidden information really was changed"


def test_the_referee_sends_no_seat_another_seats_cards_or_the_role_holder():
    players = 5
    bots = [
        InProcessBot(lambda view, desc, r=random.Random(s): legal.random_action(desc, r))
        for s in range(players)
    ]
    for bot in bots:
        bot.keep_messages = True
    roles_seen = 0
    for seed in range(8):
        for bot in bots:
            bot.received.clear()
        record = play_game(
            GAME,
            [SeatedBot(BotIdentity(f"s{i}", "", "-"), bot) for i, bot in enumerate(bots)],
            seed=seed,
            options={},
            game_id=f"g{seed}",
            bot_seed_key=b"k",
        )
        assert record.status == "complete"
        for seat, bot in enumerate(bots):
            ids = []
            for message in bot.received:
                text = orjson.dumps(message)
                assert b'"hands"' not in text and b'"mission_deck"' not in text
                if message["type"] == "request":
                    ids.append(message["id"])
                    assert message["view"]["seat"] == seat
                if message["type"] != "event":
                    continue
                event = message["event"]
                if event["kind"] == "drew" and "cards" in event:
                    assert event["seat"] == seat
                if event["kind"] == "stole" and "cards" in event:
                    assert seat in (event["seat"], event["from"])
                if event["kind"] == "secret-role":
                    roles_seen += 1
                    assert event["holder"] in (None, seat)
            assert ids == list(range(1, len(ids) + 1)), "each seat numbers its own requests"
    assert roles_seen > 0, "a secret role was handed out in these games"


def _noting(note: dict[str, Any] | None, seed: int):
    """A seeded random decide whose first talk answer is ``note`` (None: random too)."""
    rng = random.Random(seed)
    sent = [note is None]

    def decide(view: dict[str, Any], legal_desc: dict[str, Any]) -> Any:
        answer = legal.random_action(legal_desc, rng)  # drawn anyway: the twins stay in step
        if legal_desc.get("kind") == "record" and not sent[0]:
            sent[0] = True
            return note
        return answer

    return decide


def _talk_game(note: dict[str, Any], seed: int) -> list[list[bytes]]:
    """A 4-seat game through the real referee, seats 0-2 talking, seat 3 not, seat 0's first
    talk answer being ``note``; every message each seat was sent, as bytes."""
    wants = [frozenset({"talk"})] * 3 + [frozenset()]
    deciders = [_noting(note, seed)] + [_noting(None, seed * 10 + seat) for seat in range(1, 4)]
    bots = [InProcessBot(decide, wanted) for decide, wanted in zip(deciders, wants, strict=True)]
    for bot in bots:
        bot.keep_messages = True
    record = play_game(
        GAME,
        [SeatedBot(BotIdentity(f"b{seat}", "1", "-"), bot) for seat, bot in enumerate(bots)],
        seed=seed,
        options={},
        game_id="twin",
        bot_seed_key=b"twin",
    )
    assert record.options["talk"] == [0, 1, 2]
    return [[codec.encode(message) for message in bot.received] for bot in bots]


@pytest.mark.parametrize("seed", range(2))
def test_a_private_note_changes_no_byte_a_third_seat_is_sent(seed):
    """Twin games through the referee differing in one private note from seat 0 to seat 1
    (its act, terms and text; or sent or not) send the third talker and the seat that does not
    talk identical bytes; the addressee is sent the note."""
    note = {"act": "promise", "to": 1, "terms": {"spare": 1}, "text": "you are safe with me"}
    other = {"act": "threat", "to": 1, "terms": {"target": 1}, "text": "you are next"}
    silence = {"act": "pass"}
    first, second, silent = (_talk_game(n, seed) for n in (note, other, silence))
    for seat in (2, 3):
        assert first[seat] == second[seat] == silent[seat], f"seat {seat} learnt of the note"
    assert len(first[2]) > 100
    assert first[1] != second[1], "the addressee reads it"
    assert any(b"you are safe with me" in line for line in first[1])
