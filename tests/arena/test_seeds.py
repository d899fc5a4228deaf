"""Deal seeds (arena.seeds): keyed, reproducible, 63-bit, and not computable from the base seed."""

from __future__ import annotations

import hashlib
import hmac
import itertools
import os
from pathlib import Path

import pytest

from arena.check import CHECK_KEY, run_check
from arena.games import get_game
from arena.manifest import load_bot
from arena.match import MatchPlan, play_match
from arena.referee import TimeControl
from arena.seeds import MIN_KEY_BYTES, deal_seed, derive_deal_key, random_deal_key
from arena.store import open_store

ROOT = Path(__file__).resolve().parents[2]
KEY = bytes(range(32))
BASE = 5


def test_the_same_key_base_and_index_give_the_same_seed():
    assert deal_seed(KEY, BASE, 3) == deal_seed(bytes(range(32)), 5, 3)
    assert [deal_seed(KEY, BASE, i) for i in range(50)] == [
        deal_seed(KEY, BASE, i) for i in range(50)
    ]


def test_seeds_are_63_bit_non_negative_distinct_and_not_base_plus_index():
    seeds = [deal_seed(KEY, BASE, i) for i in range(2000)]
    assert all(isinstance(s, int) and 0 <= s < 2**63 for s in seeds)
    assert len(set(seeds)) == len(seeds), "no two games share a deal"
    assert not set(seeds) & {BASE + i for i in range(2000)}, "not the old seed + i"
    assert not set(seeds) & {(BASE * 1_000_003 + i) % 2**63 for i in range(2000)}
    assert max(seeds) > 2**62, "the seeds use the whole 63-bit range (not small numbers)"
    # neighbours in the sequence are unrelated, not a step apart
    assert all(abs(a - b) > 2**32 for a, b in itertools.pairwise(seeds))


def test_a_different_key_gives_different_seeds():
    other = bytes(range(1, 33))
    ours = [deal_seed(KEY, BASE, i) for i in range(200)]
    theirs = [deal_seed(other, BASE, i) for i in range(200)]
    assert not set(ours) & set(theirs)


def test_the_base_seed_and_the_index_both_matter():
    assert deal_seed(KEY, 5, 0) != deal_seed(KEY, 6, 0)
    assert deal_seed(KEY, 5, 1) != deal_seed(KEY, 6, 0), "not a function of base + index"
    assert deal_seed(KEY, 12, 3) != deal_seed(KEY, 1, 23), "'12:3' vs '1:23' do not collide"


def test_without_the_key_the_seeds_are_out_of_reach():
    """What a bot that knows the base seed and the scheme, but not the key, can compute: with
    any guessed key (an empty one, the base seed, a zero key, a random one), nothing matches,
    and the seed is not the HMAC of the base seed under a guessable key either."""
    secret = random_deal_key()
    actual = {deal_seed(secret, BASE, i) for i in range(100)}
    guesses = [bytes(16), bytes(32), b"arena" * 4, str(BASE).encode() * 16, os.urandom(32)]
    for guess in guesses:
        assert not actual & {deal_seed(guess, BASE, i) for i in range(100)}
    unkeyed = {
        int.from_bytes(hashlib.sha256(f"{BASE}:{i}".encode()).digest()[:8], "big") >> 1
        for i in range(100)
    }
    assert not actual & unkeyed


def test_a_short_or_empty_key_is_refused():
    with pytest.raises(ValueError, match="at least"):
        deal_seed(b"", BASE, 0)
    with pytest.raises(ValueError, match="at least"):
        deal_seed(bytes(MIN_KEY_BYTES - 1), BASE, 0)
    with pytest.raises(ValueError, match=">= 0"):
        deal_seed(KEY, BASE, -1)


def test_the_deal_key_is_independent_of_the_secret_it_comes_from():
    """A database's secret also keys the bots' own seeds (referee.seat_seed): the deal key is
    an HMAC of it, so it is neither the secret nor something the bots' seeds reveal."""
    secret = os.urandom(32)
    derived = derive_deal_key(secret)
    assert derived != secret and len(derived) == 32
    assert derived == derive_deal_key(secret), "deterministic"
    assert derived != derive_deal_key(os.urandom(32))
    assert derived == hmac.new(secret, b"arena deal seeds v1", hashlib.sha256).digest()


def test_a_store_keeps_its_deal_key_and_another_store_has_another(tmp_path):
    with open_store(tmp_path / "a.db", create=True) as store:
        key = store.deal_seed_key()
        assert key == derive_deal_key(store.bot_seed_key()) and key != store.bot_seed_key()
    with open_store(tmp_path / "a.db", create=False) as store:
        assert store.deal_seed_key() == key, "stored in the file: the same on every open"
    with open_store(tmp_path / "b.db", create=True) as store:
        assert store.deal_seed_key() != key


def play_two_random(seed: int, key: bytes | None, tmp_path: Path) -> list[int]:
    random_bot = load_bot(ROOT / "bots" / "random")
    seeds: list[int] = []
    plan = MatchPlan(
        game=get_game("corruption"),
        bots=(random_bot,) * 3,
        games=2,
        seed=seed,
        options={},
        log_dir=tmp_path / "logs",
        deal_seed_key=key,
    )
    play_match(plan, lambda index, record: seeds.append(record.seed))
    return seeds


def test_a_match_deals_game_i_with_the_keyed_seed(tmp_path):
    seeds = play_two_random(BASE, KEY, tmp_path)
    assert seeds == [deal_seed(KEY, BASE, 0), deal_seed(KEY, BASE, 1)]
    unkeyed = play_two_random(BASE, None, tmp_path)
    assert not set(unkeyed) & set(seeds), "no key: a fresh random one, not base + i"
    assert unkeyed != [BASE, BASE + 1]


def test_a_check_repeats_its_games_from_the_seed(tmp_path):
    """arena check's key is public on purpose (it records nothing): the same --seed plays the
    same deals and sends the bots the same seeds, anywhere; still not seed + i."""
    random_bot = load_bot(ROOT / "bots" / "random")
    game = get_game("corruption")

    def checked() -> tuple[list[int], list[list[int]]]:
        report = run_check(
            game,
            random_bot,
            random_bot,
            games=2,
            players=3,
            seed=BASE,
            time_control=TimeControl(),
            log_dir=tmp_path / "logs",
        )
        assert report.passed
        return [g.seed for g in report.games], [[s.bot_seed for s in g.seats] for g in report.games]

    first, again = checked(), checked()
    assert first == again
    assert first[0] == [deal_seed(derive_deal_key(CHECK_KEY), BASE, i) for i in range(2)]
