"""Where things are in the repository, for tests that run the bundled or fake bots."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
"""The repository's root."""
FAKEBOT = ROOT / "tests" / "fakebots" / "fakebot.py"
"""A bot that misbehaves on demand (its mode), run as a real subprocess."""
