"""How `make bench` states a figure: the figure, its target, and whether this run met it.

The benches assert nothing (timing depends on the machine and its load); each line says what
was measured against what was asked, so a reader of a CI log sees at a glance what is met.
"""

from __future__ import annotations


def figure(name: str, value: str, target: str, met: bool) -> None:
    """Print one figure: `name  value   target: ...  met|NOT met`."""
    print(f"  {name:<32}{value:<30}target {target:<34}{'met' if met else 'NOT met'}")


def note(name: str, value: str) -> None:
    """Print a figure that has no target of its own (context for the figures that do)."""
    print(f"  {name:<32}{value}")
