"""`arena regress` for real: bot subprocesses in duplicate deals, verdicts, exit codes, reports;
and the sequential test calibrated on the paired differences of real games."""

from __future__ import annotations

import json
import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli.app import app
from arena.games import get_game
from arena.inprocess import InProcessBot, random_decider
from arena.manifest import load_bot
from arena.record import BotIdentity
from arena.referee import SeatedBot, play_game
from arena.seeds import deal_seed, derive_deal_key
from arena.store import open_store
from leagues.regress import CANDIDATE, RegressPlan, pair_tasks, run_regress
from leagues.sequential import Bounds, Verdict, paired_difference, run_sequential
from tests.support.bundled import load_greedy
from tests.support.module_bots import own_snapshot_cache

pytestmark = pytest.mark.slow  # every test plays real games with bot processes, some hundreds

ROOT = Path(__file__).resolve().parents[2]
RANDOM, GREEDY = ROOT / "bots" / "random", ROOT / "bots" / "corruption-greedy"


@pytest.fixture
def cli(monkeypatch):
    monkeypatch.setenv("COLUMNS", "140")
    runner = CliRunner()
    return lambda *args: runner.invoke(app, [str(a) for a in args], catch_exceptions=False)


def regress_args(candidate: Path, baseline: Path, tmp_path: Path) -> list[object]:
    return [
        "regress",
        "--game",
        "corruption",
        "--candidate",
        candidate,
        "--baseline",
        baseline,
        "--field",
        RANDOM,
        "--field",
        RANDOM,
        "--seed",
        "11",
        "--games",
        "400",
        "--json",
        tmp_path / "r.json",
        "--junit",
        tmp_path / "r.xml",
    ]


def test_a_clearly_weaker_candidate_fails_with_exit_1_and_reports(cli, tmp_path):
    db = tmp_path / "regress.db"
    page = tmp_path / "gate.html"
    result = cli(*regress_args(RANDOM, GREEDY, tmp_path), "--db", db, "--html", page)
    assert result.exit_code == 1, result.output
    assert "FAIL after" in result.output
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["verdict"] == "FAIL" and report["exit_code"] == 1
    assert report["mean"] < 0 and report["run"]["candidate"] == "random@1.0"
    assert report["run"]["games"] == 2 * report["pairs"]
    case = ET.parse(tmp_path / "r.xml").getroot().find("testsuite/testcase")
    assert case is not None and case.find("failure") is not None
    # --db: the games behind the FAIL can be looked at
    assert f"{report['run']['games']} game(s) recorded: arena games --db" in result.output
    with open_store(db, create=False) as store:
        games = store.list_games(limit=None)
    assert len(games) == report["run"]["games"]
    shown = cli("show", games[0].id, "--db", db)
    assert shown.exit_code == 0 and "random@1.0" in shown.output
    # --html: the verdict, the test's path, and a replay behind every game of every pair
    html = page.read_text()
    assert "Regression gate: FAIL" in html and 'data-kind="path"' in html
    linked = re.findall(r'href="(gate_files/games/[^"]+)"', html)
    assert len(linked) == report["run"]["games"]
    assert all((tmp_path / link).is_file() for link in linked)


@pytest.fixture(scope="module")
def undecided(tmp_path_factory):
    """(result, folder) of one regress of greedy against itself on a budget of 20 games, too
    few to decide, run without --db in a folder of its own; two tests read it."""
    folder = tmp_path_factory.mktemp("undecided")
    args = regress_args(GREEDY, GREEDY, folder)
    args[args.index("--games") + 1] = "20"
    with own_snapshot_cache(folder) as patch:
        patch.chdir(folder)
        patch.setenv("COLUMNS", "140")
        result = CliRunner().invoke(app, [str(a) for a in args], catch_exceptions=False)
    return result, folder


def test_without_db_regress_records_nothing(undecided):
    result, folder = undecided
    assert result.exit_code == 3, result.output
    assert not list(folder.glob("*.db")), "no database unless --db is given"


def test_one_seed_key_plays_the_same_deals_every_run(cli, tmp_path):
    """--seed-key replaces the fresh secret: two runs play the very same games (recorded with
    --db in two databases to compare them)."""
    played = []
    for name in ("first.db", "second.db"):
        args = regress_args(GREEDY, RANDOM, tmp_path)
        args[args.index("--games") + 1] = "20"
        result = cli(*args, "--seed-key", "regress-key-0123456789", "--db", tmp_path / name)
        assert result.exit_code in (0, 3), result.output
        with open_store(tmp_path / name, create=False) as store:
            records = [
                store.load_game(row["id"])
                for row in store.db.query("SELECT id FROM games ORDER BY id")
            ]
        played.append(
            [
                (r.seed, [s.bot_seed for s in r.seats], [(d.seat, d.action) for d in r.decisions])
                for r in records
            ]
        )
    assert played[0] and played[0] == played[1], "the same deals, seeds and decisions"


def test_a_clearly_better_candidate_passes_with_exit_0(cli, tmp_path):
    result = cli(*regress_args(GREEDY, RANDOM, tmp_path))
    assert result.exit_code == 0, result.output
    assert "PASS after" in result.output
    case = ET.parse(tmp_path / "r.xml").getroot().find("testsuite/testcase")
    assert case is not None and case.find("failure") is None and case.find("skipped") is None


def test_a_budget_too_small_to_decide_is_inconclusive_exit_3(undecided):
    result, _ = undecided
    assert result.exit_code == 3, result.output
    assert "INCONCLUSIVE" in result.output


def test_bad_bounds_are_a_usage_error(cli, tmp_path):
    result = cli(*regress_args(GREEDY, RANDOM, tmp_path), "--bounds", "delta9=1")
    assert result.exit_code == 2 and "delta9" in result.output


def test_each_pair_is_one_deal_with_only_the_tested_bot_changed():
    field = load_bot(RANDOM)
    plan = RegressPlan(
        get_game("corruption"),
        load_bot(GREEDY),
        field,
        (field, field),
        players=4,
        max_pairs=6,
        seed=3,
        bounds=Bounds(),
    )
    tasks = list(pair_tasks(plan))
    assert len(tasks) == 12
    for first, second in zip(tasks[::2], tasks[1::2], strict=True):
        assert first.seed == second.seed and first.group == second.group
        changed = [s for s, (a, b) in enumerate(zip(first.seating, second.seating)) if a != b]
        assert len(changed) == 1, "the two games differ in exactly one seat"
        assert first.seating[changed[0]] == CANDIDATE
        assert len(set(first.seating)) == 4, "every seat has its own bot process"
    assert {t.group % 4 for t in tasks} == {0, 1, 2, 3}, "the tested seat rotates"


def test_regress_deals_are_keyed_by_a_secret_drawn_for_each_run():
    """Both games of a pair share one deal; the deals come from the plan's secret (random for
    each run unless given), so knowing --seed does not give them, and reruns deal anew."""
    field = load_bot(RANDOM)

    def plan(secret: bytes | None = None) -> RegressPlan:
        extra = {} if secret is None else {"secret": secret}
        return RegressPlan(
            get_game("corruption"),
            load_bot(GREEDY),
            field,
            (field, field),
            players=3,
            max_pairs=20,
            seed=3,
            bounds=Bounds(),
            **extra,
        )

    def deals(p: RegressPlan) -> list[int]:
        return [t.seed for t in pair_tasks(p)][::2]

    fixed = plan(bytes(range(32)))
    assert deals(fixed) == [deal_seed(derive_deal_key(fixed.secret), 3, k) for k in range(20)]
    assert deals(fixed) == deals(plan(bytes(range(32)))), "the same secret: the same deals"
    assert len(set(deals(fixed))) == 20
    assert not set(deals(fixed)) & {(3 * 1_000_003 + k) % 2**63 for k in range(20)}
    first, second = plan(), plan()
    assert first.secret != second.secret, "a fresh secret for every run"
    assert not set(deals(first)) & set(deals(second))
    assert deals(first) == deals(first), "fixed within one run"


def test_identical_bots_in_duplicate_always_pass():
    """Same program, same seat, same deal, same seeds: every pair is a tie, so PASS.

    An all-tie run passes once the variance floor allows (Bounds.variance_floor): 112 pairs at
    the default delta1, 24 at -0.2. The pairs' count proves nothing more, so the test uses
    -0.2 and plays a fifth of the games."""
    bounds = Bounds(delta1=-0.2)
    plan = RegressPlan(
        get_game("corruption"),
        load_bot(RANDOM),
        load_bot(RANDOM),
        (load_bot(RANDOM),),
        players=3,
        max_pairs=200,
        seed=5,
        bounds=bounds,
    )
    run = run_regress(plan)
    assert run.result.verdict == Verdict.PASS
    assert len(run.pairs) >= bounds.min_pairs
    assert all(p.difference == 0 for p in run.pairs)


def real_differences(candidate, baseline, pairs: int, seed: int) -> list[float]:
    """Paired differences from real in-process 3-player games against two random bots; the
    candidate and baseline get independent randomness, so identical programs still differ."""
    game = get_game("corruption")
    out = []
    for k in range(pairs):
        seat = k % 3
        ranks = []
        for which, decide in ((0, candidate), (1, baseline)):
            bots = [InProcessBot(random_decider(seed + 7 * k + s)) for s in range(3)]
            bots[seat] = InProcessBot(decide(seed * 1000 + 2 * k + which))
            record = play_game(
                game,
                [SeatedBot(BotIdentity(str(i), "", "-"), b) for i, b in enumerate(bots)],
                seed=seed * 100_003 + k,
                options={},
                bot_seed_key=b"k",
            )
            ranks.append(record.seats[seat].rank)
        out.append(paired_difference(ranks[0], ranks[1], 3))
    return out


def test_calibrated_on_real_games_false_alarms_near_alpha_and_weak_bots_caught():
    """Bootstrap runs of the sequential test from paired differences of real games.

    Identical bots: the pool is symmetrised (d and -d are equally likely when the two bots are
    the same program), so the true delta is exactly 0 and FAIL is a false alarm. A random
    candidate against the greedy baseline is a real, large regression.

    A 3-seat paired difference takes five values, so the pools only estimate five
    probabilities: 120 and 60 real pairs do that well enough (each pair is two games, and the
    symmetrised pool's delta is exactly 0 whatever its size)."""
    same = real_differences(random_decider, random_decider, 120, seed=1)
    pool = same + [-d for d in same]
    greedy = load_greedy()
    worse = real_differences(random_decider, lambda s: greedy.decide, 60, seed=2)
    rng = random.Random(0)
    runs = 600
    bounds = Bounds()
    false_alarms = sum(
        run_sequential((rng.choice(pool) for _ in range(4000)), bounds, max_pairs=2000).verdict
        == Verdict.FAIL
        for _ in range(runs)
    )
    rate = false_alarms / runs
    tolerance = 3 * (bounds.alpha * (1 - bounds.alpha) / runs) ** 0.5
    print(
        f"\nreal-game bootstrap: false-alarm rate {rate:.3f} over {runs} runs (alpha {bounds.alpha})"
    )
    assert rate <= bounds.alpha + tolerance, f"false alarms {rate:.3f} well above alpha"
    caught = [
        run_sequential((rng.choice(worse) for _ in range(2000)), bounds, max_pairs=1000)
        for _ in range(200)
    ]
    assert all(r.verdict == Verdict.FAIL for r in caught), "a clearly weaker candidate is caught"
    print(
        f"weaker candidate caught in 200/200 runs, median {sorted(r.pairs for r in caught)[100]} pairs"
    )
