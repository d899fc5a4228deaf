"""The referee: plays one game between seats, enforcing hidden information, time and faults.

It is the only code that talks to both a game and the bots. A seat is sent exactly its own
view and the events built for it (games.base.Event.for_seat); every answer is checked against
the legal actions before the game sees it; a fault is recorded for its seat and handled by
the fault policy, never by game code.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import os
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from arena.conditions import FaultPolicy, TimeControl
from arena.faults import BotError, BotGameTime, BotProtocolError, Fault
from arena.games import talk
from arena.games.base import Event, Game, IllegalAction
from arena.record import BotIdentity, DecisionRecord, GameRecord, GameStatus, SeatRecord
from arena.wire import Shared
from protocol import codec, features, legal, messages


class Transport(Protocol):
    """How the referee reaches a seat's bot (a BotProcess, or an in-process bot in tests)."""

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message for the bot (no waiting)."""

    def ask(self, request: dict[str, Any], timeout_s: float) -> tuple[Any, float]:
        """Send a request, wait at most timeout_s; return (action, seconds) or raise BotError."""

    def flush(self, timeout_s: float) -> None:
        """Deliver what is queued, waiting at most timeout_s."""

    def stop(self, grace_s: float = 0.0) -> int | None:
        """Stop the bot."""

    def cpu_seconds(self) -> float | None:
        """CPU time the bot has used so far, from the operating system (None if unknown)."""


@dataclass
class SeatedBot:
    """Who sits in a seat for one game."""

    identity: BotIdentity
    transport: Transport | None
    """None when the bot could not be started; start_error then says why."""
    start_error: BotError | None = None


def seat_seed(key: bytes, seed: int, seat: int) -> int:
    """The seed a seat's bot is sent: HMAC-SHA256 of (deal seed, seat) under a secret key.

    Never the deal's own seed: with that, a bot could re-deal the game and see every hidden
    card. Keyed, because deal seeds are small integers a bot could otherwise search.
    """
    digest = hmac.new(key, f"{seed}:{seat}".encode(), hashlib.sha256).digest()
    # 53 bits: below 2**53, so every JSON reader (JavaScript's JSON.parse included, whose
    # numbers are doubles) reads it exactly. Still 2**53 seeds: no bot can search the key.
    return int.from_bytes(digest[:8], "big") >> 11


def new_game_id() -> str:
    """A fresh, unique game id."""
    return uuid.uuid4().hex


def play_game(
    game: Game,
    seated: list[SeatedBot],
    *,
    seed: int,
    options: dict[str, Any],
    time_control: TimeControl = TimeControl(),
    fault_policy: FaultPolicy = FaultPolicy.SUBSTITUTE,
    game_id: str | None = None,
    bot_seed_key: bytes | None = None,
    bot_seeds: Sequence[int] | None = None,
) -> GameRecord:
    """Play one game to its end and return its record (nothing is stored here).

    bot_seed_key: the secret bots' seeds are derived with (seat_seed); pass the same key to
    make a rerun send the same seeds. Default: a fresh random key. bot_seeds: the seed to send
    each seat, instead of deriving them (a rerun of a recorded game, whose record keeps them).
    """
    key = bot_seed_key if bot_seed_key is not None else os.urandom(32)
    seeds = (
        list(bot_seeds)
        if bot_seeds is not None
        else [seat_seed(key, seed, seat) for seat in range(len(seated))]
    )
    return _Game(game, seated, seed, options, time_control, fault_policy, game_id, seeds).run()


class _Game:
    """The state of one refereed game (an object only to keep play_game readable)."""

    def __init__(
        self,
        game: Game,
        seated: list[SeatedBot],
        seed: int,
        options: dict[str, Any],
        time_control: TimeControl,
        fault_policy: FaultPolicy,
        game_id: str | None,
        bot_seeds: list[int],
    ) -> None:
        self.game = game
        self.seated = seated
        self.seed = seed
        self.options = game.normalize_options(options)
        self.clock = time_control
        self.policy = fault_policy
        self.game_id = game_id or new_game_id()
        n = len(seated)
        if not game.min_players <= n <= game.max_players:
            raise ValueError(
                f"{game.title} is for {game.min_players} to {game.max_players} players, not {n}"
            )
        self.faults: list[BotError | None] = [e.start_error for e in seated]
        self.bank = [time_control.bank_s] * n
        self.time_used = [0.0] * n
        self.waited = [0.0] * n
        """Wall time the referee spent waiting on each seat (answered or not), for the game
        clock; time_used, the record's figure, counts answered requests only."""
        self.started = 0.0
        self.answered = [0] * n
        self.decisions: list[DecisionRecord] = []
        self.request_ids = [0] * n
        """Each seat numbers its own requests: a shared count would tell a seat how often the
        others were asked, i.e. (in PARANOIA) who holds a card that could answer."""
        self.aborted: str | None = None
        self.aborted_told: str | None = None
        """What the other seats are told when the reason recorded (aborted) quotes what they
        may not see: a fault's reason quotes the faulted bot's stderr or output, and a
        referee error the game's internals."""
        if len(bot_seeds) != n:
            raise ValueError(f"{len(bot_seeds)} bot seeds for {n} seats")
        self.bot_seeds = bot_seeds
        self.cpu_at_fault: dict[int, float | None] = {}
        self.live = [
            seat
            for seat, bot in enumerate(seated)
            if self.faults[seat] is None and bot.transport is not None
        ]
        """The seats still told and asked: started and not faulted (kept, not recomputed at
        every event; _fault replaces it, never changes it in place, so a list handed out
        stays as it was)."""
        self.options = _with_talkers(game, self.options, self.live, seated)

    def run(self) -> GameRecord:
        started_at = _now()
        self.started = _clock()
        cpu_before = [self._cpu(seat) for seat in range(len(self.seated))]
        state, events = self.game.start(len(self.seated), self.seed, self.options)
        for seat in self.live:
            self._send(
                seat,
                messages.game_start(
                    self.game_id,
                    self.game.title,
                    seat,
                    len(self.seated),
                    self.bot_seeds[seat],
                    self.options,
                    {
                        "decision_ms": _ms(self.clock.decision_s),
                        "bank_ms": _ms(self.clock.bank_s),
                        "game_ms": _ms(self.clock.game_s),
                    },
                    state.view(seat),
                ),
            )
        self._deliver(events)
        if self.policy is FaultPolicy.ABORT:
            self._abort_on_first_fault()
        while self.aborted is None and (decision := state.pending()) is not None:
            if len(self.decisions) >= self.game.max_decisions:
                self.aborted = f"the game exceeded {self.game.max_decisions} decisions"
                break
            seat = decision.seat
            action, ms, by_referee = self._decide(seat, decision.kind, decision.legal, state)
            if self.aborted is not None:
                break
            applied = self._apply(state, seat, decision.legal, action, by_referee)
            if applied is None:
                break
            events, record = applied
            self.decisions.append(
                record if record is not None else DecisionRecord(seat, action, by_referee, ms)
            )
            self._deliver(events)
        return self._finish(state, started_at, cpu_before)

    # -- asking -----------------------------------------------------------------------------

    def _decide(
        self, seat: int, kind: str, legal_desc: dict[str, Any], state: Any
    ) -> tuple[Any, float, bool]:
        """The action for this decision: the bot's, or the default if the seat has faulted."""
        transport = self.seated[seat].transport
        if self.faults[seat] is None and transport is not None:
            self._check_game_clock()
        if self.faults[seat] is None and transport is not None and self.aborted is None:
            self.request_ids[seat] += 1
            request_id = self.request_ids[seat]
            allowed = self.clock.decision_s + self.bank[seat]
            request = messages.request(
                self.game_id, request_id, kind, state.view(seat), legal_desc, _ms(allowed)
            )
            asked_at = _clock()
            try:
                try:
                    action, elapsed = transport.ask(request, allowed)
                finally:
                    self.waited[seat] += _clock() - asked_at
                action = _checked_answer(legal_desc, action, request_id, kind)
            except BotError as error:
                self._fault(seat, error)
            except Exception as exc:  # a referee bug: the seat loses, the game goes on
                self._fault(
                    seat, _referee_error(exc, f"handling the answer to request {request_id}")
                )
            else:
                self.bank[seat] -= max(0.0, elapsed - self.clock.decision_s)
                self.time_used[seat] += elapsed
                self.answered[seat] += 1
                return action, round(elapsed * 1000, 3), False
        return legal.default_action(legal_desc), 0.0, True

    def _check_game_clock(self) -> None:
        """Fault one seat if the game has passed its wall-clock limit.

        The game's time is its wall time less what the referee spent waiting on seats no
        longer asked (faulted: their default actions cost nothing), so the seats still
        playing are judged by the time they and the game take: once a slow seat is faulted,
        fast ones finish the game unharmed, and while those left still keep the game past its
        limit one more is faulted at each request, slowest first (this ends: no live seat, no
        request). A backstop bounds the whole: past twice the limit of plain wall time, a
        seat is faulted at every request whatever was credited back. The seat faulted is the
        live one the referee has waited on longest (the lowest seat on a tie).
        """
        limit = self.clock.game_s
        wall = _clock() - self.started
        if wall <= limit:
            return  # the usual case, decided without the sum: wall - gone <= wall <= limit
        gone = sum(self.waited[s] for s in range(len(self.seated)) if self.faults[s] is not None)
        if wall - gone <= limit and wall <= 2 * limit:
            return
        live = self.live
        if not live:
            return
        seat = slowest_seat(self.waited, live)
        if wall - gone > limit:
            passed = f"the game passed its {_seconds(limit)} limit"
            if gone:
                passed += f" ({_seconds(wall - gone)} without the seats already stopped)"
        else:
            passed = f"the game lasted {_seconds(wall)}, twice its {_seconds(limit)} limit"
        self._fault(
            seat,
            BotGameTime(
                f"{passed}; this seat had used {_seconds(self.waited[seat])} of it, "
                f"the most of any seat still playing"
            ),
        )

    def _apply(
        self, state: Any, seat: int, legal_desc: dict[str, Any], action: Any, by_referee: bool
    ) -> tuple[list[Event], DecisionRecord | None] | None:
        """Apply the action: the events it caused and, when what was applied is not the
        action given, the record of what was; None when the game had to be aborted.

        The answer was checked against the legal description, so a game that still refuses
        it (IllegalAction, state unchanged) has a description looser than its rules: the seat
        is faulted with the game's words and its default action applied. Anything else a
        game raises may have left its state half-changed: the game is aborted, the exception
        named so the bug stays visible.
        """
        try:
            return state.apply_checked(action), None
        except IllegalAction as exc:
            if by_referee:
                self.aborted = f"{REFEREE_ERROR}: the game refused its own default action: {exc}"
                self.aborted_told = f"{REFEREE_ERROR}: the game could not go on (a bug in arena)"
                return None
            self._fault(
                seat,
                BotProtocolError(
                    Fault.ILLEGAL,
                    f"the game refused the answer although it matched the legal actions "
                    f"({REFEREE_ERROR}, please report it): {exc}",
                ),
            )
            if self.aborted is not None:
                return None
            default = legal.default_action(legal_desc)
            applied = self._apply(state, seat, legal_desc, default, True)
            return None if applied is None else (applied[0], DecisionRecord(seat, default, True))
        except Exception as exc:
            self.aborted = (
                f"{REFEREE_ERROR}: the game raised {type(exc).__name__} applying seat "
                f"{seat}'s action: {_cut(str(exc))}"
            )
            self.aborted_told = f"{REFEREE_ERROR}: the game could not go on (a bug in arena)"
            return None

    def _fault(self, seat: int, error: BotError) -> None:
        self.faults[seat] = error
        self.live = [s for s in self.live if s != seat]
        transport = self.seated[seat].transport
        if transport is not None:
            self.cpu_at_fault[seat] = transport.cpu_seconds()
            transport.stop()
        if self.policy is FaultPolicy.ABORT:
            who = f"seat {seat} ({self.seated[seat].identity.label}) faulted: {error.fault}"
            self.aborted = f"{who}: {error.reason}"
            self.aborted_told = who  # the reason quotes the faulted bot's output: not for others

    def _abort_on_first_fault(self) -> None:
        for seat, error in enumerate(self.faults):
            if error is not None:
                self._fault(seat, error)
                return

    # -- telling ----------------------------------------------------------------------------

    def _send(self, seat: int, message: dict[str, Any]) -> None:
        transport = self.seated[seat].transport
        assert transport is not None
        transport.send(message)

    def _deliver(self, events: list[Event]) -> None:
        """Queue each event for every seat, in the version built for that seat.

        Seats told the same version share one message (Event.audiences): the referee builds
        each version once per event, not once per seat, and a transport that encodes encodes
        it once per wire form (Shared). Each seat still gets its events in order, and only the
        versions it may see.
        """
        if not events:
            return
        seated = self.seated
        for event in events:
            for seats, body in event.audiences(self.live):
                message = Shared(messages.event(self.game_id, body))
                for seat in seats:
                    seated[seat].transport.send(message)  # type: ignore[union-attr]

    # -- the end ----------------------------------------------------------------------------

    def _cpu(self, seat: int) -> float | None:
        transport = self.seated[seat].transport
        return transport.cpu_seconds() if transport is not None else None

    def _cpu_ms(self, seat: int, before: float | None) -> float | None:
        """CPU the seat's bot used during this game, measured before it may be stopped."""
        after = self.cpu_at_fault[seat] if seat in self.cpu_at_fault else self._cpu(seat)
        if before is None or after is None:
            return None
        return round((after - before) * 1000, 1)

    def _finish(self, state: Any, started_at: str, cpu_before: list[float | None]) -> GameRecord:
        n = len(self.seated)
        if self.aborted is None:
            outcome = state.outcome()
            scores = list(outcome.scores)
            ranks = _faulted_last(list(outcome.ranks), [f is not None for f in self.faults])
            detail = outcome.detail
            status, termination = GameStatus.COMPLETE, "normal"
        else:
            scores, ranks, detail = [0.0] * n, [0] * n, {}
            status, termination = GameStatus.ABORTED, self.aborted
        for seat in self.live:
            self._send(
                seat,
                messages.game_over(
                    self.game_id,
                    status,
                    None if status == GameStatus.COMPLETE else (self.aborted_told or termination),
                    scores,
                    ranks,
                ),
            )
            transport = self.seated[seat].transport
            try:
                transport.flush(self.clock.decision_s)  # type: ignore[union-attr]
            except BotError:
                pass  # the game is over; a bot that stops reading now only loses its news
        seats = tuple(
            SeatRecord(
                seat=seat,
                bot=self.seated[seat].identity,
                score=scores[seat],
                rank=ranks[seat],
                fault=fault.fault if fault else Fault.OK,
                fault_reason=fault.reason if fault else None,
                time_ms=round(self.time_used[seat] * 1000, 3),
                decisions=self.answered[seat],
                bot_seed=self.bot_seeds[seat],
                cpu_ms=self._cpu_ms(seat, cpu_before[seat]),
            )
            for seat, fault in enumerate(self.faults)
        )
        return GameRecord(
            game_id=self.game_id,
            title=self.game.title,
            options=self.options,
            seed=self.seed,
            seats=seats,
            decisions=tuple(self.decisions),
            status=status,
            termination=termination,
            started_at=started_at,
            finished_at=_now(),
            detail=detail,
            sandboxed=self._sandboxed(),
            time_control=self.clock,
            fault_policy=self.policy,
        )

    def _sandboxed(self) -> bool | None:
        """Whether every bot process of the game ran sandboxed (None: no bot processes)."""
        said = [getattr(e.transport, "sandboxed", None) for e in self.seated if e.transport]
        known = [value for value in said if value is not None]
        return all(known) if known else None


def _with_talkers(
    game: Game, options: dict[str, Any], live: list[int], seated: list[SeatedBot]
) -> dict[str, Any]:
    """The options the game is started with: the seats that asked for talk (SPEC.md §14) in
    ``options["talk"]`` when the title has talk and at least two of them can talk; the key is
    absent otherwise (whatever the caller passed: only the handshake decides who talks)."""
    options = {key: value for key, value in options.items() if key != talk.OPTION}
    if not getattr(game, "supports_talk", False):
        return options
    talking = [
        seat
        for seat in live
        if features.TALK in getattr(getattr(seated[seat].transport, "wire", None), "features", ())
    ]
    if len(talking) >= 2:
        options[talk.OPTION] = talking
    return options


def slowest_seat(waited: list[float], live: list[int]) -> int:
    """Of the live seats, the one the referee has waited on longest; the lowest on a tie."""
    return max(live, key=lambda seat: (waited[seat], -seat))


def _seconds(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds >= 100 else f"{seconds:.3g} s"


_clock = time.monotonic
"""The game clock (tests replace it with a scripted one)."""

REFEREE_ERROR = "referee error"
"""How a reason for a fault or an abort begins when arena itself failed (an exception no
check foresaw): the seat or game is dealt with, and the words say it is a bug to report."""


def _checked_answer(legal_desc: dict[str, Any], action: Any, request_id: int, kind: str) -> Any:
    """A bot's action, checked and in canonical form; BotProtocolError if refused.

    Decoding already refused what a line may not hold (codec.check_value); checking again
    here covers transports that do not decode (in-process bots) for a few microseconds. A
    choice (nearly every decision of the bundled games) is searched once, not once to judge
    and again to canonicalise, and an answer found there skips the value check: it equals,
    as JSON, an option the game built, and that option is what goes on (the one thing the
    check could still refuse in it, a key of a str subclass, comes only from in-process
    callers and is gone once the option replaces the answer).
    """
    if legal_desc["kind"] == "choice":
        options = legal_desc["options"]
        index = legal.find_option(options, action)
        if index >= 0:
            return options[index]
    _check_value(action, request_id)
    reason = legal.why_illegal(legal_desc, action)
    if reason is not None:
        raise BotProtocolError(
            Fault.ILLEGAL, f"illegal action for request {request_id} ({kind}): {reason}"
        )
    return legal.canonical(legal_desc, action)


def _check_value(action: Any, request_id: int) -> None:
    """BotProtocolError (malformed) unless the action is a JSON value a bot may send."""
    try:
        codec.check_value(action, depth=1)  # the action sits inside its message
    except codec.DecodeError as exc:
        raise BotProtocolError(
            Fault.MALFORMED, f"the action of request {request_id}: {exc}"
        ) from None


def _referee_error(exc: Exception, doing: str) -> BotProtocolError:
    """The fault a seat gets when arena failed on its answer: it names the exception."""
    return BotProtocolError(
        Fault.ILLEGAL,
        f"{REFEREE_ERROR} while {doing}: {type(exc).__name__}: {_cut(str(exc))} "
        f"(the answer was refused; this is a bug in arena, please report it)",
    )


def _cut(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _faulted_last(ranks: list[int], faulted: list[bool]) -> list[int]:
    """Re-rank so every faulted seat shares the last place and the others keep their order."""
    if not any(faulted):
        return ranks
    clean = [r for r, f in zip(ranks, faulted) if not f]
    new = [
        1 + sum(1 for other in clean if other < r) if not f else 0 for r, f in zip(ranks, faulted)
    ]
    last = len(clean) + 1
    return [last if f else r for r, f in zip(new, faulted)]


def _ms(seconds: float) -> int:
    return round(seconds * 1000)


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds")
