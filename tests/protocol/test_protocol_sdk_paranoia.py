"""protocol.sdk_paranoia reads real PARANOIA views the way the referee means them."""

from __future__ import annotations

import random

from arena.games import get_game
from arena.games.paranoia.vocabulary import CLEARANCES as ENGINE_CLEARANCES
from protocol.legal import random_action
from protocol.sdk_paranoia import CLEARANCES, Table


def test_clearances_are_the_engines():
    assert CLEARANCES == ENGINE_CLEARANCES


def test_a_table_reads_ranks_the_living_sections_and_targets_from_real_views():
    checked = 0
    for seed in range(3):
        state, _ = get_game("paranoia").start(5, seed, {})
        rng = random.Random(seed)
        while (decision := state.pending()) is not None:
            table = Table(state.view(decision.seat))
            assert table.me == decision.seat
            assert table.living() == [t.seat for t in state.ts if t.alive]
            assert [table.rank(s) for s in range(5)] == [t.rank for t in state.ts]
            for card in table.view["hand"]:
                assert table.section(card, "no-such-kind") == []
                for section in state.actions_by_id[card].sections:
                    ops = [e["op"] for e in table.section(card, section.kind.value)]
                    assert ops == [e.op.value for e in section.effects]
            everyone = table.targets({"target": "all"}, decision.seat, None, None)
            assert everyone[0] == decision.seat and sorted(everyone) == table.living()
            assert table.targets({"target": "target"}, 0, 3, None) == [3]
            assert table.targets({"target": "answered"}, 0, None, 2) == [2]
            assert table.targets({"target": "team_leader"}, 0, None, None) == [state.leader]
            state.apply(random_action(decision.legal, rng))
            checked += 1
    assert checked > 300
