"""The bundled Intrigue bots (intrigue-honest, intrigue-shark) beat random bots clearly, and have
the characters they claim: honest keeps its word as an owner, the shark breaks it when it pays
and pays more to owners that keep theirs (in-process, deterministic seeds).

The figures over 200 games with real subprocesses are in the issue notes (`arena play`);
these are fast regression guards on the same players, their event hooks included.
"""

from __future__ import annotations

import statistics

import pytest

from tests.support.intrigue_tables import NAMES, Played, load, play, ranks_of


def word_kept(played: Played) -> dict[str, list[int]]:
    """Per kind of owner: [placements giving the asked section, placements where the asked
    section was free] (forced placements left out)."""
    counts: dict[str, list[int]] = {}
    for seats, _, events in played:
        inside: dict[tuple[int, int], int] = {}
        for event in events:
            if event["kind"] == "exiled" and event["reason"] == "replaced":
                inside = {k: v for k, v in inside.items() if v != event["scholar"]}
            if event["kind"] != "placed":
                continue
            palace, asked = event["palace"], event["asked_section"]
            if not event["forced"] and asked is not None and (palace, asked) not in inside:
                tally = counts.setdefault(seats[palace], [0, 0])
                tally[0] += event["given_section"] == asked
                tally[1] += 1
            inside[(palace, event["given_section"])] = event["scholar"]
    return counts


@pytest.mark.parametrize("kind", ["h", "s"])
def test_each_bot_beats_three_random_bots_clearly(kind):
    ranks = ranks_of(kind, play(kind + "rrr", 40))
    win_rate = sum(r == 1 for r in ranks) / len(ranks)
    # measured over 200 games: honest 96%, shark 99%
    assert win_rate >= 0.8, f"{NAMES[kind]} win rate {win_rate:.0%}"
    assert statistics.mean(ranks) < 1.3


def test_honest_keeps_its_word_and_the_shark_breaks_it():
    kept = word_kept(play("hsrr", 20))
    honest, shark = kept["h"], kept["s"]
    assert honest[1] >= 20 and shark[1] >= 20, kept
    # honest gives the asked section whenever it is free (short of two asking for the same one)
    assert honest[0] / honest[1] >= 0.9, kept
    # the shark gives the lowest free section: the asked one only when it is the lowest
    assert shark[0] / shark[1] <= 0.4, kept
    assert shark[1] - shark[0] >= 10, "the shark should break its word many times"


def test_shark_pays_more_to_owners_that_keep_their_word():
    """Without conflict the shark offers the minimum and walks away from an owner that breaks
    its word; a word-keeper gets offers in line with the section and its demands met."""
    played = play("hhss", 24)
    paid: dict[str, list[int]] = {"h": [], "s": []}
    for seats, _, events in played:
        for event in events:
            if (
                event["kind"] == "negotiated"
                and event["step"] == "no-conflict"
                and seats[event["applicant"]] == "s"
            ):
                paid[seats[event["palace"]]].append(event["paid"])
    assert paid["h"] and paid["s"]
    to_honest, to_shark = statistics.mean(paid["h"]), statistics.mean(paid["s"])
    assert to_honest > 3 * to_shark + 100, (to_honest, to_shark)


def test_shark_asks_high_with_grand_promises_and_honest_asks_truthfully():
    played = play("hsrr", 6)
    promises: dict[str, set[str]] = {"h": set(), "s": set()}
    asked: dict[str, list[int | None]] = {"h": [], "s": []}
    for seats, _, events in played:
        for event in events:
            if event["kind"] == "offered" and seats[event["applicant"]] in promises:
                kind = seats[event["applicant"]]
                promises[kind].add(event["promise"])
                asked[kind].append(event["section"])
    assert all(0 < len(p) <= 140 for ps in promises.values() for p in ps)
    assert promises["h"].isdisjoint(promises["s"])
    assert all(section is not None for section in asked["s"])


@pytest.mark.parametrize(
    ("pattern", "options"),
    [
        ("hsr", {}),
        ("hsrrr", {}),
        ("hsrr", {"variants": ["free-replacement"]}),
        ("hhss", {"variants": ["free-replacement"]}),
    ],
)
def test_every_answer_is_the_bots_own(pattern, options, capfd):
    """3 to 5 seats, with and without Free Replacement: decide never falls back on the default
    (it logs to stderr when it does) and the referee accepts every answer."""
    play(pattern, 6, options=options)
    assert capfd.readouterr().err == ""


@pytest.mark.parametrize("kind", ["h", "s"])
def test_decide_is_total(kind):
    """Nonsense in, a legal answer out (the default one)."""
    decide = type(load(kind).PLAYER)().decide
    answer = {"kind": "choice", "options": [{"accept": True}, {"demand": 2000}]}
    assert decide({}, answer) in answer["options"]
    offer = {
        "kind": "record",
        "fields": {"amount": {"kind": "range", "min": 1000, "max": 5000, "step": 1000}},
        "optional": [],
    }
    assert decide({"decision": {"kind": "offer"}}, offer) == {"amount": 1000}


def test_the_sdk_constants_are_the_engines():
    """protocol.sdk_intrigue repeats the rules' constants for bots (the views do not carry
    them); this keeps the copies equal to the referee's."""
    from arena.games.intrigue import scholars
    from protocol import sdk_intrigue

    for name in ("ROUNDS", "SEND_ROUNDS", "UNIT", "START_CASH", "SCHOLARS_PER_PLAYER"):
        assert getattr(sdk_intrigue, name) == getattr(scholars, name), name


def test_the_sdk_player_sends_each_talk_request_to_its_windows_method():
    from protocol.sdk_intrigue import Player
    from protocol.talk import SILENCE

    class ConflictOnly(Player):  # a bot that talks in conflict windows alone
        name = "conflict-only"
        offer = answer = pay = place = choose = keep_or_replace = send = None  # type: ignore[assignment]

        def talk_conflict(self, view, legal):
            return {"act": "say", "window": view["talk"]["window"]}

    player = ConflictOnly()
    legal = {"kind": "record", "fields": {}}
    assert player.talk({"talk": {"window": "conflict"}}, legal) == {
        "act": "say",
        "window": "conflict",
    }
    for window in ("send", "negotiation", "a later one", None):
        assert player.talk({"talk": {"window": window}}, legal) == SILENCE
    assert player.talk({}, legal) == SILENCE
