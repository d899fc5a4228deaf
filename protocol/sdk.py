"""A tiny SDK for Python bots: the handshake, the message loop, request ids and flushing.

A bot only writes ``decide``::

    from protocol import sdk

    def decide(view, legal, ctx):
        return sdk.random_action(legal, ctx.rng)

    sdk.run(decide, name="mybot", version="1.0")

With ``command = ["{python}", "bot.py"]`` in its bot.toml, such a bot runs under the interpreter
that runs arena, so this module is importable with no set-up. The SDK is a convenience, not part
of the protocol: SPEC.md is the contract, and a bot needs nothing but a JSON library.

Behaviour worth knowing:

- ``decide`` is called as ``decide(view, legal, ctx)`` when it takes three positional
  parameters (or ``*args``), else as ``decide(view, legal)``.
- If ``decide`` raises (or returns something that is not JSON), the traceback goes to stderr,
  followed by a line that begins with :data:`DECIDE_RAISED` and ends with the exception, and
  the bot answers :func:`default_action` of the request's legal description, so one bug does
  not forfeit the game; ``arena check`` finds that line in the bot's log and fails the check. An illegal (but JSON) answer is sent as it is: the referee judges.
- While :func:`run` is active and writes to the real stdout, ``sys.stdout`` points to stderr:
  a stray ``print`` lands in the bot's log instead of corrupting the wire.
- Messages of unknown types and unknown fields are ignored (SPEC.md §10); ``bye`` or the end of
  stdin makes :func:`run` return.
- The SDK asks for every wire feature (SPEC.md §13) the referee offers and undoes them before
  calling anything of the bot's: ``decide`` always gets the whole view and a plain legal
  description, ``ctx.request`` looks like a plain request, ``on_event`` gets each event of an
  ``events`` batch. A view patch that does not apply is logged like a raising ``decide`` (the
  default action is answered), so ``arena check`` reports it.
- Talk (SPEC.md §14) is asked for only when :func:`run` is given ``talk=``; that function then
  answers every ``talk`` request (called like ``decide``), and ``decide`` never sees one.

Stdlib and ``protocol`` only: this module must stay importable by any bot.
"""

from __future__ import annotations

import inspect
import json
import random
import sys
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from protocol import features, products, viewpatch
from protocol.legal import default_action, is_legal, random_action, why_illegal
from protocol.messages import PROTOCOL_VERSION, check_bot_hello

__all__ = [
    "DECIDE_RAISED",
    "PROTOCOL_VERSION",
    "Context",
    "GameInfo",
    "default_action",
    "is_legal",
    "legal_actions",
    "random_action",
    "run",
    "why_illegal",
]


TALK_DECISION = "talk"
"""The ``decision`` of a talk request (SPEC.md §14), answered by run's ``talk``."""

DECIDE_RAISED = "arena sdk: decide raised"
"""How the stderr line the SDK writes when ``decide`` raises begins; `arena check` looks for it."""


@dataclass(frozen=True)
class GameInfo:
    """A game as its game_start described it, with a random generator seeded for it."""

    game_id: str
    """Identifies the game."""
    title: str
    """The game title, e.g. "corruption" (game_start's "game")."""
    seat: int
    """This bot's seat, 0-based."""
    players: int
    """The number of seats."""
    seed: int
    """The per-game seed the referee gave this bot."""
    options: dict[str, Any]
    """The game's options."""
    time: dict[str, Any]
    """The clock: {"decision_ms": ..., "bank_ms": ..., "game_ms": ...} (SPEC.md §7)."""
    rng: random.Random = field(repr=False, compare=False)
    """Seeded from seed and seat: the same game gets the same draws (reproducible play)."""


@dataclass(frozen=True)
class Context:
    """What decide may want beyond the view and the legal description."""

    game: GameInfo
    """The game the request belongs to."""
    request: dict[str, Any]
    """The whole request message, unknown fields included."""

    @property
    def id(self) -> int:
        """The request id (the SDK puts it in the answer)."""
        return self.request["id"]

    @property
    def decision(self) -> str:
        """What is being decided, e.g. "place"."""
        return self.request.get("decision", "")

    @property
    def time_left_ms(self) -> int:
        """Milliseconds left for this answer, counted from when the referee sent the request."""
        return self.request.get("time_left_ms", 0)

    @property
    def rng(self) -> random.Random:
        """The game's seeded random generator (``game.rng``)."""
        return self.game.rng


Decide = Callable[..., Any]
"""``decide(view, legal)`` or ``decide(view, legal, ctx)`` returning the action (a JSON value)."""


def legal_actions(legal: dict[str, Any]) -> list[Any]:
    """The options of a choice description; a ValueError for the other kinds (whose actions are
    too many to list: use random_action or default_action, or read the description)."""
    if legal.get("kind") != "choice":
        raise ValueError(
            f"legal_actions lists only a choice; this description is a {legal.get('kind')!r}"
        )
    return list(legal["options"])


def run(
    decide: Decide,
    *,
    name: str,
    version: str = "",
    on_game_start: Callable[[GameInfo, dict[str, Any]], None] | None = None,
    on_event: Callable[[GameInfo, dict[str, Any]], None] | None = None,
    on_game_over: Callable[[GameInfo, dict[str, Any]], None] | None = None,
    talk: Decide | None = None,
    stdin: IO[Any] | None = None,
    stdout: IO[str] | None = None,
) -> None:
    """Play until ``bye`` or the end of stdin.

    decide: called for every request, see the module docstring.
    name, version: sent in the hello (protocol/names.py: a name is 1-40 characters, a version
        0-32, from ASCII letters, digits and . _ + -); a ValueError if invalid.
    on_game_start(game, view): called at each game_start.
    on_event(game, event): called for each event (the event body: {"kind": ..., ...}).
    on_game_over(game, message): called at each game_over with the whole message.
    talk: answers every ``talk`` request (SPEC.md §14), called like decide; given, the SDK asks
        for the ``talk`` feature, so the bot is seated in talk windows (protocol/talk.py builds
        the messages). Absent, the bot is never asked to talk and decide never sees talk.
    stdin, stdout: streams to use instead of the process's (tests); stdin may give str or bytes.
    An exception in a hook is logged to stderr and the game goes on.
    """
    hello = {"type": "hello", "protocol": PROTOCOL_VERSION, "name": name, "version": version}
    check_bot_hello(hello)
    session = _Session(decide, hello, on_game_start, on_event, on_game_over, talk)
    if stdout is not None:
        session.play(_lines(stdin), stdout)
        return
    wire = sys.stdout
    sys.stdout = sys.stderr
    try:
        session.play(_lines(stdin), wire)
    finally:
        sys.stdout = wire


class _Session:
    """One bot process's conversation with the referee."""

    def __init__(
        self,
        decide: Decide,
        hello: dict[str, Any],
        on_game_start: Callable[[GameInfo, dict[str, Any]], None] | None,
        on_event: Callable[[GameInfo, dict[str, Any]], None] | None,
        on_game_over: Callable[[GameInfo, dict[str, Any]], None] | None,
        talk: Decide | None = None,
    ) -> None:
        self.decide = decide
        self.with_context = _takes_context(decide)
        self.talk = talk
        self.talk_with_context = talk is not None and _takes_context(talk)
        self.hello = hello
        self.on_game_start = on_game_start
        self.on_event = on_event
        self.on_game_over = on_game_over
        self.games: dict[str, GameInfo] = {}
        self.current: GameInfo | None = None
        """The game of the last game_start: the one a message without game_id is about."""
        self.view: Any = None
        """The last view received in the current game, kept to apply the next view patch to
        (only when the referee sends patches: wire feature view-patch)."""
        self.patched = False

    def play(self, lines: Iterator[str], out: IO[str]) -> None:
        for line in lines:
            try:
                message = json.loads(line)
            except ValueError:
                _log(f"ignoring a line from the referee that is not JSON: {line[:80]!r}")
                continue
            if not isinstance(message, dict):
                continue
            kind = message.get("type")
            if kind == "bye":
                return
            if kind == "hello":
                _send(out, self.negotiate(message))
            elif kind == "request":
                _send_line(out, self.answer(message))
            elif kind == "game_start":
                game = _game_info(message)
                self.games[game.game_id] = game
                self.current = game
                if self.patched:  # our own copy: hooks may change theirs
                    self.view = _copy(message.get("view", {}))
                _hook(self.on_game_start, game, message.get("view", {}))
            elif kind == "event":
                _hook(self.on_event, self.game(message), message.get("event", {}))
            elif kind == "events":  # wire feature event-batch: several events in one line
                game = self.game(message)
                for event in message.get("events", []):
                    _hook(self.on_event, game, event)
            elif kind == "game_over":
                game = self.game(message)
                self.games.pop(game.game_id, None)
                self.current, self.view = None, None
                _hook(self.on_game_over, game, message)

    def negotiate(self, hello: dict[str, Any]) -> dict[str, Any]:
        """Our hello, asking for every wire feature the referee's hello offers, and for talk
        when the bot talks (none offered: exactly the plain hello, as any v1 referee expects)."""
        asked = [*features.WIRE, features.TALK] if self.talk is not None else list(features.WIRE)
        wanted = features.granted(hello.get("features"), asked)
        self.patched = features.VIEW_PATCH in wanted
        return {**self.hello, "features": wanted} if wanted else self.hello

    def game(self, message: dict[str, Any]) -> GameInfo:
        """The game a message is about (a stand-in if its game_start never came); without a
        game_id (wire feature game-id-once), the current game."""
        if "game_id" not in message and self.current is not None:
            return self.current
        game_id = str(message.get("game_id", ""))
        game = self.games.get(game_id)
        if game is None:
            game = _game_info({"game_id": game_id})
            self.games[game_id] = game
        return game

    def plain(self, request: dict[str, Any]) -> dict[str, Any]:
        """The request as a bot that negotiated no wire feature would have received it: the
        whole view (the patch applied to the last one), every option listed, the game_id."""
        plain = dict(request)
        if "view_patch" in plain:
            self.view = viewpatch.apply(self.view, plain.pop("view_patch"))
            plain["view"] = _copy(self.view)  # decide may change its view; ours must not
        elif self.patched and "view" in plain:
            self.view = _copy(plain["view"])
        if isinstance(plain.get("legal"), dict):
            plain["legal"] = products.expand(plain["legal"])
        if "game_id" not in plain and self.current is not None:
            plain["game_id"] = self.current.game_id
        return plain

    def answer(self, message: dict[str, Any]) -> str:
        """The action line answering a request: decide's action, or the default one if it fails."""
        request, legal = message, message.get("legal", {})
        try:
            request = self.plain(message)
            legal = request.get("legal", {})
            view = request.get("view", {})
            answer, with_context = self.decide, self.with_context
            if self.talk is not None and request.get("decision") == TALK_DECISION:
                answer, with_context = self.talk, self.talk_with_context
            if with_context:
                action = answer(view, legal, Context(self.game(request), request))
            else:
                action = answer(view, legal)
            return _encode({"type": "action", "id": request.get("id"), "action": action})
        except Exception as exc:
            # the traceback, then one line `arena check` recognises and reports (DECIDE_RAISED)
            what = " ".join(traceback.format_exception_only(exc)[-1].split())
            _log(
                traceback.format_exc().rstrip()
                + f"\n{DECIDE_RAISED} {what} (request {request.get('id')!r}; the SDK answered "
                "the default action)"
            )
            if request is message and "view_patch" in message:
                self.view = None  # the patch did not apply: every later one fails loudly too
        action = default_action(products.expand(legal))
        return _encode({"type": "action", "id": request.get("id"), "action": action})


def _game_info(message: dict[str, Any]) -> GameInfo:
    seed = message.get("seed", 0)
    seat = message.get("seat", 0)
    return GameInfo(
        game_id=str(message.get("game_id", "")),
        title=message.get("game", ""),
        seat=seat,
        players=message.get("players", 0),
        seed=seed,
        options=message.get("options", {}),
        time=message.get("time", {}),
        rng=random.Random(f"{seed}/{seat}"),
    )


def _takes_context(decide: Decide) -> bool:
    try:
        parameters = inspect.signature(decide).parameters.values()
    except (TypeError, ValueError):
        return False
    if any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in parameters):
        return True
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return sum(p.kind in positional for p in parameters) >= 3


def _lines(stdin: IO[Any] | None) -> Iterator[str]:
    """Lines from the referee as text; the process's stdin is read as UTF-8 bytes."""
    source = stdin if stdin is not None else getattr(sys.stdin, "buffer", sys.stdin)
    while True:
        line = source.readline()
        if not line:
            return
        if isinstance(line, bytes):
            try:
                line = line.decode("utf-8")
            except UnicodeDecodeError:
                _log(f"ignoring a line from the referee that is not UTF-8: {line[:80]!r}")
                continue
        yield line


def _copy(value: Any) -> Any:
    """A deep copy of a JSON value (faster than copy.deepcopy)."""
    return json.loads(json.dumps(value))


def _hook(hook: Callable[..., None] | None, *args: Any) -> None:
    if hook is None:
        return
    try:
        hook(*args)
    except Exception:
        _log(f"{getattr(hook, '__name__', 'hook')} failed; going on\n" + traceback.format_exc())


def _encode(message: dict[str, Any]) -> str:
    # ASCII output is right whatever stdout's encoding; NaN and Infinity are not JSON.
    return json.dumps(message, allow_nan=False)


def _send(out: IO[str], message: dict[str, Any]) -> None:
    _send_line(out, _encode(message))


def _send_line(out: IO[str], line: str) -> None:
    out.write(line + "\n")
    out.flush()


def _log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)
