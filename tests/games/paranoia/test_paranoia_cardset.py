"""The PARANOIA card set: the shipped data and every validation error of its loader."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from paranoia_helpers import CLEARANCE_PART, TEST_MISSION, action_toml

from arena.games.paranoia import cardset
from arena.games.paranoia.cardset import (
    CLEARANCES,
    KNOWN_ACTION_NAMES,
    KNOWN_MISSION_NAMES,
    CardSetError,
    Check,
    Op,
    Provenance,
    SectionKind,
    load_cardset,
)

DOC = Path(cardset.__file__).with_name("CARDS.md")
KNOWN = {n.lower() for n in KNOWN_ACTION_NAMES + KNOWN_MISSION_NAMES}


@pytest.fixture(scope="module")
def shipped() -> cardset.CardSet:
    return load_cardset()


def all_cards(cs: cardset.CardSet) -> list[cardset.ActionCard | cardset.Mission]:
    return [*cs.missions, *cs.actions]


def test_shipped_set_sizes(shipped: cardset.CardSet) -> None:
    assert abs(shipped.mission_count - 16) <= 2, shipped.mission_count
    assert abs(shipped.action_count - 88) <= 4, shipped.action_count


def test_every_card_has_provenance_and_note(shipped: cardset.CardSet) -> None:
    for card in all_cards(shipped):
        assert isinstance(card.provenance, Provenance), card.id
        assert card.note.strip() and "\n" not in card.note, card.id
        if card.provenance is Provenance.DESIGNED:
            assert card.note == "designed for arena", card.id
        else:
            assert card.note.startswith("rules file:"), card.id


def test_every_action_card_has_a_mission_section(shipped: cardset.CardSet) -> None:
    for card in shipped.actions:
        assert card.section(SectionKind.MISSION) is not None, card.id


def test_published_names_only_on_sourced_or_partial(shipped: cardset.CardSet) -> None:
    used = set()
    for card in all_cards(shipped):
        if card.name.lower() in KNOWN:
            used.add(card.name.lower())
            assert card.provenance is not Provenance.DESIGNED, card.id
        else:
            assert card.provenance is Provenance.DESIGNED, card.id
    assert used == KNOWN, f"published cards missing from the set: {KNOWN - used}"


def test_known_cards_do_what_is_known(shipped: cardset.CardSet) -> None:
    by_id = {c.id: c for c in shipped.actions}
    ops = {cid: {e.op for s in c.sections for e in s.effects} for cid, c in by_id.items()}
    assert Op.END_PHASE in ops["abort-mission"]
    assert Op.CANCEL in ops["better-idea"] and Op.CANCEL in ops["bribe"]
    assert Op.CANCEL in ops["new-improved-treasonous-activity-list"]
    assert Op.STAY_ON_TABLE in ops["noble-sacrifice"]
    assert Op.NEGATE_WOUNDS in ops["docbot"]
    assert {Op.WOUND, Op.STEAL} <= ops["tangler"] and {Op.WOUND, Op.STEAL} <= ops["hand-flamer"]
    for cid in ("better-idea", "bribe", "convincing-story", "docbot"):
        assert by_id[cid].section(SectionKind.ANYTIME) is not None, cid
    missions = {m.id: m for m in shipped.missions}
    assert missions["internal-security-officer"].secret_role == "internal-security-officer"
    assert [c.test for c in missions["go-outdoors"].success_when] == [Check.TOOK_WOUNDS]


def test_clearance_table(shipped: cardset.CardSet) -> None:
    assert [c.name for c in shipped.clearances] == list(CLEARANCES)
    assert {c.name: c.supply for c in shipped.clearances} == {
        "RED": 8,
        "ORANGE": 7,
        "YELLOW": 6,
        "GREEN": 5,
        "BLUE": 4,
        "INDIGO": 3,
        "VIOLET": 2,
        "ULTRAVIOLET": 2,
    }
    assert shipped.clearance("RED").max_treason == 3
    assert shipped.clearance("RED").provenance.max_treason is Provenance.SOURCED
    for c in shipped.clearances:
        assert c.provenance.supply is Provenance.SOURCED, c.name
        assert c.provenance.hand_size is Provenance.DESIGNED, c.name
        if c.name != "RED":
            assert c.provenance.max_treason is Provenance.DESIGNED, c.name


def test_every_op_documented() -> None:
    doc = DOC.read_text(encoding="utf-8")
    headings = set(re.findall(r"^### `(\w+)`$", doc, flags=re.M))
    assert {op.value for op in Op} <= headings, {op.value for op in Op} - headings
    for test in Check:
        assert f"`{test.value}`" in doc, test.value


def test_every_op_is_used(shipped: cardset.CardSet) -> None:
    used = {e.op for a in shipped.actions for s in a.sections for e in s.effects}
    assert used == set(Op), set(Op) - used


# ---------------------------------------------------------------- validation errors

MISSION = TEST_MISSION
ACTION = action_toml(
    "a-one", "Test Gun", 2, "another", '{ op = "wound", target = "target", amount = 1 }'
)


def load(tmp_path: Path, text: str) -> cardset.CardSet:
    path = tmp_path / "cards.toml"
    path.write_text(text, encoding="utf-8")
    return load_cardset(path)


def test_minimal_snippet_loads(tmp_path: Path) -> None:
    cs = load(tmp_path, CLEARANCE_PART + MISSION + ACTION)
    assert (cs.mission_count, cs.action_count) == (1, 2)


BROKEN = [
    ("unknown-op", ACTION.replace('op = "wound"', 'op = "vaporise"'), "a-one", "op"),
    (
        "bad-param",
        ACTION.replace(
            'target = "target", amount = 1', 'target = "target", amount = 1, colour = "red"'
        ),
        "a-one",
        "colour",
    ),
    (
        "missing-param",
        ACTION.replace('target = "target", amount = 1 }', 'target = "target" }'),
        "a-one",
        "amount",
    ),
    ("section-kind", ACTION.replace('kind = "another"', 'kind = "sideways"'), "a-one", "kind"),
    (
        "no-mission-section",
        ACTION.replace('kind = "mission"', 'kind = "yourself"'),
        "a-one",
        "sections",
    ),
    ("count-zero", ACTION.replace("count = 2", "count = 0"), "a-one", "count"),
    (
        "provenance",
        ACTION.replace('provenance = "designed"', 'provenance = "rumoured"'),
        "a-one",
        "provenance",
    ),
    ("designed-published-name", ACTION.replace('"Test Gun"', '"Tangler"'), "a-one", "name"),
    (
        "partial-unknown-name",
        ACTION.replace('provenance = "designed"', 'provenance = "partial"'),
        "a-one",
        "provenance",
    ),
    ("duplicate-id", ACTION + ACTION, "a-one", "id"),
    ("not-kebab", ACTION.replace('"a-one"', '"A_One"'), "A_One", "id"),
    (
        "target-in-mission",
        ACTION.replace(
            '{ op = "mission_counter", counter = "progress", amount = 1 }',
            '{ op = "wound", target = "target", amount = 1 }',
        ),
        "a-one",
        "sections[0]",
    ),
    (
        "cancel-outside-anytime",
        ACTION.replace(
            '{ op = "wound", target = "target", amount = 1 }',
            '{ op = "cancel", cancels = ["any"] }',
        ),
        "a-one",
        "sections[1]",
    ),
    (
        "cancel-selector",
        ACTION.replace('kind = "another"', 'kind = "anytime"').replace(
            '{ op = "wound", target = "target", amount = 1 }', '{ op = "cancel", cancels = ["x"] }'
        ),
        "a-one",
        "cancels",
    ),
    (
        "guard-without-stay",
        ACTION.replace(
            'op = "wound", target = "target", amount = 1', 'op = "guard", target = "target"'
        ),
        "a-one",
        "guard",
    ),
    (
        "tag",
        ACTION.replace(
            'note = "designed for arena"\n', 'note = "designed for arena"\ntags = ["spoon"]\n', 1
        ),
        "a-one",
        "tags",
    ),
    ("empty-note", ACTION.replace('note = "designed for arena"', 'note = ""'), "a-one", "note"),
]


@pytest.mark.parametrize(("label", "action", "card", "field"), BROKEN, ids=[b[0] for b in BROKEN])
def test_action_errors_name_card_and_field(
    tmp_path: Path, label: str, action: str, card: str, field: str
) -> None:
    assert action != ACTION, f"{label}: the snippet did not change"
    with pytest.raises(CardSetError) as info:
        load(tmp_path, CLEARANCE_PART + MISSION + action)
    message = str(info.value)
    assert card in message and field in message, message


BROKEN_MISSIONS = [
    ("test", MISSION.replace('test = "alive"', 'test = "vibes"'), "test"),
    (
        "no-failure-needs-alive",
        MISSION.replace('test = "alive"', 'test = "took_wounds"'),
        "failure",
    ),
    ("result-op", MISSION.replace('op = "absolve"', 'op = "wound"'), "success[0]"),
    ("result-target", MISSION.replace('target = "self"', 'target = "all"'), "success[0]"),
    ("role", MISSION.replace("count = 1", 'count = 1\nsecret_role = "mole"'), "secret_role"),
    (
        "officer-without-role",
        MISSION.replace('{ test = "alive" }', '{ test = "secret_officer_alive" }')
        + "failure = []\n",
        "success_when[0]",
    ),
    (
        "counter-test-needs-value",
        MISSION.replace(
            '{ test = "alive" }', '{ test = "mission_counter_at_least", counter = "progress" }'
        )
        + "failure = []\n",
        "success_when[0]",
    ),
]


@pytest.mark.parametrize(
    ("label", "mission", "field"), BROKEN_MISSIONS, ids=[b[0] for b in BROKEN_MISSIONS]
)
def test_mission_errors_name_card_and_field(
    tmp_path: Path, label: str, mission: str, field: str
) -> None:
    assert mission != MISSION, f"{label}: the snippet did not change"
    with pytest.raises(CardSetError) as info:
        load(tmp_path, CLEARANCE_PART + mission + ACTION)
    message = str(info.value)
    assert "m-one" in message and field in message, message


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ('name = "ORANGE"', 'name = "PUCE"', "name"),
        ("supply = 8", "supply = 9", "supply"),
        (
            'max_treason = 3\nprovenance = { supply = "sourced", hand_size = "designed", '
            'max_wounds = "designed", max_treason = "sourced" }',
            'max_treason = 3\nprovenance = { supply = "sourced", hand_size = "designed", '
            'max_wounds = "designed", max_treason = "designed" }',
            "max_treason",
        ),
        ("hand_size = 7", "hand_size = 1", "hand_size"),
    ],
)
def test_clearance_errors_name_row_and_field(
    tmp_path: Path, old: str, new: str, field: str
) -> None:
    assert old in CLEARANCE_PART
    with pytest.raises(CardSetError) as info:
        load(tmp_path, CLEARANCE_PART.replace(old, new, 1) + MISSION + ACTION)
    assert "clearance" in str(info.value) and field in str(info.value), str(info.value)


def test_totals_over_the_box_budget(tmp_path: Path) -> None:
    with pytest.raises(CardSetError, match="totals"):
        load(tmp_path, CLEARANCE_PART + MISSION + ACTION.replace("count = 2", "count = 104"))


def test_empty_decks_rejected(tmp_path: Path) -> None:
    with pytest.raises(CardSetError, match="totals"):
        load(tmp_path, CLEARANCE_PART + MISSION)


def test_bad_toml(tmp_path: Path) -> None:
    with pytest.raises(CardSetError, match="not valid TOML"):
        load(tmp_path, "[[action]\n")


# The counts written in prose (cards.toml's section comments, CARDS.md's totals) drifted from the
# data once (36 and 52 copies for 32 and 56); these two tests hold them to it.
_COUNTED_COMMENT = re.compile(r"^# .*?(?:\((\d+) by count\)|: (\d+) copies\.)\s*$")


def _commented_sections(text: str) -> list[tuple[str, int, str]]:
    """(comment, stated copies, the TOML below it up to the next comment of the same level or a
    higher one) for every comment of cards.toml that states how many copies follow. A ruled
    "# ----" header opens a top-level section; the other counted comments sub-sections in it."""
    lines = text.splitlines()
    sections = []
    for i, line in enumerate(lines):
        stated = _COUNTED_COMMENT.match(line)
        if stated is None:
            continue
        top = line.startswith("# ---")
        end = next(
            (
                j
                for j in range(i + 1, len(lines))
                if lines[j].startswith("# ---") or (not top and _COUNTED_COMMENT.match(lines[j]))
            ),
            len(lines),
        )
        sections.append((line, int(stated[1] or stated[2]), "\n".join(lines[i + 1 : end])))
    return sections


def test_cards_toml_section_comments_state_the_copies_below_them() -> None:
    text = (DOC.parent / "cards.toml").read_text()
    sections = _commented_sections(text)
    assert len(sections) == 4, [comment for comment, _, _ in sections]
    for comment, stated, body in sections:
        data = tomllib.loads(body)
        copies = sum(card["count"] for key in ("mission", "action") for card in data.get(key, []))
        assert copies == stated, f"{comment!r} but the cards below it have {copies} copies"


def test_cards_md_totals_match_the_data(shipped: cardset.CardSet) -> None:
    totals = re.search(
        r"(\d+) missions \((\d+) partial, (\d+) designed\) and (\d+) action cards\s+"
        r"\((\d+) sourced, (\d+) partial,\s+(\d+) designed\)",
        DOC.read_text(),
    )
    assert totals is not None, "CARDS.md no longer states the totals in the expected words"

    def copies(cards: list[Any], provenance: Provenance | None = None) -> int:
        return sum(c.count for c in cards if provenance in (None, c.provenance))

    missions, actions = list(shipped.missions), list(shipped.actions)
    assert [int(n) for n in totals.groups()] == [
        copies(missions),
        copies(missions, Provenance.PARTIAL),
        copies(missions, Provenance.DESIGNED),
        copies(actions),
        copies(actions, Provenance.SOURCED),
        copies(actions, Provenance.PARTIAL),
        copies(actions, Provenance.DESIGNED),
    ]


def test_a_mistyped_card_key_suggests_the_known_one(tmp_path: Path) -> None:
    action = ACTION.replace("count = 2", "cuont = 2")
    assert action != ACTION
    with pytest.raises(CardSetError, match=r'unknown key "cuont"; did you mean "count"\?'):
        load(tmp_path, CLEARANCE_PART + MISSION + action)


def test_a_mistyped_table_at_the_top_suggests_the_known_one(tmp_path: Path) -> None:
    with pytest.raises(CardSetError, match=r'unknown key "actions"; did you mean "action"\?'):
        load(tmp_path, CLEARANCE_PART + MISSION + ACTION.replace("[[action]]", "[[actions]]"))


def test_bad_syntax_names_its_line(tmp_path: Path) -> None:
    with pytest.raises(CardSetError) as info:
        load(tmp_path, CLEARANCE_PART + "[[action]\n")
    assert info.value.line == CLEARANCE_PART.count("\n") + 1, str(info.value)
