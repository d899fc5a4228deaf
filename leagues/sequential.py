"""The CI regression gate's statistics: a sequential test on duplicate-pair differences.

A regression match plays each deal twice, once with the candidate and once with the baseline
in the same seat, and turns the pair into one number, the paired difference

    d = s(candidate) - s(baseline),   s = (N - rank) / (N - 1) in [0, 1],

so d is in [-1, 1]. The gate decides between

    H0: the mean difference delta = delta0 (0: no regression)   -> PASS
    H1: delta = delta1 (-0.05: a regression)                     -> FAIL

with the generalized sequential probability ratio test (GSPRT) that fishtest and fastchess run
on game pairs: a normal model for d whose variance is estimated from the data, so after n pairs
with mean m and variance v the log-likelihood ratio is

    LLR = sum_i [log N(d_i; delta1, v) - log N(d_i; delta0, v)]
        = n (delta1 - delta0) (2m - delta0 - delta1) / (2v).

Wald's bounds decide: LLR >= ln((1 - beta) / alpha) accepts H1 (FAIL), LLR <= ln(beta /
(1 - alpha)) accepts H0 (PASS); a run that reaches its budget in between is INCONCLUSIVE.

The LLR depends on the data only through n, sum(d) and sum(d^2) (see ``evaluate``), so the
test is cheap, order-free and can be resumed from three numbers.

``calibrate`` (and ``python -m leagues.sequential --calibrate``) measures the error rates of
this very code by Monte Carlo on simulated 5-seat duplicate matches; REGRESS.md has the figures.
"""

from __future__ import annotations

import argparse
import bisect
import math
import random
import statistics
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from enum import StrEnum
from types import MappingProxyType
from typing import Any


class Verdict(StrEnum):
    """What the gate says (a str, so it compares equal to "PASS" and serialises as one)."""

    PASS = "PASS"
    """H0 accepted: no regression of size |delta1| or more (at error rate beta)."""
    FAIL = "FAIL"
    """H1 accepted: the candidate is worse than the baseline (at error rate alpha)."""
    CONTINUE = "CONTINUE"
    """Not decided yet: play more pairs. Never a final verdict."""
    INCONCLUSIVE = "INCONCLUSIVE"
    """The budget ran out between the bounds: the difference is probably smaller than
    |delta1| but not shown to be zero."""


EXIT_CODES: Mapping[str, int] = MappingProxyType({"PASS": 0, "FAIL": 1, "INCONCLUSIVE": 3})
"""Process exit status per final verdict. 2 is left for errors (bad flags, a bot that will not
start), which argparse/Typer already use."""

Z95 = 1.959963984540054
"""The two-sided 95% normal quantile."""


# --- bounds ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Bounds:
    """The hypotheses and error rates of one gate.

    The default regression, delta1 = -0.05 in normalized-rank units, is 5% of the gap between
    first and last place per game: at a 5-seat table, one place lost in one deal out of five.
    That is small enough to be a real loss a bot author cares about and large enough to be
    found in a few hundred pairs (a tenth of that would take a hundred times as many).
    """

    delta0: float = 0.0
    """Mean paired difference under H0 (no regression)."""
    delta1: float = -0.05
    """Mean paired difference under H1 (the smallest regression worth failing a build for)."""
    alpha: float = 0.05
    """Wanted false-alarm rate: P(FAIL | delta = delta0)."""
    beta: float = 0.05
    """Wanted miss rate: P(PASS | delta = delta1)."""
    min_pairs: int = 8
    """No verdict before this many pairs: the variance estimate of a handful of pairs is too
    rough to stop on."""

    def __post_init__(self) -> None:
        for name in ("delta0", "delta1", "alpha", "beta"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ValueError(f"{name} must be a number, got {value!r}")
            if not math.isfinite(value):
                raise ValueError(f"{name} must be finite, got {value!r}")
        if not (-1.0 <= self.delta1 < self.delta0 <= 1.0):
            raise ValueError(
                f"need -1 <= delta1 < delta0 <= 1 (a regression is a lower mean difference, and "
                f"d is in [-1, 1]); got delta0={self.delta0}, delta1={self.delta1}"
            )
        for name in ("alpha", "beta"):
            if not 0.0 < getattr(self, name) < 0.5:
                raise ValueError(f"{name} must be in (0, 0.5), got {getattr(self, name)}")
        if isinstance(self.min_pairs, bool) or not isinstance(self.min_pairs, int):
            raise ValueError(f"min_pairs must be an integer, got {self.min_pairs!r}")
        if self.min_pairs < 2:
            raise ValueError(
                f"min_pairs must be at least 2 (a variance needs two pairs), got {self.min_pairs}"
            )

    @property
    def lower(self) -> float:
        """ln(beta / (1 - alpha)): at or below it, PASS."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        """ln((1 - beta) / alpha): at or above it, FAIL."""
        return math.log((1.0 - self.beta) / self.alpha)

    @property
    def variance_floor(self) -> float:
        """The smallest variance the LLR will divide by: g(1 - g), g = delta0 - delta1 (capped
        at 0.5).

        Why that value: a run of identical results (v = 0) cannot tell "identical candidate"
        from "a candidate that finishes last in a rare fraction g of the deals and plays the
        same otherwise" - a crash in one rare situation, the most typical hidden regression of
        the duplicate format. That candidate has mean -g and variance g(1 - g). Flooring at its
        variance makes an all-zero run PASS only after 2 |lower| g(1-g) / g^2 pairs (112 with the
        defaults), by which time that rare regression would have shown itself with probability
        1 - 0.95^112 > 99.6%. Real pairs vary far more (about 0.1 at 5 seats), so the floor only
        ever makes the test slower, never laxer.
        """
        g = min(self.delta0 - self.delta1, 0.5)
        return g * (1.0 - g)

    def to_flag(self) -> str:
        """The --bounds text that parses back to these bounds."""
        return ",".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self))


def parse_bounds(text: str) -> Bounds:
    """Bounds from a flag like ``"delta1=-0.05,alpha=0.05,beta=0.1"``; unnamed keys keep their
    defaults, an empty text gives the defaults."""
    known = {f.name: f for f in fields(Bounds)}
    values: dict[str, Any] = {}
    for item in text.split(","):
        if not item.strip():
            continue
        key, sep, raw = item.partition("=")
        key, raw = key.strip(), raw.strip()
        if not sep or not raw:
            raise ValueError(f"bounds: expected key=value, got {item.strip()!r}")
        if key not in known:
            raise ValueError(f"bounds: unknown key {key!r}; known keys: {', '.join(known)}")
        if key in values:
            raise ValueError(f"bounds: {key} given twice")
        try:
            values[key] = int(raw) if key == "min_pairs" else float(raw)
        except ValueError:
            kind = "an integer" if key == "min_pairs" else "a number"
            raise ValueError(f"bounds: {key} must be {kind}, got {raw!r}") from None
    return Bounds(**values)


# --- the statistic -----------------------------------------------------------------------


def normalized_score(rank: int, seats: int) -> float:
    """s = (N - rank) / (N - 1): 1 for a sole winner, 0 for last place (ties share a rank)."""
    if seats < 2 or not 1 <= rank <= seats:
        raise ValueError(f"rank {rank} is not in 1..{seats} (seats must be at least 2)")
    return (seats - rank) / (seats - 1)


def paired_difference(candidate_rank: int, baseline_rank: int, seats: int) -> float:
    """d for one duplicate pair: the candidate's normalized score minus the baseline's."""
    return normalized_score(candidate_rank, seats) - normalized_score(baseline_rank, seats)


def llr(pairs: int, mean: float, variance: float, bounds: Bounds) -> float:
    """The GSPRT log-likelihood ratio of H1 against H0 for ``pairs`` pairs of this mean, with
    ``variance`` taken as known (callers pass the floored estimate)."""
    d0, d1 = bounds.delta0, bounds.delta1
    return pairs * (d1 - d0) * (2.0 * mean - d0 - d1) / (2.0 * variance)


@dataclass(frozen=True)
class TestState:
    """Where a sequential test stands after some pairs."""

    __test__ = False  # not a pytest test class, despite the name

    pairs: int
    """Pairs seen."""
    mean: float
    """Mean paired difference (0 before the first pair)."""
    stdev: float
    """Standard deviation of d used by the test: the unbiased estimate, floored at
    sqrt(bounds.variance_floor)."""
    llr: float
    """Log-likelihood ratio of H1 (regression) against H0."""
    lower: float
    """PASS bound, ln(beta / (1 - alpha))."""
    upper: float
    """FAIL bound, ln((1 - beta) / alpha)."""
    verdict: Verdict
    """PASS, FAIL, or CONTINUE (also CONTINUE whatever the LLR before bounds.min_pairs)."""


def evaluate(pairs: int, total: float, total_sq: float, bounds: Bounds) -> TestState:
    """The test's state from n, sum(d) and sum(d^2): everything it depends on.

    Variance: the unbiased (n - 1) estimate rather than the maximum-likelihood (n) one. The two
    differ by a factor n / (n - 1), which is nothing at the few hundred pairs where decisions
    usually fall, but the MLE shrinks the variance (and inflates |LLR|) exactly at small n,
    where an early stop on a lucky streak is the likeliest error.
    """
    floor = bounds.variance_floor
    if pairs == 0:
        mean, variance = 0.0, floor
    else:
        mean = total / pairs
        sample = (total_sq - pairs * mean * mean) / (pairs - 1) if pairs > 1 else 0.0
        variance = max(sample, floor)
    ratio = llr(pairs, mean, variance, bounds)
    lower, upper = bounds.lower, bounds.upper
    if pairs < bounds.min_pairs:
        verdict = Verdict.CONTINUE
    elif ratio >= upper:
        verdict = Verdict.FAIL
    elif ratio <= lower:
        verdict = Verdict.PASS
    else:
        verdict = Verdict.CONTINUE
    return TestState(pairs, mean, math.sqrt(variance), ratio, lower, upper, verdict)


class SequentialTest:
    """Feed paired differences one at a time; ask ``state()`` whether to stop.

    Holds only n, sum and sum of squares, so the state after some pairs does not depend on
    their order (up to float rounding).
    """

    def __init__(self, bounds: Bounds = Bounds()) -> None:
        self.bounds = bounds
        self._pairs = 0
        self._total = 0.0
        self._total_sq = 0.0

    def add(self, d: float) -> None:
        """Record one pair's difference (must be in [-1, 1])."""
        # The slack admits rounding in s(c) - s(b); NaN fails every comparison and is refused.
        if isinstance(d, bool) or not (
            isinstance(d, int | float) and -1.0 - 1e-9 <= d <= 1.0 + 1e-9
        ):
            raise ValueError(f"a paired difference must be a number in [-1, 1], got {d!r}")
        self._pairs += 1
        self._total += d
        self._total_sq += d * d

    def state(self) -> TestState:
        """Where the test stands now."""
        return evaluate(self._pairs, self._total, self._total_sq, self.bounds)


def finish(state: TestState, max_reached: bool) -> Verdict:
    """The final verdict: the state's PASS or FAIL, or INCONCLUSIVE if the budget ran out
    first. Raises ValueError for an undecided state whose budget did not run out (a caller
    that stopped too soon)."""
    if state.verdict in (Verdict.PASS, Verdict.FAIL):
        return state.verdict
    if max_reached:
        return Verdict.INCONCLUSIVE
    raise ValueError(
        f"no verdict yet after {state.pairs} pairs (LLR {state.llr:.3f} between "
        f"{state.lower:.3f} and {state.upper:.3f}): play more pairs, or pass max_reached=True "
        f"if the budget is spent"
    )


# --- the result --------------------------------------------------------------------------


@dataclass(frozen=True)
class RegressResult:
    """The outcome of a regression match, as reported to CI."""

    verdict: Verdict
    """PASS, FAIL or INCONCLUSIVE."""
    pairs: int
    """Duplicate pairs played (two games each)."""
    mean: float
    """Mean paired difference, candidate minus baseline (0 with no pairs)."""
    stdev: float
    """Standard deviation of d used by the test (floored, see Bounds.variance_floor)."""
    ci_low: float
    """Lower end of the 95% normal-approximation interval for delta, clipped to [-1, 1]."""
    ci_high: float
    """Upper end of that interval."""
    llr: float
    """Final log-likelihood ratio of H1 (regression) against H0."""
    lower_bound: float
    """PASS bound on the LLR."""
    upper_bound: float
    """FAIL bound on the LLR."""
    bounds: Bounds
    """The hypotheses and error rates the verdict was reached with."""

    @property
    def exit_code(self) -> int:
        """The process exit status for this verdict (EXIT_CODES)."""
        return EXIT_CODES[self.verdict]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (verdict as its string, bounds as a nested dict)."""
        out = asdict(self)
        out["verdict"] = str(self.verdict)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RegressResult:
        """The inverse of ``to_dict`` (extra keys are ignored)."""
        names = {f.name for f in fields(cls)}
        values = {key: data[key] for key in names}
        values["verdict"] = Verdict(values["verdict"])
        values["bounds"] = Bounds(**values["bounds"])
        return cls(**values)


def conclude(state: TestState, verdict: Verdict, bounds: Bounds) -> RegressResult:
    """The reported result of a finished test (verdict from ``finish``).

    The interval is mean +- 1.96 stdev / sqrt(n), with the test's floored stdev so a run of
    identical results does not claim a zero-width interval. It is a description, not part of
    the decision: taken at a data-dependent stopping time it is somewhat biased towards the
    verdict (REGRESS.md gives the measured coverage).
    """
    if verdict is Verdict.CONTINUE:
        raise ValueError("CONTINUE is not a final verdict: use finish() first")
    if state.pairs == 0:
        low, high = -1.0, 1.0
    else:
        half = Z95 * state.stdev / math.sqrt(state.pairs)
        low, high = max(-1.0, state.mean - half), min(1.0, state.mean + half)
    return RegressResult(
        verdict=verdict,
        pairs=state.pairs,
        mean=state.mean,
        stdev=state.stdev,
        ci_low=low,
        ci_high=high,
        llr=state.llr,
        lower_bound=state.lower,
        upper_bound=state.upper,
        bounds=bounds,
    )


def run_sequential(
    differences: Iterable[float], bounds: Bounds = Bounds(), max_pairs: int = 1000
) -> RegressResult:
    """Run the test over paired differences until a verdict or ``max_pairs``.

    ``differences`` is consumed lazily, so a generator that plays a pair per item plays no pair
    past the decision. Running out of items before a verdict counts as a spent budget
    (INCONCLUSIVE). Feed pairs in schedule order (not completion order) so a rerun of the same
    deals stops at the same place.
    """
    if max_pairs < bounds.min_pairs:
        raise ValueError(
            f"max_pairs ({max_pairs}) is below min_pairs ({bounds.min_pairs}): "
            f"the test could never decide"
        )
    test = SequentialTest(bounds)
    state = test.state()
    for d in differences:
        test.add(d)
        state = test.state()
        if state.verdict is not Verdict.CONTINUE or state.pairs >= max_pairs:
            break
    return conclude(state, finish(state, max_reached=True), bounds)


# --- calibration -------------------------------------------------------------------------

SEATS = 5
"""Table size of the calibration model."""

BASELINE_RANKS = (0.28, 0.24, 0.20, 0.16, 0.12)
"""P(rank 1..5) of the calibration baseline: a bot somewhat better than the field (mean
normalized score 0.6)."""


def rank_distribution(base: Sequence[float], mean_score: float) -> tuple[float, ...]:
    """``base`` exponentially tilted, p(r) ~ base(r) exp(theta s(r)), to the given mean
    normalized score: the candidate of a calibration run, better or worse by the same kind of
    shift across all ranks."""
    seats = len(base)
    scores = [normalized_score(r, seats) for r in range(1, seats + 1)]
    if not 0.0 < mean_score < 1.0:
        raise ValueError(f"mean score must be in (0, 1), got {mean_score}")

    def tilted(theta: float) -> list[float]:
        weights = [p * math.exp(theta * s) for p, s in zip(base, scores)]
        total = sum(weights)
        return [w / total for w in weights]

    low, high = -60.0, 60.0
    for _ in range(200):  # bisection: the tilted mean is increasing in theta
        mid = (low + high) / 2
        if sum(p * s for p, s in zip(tilted(mid), scores)) < mean_score:
            low = mid
        else:
            high = mid
    return tuple(tilted((low + high) / 2))


@dataclass(frozen=True)
class DuplicateModel:
    """Simulated duplicate pairs: the bot under test's rank in the candidate's game and in the
    baseline's game of one deal.

    With probability ``rho`` the deal decides both games alike (one uniform draw feeds both
    inverse CDFs, so equal distributions give equal ranks); otherwise the two games are
    independent. The mean of d is exactly the difference of the two mean scores, whatever rho.
    """

    candidate: tuple[float, ...]
    """P(rank 1..N) for the candidate."""
    baseline: tuple[float, ...]
    """P(rank 1..N) for the baseline."""
    rho: float
    """Probability that the deal, not the bot, decides the rank."""

    @classmethod
    def with_delta(
        cls, delta: float, rho: float = 0.5, baseline: Sequence[float] = BASELINE_RANKS
    ) -> DuplicateModel:
        """A model whose true mean paired difference is ``delta``."""
        base = tuple(baseline)
        base_mean = sum(p * normalized_score(r, len(base)) for r, p in enumerate(base, 1))
        candidate = base if delta == 0 else rank_distribution(base, base_mean + delta)
        return cls(candidate, base, rho)

    @property
    def delta(self) -> float:
        """The true mean paired difference."""
        seats = len(self.baseline)
        scores = [normalized_score(r, seats) for r in range(1, seats + 1)]
        return sum((c - b) * s for c, b, s in zip(self.candidate, self.baseline, scores))

    def sampler(self, rng: random.Random) -> Iterable[float]:
        """An endless stream of paired differences drawn with ``rng``."""
        seats = len(self.baseline)
        scores = [normalized_score(r, seats) for r in range(1, seats + 1)]
        cum_c = _cumulative(self.candidate)
        cum_b = _cumulative(self.baseline)
        last = seats - 1
        while True:
            u = rng.random()
            v = u if rng.random() < self.rho else rng.random()
            rank_c = min(bisect.bisect_right(cum_c, u), last)
            rank_b = min(bisect.bisect_right(cum_b, v), last)
            yield scores[rank_c] - scores[rank_b]


def _cumulative(probs: Sequence[float]) -> list[float]:
    out, acc = [], 0.0
    for p in probs:
        acc += p
        out.append(acc)
    out[-1] = 1.0  # so rounding never leaves a sliver above the last rank
    return out


@dataclass(frozen=True)
class Calibration:
    """Measured behaviour of the gate over many simulated regression matches."""

    delta: float
    """True mean paired difference of the simulated candidate."""
    rho: float
    """Deal correlation of the model."""
    runs: int
    """Simulated matches."""
    max_pairs: int
    """Budget per match."""
    pass_rate: float
    """Fraction of matches ending PASS."""
    fail_rate: float
    """Fraction ending FAIL."""
    inconclusive_rate: float
    """Fraction ending INCONCLUSIVE."""
    median_pairs: float
    """Median pairs played per match."""
    mean_pairs: float
    """Mean pairs played per match."""
    ci_coverage: float
    """Fraction of matches whose reported 95% interval holds the true delta."""

    def tolerance(self, rate: float) -> float:
        """Three binomial standard errors of a rate near ``rate`` over these runs."""
        return 3.0 * math.sqrt(rate * (1.0 - rate) / self.runs)


def calibrate(
    delta: float,
    *,
    runs: int = 2000,
    max_pairs: int = 2000,
    rho: float = 0.5,
    bounds: Bounds = Bounds(),
    seed: int = 1,
) -> Calibration:
    """Run ``runs`` simulated matches of a candidate with true mean difference ``delta``
    through ``run_sequential`` (the gate's own code) and measure what it decided.
    Deterministic for a given seed."""
    model = DuplicateModel.with_delta(delta, rho)
    rng = random.Random(seed)
    verdicts = {Verdict.PASS: 0, Verdict.FAIL: 0, Verdict.INCONCLUSIVE: 0}
    lengths, covered = [], 0
    for _ in range(runs):
        result = run_sequential(model.sampler(rng), bounds, max_pairs)
        verdicts[result.verdict] += 1
        lengths.append(result.pairs)
        covered += result.ci_low <= model.delta <= result.ci_high
    return Calibration(
        delta=delta,
        rho=rho,
        runs=runs,
        max_pairs=max_pairs,
        pass_rate=verdicts[Verdict.PASS] / runs,
        fail_rate=verdicts[Verdict.FAIL] / runs,
        inconclusive_rate=verdicts[Verdict.INCONCLUSIVE] / runs,
        median_pairs=statistics.median(lengths),
        mean_pairs=statistics.fmean(lengths),
        ci_coverage=covered / runs,
    )


CALIBRATION_DELTAS = (0.1, 0.0, -0.025, -0.05, -0.1, -0.3)
"""The true deltas of the printed calibration table: better, identical, half a regression,
exactly delta1, twice delta1, clearly weaker."""


def calibration_table(calibrations: Iterable[Calibration]) -> str:
    """A fixed-width table of calibration figures (Markdown-compatible)."""
    lines = [
        "| true delta | rho | runs | PASS | FAIL | INCONCL. | median pairs | mean pairs "
        "| CI coverage |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for c in calibrations:
        lines.append(
            f"| {c.delta:+.3f} | {c.rho:.2f} | {c.runs} | {c.pass_rate:.4f} | "
            f"{c.fail_rate:.4f} | {c.inconclusive_rate:.4f} | {c.median_pairs:g} | "
            f"{c.mean_pairs:.1f} | {c.ci_coverage:.3f} |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m leagues.sequential --calibrate``: print the calibration table."""
    parser = argparse.ArgumentParser(
        prog="python -m leagues.sequential",
        description="Measure the regression gate's error rates on simulated 5-seat matches.",
        epilog="example: python -m leagues.sequential --calibrate --runs 4000 --rho 0.8",
    )
    parser.add_argument("--calibrate", action="store_true", help="run the calibration")
    parser.add_argument("--runs", type=int, default=2000, help="simulated matches per delta")
    parser.add_argument("--max-pairs", type=int, default=2000, help="budget per match")
    parser.add_argument("--rho", type=float, default=0.5, help="deal correlation (0..1)")
    parser.add_argument("--seed", type=int, default=1, help="random seed")
    parser.add_argument("--bounds", default="", help='e.g. "delta1=-0.05,alpha=0.05"')
    parser.add_argument(
        "--delta", type=float, action="append", help="true delta(s) to simulate (repeatable)"
    )
    args = parser.parse_args(argv)
    if not args.calibrate:
        parser.print_help()
        return 2
    try:
        bounds = parse_bounds(args.bounds)
    except ValueError as error:
        parser.error(str(error))
    print(
        f"bounds: {bounds.to_flag()}  (LLR bounds {bounds.lower:.4f} / {bounds.upper:.4f}, "
        f"variance floor {bounds.variance_floor:.4f})"
    )
    rows = [
        calibrate(
            delta,
            runs=args.runs,
            max_pairs=args.max_pairs,
            rho=args.rho,
            bounds=bounds,
            seed=args.seed,
        )
        for delta in (args.delta or CALIBRATION_DELTAS)
    ]
    print(calibration_table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
