"""Intrigue tables of bundled bots played in-process: each bot seat keeps one player object
across games (like a bot process in a match) and gets its SDK hooks; a bot run with talk asks
for the talk feature and answers talk requests with its chat hook, as protocol.sdk.run does."""

from __future__ import annotations

import importlib.util
from collections import Counter
from types import ModuleType
from typing import Any, NamedTuple

from arena.games import get_game
from arena.inprocess import InProcessBot, random_decider
from arena.record import BotIdentity, GameRecord
from arena.referee import SeatedBot, play_game
from protocol import features
from tests.support.paths import ROOT

NAMES = {
    "h": "intrigue-honest",
    "s": "intrigue-shark",
    "t": "intrigue-trusty",
    "l": "intrigue-liar",
    "m": "intrigue-trusty",
}
"""Pattern letter -> bundled bot ("r" is a random bot; "m" is intrigue-trusty mute: run
without talk, the control that tells what talk itself changes)."""
TALKERS = {"t", "l"}
"""The letters of bots run with talk."""
_modules: dict[str, ModuleType] = {}

Played = list[tuple[str, GameRecord, list[dict[str, Any]]]]
"""(seats as pattern letters, record, the events seat 0 was sent) per game."""
Logged = list[tuple[str, GameRecord, list[list[dict[str, Any]]]]]
"""(seats as pattern letters, record, the events each seat was sent, by seat) per game."""


def load(kind: str) -> ModuleType:
    """A bundled Intrigue bot's bot.py as a module (its folder is not a package)."""
    if kind not in _modules:
        name = NAMES[kind]
        path = ROOT / "bots" / name / "bot.py"
        spec = importlib.util.spec_from_file_location(name.replace("-", "_"), path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _modules[kind] = module
    return _modules[kind]


class HookedBot(InProcessBot):
    """An in-process seat that feeds game_start and events to the player's SDK hooks (no
    player: a random bot); it may also keep the events it is sent."""

    def __init__(
        self, decide: Any, player: Any = None, log: list | None = None, talks: bool = False
    ) -> None:
        super().__init__(decide, frozenset({features.TALK}) if talks else frozenset())
        self.player = player
        self.log = log

    def send(self, message: dict[str, Any]) -> None:
        if message.get("type") == "game_start" and self.player is not None:
            self.player.on_game_start(None, message.get("view", {}))
        elif message.get("type") == "event":
            if self.player is not None:
                self.player.on_event(None, message["event"])
            if self.log is not None:
                self.log.append(message["event"])


def _answer(player: Any, talks: bool) -> Any:
    """decide, with talk requests sent to the chat hook (what sdk.run's talk= does)."""
    if not talks:
        return player.decide

    def answer(view: dict[str, Any], legal: dict[str, Any]) -> Any:
        if (view.get("decision") or {}).get("kind") == "talk":
            return player.chat(view, legal)
        return player.decide(view, legal)

    return answer


def play(pattern: str, games: int, *, options: dict[str, Any] | None = None) -> Played:
    """Games at a table laid out as pattern (letters of NAMES, "r" random), seats rotating.
    Every bot's events are its own; the returned events are seat 0's (the public ones and the
    talk seat 0 could read)."""
    return [
        (seats, record, logs[0]) for seats, record, logs in play_logged(pattern, games, options)
    ]


def play_logged(pattern: str, games: int, options: dict[str, Any] | None = None) -> Logged:
    """``play``, returning the events every seat was sent (each talker's own talk included)."""
    players: dict[int, Any] = {}
    played = []
    for index in range(games):
        shift = index % len(pattern)
        seats = pattern[shift:] + pattern[:shift]
        logs: list[list[dict[str, Any]]] = [[] for _ in seats]
        entrants = []
        for seat, kind in enumerate(seats):
            log = logs[seat]
            if kind == "r":
                transport = HookedBot(random_decider(index * 10 + seat), log=log)
            else:
                slot = (seat + shift) % len(pattern)
                if slot not in players:
                    players[slot] = type(load(kind).PLAYER)()
                talks = kind in TALKERS
                answer = _answer(players[slot], talks)
                transport = HookedBot(answer, players[slot], log, talks)
            entrants.append(SeatedBot(BotIdentity(kind, "", "-"), transport))
        record = play_game(get_game("intrigue"), entrants, seed=index, options=options or {})
        assert all(s.fault == "ok" for s in record.seats)
        played.append((seats, record, logs))
    return played


def ranks_of(kind: str, played: Played) -> list[int]:
    """Every rank a kind of bot took."""
    return [rec.seats[s].rank for seats, rec, _ in played for s, k in enumerate(seats) if k == kind]


TYPES = ("scientist", "doctor", "priest", "clerk")
PER_TYPE = 2
"""Scholars of each type a seat has (protocol/games/intrigue.md, Vocabulary)."""
TALK_EVENTS = {"said", "unsaid", "side-paid", "side-payment-failed"}
WINDOW_BEFORE = {
    "sent": "send",
    "offered": "negotiation",
    "admitted": "conflict",
    "kept": "conflict",
    "exiled": "conflict",
}
"""The first event after a talk window -> the window's label (protocol/games/intrigue.md:
a send window precedes a send, a negotiation's its offer, a conflict's the owner's decision)."""


def window_labels(events: list[dict[str, Any]]) -> dict[int, str]:
    """Window number -> label ("send", "negotiation", "conflict") of the windows whose talk is
    in ``events``, told by the event that follows each (talk events carry only the number)."""
    labels: dict[int, str] = {}
    pending: set[int] = set()
    for event in events:
        if event["kind"] in TALK_EVENTS:
            if "window" in event and event["window"] not in labels:
                pending.add(event["window"])
        elif pending:
            label = WINDOW_BEFORE.get(event["kind"], "?")
            labels.update(dict.fromkeys(pending, label))
            pending = set()
    return labels


class Board:
    """Who waits in front of and sits inside each palace, and what each seat has left to send,
    followed from the public events."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.waiting: dict[int, dict[int, tuple[int, str]]] = {}
        """Palace -> scholar id -> (its owner, its type)."""
        self.inside: dict[int, dict[str, tuple[int, int]]] = {}
        """Palace -> type -> (scholar id, its owner)."""
        self.sent: Counter[tuple[int, str]] = Counter()
        """(seat, type) -> scholars of that type the seat has sent."""

    def on_event(self, event: dict[str, Any]) -> None:
        kind = event["kind"]
        if kind == "sent":
            owner_type = (event["seat"], event["type"])
            self.waiting.setdefault(event["palace"], {})[event["scholar"]] = owner_type
            self.sent[owner_type] += 1
        elif kind in ("admitted", "exiled", "placed"):
            self.waiting.get(event["palace"], {}).pop(event["scholar"], None)
        if kind == "placed":
            scholar_owner = (event["scholar"], event["applicant"])
            self.inside.setdefault(event["palace"], {})[event["type"]] = scholar_owner
        elif kind == "exiled":
            inside = self.inside.get(event["palace"], {})
            if inside.get(event["type"], (None,))[0] == event["scholar"]:
                del inside[event["type"]]

    def against(self, palace: int, type_: str, seat: int) -> bool:
        """Whether a scholar of ``type_`` sent to ``palace`` now goes against ``seat``'s: one of
        that type of seat's waiting in front of it or sitting inside it (the bots' meaning of
        ``{"spare": true}``)."""
        waiting = self.waiting.get(palace, {}).values()
        inside = self.inside.get(palace, {}).get(type_)
        return (seat, type_) in waiting or (inside is not None and inside[1] == seat)

    def could_spare(self, sender: int, seats: set[int]) -> bool:
        """Whether ``sender`` has a send now that goes against none of ``seats``' scholars."""
        return any(
            not any(self.against(palace, type_, seat) for seat in seats)
            for type_ in TYPES
            if self.sent[(sender, type_)] < PER_TYPE
            for palace in range(self.players)
            if palace != sender
        )


class SpareSends(NamedTuple):
    """A seat's sends in turns in which it had promised ``{"spare": true}``."""

    sends: int
    broken: int
    """Sends against a seat it had promised to spare that turn."""
    avoidable: int
    """Those of them made when a send against none of the spared seats was possible."""


def spare_sends(record: GameRecord, events: list[dict[str, Any]], seat: int) -> SpareSends:
    """How ``seat`` kept its spare promises, from the events it was sent (its own talk
    included): a promise made in a turn holds for that turn's sends."""
    talkers = set(record.options.get("talk", []))
    board = Board(record.players)
    spared: set[int] = set()
    sends = broken = avoidable = 0
    for event in events:
        kind = event["kind"]
        if kind == "turn-start":
            spared = set()
        elif (
            kind == "said"
            and event["from"] == seat
            and event["act"] == "promise"
            and event["terms"] == {"spare": True}
        ):
            spared |= talkers - {seat} if event["to"] == "all" else {event["to"]}
        elif kind == "sent" and event["seat"] == seat and spared:
            sends += 1
            if any(board.against(event["palace"], event["type"], s) for s in spared):
                broken += 1
                avoidable += board.could_spare(seat, spared)
        board.on_event(event)
    return SpareSends(sends, broken, avoidable)
