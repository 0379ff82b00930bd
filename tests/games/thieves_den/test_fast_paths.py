"""The shortcuts of the legal-action hot path agree with the rules they stand for.

``holding`` (a table per treasure holding), ``can_choose``, ``can_recall`` and ``can_swap``
answer without building the lists the rules build; these tests build both and compare.
"""
from __future__ import annotations

import json
from itertools import product

import pytest
from hypothesis import given, settings, strategies as st

from thieves.testing import check_fast_playout, checked_playout, positions_along
from thieves.core.errors import GameSetupError
from thieves.core.game import State
from thieves.core.rng import Rng
from thieves.games.thieves_den.actions import (ALWAYS_POSSIBLE, NO_TREASURE, POWER_POSSIBLE, can_choose_power,
                                               can_place, can_recall, can_sell, can_sell_some, can_swap, holding,
                                               loc_options, power_choices, power_possible_after, recall_options,
                                               relocate_options, sell_options, short_supply_ok, swap_options,
                                               turn_dispatch, usable_cards)
from thieves.games.thieves_den.choices import can_choose, choices
from thieves.games.thieves_den.components import TREASURES
from thieves.games.thieves_den.effects import CHOICE_KINDS, LIMIT_VERBS, can_pay
from thieves.games.thieves_den.notation import parse_action

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
            assert can_choose(s, f) == bool(choices(s, f))
        for p in range(n):
            assert can_recall(s, p) == bool(recall_options(s, p))
            assert can_swap(s, p) == bool(swap_options(s, p))
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
            check_fast_playout(start, seed)


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
        return power_possible_after(s, p, i)
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
            locs = [f"loc {c}" for c in loc_options(s, p, "normal")]
            sells = [f"sell {f}" for f in sell_options(s, p, "normal")]
            assert acts[:len(locs) + len(sells)] == locs + sells
            hold = holding(s.data, s.treasures[p])
            cards = usable_cards(s, p)
            for i, stack in enumerate(s.power_stacks):
                if stack and s.power_paid[i] is None:
                    paid = [a.split()[2] for a in acts if a.startswith(f"power {i + 1} ")]
                    assert paid == [t for t in hold.owned if possible_once_paid(s, p, i, t)]
            for mode in ("normal", "cut", "extra", "relocate"):
                assert can_place(s, p, mode, cards, hold) == bool(loc_options(s, p, mode, cards, hold))
            for mode in ("normal", "extra"):
                assert can_sell_some(s, p, mode, hold) == bool(sell_options(s, p, mode, hold))
        s.apply_action(p, acts[rng.below(len(acts))])
    assert turns > 20


# -- the playout's own tables and copies ---------------------------------------------------------------

def positions(n, seed, options=None, every=7):
    """Positions along a seeded checked game, one every ``every`` decisions (frames pending
    in some), and its end."""
    return positions_along(GAME.new_game(n, seed, options), seed, every, end=True)


def containers(obj, out):
    """Every list and dict in plain JSON data, by identity."""
    if isinstance(obj, (list, dict)):
        out.append(obj)
        for v in (obj.values() if isinstance(obj, dict) else obj):
            containers(v, out)
    return out


@pytest.mark.parametrize("n, seed", [(2, 3), (4, 4), (5, 5)])
def test_own_clone_is_the_engine_copy(n, seed):
    """DenState.clone copies by hand what State.clone copies through marshal: the same
    attributes and snapshot, no list or dict shared with the original, the strings shared."""
    met_pending = False
    for k, s in enumerate(positions(n, seed, every=1)):
        mine, engine = s.clone(), State.clone(s)
        assert set(vars(mine)) == set(vars(engine))
        assert mine.to_json() == engine.to_json() == s.to_json()
        assert mine.rng.state == s.rng.state and mine.rng is not s.rng
        theirs = {id(c) for c in containers([getattr(s, f) for f in s.FIELDS], [])}
        ours = containers([getattr(mine, f) for f in mine.FIELDS], [])
        assert not theirs & {id(c) for c in ours}
        assert mine.log is not s.log and mine.history is not s.history   # entries shared, as State.clone
        if mine.loc_deck:
            assert mine.loc_deck[0] is s.loc_deck[0]   # the very string
        met_pending = met_pending or bool(s.pending)
        # playing on the copy leaves the original as it was
        if k % 10 == 0 or s.pending:
            before = s.to_json()
            mine.random_playout(Rng.from_seed(seed + k))
            assert s.to_json() == before
    assert met_pending


def test_positions_hold_the_data_own_id_strings():
    """The data's ids are interned, and a position (and its copies) holds those very
    objects: the rules' lookups match them by identity."""
    s = GAME.new_game(4, 1)
    keys = {c: c for c in s.data.locations}
    s.random_playout(Rng.from_seed(1), max_decisions=40)
    copy = s.clone()
    for state in (s, copy):
        for card in [*state.loc_deck, *[c for cards in state.above + state.left for c in cards]]:
            assert keys[card] is card


def test_turn_dispatch_names_every_turn_action():
    """turn_dispatch holds every thieving-turn action there is, each read off its notation."""
    data = GAME.data()
    table = turn_dispatch(data)
    verbs = {"pass": "turn_pass", "loc": "turn_loc", "sell": "turn_sell", "power": "turn_power",
             "witch": "turn_witch", "steal": "turn_steal", "recruit": "turn_recruit"}
    for action, (fn, arg, limit) in table.items():
        act = parse_action(action)
        assert fn.__name__ == verbs[act.verb]
        assert limit == (act.verb in LIMIT_VERBS)
    assert len(table) == (len(data.locations) + len(data.fences) + len(data.power_actions) * len(TREASURES)
                          + 2 * len(TREASURES) + 1 + 1 + len(TREASURES) * (len(TREASURES) + 1) // 2)
    seen = set()
    for n, seed in ((3, 1), (4, 2)):
        for s in positions(n, seed, every=1):
            if s.phase == "thieving" and not s.pending:
                acts = s.legal_actions(s.turn)
                assert set(acts) <= set(table)
                seen.update(a.split()[0] for a in acts)
    assert seen == set(verbs)


def literal_possible(s, eff, p, cards, hold):
    """Interpretation 6 read off the option lists: whether the tile of effect ``eff`` has an
    option for ``p`` whose costs ``hold`` pays."""
    if eff == "double":
        return bool(loc_options(s, p, "normal", cards, hold)) or bool(sell_options(s, p, "normal", hold))
    if eff == "extra_thief":
        return bool(loc_options(s, p, "extra", cards, hold)) or bool(sell_options(s, p, "extra", hold))
    if eff == "relocate":
        return bool(recall_options(s, p)) and bool(loc_options(s, p, "relocate", cards, hold))
    if eff == "recall":
        return bool(recall_options(s, p))
    if eff == "owner_cut":
        return bool(loc_options(s, p, "cut", cards, hold))
    if eff == "swap":
        return bool(swap_options(s, p))
    if eff == "thieves_for_treasures":
        return s.thieves[p] >= 2
    if eff == "thieves":
        return s.forest > 0 or short_supply_ok(s)
    if eff == "treasure":
        return any(s.city.values()) or short_supply_ok(s)
    assert eff in ALWAYS_POSSIBLE
    return True


@pytest.mark.parametrize("options", OPTION_SETS)
@pytest.mark.parametrize("n, seed", [(2, 8), (4, 9)])
def test_power_tests_match_the_option_lists(n, seed, options):
    """Each ``_possible_<effect>`` test says what the option lists say, for the holding of the
    player, no treasure at all, and the holding after each payment; relocate with the
    player's own holding is ``bool(relocate_options)``."""
    data = GAME.data()
    assert set(POWER_POSSIBLE) == set(data.power_effect.values())
    checked = 0
    for s in positions(n, seed, options, every=3):
        for p in range(n):
            cards = usable_cards(s, p)
            have = s.treasures[p]
            holds = [holding(data, have), holding(data, NO_TREASURE)]
            holds += [holding(data, {**have, t: have[t] - 1}) for t in TREASURES if have[t] > 0]
            for eff, possible in POWER_POSSIBLE.items():
                for hold in holds:
                    assert possible(s, p, cards, hold) == literal_possible(s, eff, p, cards, hold), (eff, p)
                    checked += 1
            assert POWER_POSSIBLE["relocate"](s, p, cards, holds[0]) == bool(relocate_options(s, p))
    assert checked > 500


def test_every_choice_frame_is_met_and_answered_without_its_list():
    """Across a few games every kind of choice frame comes up, and ``can_choose`` answers
    ``bool(choices)`` for each (the power frames through ``can_choose_power``)."""
    seen = set()
    for n, seed in ((2, 11), (3, 12), (4, 13), (5, 14), (4, 15), (3, 16)):
        for s in positions(n, seed, every=1):
            if s.pending and s.pending[0]["k"] in CHOICE_KINDS:
                f = s.pending[0]
                seen.add(f["k"])
                assert can_choose(s, f) == bool(choices(s, f))
                assert can_choose_power(s, f) == bool(power_choices(s, f)) or f["k"] not in POWER_KINDS
    assert seen >= POWER_KINDS | {"take", "payany", "rob", "robthief"}


POWER_KINDS = {"sub", "recall", "relocate", "swap", "refresh"}


def test_a_snapshot_with_an_empty_location_count_is_refused():
    """A location card is in ``loc_thieves`` only while a thief is on it; a snapshot saying
    0 (or less) thieves is refused, as the rules read membership as occupied."""
    s = GAME.new_game(3, 2)
    s.random_playout(Rng.from_seed(2), max_decisions=30)
    d = json.loads(s.to_json())
    assert GAME.state_from_json(d).to_json() == s.to_json()
    for bad in (0, -1, "1", 1.5):
        d["fields"]["loc_thieves"] = {"L01": bad}
        with pytest.raises(GameSetupError, match="loc_thieves"):
            GAME.state_from_json(json.dumps(d))


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 5), seed=st.integers(0, 10_000), cut=st.integers(0, 150),
       picker=st.integers(0, 10_000), options=st.sampled_from(OPTION_SETS))
def test_fast_and_checked_playouts_agree_from_random_positions(n, seed, cut, picker, options):
    """From a position part-way through a random game, the trusted playout (muted or not)
    plays the checked loop's moves: the same history, fields, generator and scores."""
    start = GAME.new_game(n, seed, options)
    checked_playout(start, Rng.from_seed(seed + 1), cut)
    checked, fast, _ = check_fast_playout(start, picker)
    assert fast.scores() == checked.scores() and fast.winners() == checked.winners()
