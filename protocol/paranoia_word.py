"""Who gave this seat its word in PARANOIA's table talk, and who broke it (stdlib only, like
the SDK). Used by the bundled bots paranoia-loyal and paranoia-traitor.

Follows a game's events (protocol/games/paranoia.md): ``said`` messages, ``wounded`` and
``treason`` (their ``by`` says who gave them), ``mission`` and ``internal-security`` (talk as a
mission ends is about the next one). A seat is **bound** to this one for a mission when it
promised ``{"spare": me}`` (to me or to all), or when a ``{"spare": ...}`` pact between us was
accepted; a bound seat that then wounds me or gives me treason in that mission **lied**, and
stays a liar for the rest of the game.
"""

from __future__ import annotations

from typing import Any

SPARE = "spare"
TARGET = "target"


class Word:
    """One seat's memory of the table's word, for one game."""

    def __init__(self, me: int) -> None:
        self.me = me
        """This seat."""
        self.mission = 0
        """The mission being played (0 before the first)."""
        self.between = False
        """Internal Security is over and the next mission not begun: talk is about the next."""
        self.bound: dict[int, set[int]] = {}
        """Per seat, the missions for which it gave me its word."""
        self.liars: set[int] = set()
        """Seats that hurt me in a mission they had given me their word for."""
        self.denounced: set[int] = set()
        """Liars this seat has already denounced in public."""
        self.proposals: dict[tuple[Any, Any, Any], dict[str, Any]] = {}
        """Messages read, by (window, round, speaker): what an accept refers to."""

    def talked_of(self) -> int:
        """The mission that what is said now is about."""
        return self.mission + 1 if self.between else self.mission

    def bound_now(self, seat: int) -> bool:
        """Whether ``seat`` gave me its word for the mission being played."""
        return self.mission in self.bound.get(seat, set())

    def on_event(self, event: dict[str, Any]) -> None:
        kind = event.get("kind")
        if kind == "mission":
            self.mission, self.between = int(event.get("number", self.mission + 1)), False
        elif kind == "internal-security":
            self.between = True
        elif kind == "said":
            self._said(event)
        elif kind in ("wounded", "treason") and event.get("seat") == self.me:
            by = event.get("by")
            if isinstance(by, int) and by != self.me and self.bound_now(by):
                self.liars.add(by)

    def _said(self, message: dict[str, Any]) -> None:
        speaker, act, terms = message.get("from"), message.get("act"), message.get("terms")
        if not isinstance(speaker, int):
            return
        key = (message.get("window"), message.get("round"), speaker)
        self.proposals[key] = message
        if act == "promise" and terms == {SPARE: self.me} and message.get("to") in ("all", self.me):
            self._bind(speaker)
        elif act == "accept" and isinstance(message.get("ref"), dict):
            ref = message["ref"]
            proposal = self.proposals.get(
                (message.get("window"), ref.get("round"), ref.get("from"))
            )
            if proposal is None or not _pact(proposal):
                return
            proposer = proposal.get("from")
            if isinstance(proposer, int) and self.me in (speaker, proposer) and speaker != proposer:
                self._bind(proposer if speaker == self.me else speaker)

    def _bind(self, seat: int) -> None:
        self.bound.setdefault(seat, set()).add(self.talked_of())


def _pact(message: dict[str, Any]) -> bool:
    """A proposal of a pact: ``{"spare": addressee}`` proposed privately."""
    terms = message.get("terms")
    return (
        message.get("act") == "propose"
        and isinstance(terms, dict)
        and terms.get(SPARE) == message.get("to")
    )


def pact_with(seat: int) -> dict[str, Any]:
    """A pact proposed privately to ``seat``: neither targets the other in the mission."""
    return {"act": "propose", "to": seat, "terms": {SPARE: seat}}


class Words:
    """A Word per game, for a bot process that plays games one after another (SDK hooks:
    ``on_game_start=words.start, on_event=words.event``; ``words.of(ctx.game)`` in decide)."""

    def __init__(self) -> None:
        self._words: dict[str, Word] = {}

    def start(self, game: Any, view: dict[str, Any]) -> None:
        self._words = {game.game_id: Word(game.seat)}  # a new game: forget the last one

    def event(self, game: Any, event: dict[str, Any]) -> None:
        self.of(game).on_event(event)

    def of(self, game: Any) -> Word:
        return self._words.setdefault(game.game_id, Word(game.seat))

    def run(self, decide: Any, chat: Any, *, name: str, version: str) -> None:
        """Play with the SDK (sdk.run), talking with ``chat``, these Words following each game."""
        from protocol.sdk import run  # here: the memory alone needs no SDK

        start, event = self.start, self.event
        run(decide, name=name, version=version, talk=chat, on_game_start=start, on_event=event)


def other_talkers(game: Any) -> list[int]:
    """The seats this one can talk to (the game's ``talk`` option), clockwise from its left."""
    talkers = [s for s in game.options.get("talk", []) if isinstance(s, int) and s != game.seat]
    return sorted(talkers, key=lambda s: (s - game.seat) % max(game.players, 1))
