"""Schedules: exact counts, balance (the guarantees in leagues/SCHEDULING.md), duplicate
groups, determinism, and the fingerprint that guards resumed leagues."""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections import Counter, defaultdict
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.referee import FaultPolicy, TimeControl
from arena.seeds import deal_seed
from leagues.schedule import build_schedule, schedule_fingerprint
from leagues.spec import Entrant, LeagueFormat, LeagueSpec
from leagues.tasks import GameTask
from tests.support.examples import examples

PAIR_SPREAD_TABLES = 4
"""Documented bound: per table size, pair meetings differ by at most this many times N."""

FAST = settings(max_examples=examples(40), deadline=None)

KEY = bytes(range(32))
"""The deal key these schedules are built with (a database's Store.deal_seed_key in a run)."""
OTHER_KEY = bytes(range(32, 64))


def make_spec(
    bots: int,
    sizes: tuple[int, ...],
    games: int,
    *,
    candidates: int = 0,
    duplicate: bool = True,
    seed: int = 0,
) -> LeagueSpec:
    field = tuple(Entrant(Path(f"/bots/b{i}"), f"b{i}") for i in range(bots))
    tested = tuple(Entrant(Path(f"/candidates/c{i}"), f"c{i}") for i in range(candidates))
    return LeagueSpec(
        name="test",
        path=Path("/leagues/test.toml"),
        game="corruption",
        format=LeagueFormat.GAUNTLET if candidates else LeagueFormat.ROUND_ROBIN,
        bots=field,
        candidates=tested,
        table_sizes=sizes,
        games=games,
        seed=seed,
        duplicate=duplicate,
        options={"variants": []},
    )


def spread(values) -> int:
    values = list(values)
    return max(values) - min(values) if values else 0


def games_of(tasks: list[GameTask], entrants: int) -> list[int]:
    played = Counter(i for t in tasks for i in t.seating)
    return [played[i] for i in range(entrants)]


def seats_of(tasks: list[GameTask]) -> dict[int, Counter]:
    """entrant -> Counter of seats, for tasks of one table size."""
    seats: dict[int, Counter] = defaultdict(Counter)
    for t in tasks:
        for seat, i in enumerate(t.seating):
            seats[i][seat] += 1
    return seats


def meetings(tasks: list[GameTask]) -> Counter:
    met: Counter = Counter()
    for t in tasks:
        for a, b in itertools.combinations(sorted(t.seating), 2):
            met[a, b] += 1
    return met


def groups_of(tasks: list[GameTask]) -> dict[int, list[GameTask]]:
    groups: dict[int, list[GameTask]] = defaultdict(list)
    for t in tasks:
        groups[t.group].append(t)
    return groups


def check_common(spec: LeagueSpec, tasks: list[GameTask]) -> None:
    """What holds for every schedule."""
    assert [t.index for t in tasks] == list(range(spec.games)), "indices 0..games-1"
    assert all(len(set(t.seating)) == len(t.seating) for t in tasks), "distinct bots per table"
    assert all(len(t.seating) in spec.table_sizes for t in tasks)
    entrants = len(spec.entrants)
    assert all(0 <= i < entrants for t in tasks for i in t.seating)
    assert [t.group for t in tasks] == sorted(t.group for t in tasks), "groups increase"
    for t in tasks:
        assert t.seed == deal_seed(KEY, spec.seed, t.group), "keyed by (base seed, group)"
        assert 0 <= t.seed < 2**63
    groups = groups_of(tasks)
    assert sorted(groups) == list(range(len(groups))), "groups are numbered 0, 1, 2..."
    for members in groups.values():
        indices = [t.index for t in members]
        assert indices == list(range(indices[0], indices[0] + len(indices))), "a group is adjacent"
        if not spec.duplicate:
            assert len(members) == 1, "without duplicate every game has its own deal"
            continue
        first = members[0].seating
        n = len(first)
        assert len(members) <= n
        for r, t in enumerate(members):
            assert t.seating == first[r:] + first[:r], "a group rotates one table"
    assert build_schedule(spec, KEY) == tasks, "deterministic"


def check_size(tasks: list[GameTask], n: int, members: list[int]) -> None:
    """Per table size: game counts and per-entrant seat counts within one."""
    played = Counter(i for t in tasks for i in t.seating)
    assert spread(played[i] for i in members) <= 1, f"game counts within one: {played}"
    seats = seats_of(tasks)
    for i in members:
        assert spread(seats[i][s] for s in range(n)) <= 1, f"entrant {i} seats: {seats[i]}"
    assert spread(seats[i][s] for i in members for s in range(n)) <= 1


@st.composite
def round_robins(draw):
    n = draw(st.integers(2, 7))
    m = draw(st.integers(n, 12))
    games = draw(st.integers(1, 300))
    return make_spec(m, (n,), games, duplicate=draw(st.booleans()), seed=draw(st.integers(0, 2)))


@FAST
@given(round_robins())
def test_round_robin_invariants(spec):
    tasks = build_schedule(spec, KEY)
    check_common(spec, tasks)
    m, n = len(spec.entrants), spec.table_sizes[0]
    check_size(tasks, n, list(range(m)))
    met = meetings(tasks)
    pairs = [met[a, b] for a, b in itertools.combinations(range(m), 2)]
    assert spread(pairs) <= PAIR_SPREAD_TABLES * n, f"pair meetings spread: {spread(pairs)}"


@pytest.mark.parametrize(
    ("m", "n", "cycles"),
    [(3, 3, 2), (4, 3, 1), (5, 3, 2), (6, 4, 1), (7, 3, 1), (8, 5, 1), (9, 2, 3)],
)
@pytest.mark.parametrize("duplicate", [True, False])
def test_full_cycles_are_exactly_balanced(m, n, cycles, duplicate):
    games = cycles * math.comb(m, n) * n
    spec = make_spec(m, (n,), games, duplicate=duplicate, seed=5)
    tasks = build_schedule(spec, KEY)
    check_common(spec, tasks)
    assert set(games_of(tasks, m)) == {cycles * math.comb(m - 1, n - 1) * n}
    met = meetings(tasks)
    assert {met[a, b] for a, b in itertools.combinations(range(m), 2)} == {
        cycles * math.comb(m - 2, n - 2) * n
    }, "every pair meets equally often"
    seats = seats_of(tasks)
    assert {seats[i][s] for i in range(m) for s in range(n)} == {
        cycles * math.comb(m - 1, n - 1)
    }, "every entrant sits in every seat equally often"
    tables = Counter(frozenset(t.seating) for t in tasks)
    assert len(tables) == math.comb(m, n) and set(tables.values()) == {cycles * n}
    if duplicate:
        assert all(len(g) == n for g in groups_of(tasks).values()), "every group whole"


@pytest.mark.parametrize(("m", "n", "games"), [(3, 3, 7), (5, 5, 12), (4, 3, 13), (6, 3, 61)])
def test_a_partial_last_group(m, n, games):
    tasks = build_schedule(make_spec(m, (n,), games), KEY)
    groups = list(groups_of(tasks).values())
    assert all(len(g) == n for g in groups[:-1])
    assert len(groups[-1]) == games % n, "the last deal is played with fewer rotations"


def test_whole_groups_give_way_to_equal_game_counts():
    # 7 entrants at tables of 6 playing 7 games: each plays 6, so each game leaves out a
    # different entrant and no deal can be replayed at the same table.
    tasks = build_schedule(make_spec(7, (6,), 7), KEY)
    assert set(games_of(tasks, 7)) == {6}
    assert all(len(g) == 1 for g in groups_of(tasks).values())


@st.composite
def gauntlets(draw):
    n = draw(st.integers(2, 7))
    field = draw(st.integers(n - 1, 12))
    candidates = draw(st.integers(1, 3))
    games = draw(st.integers(1, 300))
    return make_spec(
        field,
        (n,),
        games,
        candidates=candidates,
        duplicate=draw(st.booleans()),
        seed=draw(st.integers(0, 2)),
    )


@FAST
@given(gauntlets())
def test_gauntlet_invariants(spec):
    tasks = build_schedule(spec, KEY)
    check_common(spec, tasks)
    f, n = len(spec.bots), spec.table_sizes[0]
    candidates = list(range(f, len(spec.entrants)))
    for t in tasks:
        assert sum(i >= f for i in t.seating) == 1, "one candidate per table"
    played = games_of(tasks, len(spec.entrants))
    assert spread(played[i] for i in candidates) <= 1, "candidates play equally (within one)"
    assert spread(played[i] for i in range(f)) <= 1, "field bots play equally (within one)"
    check_size(tasks, n, candidates)
    check_size(tasks, n, list(range(f)))
    met = meetings(tasks)
    faced = [met[b, c] for b in range(f) for c in candidates]
    if len(candidates) == 1:
        assert spread(faced) <= 1, "one candidate meets every field bot equally (within one)"
    else:
        assert spread(faced) <= PAIR_SPREAD_TABLES * n


def test_a_gauntlet_round_plays_every_field_subset_with_every_candidate():
    spec = make_spec(4, (4,), 2 * 16, candidates=2)
    tasks = build_schedule(spec, KEY)
    check_common(spec, tasks)
    tables = Counter(frozenset(t.seating) for t in tasks)
    assert len(tables) == 8 and set(tables.values()) == {4}
    seats = seats_of(tasks)
    assert {seats[c][s] for c in (4, 5) for s in range(4)} == {4}


@settings(max_examples=examples(25), deadline=None)
@given(
    st.integers(3, 5).flatmap(
        lambda low: st.tuples(
            st.just(low),
            st.integers(low, 7),
            st.integers(7, 12),
            st.integers(1, 200),
            st.integers(0, 3),
        )
    ),
    st.booleans(),
)
def test_table_size_ranges(params, gauntlet):
    low, high, bots, games, candidates = params
    sizes = tuple(range(low, high + 1))
    spec = make_spec(bots, sizes, games, candidates=(candidates or 1) if gauntlet else 0)
    tasks = build_schedule(spec, KEY)
    check_common(spec, tasks)
    share, extra = divmod(games, len(sizes))
    per_size = Counter(len(t.seating) for t in tasks)
    assert [per_size[s] for s in sizes] == [share + (i < extra) for i in range(len(sizes))]
    classes = (
        [list(range(bots)), list(range(bots, len(spec.entrants)))]
        if gauntlet
        else [list(range(bots))]
    )
    for size in sizes:
        at_size = [t for t in tasks if len(t.seating) == size]
        for members in classes:
            check_size(at_size, size, members)
    played = games_of(tasks, len(spec.entrants))
    for members in classes:
        assert spread(played[i] for i in members) <= 1, "within one over all sizes too"
    assert len({t.seed for t in tasks}) == len(groups_of(tasks)), "no seed is reused"


def test_sizes_are_interleaved():
    tasks = build_schedule(make_spec(6, (3, 4, 5), 120), KEY)
    first_half = Counter(len(t.seating) for t in tasks[:60])
    assert all(15 <= first_half[s] <= 25 for s in (3, 4, 5)), first_half


def test_early_prefixes_are_fair_too():
    m, n = 10, 4
    tasks = build_schedule(make_spec(m, (n,), 3 * m * n), KEY)
    # After each whole orbit (m tables of n games) everyone has played the same number.
    for end in (m * n, 2 * m * n):
        assert set(games_of(tasks[:end], m)) == {end * n // m}


@pytest.mark.parametrize(
    ("m", "n"),
    # about 2 s of CPU each: the quick run keeps the smallest
    [
        pytest.param(50, 5, marks=pytest.mark.slow),
        pytest.param(50, 7, marks=pytest.mark.slow),
        (30, 3),
    ],
)
def test_large_leagues_are_built_without_enumerating(m, n):
    spec = make_spec(m, (n,), 100_000)
    tasks = build_schedule(spec, KEY)
    assert len(tasks) == 100_000
    assert spread(games_of(tasks, m)) <= 1
    met = meetings(tasks[:20_000])  # a prefix keeps the test quick
    assert spread(met[a, b] for a, b in itertools.combinations(range(m), 2)) <= 6 * n


def test_a_large_gauntlet():
    spec = make_spec(49, (7,), 100_000, candidates=1)
    tasks = build_schedule(spec, KEY)
    played = games_of(tasks, 50)
    assert played[49] == 100_000 and spread(played[:49]) <= 1


# -- fingerprint -----------------------------------------------------------------------------


def fingerprint(spec: LeagueSpec) -> str:
    return schedule_fingerprint(spec, build_schedule(spec, KEY))


BASE = make_spec(5, (3,), 40, seed=3)


def test_the_fingerprint_is_short_and_stable():
    value = fingerprint(BASE)
    assert len(value) == 16 and int(value, 16) >= 0
    assert fingerprint(make_spec(5, (3,), 40, seed=3)) == value


@pytest.mark.parametrize(
    "changed",
    [
        dataclasses.replace(BASE, seed=4),
        dataclasses.replace(BASE, games=41),
        dataclasses.replace(BASE, table_sizes=(4,)),
        dataclasses.replace(BASE, table_sizes=(3, 4)),
        dataclasses.replace(BASE, options={"variants": ["closed"]}),
        dataclasses.replace(BASE, duplicate=False),
        dataclasses.replace(BASE, game="intrigue"),
        dataclasses.replace(BASE, bots=BASE.bots[:-1] + (Entrant(Path("/bots/other"), "b4"),)),
        dataclasses.replace(BASE, bots=BASE.bots[1:] + BASE.bots[:1]),
        dataclasses.replace(
            BASE, bots=BASE.bots[:-1], candidates=BASE.bots[-1:], format=LeagueFormat.GAUNTLET
        ),
    ],
    ids=[
        "seed",
        "games",
        "table size",
        "size range",
        "options",
        "duplicate",
        "game",
        "a bot",
        "bot order",
        "format",
    ],
)
def test_what_changes_the_schedule_changes_the_fingerprint(changed):
    assert fingerprint(changed) != fingerprint(BASE)


@pytest.mark.parametrize(
    "same",
    [
        dataclasses.replace(BASE, workers=8),
        dataclasses.replace(BASE, time=TimeControl(decision_s=0.1, bank_s=0, startup_s=1)),
        dataclasses.replace(BASE, fault_policy=FaultPolicy.ABORT),
        dataclasses.replace(BASE, name="renamed", path=Path("/elsewhere/league.toml")),
        dataclasses.replace(
            BASE, bots=tuple(dataclasses.replace(e, label=e.label.upper()) for e in BASE.bots)
        ),
    ],
    ids=["workers", "time", "fault policy", "name and file", "labels"],
)
def test_what_does_not_change_the_schedule_keeps_the_fingerprint(same):
    assert build_schedule(same, KEY) == build_schedule(BASE, KEY)
    assert fingerprint(same) == fingerprint(BASE)


def test_the_fingerprint_depends_on_the_deal_key():
    """Stable for one key (one database: resume works), different for another."""
    assert fingerprint(BASE) == schedule_fingerprint(BASE, build_schedule(BASE, KEY))
    assert schedule_fingerprint(BASE, build_schedule(BASE, OTHER_KEY)) != fingerprint(BASE)


def test_the_deal_key_changes_every_seed_and_nothing_else():
    """Seatings and groups come from the spec alone; each group's seed comes from the key,
    and none of them is the base seed plus something small (the old, guessable rule)."""
    spec = make_spec(6, (3, 4), 90, seed=12)
    ours, theirs = build_schedule(spec, KEY), build_schedule(spec, OTHER_KEY)
    assert [(t.index, t.seating, t.group) for t in ours] == [
        (t.index, t.seating, t.group) for t in theirs
    ]
    assert all(a.seed != b.seed for a, b in zip(ours, theirs, strict=True))
    by_group = {t.group: t.seed for t in ours}
    assert len(set(by_group.values())) == len(by_group), "one seed per group, none reused"
    assert all(abs(seed - spec.seed * 1_000_003) > 10**6 for seed in by_group.values())
    assert all(abs(seed - spec.seed) > 10**6 for seed in by_group.values())


def test_the_fingerprint_covers_the_tasks():
    tasks = build_schedule(BASE, KEY)
    edited = tasks[:-1] + [dataclasses.replace(tasks[-1], seating=tasks[-1].seating[::-1])]
    assert schedule_fingerprint(BASE, edited) != schedule_fingerprint(BASE, tasks)
