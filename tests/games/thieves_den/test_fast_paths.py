"""The shortcuts of the legal-action hot path agree with the rules they stand for.

``holding`` (a table per treasure holding), ``_can_choose``, ``_can_recall`` and ``_can_swap``
answer without building the lists the rules build; these tests build both and compare.
"""
from __future__ import annotations

from itertools import product

import pytest

from thieves.cli.bench import checked_playout
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


OPTION_SETS = [{}, {"passed_locations": "closed"}, {"empty_supply": "forbidden"},
               {"first_direction": "counter-clockwise", "passed_locations": "closed"}]


@pytest.mark.parametrize("options", OPTION_SETS)
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_own_playout_loop_plays_the_checked_games(n, options):
    """The game's own random playout (turn structure built in, a pick's seat drawn as the
    checked loop draws it) ends exactly where the checked contract ends, from the start
    and from a position with frames pending."""
    for seed in (1, 2):
        for cut in (0, 9, 31):
            start = GAME.new_game(n, seed, options)
            checked_playout(start, Rng.from_seed(seed + 50), cut)
            checked, fast, logged = start.clone(), start.clone(), start.clone()
            played = checked_playout(checked, Rng.from_seed(seed))
            assert fast.random_playout(Rng.from_seed(seed)) == played
            assert logged.random_playout(Rng.from_seed(seed), keep_log=True) == played
            assert logged.to_json() == checked.to_json()
            assert fast.to_dict(log=False) == checked.to_dict(log=False)


def test_own_playout_loop_stops_after_max_decisions():
    a, b = GAME.new_game(4, 3), GAME.new_game(4, 3)
    assert a.random_playout(Rng.from_seed(3), max_decisions=17) == 17
    checked_playout(b, Rng.from_seed(3), 17)
    assert a.to_dict(log=False) == b.to_dict(log=False)
    assert a.legal_actions(a.players_to_act()[0]) == b.legal_actions(b.players_to_act()[0])


def possible_once_paid(s, p, i, t):
    """Interpretation 6 read literally: take the treasure off the board, ask the tile."""
    s.treasures[p][t] -= 1
    try:
        return s._power_possible_after(p, i)
    finally:
        s.treasures[p][t] += 1


@pytest.mark.parametrize("options", OPTION_SETS)
@pytest.mark.parametrize("n, seed", [(2, 5), (4, 6), (5, 7)])
def test_turn_listing_matches_the_option_lists(n, seed, options):
    """The turn's action list works out the location and fence options and the power
    payments without the option methods: it must say what they say, and a treasure is
    offered for a power tile exactly when the tile can still act once it is paid."""
    s = GAME.new_game(n, seed, options)
    rng = Rng.from_seed(seed)
    turns = 0
    while not s.is_terminal():
        to_act = s.players_to_act()
        p = to_act[rng.below(len(to_act))]
        acts = s.legal_actions(p)
        if s.phase == "thieving" and not s.pending:
            turns += 1
            locs = [f"loc {c}" for c in s._loc_options(p, "normal")]
            sells = [f"sell {f}" for f in s._sell_options(p, "normal")]
            assert acts[:len(locs) + len(sells)] == locs + sells
            hold = holding(s.data, s.treasures[p])
            cards = s._usable_cards(p)
            for i, stack in enumerate(s.power_stacks):
                if stack and s.power_paid[i] is None:
                    paid = [a.split()[2] for a in acts if a.startswith(f"power {i + 1} ")]
                    assert paid == [t for t in hold.owned if possible_once_paid(s, p, i, t)]
            for mode in ("normal", "cut", "extra", "relocate"):
                assert s._can_place(p, mode, cards, hold) == bool(s._loc_options(p, mode, cards, hold))
            for mode in ("normal", "extra"):
                assert s._can_sell(p, mode, hold) == bool(s._sell_options(p, mode, hold))
        s.apply_action(p, acts[rng.below(len(acts))])
    assert turns > 20
