"""No seat is ever sent a card it may not see: proved on the bytes the referee sends.

Differential test: play a game, then play its twin in which one seat placed a *different*
face-down bribe. Until the round's reveal, every byte sent to every other seat must be the
same in both games (unless that seat peeked the changed card with its Little Black Book):
if any message depended on the hidden card, the two byte streams would differ.
"""

from __future__ import annotations

import itertools
import json
import random

import pytest

from arena.referee import seat_seed
from protocol import features
from tests.support.corruption_twins import hidden_swaps, play_scripted

VARIANT_SETS = [
    list(combo)
    for schedule in ([], ["closed"], ["down-the-river"], ["stud-libre"])
    for combo in (schedule, schedule + ["little-black-book"])
]


def until_reveal(lines: list[bytes], round_no: int) -> list[bytes]:
    """The lines before the round's reveal, and the start of the line that reveals it (with
    event-batch, the events before the reveal share its line)."""
    marker = f'"kind":"revealed","round":{round_no}'.encode()
    for position, line in enumerate(lines):
        if marker in line:
            return [*lines[:position], line[: line.index(marker)]]
    raise AssertionError(f"round {round_no} was never revealed")


CASES = [
    (seed, players, variants)
    for seed, (players, variants) in enumerate(itertools.product(range(3, 8), VARIANT_SETS))
]


@pytest.mark.parametrize(
    "seed,players,variants", CASES, ids=[f"{p}p-{'+'.join(v) or 'standard'}" for _, p, v in CASES]
)
def test_other_seats_receive_identical_bytes_whatever_a_hidden_card_is(seed, players, variants):
    check_twins(seed, players, variants, frozenset())


NEGOTIATED_CASES = CASES[::5]


@pytest.mark.parametrize(
    "seed,players,variants",
    NEGOTIATED_CASES,
    ids=[f"{p}p-{'+'.join(v) or 'standard'}" for _, p, v in NEGOTIATED_CASES],
)
def test_seats_that_negotiated_wire_features_learn_no_hidden_card_either(seed, players, variants):
    """The same proof on the bytes of seats sent view patches, batched events, products: a
    patch is made from the seat's own views only, so it can tell no more than they do."""
    check_twins(seed, players, variants, frozenset(features.OFFERED))


def check_twins(seed: int, players: int, variants: list[str], wanted: frozenset[str]) -> None:
    record, sent = play_scripted(players, seed, variants, None, wanted)
    script = [d.action for d in record.decisions]
    swaps = hidden_swaps(record)
    assert swaps, "a random game always has face-down bribes to swap"
    rng = random.Random(seed)
    for changes, seat, round_no, peekers in rng.sample(swaps, min(3, len(swaps))):
        twin_script = list(script)
        for index, card in changes.items():
            twin_script[index] = {**script[index], "card": card}
        twin, twin_sent = play_scripted(players, seed, variants, twin_script, wanted)
        assert all(twin.decisions[i].action["card"] == c for i, c in changes.items()), (
            "the twin really differs"
        )
        assert until_reveal(twin_sent[seat], round_no) != until_reveal(sent[seat], round_no), (
            "the owner is told its own card, so its stream must differ (the test can fail)"
        )
        for observer in range(players):
            if observer == seat or observer in peekers:
                continue
            assert until_reveal(twin_sent[observer], round_no) == until_reveal(
                sent[observer], round_no
            ), (
                f"seat {observer} was sent something that depends on seat {seat}'s face-down "
                f"card(s) at decision(s) {sorted(changes)} (round {round_no}) before the reveal"
            )


def test_a_peek_is_the_only_way_to_learn_a_face_down_card():
    """With Little Black Book, the peeker's stream differs (it learns the card) and nobody
    else's does: the swap test above would have caught the leak the other way round."""
    for seed in range(40):
        record, _ = play_scripted(4, seed, ["little-black-book"], None)
        peeked = [s for s in hidden_swaps(record) if s[3] and len(s[0]) == 1]
        if not peeked:
            continue
        changes, _seat, round_no, peekers = peeked[0]
        script = [d.action for d in record.decisions]
        twin_script = list(script)
        for index, card in changes.items():
            twin_script[index] = {**script[index], "card": card}
        _, sent = play_scripted(4, seed, ["little-black-book"], script)
        _, twin_sent = play_scripted(4, seed, ["little-black-book"], twin_script)
        for peeker in peekers:
            assert until_reveal(sent[peeker], round_no) != until_reveal(twin_sent[peeker], round_no)
        return
    pytest.fail("no random game in 40 peeked at a face-down bribe")


def test_bots_are_sent_a_keyed_seed_never_the_deal_seed():
    """The deal's seed would let a bot re-deal the game; bots get HMAC(key, seed, seat)."""
    record, sent = play_scripted(4, 12345, [], None)
    starts = [json.loads(lines[0]) for lines in sent]
    assert all(s["type"] == "game_start" for s in starts)
    seeds = [s["seed"] for s in starts]
    assert 12345 not in seeds and len(set(seeds)) == 4, "per seat, and not the deal's"
    assert seeds == [seat.bot_seed for seat in record.seats], "the record keeps what was sent"
    again, _ = play_scripted(4, 12345, [], None)
    assert [s.bot_seed for s in again.seats] == seeds, (
        "same key and deal: same seeds (reproducible)"
    )
    assert seat_seed(b"another key", 12345, 0) != seeds[0]


def test_bots_seeds_are_below_2_to_the_53_and_use_that_whole_range():
    """Below 2**53, so JavaScript's JSON.parse reads them exactly; spread over the range, so
    there are too many to search."""
    seeds = [seat_seed(b"a key", deal, seat) for deal in range(500) for seat in range(4)]
    assert all(0 <= seed < 2**53 for seed in seeds)
    assert max(seeds) > 2**52 and len(set(seeds)) == len(seeds)
