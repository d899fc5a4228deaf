"""The bundled PARANOIA bots that talk (paranoia-loyal, paranoia-traitor) have the characters
they claim: loyal keeps every pact and never targets a seat bound to it, remembers who lied
and refuses it; the traitor makes pacts and promises and breaks them. In-process, seeded, with
the SDK's hooks fed as protocol.sdk.run feeds them; figures over subprocess games are in
leagues/ (talk-paranoia-*.toml)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

from arena.games import get_game
from arena.inprocess import InProcessBot, random_decider
from arena.record import BotIdentity, GameRecord
from arena.referee import SeatedBot, play_game
from arena.replay import replay
from protocol import features
from protocol.paranoia_word import Word

BOTS = Path(__file__).resolve().parents[2] / "bots"


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name.replace("-", "_"), BOTS / name / "bot.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class TalkingBot(InProcessBot):
    """A seat played by a talking bot module: decide and chat called with a context holding
    the game (as the SDK's ``ctx.game``), game_start and events fed to its hooks."""

    def __init__(self, module: ModuleType) -> None:
        super().__init__(self._decide, frozenset({features.TALK}))
        self.module = module
        self.game: Any = None
        self.keep_messages = True

    def send(self, message: dict[str, Any]) -> None:
        if message.get("type") == "game_start":
            self.game = SimpleNamespace(
                game_id=message["game_id"],
                seat=message["seat"],
                players=message["players"],
                options=message["options"],
            )
            self.module.WORDS.start(self.game, message["view"])
        elif message.get("type") == "event":
            self.module.WORDS.event(self.game, message["event"])
        super().send(message)

    def _decide(self, view: dict[str, Any], legal: dict[str, Any]) -> Any:
        ctx = SimpleNamespace(game=self.game)
        if legal.get("kind") == "record":  # a talk request
            return self.module.chat(view, legal, ctx)
        return self.module.decide(view, legal, ctx)


def table(names: list[str], seed: int) -> tuple[GameRecord, list[InProcessBot]]:
    bots: list[InProcessBot] = []
    for seat, name in enumerate(names):
        if name == "random":
            bots.append(InProcessBot(random_decider(seed * 10 + seat)))
        elif hasattr(module := load(name), "chat"):
            bots.append(TalkingBot(module))
        else:  # a bot that does not talk
            bots.append(InProcessBot(module.decide))
    record = play_game(
        get_game("paranoia"),
        [
            SeatedBot(BotIdentity(name, "1", "-"), bot)
            for name, bot in zip(names, bots, strict=True)
        ],
        seed=seed,
        options={},
        game_id=f"talk-{seed}",
        bot_seed_key=b"talkers",
    )
    return record, bots


def said(bot: InProcessBot) -> list[dict[str, Any]]:
    return [
        m["event"]
        for m in bot.received
        if m.get("type") == "event" and m["event"].get("kind") == "said"
    ]


def hurt(bot: InProcessBot, seat: int) -> list[dict[str, Any]]:
    """Wounds and treason this seat was seen to give, with the mission they fell in."""
    mission, found = 0, []
    for m in bot.received:
        event = m.get("event") or {}
        if event.get("kind") == "mission":
            mission = event["number"]
        elif event.get("kind") in ("wounded", "treason") and event.get("by") == seat:
            found.append({**event, "mission": mission})
    return found


def test_loyal_bots_make_pacts_and_never_target_a_seat_bound_to_them():
    pacts = 0
    for seed in range(3):
        record, bots = table(["paranoia-loyal"] * 3 + ["random"], seed)
        assert record.options["talk"] == [0, 1, 2]
        for seat in range(3):
            word = bots[seat].module.WORDS.of(bots[seat].game)
            assert word.liars == set(), "loyal bots keep their word to each other"
            for event in hurt(bots[3], seat):  # seat 3 is told every public event
                victim = event["seat"]
                if victim < 3 and victim != seat:
                    theirs = bots[victim].module.WORDS.of(bots[victim].game)
                    assert event["mission"] not in theirs.bound.get(seat, set()) or (
                        event["kind"] == "treason" and event.get("by") is None
                    ), f"seat {seat} targeted seat {victim}, bound to it"
            pacts += sum(len(missions) for missions in word.bound.values())
    assert pacts > 10, "pacts were made"


def test_the_traitor_breaks_its_word_and_loyal_bots_remember_it():
    liars_found = betrayals = 0
    for seed in range(4):
        _, bots = table(["paranoia-traitor", "paranoia-loyal", "paranoia-loyal"], seed)
        traitor_messages = [m for m in said(bots[1]) if m["from"] == 0]
        assert any(m["act"] == "promise" for m in traitor_messages)
        for seat in (1, 2):
            word: Word = bots[seat].module.WORDS.of(bots[seat].game)
            betrayals += sum(
                1
                for e in hurt(bots[seat], 0)
                if e["seat"] == seat and e["mission"] in word.bound.get(0, set())
            )
            if 0 in word.liars:
                liars_found += 1
                assert 1 not in word.liars and 2 not in word.liars
                denounced = [
                    m for m in said(bots[seat]) if m["from"] == seat and m["act"] == "threat"
                ]
                assert denounced and denounced[0]["terms"] == {"target": 0}
    assert betrayals > 0 and liars_found > 0


def test_a_talking_game_replays_with_its_talk_and_a_seat_sees_only_its_own():
    """The record rebuilds the talk exactly (options["talk"] is recorded); a seat's replay
    shows the private notes it was party to and no other."""
    record, bots = table(["paranoia-traitor", "paranoia-loyal", "paranoia-loyal"], 5)
    steps = list(replay(record))
    assert len(steps) == len(record.decisions) + 1
    events = [event for step in steps for event in step.events]
    said_all = [{"kind": "said", **e.data} for e in events if e.kind == "said"]
    assert said_all and any(m["to"] != "all" for m in said_all), "private notes were sent"
    for seat in range(3):
        readable = [m for m in said_all if m["to"] in ("all", seat) or m["from"] == seat]
        assert said(bots[seat]) == readable, f"seat {seat} was told exactly its talk"


def test_the_shared_play_is_called_by_the_sdk_with_view_and_legal_alone():
    """protocol.sdk passes its context as a third positional argument to a decide taking three:
    the survivor's decide (the shared play) must take two, its regard being keyword-only."""
    from protocol import sdk
    from protocol.paranoia_play import decide

    assert not sdk._takes_context(decide)
    assert sdk._takes_context(load("paranoia-loyal").decide)
