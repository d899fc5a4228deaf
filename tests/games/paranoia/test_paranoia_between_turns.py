"""The window between turns (ruling 27): Play Anytime cards "at any moment, even during another
player's turn" (rulebook), so after a discard and after every turn's card has resolved each
living seat is asked, whether or not it holds a card it could play (ruling 23)."""

from __future__ import annotations

from paranoia_helpers import (
    ABORT,
    BETTER_IDEA,
    DENOUNCE,
    LASER,
    PASS,
    STORY,
    act,
    discard,
    new,
    of_kind,
    one,
    options,
    pass_windows,
    pending,
    play,
    treason,
    window,
)


def test_after_a_discard_every_other_living_seat_is_asked_from_the_discarders_left() -> None:
    """The discarder is not asked: it could play any Play Anytime card on its turn before
    discarding, and nothing has happened since. The context names the discarded card."""
    state, _ = new(4, leader=1, hands=[[STORY], [DENOUNCE], [BETTER_IDEA], []])
    act(state, 1, "turn", discard(DENOUNCE), forced=False)
    context = state.view(2)["decision"]
    assert context == {
        "kind": "respond",
        "reason": "discard",
        "discarded": {"seat": 1, "card": DENOUNCE},
    }
    # a Better Idea has nothing to cancel between turns; the Story stands alone
    assert window(state) == [(2, False), (3, False), (0, True)]
    assert pending(state) == (2, "turn")


def test_a_story_played_after_a_discard_does_not_use_its_players_turn() -> None:
    state, _ = new(4, leader=1, hands=[[], [DENOUNCE], [STORY], []])
    act(state, 1, "turn", discard(DENOUNCE))
    assert pending(state) == (2, "respond") and options(state)[1:] == [
        play(STORY, "anytime", seat) for seat in range(4)
    ]
    events = act(state, 2, "respond", play(STORY, "anytime", 0))
    assert one(events, "played")["context"] == "turn-end"
    assert treason(state) == [1, 0, 0, 0]
    pass_windows(state)
    assert pending(state) == (2, "turn"), "seat 2 still has its turn"


def test_after_a_card_resolves_every_living_seat_is_asked_the_player_last() -> None:
    """The card's outcome is news to its player too, so it is asked, last."""
    state, _ = new(5, leader=0, hands=[[DENOUNCE], [], [], [], []])
    act(state, 0, "turn", play(DENOUNCE, "another", 2), forced=False)
    assert window(state) == [(1, False), (2, False), (3, False), (4, False)], "its window"
    assert treason(state) == [0, 0, 1, 0, 0], "the denunciation has resolved"
    assert state.view(1)["decision"] == {"kind": "respond", "reason": "turn-end", "seat": 0}
    assert window(state) == [(1, False), (2, False), (3, False), (4, False), (0, False)]
    assert pending(state) == (1, "turn")


def test_a_card_played_between_turns_gets_its_own_response_window() -> None:
    """A Convincing Story between turns goes on the chain and may be answered (here cancelled
    by a Better Idea) before the window between turns goes on to the next seat."""
    state, _ = new(4, leader=0, hands=[[DENOUNCE], [STORY], [], [BETTER_IDEA]])
    act(state, 0, "turn", play(DENOUNCE, "another", 2))
    act(state, 1, "respond", PASS)  # the denunciation's window
    act(state, 3, "respond", PASS)
    assert pending(state) == (1, "respond")
    assert state.view(1)["decision"]["reason"] == "turn-end"
    act(state, 1, "respond", play(STORY, "anytime", 0), forced=False)
    assert state.view(2)["decision"]["answering"]["card"] == STORY
    act(state, 2, "respond", PASS, forced=False)
    events = act(state, 3, "respond", play(BETTER_IDEA, "anytime"))
    assert one(events, "fizzled") == {"seat": 1, "card": STORY}
    assert treason(state) == [0, 0, 1, 0], "only the denunciation's"
    assert pending(state) == (1, "turn")


def test_no_window_between_turns_once_card_play_is_over() -> None:
    """A turn that ends card play (here an Abort Mission) leads straight to the phase-end
    window: card play is over, so there is no next turn to wait for."""
    state, _ = new(3, leader=0, hands=[[ABORT], [STORY], []])
    act(state, 0, "turn", play(ABORT, "mission"), forced=False)
    assert window(state) == [(1, True), (2, False)], "Abort Mission's window"
    assert state.view(0)["decision"] == {"kind": "respond", "reason": "phase-end"}


def test_the_dead_are_not_asked_and_a_skipped_turn_opens_no_window() -> None:
    """A skipped turn changes nothing, so it needs no window of its own: seat 2's skipped turn
    comes between seat 1's discard window and seat 3's turn."""
    state, _ = new(4, leader=0, hands=[[LASER], [], [], []], wounds=[0, 0, 1, 0])
    events = act(state, 0, "turn", play(LASER, "equal_or_lower", 2), forced=False)
    events += act(state, 1, "respond", PASS, forced=False)
    events += act(state, 2, "respond", PASS, forced=False)
    events += act(state, 3, "respond", PASS, forced=False)
    assert pending(state) == (2, "dying")
    events += act(state, 2, "dying", PASS, forced=False)
    assert of_kind(events, "died")
    assert window(state) == [(1, False), (3, False), (0, False)], "seat 2 is dead"
    events = act(state, 1, "turn", discard(state.ts[1].hand[-1]), forced=False)
    assert window(state) == [(3, False), (0, False)], "seat 2 still dead"
    assert pending(state) == (3, "turn") and state.ts[2].alive, "skipped its turn, now back"
