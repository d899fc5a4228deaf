"""The code digest tells installs apart by their files (what a report's replay stamp and a
cluster's check of its workers rest on)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from arena import code_digest as digests


@pytest.fixture
def package(tmp_path: Path, monkeypatch) -> Path:
    """An importable package `digested_pkg` of two files, its digest cache cleared."""
    root = tmp_path / "digested_pkg"
    (root / "sub").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "sub" / "rules.md").write_text("one")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "digested_pkg", raising=False)
    digests._digest.cache_clear()
    yield root
    digests._digest.cache_clear()


def digest_now() -> str:
    digests._digest.cache_clear()
    return digests.code_digest("digested_pkg")


def test_a_changed_added_or_renamed_file_changes_the_digest(package: Path) -> None:
    first = digest_now()
    assert len(first) == 16 and first == digest_now(), "the same files, the same digest"
    (package / "sub" / "rules.md").write_text("two")
    second = digest_now()
    (package / "extra.py").write_text("")
    third = digest_now()
    (package / "extra.py").rename(package / "other.py")
    fourth = digest_now()
    assert len({first, second, third, fourth}) == 4


def test_compiled_caches_do_not_count(package: Path) -> None:
    first = digest_now()
    (package / "__pycache__").mkdir(exist_ok=True)  # importing it may have made one
    (package / "__pycache__" / "x.cpython-311.pyc").write_bytes(b"\0compiled")
    assert digest_now() == first
