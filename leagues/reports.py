"""Machine-readable reports of a regression match: JSON for scripts, JUnit XML for CI dashboards.

``extra`` is what the runner knows beyond the statistics. The keys this module reads are
``game``, ``candidate`` and ``baseline`` (labels; required for JUnit) and ``elapsed_seconds``;
anything else (``field``, ``games``, ``pairs`` from ``pair_summary``, ...) is carried into the
JSON as given.

JUnit mapping (see REGRESS.md): PASS is a passing testcase, FAIL a ``<failure>``, and
INCONCLUSIVE a ``<skipped>``, because every common consumer (GitHub test-report actions,
GitLab, Jenkins, Azure DevOps) shows a skipped test without failing the pipeline, which is
the recommended treatment of exit code 3; the pipeline's own exit-code policy decides.
"""

from __future__ import annotations

import json
import os
import tempfile
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from arena.printable import visible
from leagues.sequential import RegressResult, Verdict

FORMAT = "arena-regress"
"""The ``format`` field of the JSON report."""
VERSION = 1
"""The ``version`` field; bumped when a field changes meaning or goes away."""
SUITE = "arena-regress"
"""Name of the JUnit testsuite."""


def summary_line(result: RegressResult) -> str:
    """One line for logs and the JUnit message, e.g.
    ``FAIL after 212 pairs: mean d -0.0610, 95% CI [-0.0930, -0.0290], LLR 2.961 (bounds
    -2.944, 2.944)``."""
    return (
        f"{result.verdict} after {result.pairs} pairs: mean d {result.mean:+.4f}, "
        f"95% CI [{result.ci_low:+.4f}, {result.ci_high:+.4f}], LLR {result.llr:.3f} "
        f"(bounds {result.lower_bound:.3f}, {result.upper_bound:.3f})"
    )


def explanation(result: RegressResult) -> str:
    """A few sentences saying what the verdict means, for the JUnit body and humans."""
    b = result.bounds
    hypotheses = (
        f"H0: delta = {b.delta0:g} (no regression) vs H1: delta = {b.delta1:g} (regression), "
        f"alpha = {b.alpha:g}, beta = {b.beta:g}; delta is the mean per-game difference in "
        f"normalized rank score (1 = first, 0 = last), candidate minus baseline."
    )
    played = (
        f"{result.pairs} duplicate pairs ({2 * result.pairs} games): mean {result.mean:+.4f}, "
        f"95% CI [{result.ci_low:+.4f}, {result.ci_high:+.4f}], stdev {result.stdev:.4f}."
    )
    if result.verdict == Verdict.FAIL:
        why = (
            f"Regression: LLR {result.llr:.3f} reached the FAIL bound {result.upper_bound:.3f}. "
            f"The candidate plays worse than the baseline (false-alarm rate {b.alpha:g})."
        )
    elif result.verdict == Verdict.PASS:
        why = (
            f"No regression: LLR {result.llr:.3f} reached the PASS bound "
            f"{result.lower_bound:.3f}. A loss of {abs(b.delta1):g} or more would have been "
            f"caught with probability {1 - b.beta:g}."
        )
    else:
        why = (
            f"Inconclusive: the budget ran out with LLR {result.llr:.3f} between "
            f"{result.lower_bound:.3f} and {result.upper_bound:.3f}. Any difference is "
            f"probably smaller than {abs(b.delta1):g} but was not shown to be absent; "
            f"rerun with a larger --games budget to decide."
        )
    return "\n".join((why, played, hypotheses))


def pair_summary(differences: Iterable[float]) -> dict[str, Any]:
    """Per-pair records summarized for the report: counts of pairs the candidate did better,
    equal or worse on, and a histogram of d (keys are d rounded to 4 places, as strings)."""
    values = [round(float(d), 4) + 0.0 for d in differences]  # + 0.0 turns -0.0 into 0.0
    histogram = Counter(values)
    return {
        "pairs": len(values),
        "candidate_better": sum(1 for d in values if d > 0),
        "equal": sum(1 for d in values if d == 0),
        "baseline_better": sum(1 for d in values if d < 0),
        "histogram": {f"{d:g}": histogram[d] for d in sorted(histogram)},
    }


def report_dict(result: RegressResult, extra: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON report as a dict: the result's fields at the top level (so ``jq .verdict``
    works), the exit code, and ``extra`` under ``run`` where it cannot shadow them."""
    return {
        "format": FORMAT,
        "version": VERSION,
        **result.to_dict(),
        "exit_code": result.exit_code,
        "run": _plain(dict(extra)),
    }


def write_json(
    path: str | os.PathLike[str], result: RegressResult, extra: Mapping[str, Any]
) -> None:
    """Write the JSON report (pretty-printed, strict JSON: no NaN or Infinity)."""
    text = json.dumps(report_dict(result, extra), indent=2, allow_nan=False, default=_json_default)
    _write_atomically(Path(path), text + "\n")


def read_json(path: str | os.PathLike[str]) -> tuple[RegressResult, dict[str, Any]]:
    """The result and the ``run`` dict of a JSON report written by ``write_json``."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if data.get("format") != FORMAT:
        raise ValueError(f"{path}: not an {FORMAT} report (format is {data.get('format')!r})")
    return RegressResult.from_dict(data), data.get("run", {})


def junit_element(result: RegressResult, extra: Mapping[str, Any]) -> ET.Element:
    """The JUnit XML document's root: ``<testsuites>`` holding one testsuite, one testcase."""
    missing = [key for key in ("game", "candidate", "baseline") if key not in extra]
    if missing:
        raise ValueError(f"JUnit report needs {', '.join(missing)} in extra (got {sorted(extra)})")
    # labels come from bots' manifests: XML 1.0 cannot hold control characters even escaped
    game, candidate, baseline = (visible(extra[k]) for k in ("game", "candidate", "baseline"))
    seconds = f"{float(extra.get('elapsed_seconds', 0.0)):.3f}"
    failures = "1" if result.verdict == Verdict.FAIL else "0"
    skipped = "1" if result.verdict == Verdict.INCONCLUSIVE else "0"
    counts = {"tests": "1", "failures": failures, "errors": "0", "skipped": skipped}

    root = ET.Element("testsuites", {"name": SUITE, "time": seconds, **counts})
    suite = ET.SubElement(root, "testsuite", {"name": SUITE, "time": seconds, **counts})
    properties = ET.SubElement(suite, "properties")
    for name, value in (
        ("verdict", str(result.verdict)),
        ("exit_code", str(result.exit_code)),
        ("pairs", str(result.pairs)),
        ("mean", repr(result.mean)),
        ("ci_low", repr(result.ci_low)),
        ("ci_high", repr(result.ci_high)),
        ("llr", repr(result.llr)),
        ("bounds", result.bounds.to_flag()),
    ):
        ET.SubElement(properties, "property", name=name, value=value)

    case = ET.SubElement(
        suite,
        "testcase",
        classname=f"{SUITE}.{game}",
        name=f"{candidate} vs {baseline} on {game}",
        time=seconds,
    )
    if result.verdict == Verdict.FAIL:
        failure = ET.SubElement(case, "failure", message=summary_line(result), type="regression")
        failure.text = explanation(result)
    elif result.verdict == Verdict.INCONCLUSIVE:
        ET.SubElement(case, "skipped", message=summary_line(result))
    ET.SubElement(case, "system-out").text = explanation(result)
    ET.indent(root)
    return root


def write_junit(
    path: str | os.PathLike[str], result: RegressResult, extra: Mapping[str, Any]
) -> None:
    """Write the JUnit XML report (UTF-8, with an XML declaration)."""
    text = ET.tostring(junit_element(result, extra), encoding="unicode")
    _write_atomically(Path(path), '<?xml version="1.0" encoding="utf-8"?>\n' + text + "\n")


def _plain(value: Any) -> Any:
    """extra with every string made visible (arena.printable): a bot's name with a control
    character or a lone surrogate must not make the report unreadable to a strict parser."""
    if isinstance(value, str):
        return visible(value)
    if isinstance(value, dict):
        return {_plain(k) if isinstance(k, str) else k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _json_default(value: Any) -> Any:
    # Bot directories arrive as Paths; anything else unknown is a bug in the caller.
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    if isinstance(value, set | frozenset):
        return sorted(value)
    raise TypeError(f"cannot put {type(value).__name__} {value!r} in a JSON report")


def _write_atomically(path: Path, text: str) -> None:
    # A CI step that uploads the report must never find half a file from a killed run.
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.chmod(temporary, 0o644)  # mkstemp makes it private; a report is meant to be read
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
