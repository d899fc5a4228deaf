"""Deal seeds: derived from a base seed with a secret key, so a bot can work back none of them.

A game is a pure function of its deal seed (random.Random(seed) shuffles), and a bot sees part
of the deal from its first view. If deal seeds were small or followed a public rule (base + i),
a bot could search for the seed that produces what it sees, then re-deal this game and every
later one and know all the hidden cards. So every deal seed is HMAC-SHA256(key, base, index)
truncated to 63 bits: without the key, seeing any number of deals (even knowing the base seed)
tells a bot neither the seed of a deal nor that of any other.

Reproducibility comes from the key, not from the arithmetic: a database holds a secret
(``Store.bot_seed_key``) and ``derive_deal_key`` turns it into this module's key, so the same
command with the same base seed on the same database deals the same games, and every stored
game records its actual deal seed, so each one replays alone.

A user who wants the same games in another database (a CI job starting from an empty one)
gives a seed key (``--seed-key`` or ``$ARENA_SEED_KEY``): ``secret_from_seed_key`` turns it
into the secret that stands in for the database's. The deals stay secret from the bots as long
as the key does: bots start with a clean environment, so the variable never reaches them.
"""

from __future__ import annotations

import hashlib
import hmac
import os

MIN_KEY_BYTES = 16
"""Shorter keys are refused: a deal key that can be guessed protects nothing."""

SEED_KEY_ENV = "ARENA_SEED_KEY"
"""The environment variable that gives a seed key when --seed-key is not on the command line."""

_SEED_KEY_LABEL = b"arena seed key v1"

_DEAL_LABEL = b"arena deal seeds v1"
"""What derive_deal_key mixes in, so the deal key is independent of any other use of the same
database secret (the bots' own seeds, arena.referee.seat_seed, use that secret directly)."""


def derive_deal_key(secret: bytes) -> bytes:
    """The deal-seed key derived from a secret that may serve other uses too."""
    return hmac.new(secret, _DEAL_LABEL, hashlib.sha256).digest()


def secret_from_seed_key(seed_key: str) -> bytes:
    """The secret a user's seed key stands for, in place of a database's own (32 bytes).

    Raises ValueError, saying what to do, for a key shorter than MIN_KEY_BYTES bytes.
    """
    raw = seed_key.encode("utf-8", "surrogatepass")
    if len(raw) < MIN_KEY_BYTES:
        raise ValueError(
            f"a seed key needs at least {MIN_KEY_BYTES} characters (it keeps the deals secret "
            f"from the bots), not {len(raw)}: use a long random string, e.g. the output of "
            "`openssl rand -hex 16`"
        )
    return hmac.new(_SEED_KEY_LABEL, raw, hashlib.sha256).digest()


def random_deal_key() -> bytes:
    """A fresh secret key: the deals it gives can be reproduced by nobody, this run included."""
    return os.urandom(32)


def deal_seed(key: bytes, base: int, index: int) -> int:
    """The deal seed of game (or duplicate group) ``index`` of a run with base seed ``base``.

    HMAC-SHA256 of (base, index) under ``key``, truncated to 63 bits: a non-negative integer
    below 2**63, so it fits every JSON reader's int64 and SQLite's INTEGER.
    """
    if len(key) < MIN_KEY_BYTES:
        raise ValueError(f"a deal key needs at least {MIN_KEY_BYTES} bytes, got {len(key)}")
    if index < 0:
        raise ValueError(f"the game index must be >= 0, got {index}")
    digest = hmac.new(key, f"{base}:{index}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 1
