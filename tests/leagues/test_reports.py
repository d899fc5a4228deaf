"""JSON and JUnit reports of the regression gate: structure per verdict, and round trips."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from leagues.reports import (
    FORMAT,
    explanation,
    pair_summary,
    read_json,
    report_dict,
    summary_line,
    write_json,
    write_junit,
)
from leagues.sequential import Bounds, RegressResult, Verdict, run_sequential


def result_for(verdict: str) -> RegressResult:
    """A real result of each kind, from the gate's own code."""
    if verdict == "FAIL":
        result = run_sequential([-1.0, -0.75, -1.0, -1.0, -0.75, -1.0, -1.0, -1.0], max_pairs=50)
    elif verdict == "PASS":
        result = run_sequential([0.0] * 200, max_pairs=500)
    else:
        result = run_sequential([0.5, -0.5] * 50, max_pairs=20)
    assert result.verdict == verdict
    return result


EXTRA = {
    "game": "corruption",
    "candidate": "greedy-v2",
    "baseline": "greedy-v1",
    "field": [Path("bots/random"), Path("bots/corruption-greedy")],
    "games": 40,
    "pairs": pair_summary([0.0, -0.25, 0.25, -1.0]),
    "elapsed_seconds": 12.3456,
}


def parse_junit(path: Path) -> ET.Element:
    assert path.read_text(encoding="utf-8").startswith('<?xml version="1.0" encoding="utf-8"?>')
    return ET.parse(path).getroot()


@pytest.mark.parametrize("verdict", ["PASS", "FAIL", "INCONCLUSIVE"])
def test_junit_structure(tmp_path: Path, verdict: str) -> None:
    result = result_for(verdict)
    path = tmp_path / "regress.xml"
    write_junit(path, result, EXTRA)
    root = parse_junit(path)

    assert root.tag == "testsuites"
    suites = root.findall("testsuite")
    assert len(suites) == 1, "exactly one testsuite"
    suite = suites[0]
    assert suite.get("name") == "arena-regress"
    assert suite.get("tests") == "1" and suite.get("errors") == "0"
    assert suite.get("failures") == ("1" if verdict == "FAIL" else "0")
    assert suite.get("skipped") == ("1" if verdict == "INCONCLUSIVE" else "0")
    assert root.get("failures") == suite.get("failures")

    properties = {p.get("name"): p.get("value") for p in suite.iter("property")}
    assert properties["verdict"] == verdict
    assert properties["exit_code"] == {"PASS": "0", "FAIL": "1", "INCONCLUSIVE": "3"}[verdict]
    assert float(properties["llr"]) == result.llr

    cases = suite.findall("testcase")
    assert len(cases) == 1, "exactly one testcase"
    case = cases[0]
    assert case.get("name") == "greedy-v2 vs greedy-v1 on corruption"
    assert case.get("classname") == "arena-regress.corruption"
    assert case.get("time") == "12.346" == suite.get("time")
    assert "mean" in case.findtext("system-out", "")

    outcome = [child.tag for child in case if child.tag in ("failure", "skipped", "error")]
    if verdict == "PASS":
        assert outcome == [], "a PASS is a plain passing testcase"
    elif verdict == "FAIL":
        assert outcome == ["failure"]
        failure = case.find("failure")
        assert failure is not None
        message = failure.get("message", "")
        assert message.startswith("FAIL after 8 pairs")
        assert f"LLR {result.llr:.3f}" in message
        assert f"[{result.ci_low:+.4f}, {result.ci_high:+.4f}]" in message
        assert "Regression" in (failure.text or "")
    else:
        assert outcome == ["skipped"], "INCONCLUSIVE is skipped: visible, but not a failure"
        assert case.find("skipped").get("message", "").startswith("INCONCLUSIVE after 20 pairs")


def test_junit_needs_the_labels(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="needs game, baseline"):
        write_junit(tmp_path / "x.xml", result_for("PASS"), {"candidate": "c"})
    assert not (tmp_path / "x.xml").exists()


def test_junit_escapes_awkward_labels(tmp_path: Path) -> None:
    extra = {**EXTRA, "candidate": 'v2 <"&">', "game": "a&b"}
    path = tmp_path / "r.xml"
    write_junit(path, result_for("FAIL"), extra)
    case = parse_junit(path).find("testsuite/testcase")
    assert case is not None and case.get("name") == 'v2 <"&"> vs greedy-v1 on a&b'


@pytest.mark.parametrize("verdict", ["PASS", "FAIL", "INCONCLUSIVE"])
def test_json_round_trips(tmp_path: Path, verdict: str) -> None:
    result = result_for(verdict)
    path = tmp_path / "out" / "regress.json"
    write_json(path, result, EXTRA)

    def no_constants(name: str) -> None:
        raise AssertionError(f"{name} in a JSON report: not valid JSON")

    data = json.loads(path.read_text(encoding="utf-8"), parse_constant=no_constants)
    assert data["format"] == FORMAT and data["version"] == 1
    assert data["verdict"] == verdict
    assert data["exit_code"] == result.exit_code
    assert data["bounds"] == {
        "delta0": 0.0,
        "delta1": -0.05,
        "alpha": 0.05,
        "beta": 0.05,
        "min_pairs": 8,
    }
    assert data["run"]["field"] == ["bots/random", "bots/corruption-greedy"]
    assert data["run"]["elapsed_seconds"] == 12.3456

    back, run = read_json(path)
    assert back == result
    assert run == json.loads(json.dumps({**EXTRA, "field": [str(p) for p in EXTRA["field"]]}))
    assert [p.name for p in path.parent.iterdir()] == ["regress.json"], "temporary file left"


def test_json_keeps_extra_out_of_the_result_fields() -> None:
    result = result_for("PASS")
    data = report_dict(result, {"verdict": "FAIL", "game": "g"})
    assert data["verdict"] == "PASS", "extra must not shadow the result"
    assert data["run"] == {"verdict": "FAIL", "game": "g"}


def test_json_refuses_what_it_cannot_represent(tmp_path: Path) -> None:
    with pytest.raises(TypeError, match="cannot put object"):
        write_json(tmp_path / "r.json", result_for("PASS"), {"bot": object()})
    with pytest.raises(ValueError):
        write_json(tmp_path / "r.json", result_for("PASS"), {"elapsed_seconds": float("nan")})
    assert list(tmp_path.iterdir()) == [], "a failed write leaves nothing behind"


def test_read_json_rejects_other_files(tmp_path: Path) -> None:
    path = tmp_path / "other.json"
    path.write_text('{"format": "something-else"}')
    with pytest.raises(ValueError, match="not an arena-regress report"):
        read_json(path)


def test_pair_summary() -> None:
    summary = pair_summary([0.0, -0.0, 0.25, -0.25, -0.25, 1.0, 1 / 3])
    assert summary["pairs"] == 7
    assert (summary["candidate_better"], summary["equal"], summary["baseline_better"]) == (3, 2, 2)
    assert summary["histogram"] == {"-0.25": 2, "0": 2, "0.25": 1, "0.3333": 1, "1": 1}
    assert pair_summary([]) == {
        "pairs": 0,
        "candidate_better": 0,
        "equal": 0,
        "baseline_better": 0,
        "histogram": {},
    }


def test_texts_state_the_hypotheses() -> None:
    result = result_for("PASS")
    line = summary_line(result)
    assert line.startswith("PASS after 112 pairs: mean d +0.0000")
    text = explanation(result)
    assert "No regression" in text and "H1: delta = -0.05" in text
    custom = run_sequential([0.0] * 500, Bounds(delta1=-0.1, beta=0.1), max_pairs=500)
    assert "H1: delta = -0.1" in explanation(custom) and "beta = 0.1" in explanation(custom)
    assert Verdict.INCONCLUSIVE in explanation(result_for("INCONCLUSIVE")).upper()
