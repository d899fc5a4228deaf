"""Table talk (SPEC.md §14): windows in which the seats that asked for talk send each other
messages, public or private, with a structured part every bot can parse and a short free text.

Talk is part of the game state, not a side channel: a message is the answer to a ``talk``
decision and reaches the others as a ``said`` event, so the game's record replays it, a seat's
replay shows exactly the talk it could read, and hidden information is built the way every
event's is. A private message's event is seen by its speaker and its addressee only, with
nothing for anyone else (not even that it was sent); seats that did not ask for talk see no
talk at all.

What is binding is the game's to say (``Terms``): accepting a proposal whose terms are binding
makes the game carry them out (e.g. a payment); everything else (promises, threats) binds
nobody. This module knows no game's vocabulary.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from arena.games.base import BadOptions, Decision, Event, normalize_variants
from protocol.legal import choice, record, text

TALK = "talk"
"""The ``kind`` of every talk decision."""
PASS, PROPOSE, ACCEPT, REJECT = "pass", "propose", "accept", "reject"
ACTS: tuple[str, ...] = (PASS, PROPOSE, ACCEPT, REJECT, "promise", "threat", "tell")
"""What a message does, DAIDE's press in miniature; "pass" (first: the default) says nothing."""
TEXT_LENGTH = 140
"""Characters of free text a message may carry."""
ALL = "all"
"""``to`` of a public message: every talker reads it."""
OPTION = "talk"
"""The game option the referee sets: the sorted seats that talk."""


@dataclass(frozen=True)
class Message:
    """One message, as recorded and as its readers are told it."""

    window: int
    """The game's number for the window it was sent in (1, 2, ...)."""
    round: int
    """The round of that window (1, 2, ...): with the speaker, names the message."""
    speaker: int
    to: int | None
    """The addressee's seat; None: every talker."""
    act: str
    terms: Any
    """The game's structured terms (legal under its Terms.terms_legal), or None."""
    ref: dict[str, int] | None
    """``{"round": r, "from": seat}``: the proposal this message answers, or None."""
    text: str

    @property
    def name(self) -> dict[str, int]:
        """How a later message refers to this one (its ``ref``)."""
        return {"round": self.round, "from": self.speaker}

    def json(self) -> dict[str, Any]:
        return {
            "window": self.window,
            "round": self.round,
            "from": self.speaker,
            "to": ALL if self.to is None else self.to,
            "act": self.act,
            "terms": self.terms,
            "ref": self.ref,
            "text": self.text,
        }

    def readers(self, talkers: frozenset[int]) -> frozenset[int]:
        """The seats that read it: everyone who talks, or the speaker and its addressee."""
        return talkers if self.to is None else frozenset((self.speaker, self.to))


class Terms(Protocol):
    """A game's vocabulary of structured terms, and what accepting them does."""

    def terms_legal(self, speaker: int) -> dict[str, Any] | None:
        """The legal description of the terms this speaker may use now, or None for none."""

    def binding(self, terms: Any) -> bool:
        """True when accepting a proposal with these terms makes the game carry them out."""

    def carry_out(self, proposal: Message, accepter: int) -> list[Event]:
        """Carry out an accepted binding proposal; the events say what was done (or that it
        could no longer be done)."""


class NoTerms:
    """Talk with free text and acts only: nothing structured, nothing binding."""

    def terms_legal(self, speaker: int) -> dict[str, Any] | None:
        return None

    def binding(self, terms: Any) -> bool:
        return False

    def carry_out(self, proposal: Message, accepter: int) -> list[Event]:
        return []


class TalkWindow:
    """One window of talk: each talker in seat order from ``first`` may send one message per
    round, for ``rounds`` rounds. Proposals made in it are open until accepted (or, when
    private, refused) or until it closes.

    It always runs every round: closing early once a round went by in silence would tell a
    seat that was asked again that somebody had spoken, perhaps privately to someone else."""

    def __init__(
        self,
        number: int,
        label: str,
        talkers: Sequence[int],
        first: int,
        rounds: int,
        terms: Terms,
    ) -> None:
        ordered = sorted(talkers)
        at = next((i for i, seat in enumerate(ordered) if seat >= first), 0)
        self.number = number
        self.label = label
        self.order = ordered[at:] + ordered[:at]
        self.talkers = frozenset(ordered)
        self.rounds = rounds
        self.terms = terms
        self.round = 1
        self._turn = 0
        self.messages: list[Message] = []
        self._open: list[Message] = []
        """Proposals that can still be accepted, oldest first."""
        self.done = len(self.order) < 2 or rounds < 1

    def decision(self) -> Decision:
        """The question for the talker whose turn it is (only while not done)."""
        seat = self.order[self._turn]
        return Decision(seat, TALK, self._legal(seat))

    def apply(self, action: dict[str, Any]) -> list[Event]:
        """Apply a legal answer to ``decision()``; the events it caused (none for a pass)."""
        seat = self.order[self._turn]
        events = self._message(seat, action)
        self._next()
        return events

    def view(self, seat: int) -> dict[str, Any]:
        """What this seat may read of the window: its label, where it stands, the messages
        addressed to it or to everyone, and the open proposals it could answer."""
        readable = [m for m in self.messages if seat in m.readers(self.talkers)]
        return {
            "window": self.label,
            "number": self.number,
            "round": self.round,
            "open": not self.done,
            "messages": [m.json() for m in readable],
        }

    def max_decisions(self) -> int:
        """Decisions this window takes (for a game's max_decisions bound)."""
        return len(self.order) * self.rounds

    # -- inside ----------------------------------------------------------------------------

    def _legal(self, seat: int) -> dict[str, Any]:
        fields: dict[str, dict[str, Any]] = {
            "act": choice(list(ACTS)),
            "to": choice([ALL, *(other for other in self.order if other != seat)]),
        }
        terms = self.terms.terms_legal(seat)
        if terms is not None:
            fields["terms"] = terms
        answerable = self._answerable(seat)
        if answerable:
            fields["ref"] = choice([m.name for m in answerable])
        fields["text"] = text(TEXT_LENGTH)
        return record(fields, optional=[name for name in fields if name != "act"])

    def _answerable(self, seat: int) -> list[Message]:
        """Open proposals this seat reads and did not make."""
        return [m for m in self._open if m.speaker != seat and seat in m.readers(self.talkers)]

    def _message(self, seat: int, action: dict[str, Any]) -> list[Event]:
        act = action["act"]
        if act == PASS:
            return []
        to = action.get("to", ALL)
        ref = action.get("ref")
        message = Message(
            self.number,
            self.round,
            seat,
            None if to == ALL else to,
            act,
            action.get("terms"),
            ref,
            action.get("text", ""),
        )
        refused = self._why_not(message)
        if refused is not None:
            body = {"window": self.number, "round": self.round, "reason": refused}
            return [Event("unsaid", body, seen_by=frozenset((seat,)))]
        self.messages.append(message)
        events = [Event("said", message.json(), seen_by=message.readers(self.talkers))]
        if act == PROPOSE:
            self._open.append(message)
        elif ref is not None:
            events.extend(self._answer(message, ref))
        return events

    def _why_not(self, message: Message) -> str | None:
        """Why a legal answer is still not a message, or None: the rules the legal
        description cannot express."""
        if message.act in (ACCEPT, REJECT) and message.ref is None:
            return f"{message.act} must name the proposal it answers (ref)"
        if message.ref is not None and message.act in (ACCEPT, REJECT):
            proposal = self._proposal(message.ref)
            # a public proposal closed by a private accept would vanish from the others'
            # choices unexplained, telling them somebody took it
            if proposal is not None and proposal.to is None and message.to is not None:
                return f"{message.act} of a public proposal goes to everyone"
            if proposal is not None and message.to not in (None, proposal.speaker):
                return f"{message.act} goes to everyone or to the proposal's sender"
        return None

    def _proposal(self, ref: dict[str, int]) -> Message | None:
        return next((m for m in self._open if m.name == ref), None)

    def _answer(self, answer: Message, ref: dict[str, int]) -> list[Event]:
        """Close the proposal an accept or a private reject answers; carry out an accepted
        binding one."""
        proposal = self._proposal(ref)
        if proposal is None or answer.act not in (ACCEPT, REJECT):
            return []
        if answer.act == REJECT:
            if proposal.to is not None:
                self._open.remove(proposal)
            return []
        self._open.remove(proposal)
        if proposal.terms is not None and self.terms.binding(proposal.terms):
            return self.terms.carry_out(proposal, answer.speaker)
        return []

    def _next(self) -> None:
        self._turn += 1
        if self._turn < len(self.order):
            return
        if self.round >= self.rounds:
            self.done = True
            self._open.clear()
            return
        self._turn = 0
        self.round += 1


# -- options ---------------------------------------------------------------------------------


def normalize_options(options: dict[str, Any] | None, known: tuple[str, ...]) -> dict[str, Any]:
    """A talk-capable title's canonical options: ``{"variants": [...]}`` plus ``"talk"``
    (the sorted talking seats) when present; BadOptions naming the fix otherwise."""
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise BadOptions(f'options must be a JSON object like {{"variants": []}}, not {options!r}')
    rest = {key: value for key, value in options.items() if key != OPTION}
    normal: dict[str, Any] = {"variants": normalize_variants(rest, known)}
    if OPTION in options:
        normal[OPTION] = _seats(options[OPTION])
    return normal


def talkers(options: dict[str, Any], players: int) -> frozenset[int]:
    """The talking seats of (normalized or not) options at a table of ``players``."""
    seats = _seats(options.get(OPTION, [])) if isinstance(options, dict) else []
    if any(seat >= players for seat in seats):
        raise BadOptions(f"'{OPTION}' names seat {max(seats)} at a table of {players}")
    return frozenset(seats)


def _seats(raw: Any) -> list[int]:
    if not isinstance(raw, list | tuple) or not all(
        isinstance(seat, int) and not isinstance(seat, bool) and seat >= 0 for seat in raw
    ):
        raise BadOptions(
            f"'{OPTION}' must be a list of seat numbers (the referee sets it from the handshake)"
        )
    return sorted(set(raw))


# -- words -----------------------------------------------------------------------------------


def describe(event: dict[str, Any]) -> str | None:
    """A talk event in words, or None when ``event`` is not one (for a game's describe)."""
    if event.get("kind") == "unsaid":
        return f"not sent: {event.get('reason', '')}"
    if event.get("kind") != "said":
        return None
    to = event.get("to")
    audience = "everyone" if to == ALL else f"seat {to} (private)"
    words = f"seat {event.get('from')} to {audience}: {event.get('act')}"
    if event.get("terms") is not None:
        words += f" {_compact(event['terms'])}"
    if event.get("ref") is not None:
        ref = event["ref"]
        words += f" (answering seat {ref.get('from')}, round {ref.get('round')})"
    if event.get("text"):
        words += f' "{event["text"]}"'
    return words


def _compact(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_compact(v)}" for k, v in value.items()) + "}"
    return str(value)
