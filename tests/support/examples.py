"""How many examples a property test runs: its whole budget under `make test` (and CI), a share
of it under `make test-quick`, whose hypothesis profile ("arena-quick", tests/conftest.py) lowers
hypothesis' default budget. A test that sets its own max_examples passes it through examples(),
so that its budget scales with the profile as the default does."""

from __future__ import annotations

from hypothesis import settings

HYPOTHESIS_DEFAULT = 100
"""hypothesis' own max_examples, which the suite's "arena" profile keeps."""

FEWEST = 3
"""The fewest examples a scaled budget keeps: a property still meets a few varied inputs."""


def examples(full: int) -> int:
    """``full`` under the "arena" profile; under another, ``full`` scaled as that profile
    scales the default budget (never below FEWEST, never above ``full``). Called when a test
    module is imported, after pytest has loaded the profile (--hypothesis-profile)."""
    share = settings.default.max_examples / HYPOTHESIS_DEFAULT
    return min(full, max(FEWEST, round(full * share)))
