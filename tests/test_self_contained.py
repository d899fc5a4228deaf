"""The project stands on its own: no file points outside the clone.

The rules and design notes were first written in a folder beside the project, which a user's
clone does not have; a pointer there leaves a bot author without the rules they play by.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Built from pieces so that this file does not match itself.
OUTSIDE = ("../" + "shared", "shared/" + "rules", "shared/" + "DESIGN.md")

# What the project's own tools make (and .gitignore lists): not the project's files.
GENERATED_DIRS = {
    ".git",
    ".venv",
    "__pycache__",
    ".pytest_cache",
    ".hypothesis",
    ".ruff_cache",
    ".mypy_cache",
    "build",
    "dist",
    "logs",
}


def project_files() -> list[Path]:
    files = []
    for path in sorted(ROOT.rglob("*")):
        parts = path.relative_to(ROOT).parts
        if any(p in GENERATED_DIRS or p.endswith((".egg-info", "-logs")) for p in parts):
            continue
        if path.is_file() and ".db" not in path.name:
            files.append(path)
    return files


def test_the_walk_sees_the_project() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in project_files()}
    assert {"README.md", "protocol/SPEC.md", "arena/games/paranoia/cards.toml"} <= names


def test_no_file_points_outside_the_project() -> None:
    offenders = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in project_files()
        for number, line in enumerate(
            path.read_text(encoding="utf-8", errors="replace").splitlines(), 1
        )
        if any(needle in line for needle in OUTSIDE)
    ]
    assert not offenders, "point at the project's own documents instead:\n" + "\n".join(offenders)
