"""Faults are data: what a bot did wrong, as a status with a reason its author can act on."""

from __future__ import annotations

from enum import StrEnum


class Fault(StrEnum):
    """The status recorded for a seat at the end of a game."""

    OK = "ok"
    TIMEOUT = "timeout"
    """No answer before the deadline (decision time plus what was left of the bank)."""
    CRASH = "crash"
    """The process exited, or closed its stdout, while the referee needed it."""
    MALFORMED = "malformed"
    """A line that is not a UTF-8 JSON object, or longer than the line cap."""
    SCHEMA = "schema"
    """A JSON object that is not a valid protocol message."""
    ILLEGAL = "illegal"
    """A well-formed answer whose action is not among the legal actions."""
    UNEXPECTED = "unexpected"
    """A valid message at the wrong moment (e.g. answering the wrong request id)."""
    HANDSHAKE = "handshake"
    """The hello reply was invalid or named a protocol version this referee cannot speak
    (no reply at all within the start-up time is a TIMEOUT)."""
    START = "start"
    """The bot's process could not be started at all (bad command in bot.toml)."""
    GAME_TIME = "game_time"
    """The game ran past its wall-clock limit and this seat had used the most of it."""


class BotError(Exception):
    """A bot misbehaved; ``fault`` classifies it, the message says what to fix."""

    fault: Fault = Fault.CRASH

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.reason = message


class BotTimeout(BotError):
    """The bot did not answer in time."""

    fault = Fault.TIMEOUT


class BotCrashed(BotError):
    """The bot's process died or closed its output."""

    fault = Fault.CRASH


class BotGameTime(BotError):
    """The game passed its wall-clock limit; this seat was the one using the most of it."""

    fault = Fault.GAME_TIME


class BotStartFailed(BotError):
    """The bot's command could not be run."""

    fault = Fault.START


class BotProtocolError(BotError):
    """The bot broke the protocol; ``fault`` says how."""

    def __init__(self, fault: Fault, message: str) -> None:
        super().__init__(message)
        self.fault = fault
