"""Schedules: the exact list of games a league plays, built deterministically from its spec.

The same LeagueSpec always gives the same list: every choice is made by a random.Random
seeded with spec.seed and the table size. leagues/SCHEDULING.md has the guarantees and the
measurements behind them; this is the construction.

A *table* is N distinct entrants in a base order; a *block* plays it N times with the seating
rotated (game r seats table[(s + r) % N] in seat s), so each of its entrants sits in every
seat once. A block is one duplicate group when spec.duplicate is set (one deal seed, played
from every seat); otherwise each of its games is a group of its own.

Quotas. For each table size, games * N seats are shared out before anything is built: every
entrant plays base = floor(games * N / M) or base + 1 games there, and the extra games go
first to the entrants behind after earlier table sizes, so counts stay within one overall.
Every step below is taken only if every entrant can still end on its quota ("it fits").

Round-robin, M entrants at tables of N. Entrants sit on the positions 0..M-1 of the cyclic
group Z_M (a seeded shuffle). An *orbit* is a set B of positions containing 0 together with
its distinct translates B + x (mod M): every position lies in equally many of its tables and
every pair of positions at cyclic distance d meets equally often. The N-subsets of Z_M split
exactly into orbits.

1. Whole cycles, when C(M, N) * N <= games: every orbit is enumerated; a cycle plays them all
   (every N-subset once), in an order chosen greedily to keep per-distance meetings level.
2. Built orbits, while they fit: B is grown from {0} one position at a time towards the
   distances met least so far (best of a few seeded growths), never enumerating subsets.
   Tables of an orbit are played in steps of about M / N translates, so the first ones are
   nearly disjoint.
3. Greedy blocks, while one fits: the table of least-met entrants among those the quotas let
   play a block (forcing those that could not otherwise reach their quota), else the table
   of the entrants with the fewest games (ties: fewest meetings, then a rotating seeded rank).
   Then random swaps of two entrants between two of these tables are kept when they lower
   the sum of squared pair meetings (counts, hence quotas, are unchanged).
4. The tail: the games left when no whole block fits. If exactly N entrants still owe games,
   it is one table played with that many rotations (a partial block, one deal). Otherwise it
   is built game by game: whoever owes a game on every remaining game plays this one, and
   the rest are the owing entrants who met them least; this never gets stuck (McNaughton's
   wrap-around condition: nobody owes more games than remain). The same swaps follow, and
   seats come from a proper N-edge-colouring of the entrant-game graph with each entrant's
   games cut in runs of N (König), so each entrant's seat counts stay within one. Tail games
   are single deals.

Gauntlet, C candidates against a field of F at tables of N: a table is one candidate and N-1
field bots; rotation seats the candidate everywhere. A *round* is one built orbit of
(N-1)-subsets of Z_F played by every candidate (each from its own offset), candidates
interleaved table by table; rounds while they fit, then greedy blocks (the candidate with
fewest games; field bots with fewest games, then fewest meetings with that candidate), swaps
within candidates and within the field, and the tail as above, candidates and field owed
separately.

Several table sizes: games are split as evenly as possible over the sizes in order (the first
sizes get the extra game); each size is built as above and their blocks and tail games are
interleaved in proportion to their games.

Seeds: groups are numbered 0, 1, 2... through the schedule; the deal seed of group g is
arena.seeds.deal_seed(deal_key, spec.seed, g), an HMAC under the database's deal key
(Store.deal_seed_key), so the same league file on the same database always gets the same
deals, no deal is reused (with overwhelming probability: 63-bit values), and a bot can
predict none of them. Only the seeds depend on the key: the seatings come from spec alone.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from arena.seeds import deal_seed
from leagues.spec import LeagueFormat, LeagueSpec
from leagues.tasks import GameTask

ORDER_WINDOW = 48
"""How many unused orbits each greedy step of the cycle ordering looks at (keeps it fast)."""
IMPROVE_PER_TABLE = 200
IMPROVE_STEPS = 6_000
"""Swap attempts between greedy tables: IMPROVE_PER_TABLE per table, at most IMPROVE_STEPS."""
BUILD_TRIES = 4
"""Greedy growths tried for each built orbit; the most level one is played."""
FINGERPRINT_VERSION = 2
"""Bumped when what the fingerprint covers changes (2: deal seeds are keyed, arena.seeds)."""


def build_schedule(spec: LeagueSpec, deal_key: bytes) -> list[GameTask]:
    """Every game of the league, in playing order (see the module docstring).

    deal_key: what the deal seeds are derived with, normally the database's
    (Store.deal_seed_key), so that a rerun on the same database builds the same schedule.
    """
    entrants = len(spec.entrants)
    totals = [0] * entrants
    per_size: list[list[_Unit]] = []
    for size, games in _split(spec.games, spec.table_sizes):
        if games == 0:
            continue
        rng = random.Random(f"arena-schedule:{spec.seed}:{size}")
        if spec.format is LeagueFormat.GAUNTLET:
            planner: _Planner = _Gauntlet(len(spec.bots), len(spec.candidates), size, games, rng)
        else:
            planner = _RoundRobin(entrants, size, games, rng)
        per_size.append(planner.plan(totals))
    return _number(_interleave(per_size), deal_key, spec.seed, spec.duplicate)


def schedule_fingerprint(spec: LeagueSpec, tasks: Sequence[GameTask]) -> str:
    """16 hex digits of SHA-256 over everything that decides which games are played.

    Covered: the game title, the normalized options, the format, the table sizes, games, seed,
    the duplicate flag, the entrants (resolved path and copy number, field then candidates,
    and how many are candidates) and every task's index, seed, group and seating. The task
    seeds depend on the deal key, so the fingerprint is stable across reruns on one database
    and differs from one database to another (never a problem: a league lives in one
    database, whose record of it the fingerprint is checked against). Not covered:
    the league's name, labels, workers, the time control and the fault policy, so those may
    change between runs of one league. Moving a bot directory changes the fingerprint.
    """
    head = {
        "version": FINGERPRINT_VERSION,
        "game": spec.game,
        "options": spec.options,
        "format": spec.format.value,
        "table_sizes": list(spec.table_sizes),
        "games": spec.games,
        "seed": spec.seed,
        "duplicate": spec.duplicate,
        "entrants": [[str(e.path), e.copy] for e in spec.entrants],
        "candidates": len(spec.candidates),
    }
    digest = hashlib.sha256(json.dumps(head, sort_keys=True, default=str).encode())
    for task in tasks:
        seating = ",".join(map(str, task.seating))
        digest.update(f"\n{task.index} {task.seed} {task.group} {seating}".encode())
    return digest.hexdigest()[:16]


# -- units, numbering, interleaving --------------------------------------------------------


@dataclass(frozen=True)
class _Unit:
    """Consecutive games of one table size."""

    seatings: tuple[tuple[int, ...], ...]
    """The games' seatings, in order."""
    one_deal: bool
    """The seatings rotate one table, so with duplicate they share a group (and a deal)."""


def _rotations(table: tuple[int, ...], count: int) -> _Unit:
    doubled = table + table
    n = len(table)
    return _Unit(tuple(doubled[r : r + n] for r in range(count)), True)


def _chunks(total: int, size: int) -> list[int]:
    """total cut into pieces of at most size, e.g. (7, 3) -> [3, 3, 1]."""
    return [min(size, total - start) for start in range(0, total, size)]


def _split(games: int, sizes: tuple[int, ...]) -> list[tuple[int, int]]:
    share, extra = divmod(games, len(sizes))
    return [(size, share + (1 if i < extra else 0)) for i, size in enumerate(sizes)]


def _interleave(per_size: list[list[_Unit]]) -> list[_Unit]:
    """Merge the sizes' units, each step taking the size least far through its games."""
    if len(per_size) == 1:
        return per_size[0]
    totals = [sum(len(u.seatings) for u in units) for units in per_size]
    done = [0] * len(per_size)
    next_unit = [0] * len(per_size)
    merged: list[_Unit] = []
    while True:
        open_sizes = [j for j in range(len(per_size)) if next_unit[j] < len(per_size[j])]
        if not open_sizes:
            return merged
        j = min(open_sizes, key=lambda k: (done[k] / totals[k], k))
        unit = per_size[j][next_unit[j]]
        merged.append(unit)
        next_unit[j] += 1
        done[j] += len(unit.seatings)


def _number(units: list[_Unit], deal_key: bytes, base_seed: int, duplicate: bool) -> list[GameTask]:
    tasks: list[GameTask] = []
    group = -1
    for unit in units:
        shared = duplicate and unit.one_deal
        if shared:
            group += 1
        for seating in unit.seatings:
            if not shared:
                group += 1
            tasks.append(
                GameTask(len(tasks), deal_seed(deal_key, base_seed, group), seating, group)
            )
    return tasks


# -- orbits ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Orbit:
    """A base set of positions in Z_n and all its distinct translates."""

    base: tuple[int, ...]
    """Sorted positions, including 0."""
    size: int
    """Number of distinct translates (n, or a divisor of n for a symmetric base)."""
    gain: tuple[int, ...]
    """gain[d - 1]: tables in which each pair of positions at cyclic distance d meets."""


def _distance(a: int, b: int, n: int) -> int:
    d = (a - b) % n
    return min(d, n - d)


def _make_orbit(base: tuple[int, ...], n: int) -> _Orbit:
    fixed = sum(1 for s in base if tuple(sorted((b - s) % n for b in base)) == base)
    size = n // fixed
    pairs_at = Counter(_distance(a, b, n) for a, b in combinations(base, 2))
    # Pairs at distance d: n of them, or n/2 when 2d = n; translation meets them all equally.
    gain = tuple(size * pairs_at[d] // (n // 2 if 2 * d == n else n) for d in range(1, n // 2 + 1))
    return _Orbit(base, size, gain)


def _all_orbits(n: int, k: int) -> list[_Orbit]:
    """Every orbit of k-subsets of Z_n (together: every k-subset exactly once)."""
    seen: set[tuple[int, ...]] = set()
    orbits = []
    for rest in combinations(range(1, n), k - 1):
        base = (0, *rest)
        canonical = min(tuple(sorted((b - s) % n for b in base)) for s in base)
        if canonical not in seen:
            seen.add(canonical)
            orbits.append(_make_orbit(canonical, n))
    return orbits


def _score(shared_by_distance: list[int], gain: tuple[int, ...]) -> tuple[int, int]:
    """How uneven per-distance meetings would be after adding gain: spread, then variance."""
    after = [m + g for m, g in zip(shared_by_distance, gain)]
    if not after:
        return 0, 0
    return max(after) - min(after), len(after) * sum(a * a for a in after) - sum(after) ** 2


def _cycle_order(orbits: list[_Orbit], rng: random.Random) -> list[_Orbit]:
    """All orbits, ordered so that every prefix keeps per-distance meetings level."""
    pool = list(orbits)
    rng.shuffle(pool)
    shared_by_distance = [0] * len(pool[0].gain)
    order = []
    while pool:
        best = min(
            range(min(ORDER_WINDOW, len(pool))),
            key=lambda i: _score(shared_by_distance, pool[i].gain),
        )
        orbit = pool.pop(best)
        shared_by_distance = [m + g for m, g in zip(shared_by_distance, orbit.gain)]
        order.append(orbit)
    return order


def _build_orbit(n: int, k: int, shared_by_distance: list[int], rng: random.Random) -> _Orbit:
    """A base set grown from {0} towards the distances met least so far (no enumeration).

    A few greedy growths with different random tie-breaks; the most level result wins.
    """
    tries = [_grow_base(n, k, shared_by_distance, rng) for _ in range(BUILD_TRIES)]
    return min(tries, key=lambda orbit: _score(shared_by_distance, orbit.gain))


def _grow_base(n: int, k: int, shared_by_distance: list[int], rng: random.Random) -> _Orbit:
    low = min(shared_by_distance, default=0)
    planned = [m - low for m in shared_by_distance]
    index = [min(j, n - j) - 1 for j in range(n)]
    taken = n * k * (max(planned, default=0) + k) + 1  # beats any real score: keeps b out of base
    base = [0]
    for _ in range(k - 1):
        # by_offset[j]: meetings at distance j; candidate b's value against a is
        # by_offset[(b - a) % n], i.e. by_offset rotated by a (slices keep this fast).
        by_offset = [planned[i] if i >= 0 else taken for i in index]
        rotated = [by_offset[-a:] + by_offset[:-a] if a else by_offset for a in base]
        highs = list(map(max, *rotated)) if len(rotated) > 1 else rotated[0]
        scores = list(zip(highs, map(sum, zip(*rotated))))
        best = min(scores)
        chosen = rng.choice([b for b, score in enumerate(scores) if score == best])
        for a in base:
            d = _distance(a, chosen, n)
            planned[d - 1] += 2 if 2 * d == n else 1
        base.append(chosen)
    canonical = min(tuple(sorted((b - s) % n for b in base)) for s in base)
    return _make_orbit(canonical, n)


def _stride_order(size: int, k: int) -> list[int]:
    """Translates 0..size-1 in steps of about size / k (coprime), so early tables are apart."""
    target = max(1, round(size / k))
    for delta in range(size + 1):
        for step in (target - delta, target + delta):
            if 1 <= step <= size and math.gcd(step, size) == 1:
                return [(j * step) % size for j in range(size)]
    return list(range(size))


# -- planners -------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Quota:
    """How many games each member of one class of entrants plays at one table size."""

    members: tuple[int, ...]
    """The class: every entrant (round-robin), or the candidates, or the field."""
    base: int
    """Every member plays base or base + 1 games."""
    extra: int
    """Exactly this many members play base + 1."""
    must: frozenset[int]
    """Members that must get an extra game: they are behind after earlier table sizes."""
    may: frozenset[int]
    """Members that may get an extra game."""


def _quota(members: list[int], seats: int, totals: list[int]) -> _Quota:
    """Share out games * seats so that totals over all table sizes stay within one."""
    base, extra = divmod(seats, len(members))
    low = min(totals[i] for i in members)
    behind = frozenset(i for i in members if totals[i] == low)
    if extra <= len(behind):
        return _Quota(tuple(members), base, extra, frozenset(), behind)
    return _Quota(tuple(members), base, extra, behind, frozenset(members))


def _targets(
    quota: _Quota, count: dict[int, int], left: int, rank: dict[int, int]
) -> dict[int, int] | None:
    """Final games per member reachable from count with `left` games to go, or None.

    The extra games go to members already past base, then to those that must have one, then
    to the members with the most games (the choice that leaves the smallest shortfalls).
    """
    over = [i for i in quota.members if count[i] > quota.base]
    if any(count[i] > quota.base + 1 or i not in quota.may for i in over):
        return None
    chosen = set(over) | quota.must
    if len(chosen) > quota.extra:
        return None
    rest = sorted((i for i in quota.may if i not in chosen), key=lambda i: (-count[i], rank[i]))
    chosen.update(rest[: quota.extra - len(chosen)])
    targets = {i: quota.base + (i in chosen) for i in quota.members}
    if any(targets[i] - count[i] > left for i in quota.members):
        return None
    return targets


class _Planner:
    """One table size: quotas, counts, meetings and the units built so far."""

    def __init__(
        self, classes: list[tuple[list[int], int]], n: int, games: int, rng: random.Random
    ) -> None:
        self.classes = classes
        """(members, seats each game gives the class): all entrants, or candidates and field."""
        self.n = n
        self.games = games
        self.rng = rng
        self.members = [i for members, _ in classes for i in members]
        order = list(self.members)
        rng.shuffle(order)
        self.rank = {entrant: r for r, entrant in enumerate(order)}
        """A seeded order for breaking ties."""
        self.quotas: list[_Quota] = []
        self.remaining = games
        self.count = dict.fromkeys(self.members, 0)
        self.units: list[_Unit] = []
        self.blocks = 0
        everyone = max(self.members) + 1
        self.games_together = [[0] * everyone for _ in range(everyone)]
        """games_together[a][b]: games a and b have shared (exact once whole() has set it up)."""

    def plan(self, totals: list[int]) -> list[_Unit]:
        self.quotas = [
            _quota(members, self.games * seats, totals) for members, seats in self.classes
        ]
        self.whole()
        self.finish()
        for quota in self.quotas:
            extras = {i for i in quota.members if self.count[i] == quota.base + 1}
            assert len(extras) == quota.extra and quota.must <= extras <= quota.may
            assert all(self.count[i] - quota.base in (0, 1) for i in quota.members)
        for i in self.members:
            totals[i] += self.count[i]
        return self.units

    def whole(self) -> None:
        """Whole cycles, orbits or rounds, while they fit."""
        raise NotImplementedError

    def tables(self) -> list[tuple[int, ...] | None]:
        """Tables to try, in order, as the next greedy block."""
        raise NotImplementedError

    def finish(self) -> None:
        """Greedy blocks, then swaps between them that even out meetings, then the tail."""
        first = len(self.units)
        while self.remaining >= self.n and any(
            table is not None and self.take_block(table) for table in self.tables()
        ):
            pass
        tables = [unit.seatings[0] for unit in self.units[first:]]
        self.improve(tables, self.n)
        self.units[first:] = [_rotations(table, self.n) for table in tables]
        self.tail()

    def swappable(self, a: int, b: int) -> bool:
        """Whether a and b may trade tables (same class: counts and quotas are unchanged)."""
        raise NotImplementedError

    def improve(self, tables: list[tuple[int, ...]], n: int) -> None:
        """Hill-climb: swap two entrants between two tables (each played n times) when that
        lowers the sum of squared meetings. Counts do not change, so the quotas still hold."""
        if len(tables) < 2:
            return
        rng = self.rng
        rows = [list(t) for t in tables]
        for _ in range(min(IMPROVE_STEPS, IMPROVE_PER_TABLE * len(rows))):
            t1, t2 = rng.sample(range(len(rows)), 2)
            s1, s2 = rng.randrange(len(rows[t1])), rng.randrange(len(rows[t2]))
            a, b = rows[t1][s1], rows[t2][s2]
            if a == b or a in rows[t2] or b in rows[t1] or not self.swappable(a, b):
                continue
            change: Counter[tuple[int, int]] = Counter()
            for x in rows[t1]:
                if x != a:
                    change[a, x] -= n
                    change[b, x] += n
            for y in rows[t2]:
                if y != b:
                    change[b, y] -= n
                    change[a, y] += n
            delta = sum(
                (self.games_together[u][v] + d) ** 2 - self.games_together[u][v] ** 2
                for (u, v), d in change.items()
            )
            if delta < 0:
                for (u, v), d in change.items():
                    self.games_together[u][v] += d
                    self.games_together[v][u] += d
                rows[t1][s1], rows[t2][s2] = b, a
        tables[:] = [tuple(row) for row in rows]

    # -- quotas ----------------------------------------------------------------------------

    def targets(self, count: dict[int, int], left: int) -> dict[int, int] | None:
        found: dict[int, int] = {}
        for quota in self.quotas:
            targets = _targets(quota, count, left, self.rank)
            if targets is None:
                return None
            found |= targets
        return found

    def fits(self, games: int, gain: dict[int, int]) -> bool:
        """Whether adding these games (gain[i] games for entrant i) keeps every quota reachable."""
        left = self.remaining - games
        if left < 0:
            return False
        after = {i: c + gain.get(i, 0) for i, c in self.count.items()}
        return self.targets(after, left) is not None

    # -- building --------------------------------------------------------------------------

    def take(self, units: list[_Unit], gain: dict[int, int]) -> None:
        self.units.extend(units)
        self.remaining -= sum(len(u.seatings) for u in units)
        for i, g in gain.items():
            self.count[i] += g

    def take_block(self, table: tuple[int, ...]) -> bool:
        gain = dict.fromkeys(table, self.n)
        if not self.fits(self.n, gain):
            return False
        self.take([_rotations(table, self.n)], gain)
        self.blocks += 1
        self.add_games_together(table, self.n)
        return True

    def add_games_together(self, table: Sequence[int], games: int) -> None:
        for a in table:
            row = self.games_together[a]
            for b in table:
                if a != b:
                    row[b] += games

    def rotating(self, i: int) -> int:
        """i's tie-break rank, rotated every block so no entrant always wins ties."""
        return (self.rank[i] - self.blocks) % len(self.members)

    def most_owed(self, members: list[int], meetings: dict[int, Any]) -> int:
        """The member with the fewest games so far; ties by fewest meetings, then rank."""
        return min(members, key=lambda i: (self.count[i], meetings.get(i, 0), self.rotating(i)))

    def tail(self) -> None:
        """The last games, laid out exactly so every entrant ends on its target."""
        left = self.remaining
        if left == 0:
            return
        targets = self.targets(self.count, left)
        assert targets is not None, "the schedule lost track of its quotas"
        short = {i: targets[i] - self.count[i] for i in self.members}
        playing = [i for i in self.members if short[i] > 0]
        if len(playing) == self.n:
            # One table left (fewer than n games, else a block would have been taken): a
            # partial block, one deal played with that many rotations. A candidate sits first.
            first = set(self.classes[0][0])
            table = tuple(sorted(playing, key=lambda i: (i not in first, self.rank[i])))
            self.take([_rotations(table, c) for c in _chunks(left, self.n)], short)
            self.add_games_together(table, left)
            return
        rows: list[list[int]] = []
        for rows_left in range(left, 0, -1):
            # Whoever is short of a game on every remaining row must play this one; the rest
            # are the short entrants who met these least. No short ever exceeds the rows left
            # (McNaughton's condition), so this never gets stuck.
            row: list[int] = []
            for members, seats in self.classes:
                picked = [i for i in members if short[i] == rows_left]
                others = [i for i in members if 0 < short[i] < rows_left]
                while len(picked) < seats:
                    pick = min(
                        others,
                        key=lambda i: (
                            _meetings_with(self.games_together[i], row + picked),
                            -short[i],
                            (self.rank[i] - len(rows)) % len(self.members),
                        ),
                    )
                    picked.append(pick)
                    others.remove(pick)
                row += picked
            for i in row:
                short[i] -= 1
            self.add_games_together(row, 1)
            rows.append(row)
        tables = [tuple(row) for row in rows]
        self.improve(tables, 1)
        self.take([_Unit((s,), False) for s in _assign_seats(tables, self.n)], {})
        self.count.update(targets)


def _meetings_with(row: list[int], chosen: list[int]) -> tuple[int, int]:
    """How much an entrant has met those chosen: the most with any one, then in all."""
    return max((row[j] for j in chosen), default=0), sum(row[j] for j in chosen)


class _RoundRobin(_Planner):
    """Every entrant against every other, at tables of n."""

    def __init__(self, m: int, n: int, games: int, rng: random.Random) -> None:
        super().__init__([(list(range(m)), n)], n, games, rng)
        self.m = m
        self.at = list(range(m))
        """at[position] = the entrant placed on that position of Z_m."""
        rng.shuffle(self.at)
        self.shared_by_distance = [0] * (m // 2)
        """shared_by_distance[d - 1]: tables shared so far by each pair of positions at cyclic distance d."""

    def whole(self) -> None:
        m, n = self.m, self.n
        subsets = math.comb(m, n)
        if subsets * n <= self.games:
            # Whole cycles (never cut: they always fit the quotas), every orbit enumerated.
            order = _cycle_order(_all_orbits(m, n), self.rng)
            for _ in range(self.games // (subsets * n)):
                for orbit in order:
                    self.play_orbit(orbit)
        while self.play_orbit(_build_orbit(m, n, self.shared_by_distance, self.rng)):
            pass
        position = {entrant: p for p, entrant in enumerate(self.at)}
        for a in range(m):
            for b in range(m):
                if a != b:
                    self.games_together[a][b] = (
                        n * self.shared_by_distance[_distance(position[a], position[b], m) - 1]
                    )

    def play_orbit(self, orbit: _Orbit) -> bool:
        m, n = self.m, self.n
        gain = dict.fromkeys(self.members, orbit.size * n // m * n)
        if not self.fits(orbit.size * n, gain):
            return False
        units = [
            _rotations(tuple(self.at[(b + x) % m] for b in orbit.base), n)
            for x in _stride_order(orbit.size, n)
        ]
        self.take(units, gain)
        self.shared_by_distance = [a + g for a, g in zip(self.shared_by_distance, orbit.gain)]
        return True

    def tables(self) -> list[tuple[int, ...] | None]:
        # Fewest meetings first, within what the quotas allow; else fewest games first.
        return [self.fewest_meetings(), self.fewest_games()]

    def fewest_games(self) -> tuple[int, ...]:
        chosen: list[int] = []
        for _ in range(self.n):
            free = [i for i in self.members if i not in chosen]
            chosen.append(
                self.most_owed(
                    free, {i: _meetings_with(self.games_together[i], chosen) for i in free}
                )
            )
        return tuple(chosen)

    def fewest_meetings(self) -> tuple[int, ...] | None:
        n = self.n
        base = self.quotas[0].base
        after = self.remaining - n
        need = {i: base - self.count[i] for i in self.members}
        chosen = sorted(
            (i for i in self.members if need[i] > after), key=lambda i: (-need[i], self.rotating(i))
        )
        allowed = [i for i in self.members if need[i] >= n - 1 and i not in chosen]
        while len(chosen) < n and allowed:
            pick = min(
                allowed,
                key=lambda i: (
                    _meetings_with(self.games_together[i], chosen),
                    -need[i],
                    self.rotating(i),
                ),
            )
            chosen.append(pick)
            allowed.remove(pick)
        return tuple(chosen) if len(chosen) == n else None

    def swappable(self, a: int, b: int) -> bool:
        return True


class _Gauntlet(_Planner):
    """Each candidate against the field: a table is one candidate and n - 1 field bots."""

    def __init__(self, f: int, c: int, n: int, games: int, rng: random.Random) -> None:
        self.field = list(range(f))
        self.candidates = list(range(f, f + c))
        self.candidate_set = frozenset(self.candidates)
        super().__init__([(self.candidates, 1), (self.field, n - 1)], n, games, rng)
        self.at = list(self.field)
        """at[position] = the field bot placed on that position of Z_f."""
        rng.shuffle(self.at)
        self.shared_by_distance = [0] * (f // 2)
        """shared_by_distance[d - 1]: tables shared so far by each pair of field positions at distance d."""

    def whole(self) -> None:
        f, k, n = len(self.field), self.n - 1, self.n
        candidates = sorted(self.candidates, key=self.rank.__getitem__)
        while True:
            orbit = _build_orbit(f, k, self.shared_by_distance, self.rng)
            per_field = len(candidates) * (orbit.size * k // f) * n
            gain = dict.fromkeys(self.field, per_field) | dict.fromkeys(candidates, orbit.size * n)
            if not self.fits(len(candidates) * orbit.size * n, gain):
                return
            units = []
            for x in _stride_order(orbit.size, n):
                for number, candidate in enumerate(candidates):
                    offset = x + number * orbit.size // len(candidates)
                    bots = tuple(self.at[(b + offset) % f] for b in orbit.base)
                    units.append(_rotations((candidate, *bots), n))
            self.take(units, gain)
            self.shared_by_distance = [a + g for a, g in zip(self.shared_by_distance, orbit.gain)]
            # A round meets every candidate with every field bot equally: games_together stays relative.

    def tables(self) -> list[tuple[int, ...] | None]:
        candidate = self.most_owed(self.candidates, {})
        bots: list[int] = []
        for _ in range(self.n - 1):
            free = [i for i in self.field if i not in bots]
            meetings = {
                i: (
                    self.games_together[candidate][i],
                    *_meetings_with(self.games_together[i], bots),
                )
                for i in free
            }
            bots.append(self.most_owed(free, meetings))
        return [(candidate, *bots)]

    def swappable(self, a: int, b: int) -> bool:
        return (a in self.candidate_set) == (b in self.candidate_set)


def _assign_seats(rows: Sequence[Sequence[int]], n: int) -> list[tuple[int, ...]]:
    """Seats for tail games: a proper n-edge-colouring of the entrant-game bipartite graph.

    Each entrant's games are cut into chunks of n, each chunk a vertex of degree <= n, so
    every chunk gets distinct seats and each entrant's seat counts stay within one (König's
    theorem, built with the alternating-path swap).
    """
    at_vertex: dict[tuple[int, int], dict[int, int]] = {}
    at_row: list[dict[int, tuple[int, int]]] = [{} for _ in rows]
    chunks: Counter[int] = Counter()
    for g, row in enumerate(rows):
        for entrant in row:
            vertex = (entrant, chunks[entrant] // n)
            chunks[entrant] += 1
            colours = at_vertex.setdefault(vertex, {})
            a = next(c for c in range(n) if c not in colours)
            if a in at_row[g]:
                b = next(c for c in range(n) if c not in at_row[g])
                _swap_path(g, a, b, at_vertex, at_row)
            colours[a] = g
            at_row[g][a] = vertex
    return [tuple(at_row[g][seat][0] for seat in range(n)) for g in range(len(rows))]


def _swap_path(
    g: int,
    a: int,
    b: int,
    at_vertex: dict[tuple[int, int], dict[int, int]],
    at_row: list[dict[int, tuple[int, int]]],
) -> None:
    """Swap colours a and b along the a/b path from row g, freeing a at g."""
    path = []
    row = g
    while (vertex := at_row[row].get(a)) is not None:
        path.append((row, vertex, a))
        following = at_vertex[vertex].get(b)
        if following is None:
            break
        path.append((following, vertex, b))
        row = following
    for row, vertex, colour in path:
        del at_row[row][colour]
        del at_vertex[vertex][colour]
    for row, vertex, colour in path:
        other = b if colour == a else a
        at_row[row][other] = vertex
        at_vertex[vertex][other] = row
