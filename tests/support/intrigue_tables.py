"""Intrigue tables of bundled bots played in-process: each bot seat keeps one player object
across games (like a bot process in a match) and gets its SDK hooks; a bot run with talk asks
for the talk feature and answers talk requests with its chat hook, as protocol.sdk.run does."""

from __future__ import annotations

import importlib.util
from types import ModuleType
from typing import Any

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
    players: dict[int, Any] = {}
    played = []
    for index in range(games):
        shift = index % len(pattern)
        seats = pattern[shift:] + pattern[:shift]
        events: list[dict[str, Any]] = []
        entrants = []
        for seat, kind in enumerate(seats):
            log = events if seat == 0 else None
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
        played.append((seats, record, events))
    return played


def ranks_of(kind: str, played: Played) -> list[int]:
    """Every rank a kind of bot took."""
    return [rec.seats[s].rank for seats, rec, _ in played for s, k in enumerate(seats) if k == kind]
