"""Parts of a game's views kept from one decision to the next, rebuilt only when their inputs
change.

A view is built at every decision, yet most of it (the board, most seats, the cards on the
table) is what it was at the previous decision, and building it again cost as much as the
engine's own work (issue #12). A game's view module therefore builds each costly part through
``ViewParts.get(name, key, build, *args)``: the value last built under ``name`` is returned
again while ``key`` compares equal to the key it was built under; otherwise ``build(*args)``
makes it afresh.

Rules every caller keeps:

- A key is the *content* of everything the part is built from (its inputs compared by value),
  never a counter that some mutation might forget to bump: then a part cannot go stale however
  the state changes (an engine method, a test setting a field). A key may hold live objects of
  the state (its lists, its dicts) to be compared without copying them; ``snapshot`` then says
  how to copy such a key when a part is built, so that the key kept is not the live object that
  later changes under it.
- A part that differs per seat (a hand, what a seat peeked at, which faces it sees) has the seat,
  or exactly what makes it differ, in its key or its name: a part built for one seat is served
  to another only when its content cannot depend on the seat.
- Parts are shared: the same object goes into every view built while its key holds. Nothing
  changes a view once built (the referee, the in-process bots' copies and the wire only read and
  encode views), and the view modules never change a part after building it.

Each game state holds its own ``ViewParts`` (never a module global: two games played in one
process would evict each other's parts). An empty ``ViewParts`` builds everything from scratch,
which is how tests check that the parts kept give the same views as parts built afresh.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any


class ViewParts:
    """The parts of one game's views, each with the key it was built under."""

    __slots__ = ("_held",)

    def __init__(self) -> None:
        self._held: dict[Hashable, tuple[Any, Any]] = {}
        """name -> (key, part)."""

    def get(
        self,
        name: Hashable,
        key: Any,
        build: Callable[..., Any],
        *args: Any,
        snapshot: Callable[[Any], Any] | None = None,
    ) -> Any:
        """The part ``name`` as built for ``key`` (compared with ==), built now by
        ``build(*args)`` if the last one was built for a different key. ``snapshot(key)`` is
        kept instead of ``key`` when the key holds live, mutable parts of the state."""
        held = self._held.get(name)
        if held is not None and held[0] == key:
            return held[1]
        part = build(*args)
        self._held[name] = (key if snapshot is None else snapshot(key), part)
        return part
