"""The shortcuts of the legal-action hot path agree with the rules they stand for.

``holding`` (a table per treasure holding), ``_can_choose``, ``_can_recall`` and ``_can_swap``
answer without building the lists the rules build; these tests build both and compare.
"""
from __future__ import annotations

from itertools import product

import pytest

from thieves.core.rng import Rng
from thieves.games.thieves_den.actions import can_sell, holding
from thieves.games.thieves_den.components import TREASURES
from thieves.games.thieves_den.effects import CHOICE_KINDS, can_pay

from .helpers import GAME


def holdings(most: int):
    """Every holding of at most ``most`` treasures (TREASURES order)."""
    for counts in product(range(most + 1), repeat=len(TREASURES)):
        if sum(counts) <= most:
            yield dict(zip(TREASURES, counts))


def test_holding_table_follows_the_rules():
    data = GAME.data()
    for have in holdings(4):
        hold = holding(data, have)
        owned = [t for t in TREASURES if have[t] > 0]
        assert list(hold.owned) == owned
        assert list(hold.recruits) == [f"recruit {a} {b}" for i, a in enumerate(owned) for b in owned[i:]
                                       if a != b or have[a] >= 2]
        total = sum(have.values())
        assert hold.sellable == {f for f, (spec, _) in data.fence_needs.items()
                                 if can_sell(spec, data.fence_total[f], have, total)}
        for k in range(-1, 8):
            assert hold.payable_with(k) == {c for c, cost in data.costs.items() if can_pay(cost, have, k)}


def test_holding_table_is_kept_per_holding_not_per_dict():
    data = GAME.data()
    have = dict.fromkeys(TREASURES, 0)
    have["book"] = 1
    first = holding(data, have)
    assert first.owned == ("book",)
    have["jewel"] = 1   # the same dict, another holding
    assert holding(data, have).owned == ("book", "jewel")
    assert holding(data, {**dict.fromkeys(TREASURES, 0), "book": 1}) is first


@pytest.mark.parametrize("n, seed", [(2, 1), (3, 2), (4, 3), (5, 4)])
def test_quick_answers_match_the_lists(n, seed):
    s = GAME.new_game(n, seed)
    rng = Rng.from_seed(seed)
    seen = set()
    while not s.is_terminal():
        if s.pending and s.pending[0]["k"] in CHOICE_KINDS:
            f = s.pending[0]
            seen.add(f["k"])
            assert s._can_choose(f) == bool(s._choices(f))
        for p in range(n):
            assert s._can_recall(p) == bool(s._recall_options(p))
            assert s._can_swap(p) == bool(s._swap_options(p))
        to_act = s.players_to_act()
        p = to_act[rng.below(len(to_act))]
        acts = s.legal_actions(p)
        s.apply_action(p, acts[rng.below(len(acts))])
    assert seen   # some choices were met
