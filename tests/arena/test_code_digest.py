"""The code digest tells installs apart by the files a wheel installs (what a report's replay
stamp and a cluster's check of its workers rest on), and by nothing else a checkout holds."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import pytest

from arena import code_digest as digests

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def package(tmp_path: Path, monkeypatch) -> Path:
    """An importable package `digested_pkg` of a module and a shipped data file (sub/*.md), its
    digest cache cleared."""
    root = tmp_path / "digested_pkg"
    (root / "sub").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "sub" / "rules.md").write_text("one")
    monkeypatch.setitem(digests.SHIPPED_DATA, "digested_pkg.sub", ("*.md",))
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


def test_files_a_wheel_would_not_install_do_not_count(package: Path) -> None:
    # a checkout's notes, an editor's backup, an unlisted data file: a worker installed from a
    # wheel of the same commit has none of them
    first = digest_now()
    (package / "NOTES.md").write_text("notes")
    (package / "sub" / "rules.md.orig").write_text("backup")
    (package / "sub" / "talk.toml").write_text("unlisted")
    (package / ".#other.py").symlink_to("nobody@host.1234")  # Emacs' lock while editing
    (package / ".swap.py").write_text("")
    assert digest_now() == first


def test_the_shipped_data_are_pyprojects_package_data() -> None:
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"
    ]
    ours = {
        name: tuple(patterns)
        for name, patterns in declared.items()
        if name.split(".")[0] in ("arena", "protocol", "leagues")
    }
    assert ours == digests.SHIPPED_DATA


def test_a_subpackage_digests_its_own_data(package: Path) -> None:
    first = digests.code_digest("digested_pkg.sub")
    (package / "sub" / "__init__.py").write_text("")
    digests._digest.cache_clear()
    with_module = digests.code_digest("digested_pkg.sub")
    (package / "sub" / "rules.md").write_text("changed")
    digests._digest.cache_clear()
    assert len({first, with_module, digests.code_digest("digested_pkg.sub")}) == 3
