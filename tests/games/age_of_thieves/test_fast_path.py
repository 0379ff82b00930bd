"""The trusted fast path of Age of Thieves (``_random_playout``) plays exactly the games of the
checked contract, and each shortcut it takes gives what the plain rules code gives."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from thieves.cli.bench import midgame_positions
from thieves.core.rng import Rng
from thieves.games.age_of_thieves import actions, guards
from thieves.games.age_of_thieves.state import Playout
from thieves.testing import check_fast_playout, checked_playout

from .helpers import GAME

OPTIONS = [{}, {"specials": False}, {"placement_arrests": "all", "steal_in_place": True},
           {"dungeon_ap": "after_arrest", "guard_fire": "detour"}, {"last_calm_round": "end"}]


def start_at(n: int, seed: int, options: dict, cut: int):
    """A position ``cut`` checked random decisions into a seeded game."""
    s = GAME.new_game(n, seed, options)
    checked_playout(s, Rng.from_seed(seed + 1000), cut)
    return s


def same_games(start, seed: int) -> None:
    """From ``start``: the checked loop, the fast path, and the fast path recording events
    end alike (history, every field, the generator; the log too when recorded)."""
    _, fast, _ = check_fast_playout(start, seed)
    assert fast._playout is None and "_playout" not in vars(fast)


@settings(max_examples=30, deadline=None)
@given(n=st.integers(2, 4), seed=st.integers(0, 10**6), options=st.sampled_from(OPTIONS),
       cut=st.integers(0, 250), pick=st.integers(0, 10**6))
def test_fast_playouts_are_the_checked_games(n, seed, options, cut, pick):
    same_games(start_at(n, seed, options, cut), pick)


def test_fast_playouts_from_the_bench_positions():
    for start in midgame_positions("age-of-thieves", 8, 4, 0) + midgame_positions("age-of-thieves", 4, 2, 50):
        for seed in range(3):
            same_games(start, seed)


def test_planning_with_ap_tokens_goes_through_the_rules_code():
    """A thief with an Informer or a Guild Agent plans through ``_plan_actions``/``_plan_apply``
    (tokens to add); the others are counted in place. Both in the same planning phase."""
    hit = 0
    for seed in range(12):
        s = GAME.new_game(4, seed)
        while s.phase != "plan" or s.pending:
            p = s.players_to_act()[0]
            s.apply_action(p, s.legal_actions(p)[0])
        s.thieves[seed % 4]["sheet"] += ["informer", "agent"][: 1 + seed % 2]
        s.thieves[(seed + 1) % 4]["sheet"].append("informer")
        s._legal_cache = None
        checked, fast = s.clone(), s.clone()
        checked_playout(checked, Rng.from_seed(seed), 40)
        fast.random_playout(Rng.from_seed(seed), max_decisions=40)
        assert fast.to_dict(log=False) == checked.to_dict(log=False)
        hit += any(a.startswith("add ") for _, a in checked.history)
    assert hit  # tokens were added to planned cards


def test_the_kept_execution_order_gives_the_plain_order():
    """The checked loop with a playout's keepings switched on (the execution order kept per
    thief, a movement's listing kept) plays the very same games."""
    for n, seed in ((2, 1), (3, 2), (4, 3), (4, 4)):
        plain, kept = GAME.new_game(n, seed), GAME.new_game(n, seed)
        kept._playout = Playout()
        checked_playout(plain, Rng.from_seed(seed))
        checked_playout(kept, Rng.from_seed(seed))
        assert kept.history == plain.history
        assert kept.to_dict(log=False) == plain.to_dict(log=False)


def test_turn_choices_from_the_table_are_the_worked_out_ones():
    seen = 0
    for seed in range(6):
        s = GAME.new_game(4, seed)
        rng = Rng.from_seed(seed)
        while not s.is_terminal():
            to_act = s.players_to_act()
            p = to_act[0] if len(to_act) == 1 else to_act[rng.below(len(to_act))]
            if s.turn == p and not s.pending and not s.act:
                slots = actions.my_slots(s, p)
                assert actions.turn_actions(s, p) == actions.turn_choices(s, s.thieves[p], slots)
                seen += 1
            acts = s.legal_actions(p)
            s.apply_action(p, acts[rng.below(len(acts))])
    assert seen > 100


def test_detection_is_the_test_of_detects_for_every_figure_and_thief():
    """``begin_guards`` finds the detected thieves by set intersection; ``detects`` is the rule
    one figure and thief at a time. Also with two figures on one space (its plain loop)."""
    checked = 0
    for seed in range(10):
        s = GAME.new_game(2 + seed % 3, seed)
        rng = Rng.from_seed(seed)
        while not s.is_terminal():
            if s.gq is None and not s.act and not s.pending and s.phase == "exec":
                for share in (False, True):
                    c = s.clone()
                    if share and len(c.guards) > 1:
                        a, b = sorted(c.guards)[:2]
                        c.guards[b] = c.guards[a]
                    guards.begin_guards(c, None, "card")
                    det = c.gq["det"]
                    assert list(det) == sorted(c.guards, key=c.data.figure_rank.__getitem__)
                    for g in det:
                        assert det[g] == [p for p in range(c.num_players) if guards.detects(c, g, p)]
                    checked += 1
            to_act = s.players_to_act()
            p = to_act[0] if len(to_act) == 1 else to_act[rng.below(len(to_act))]
            acts = s.legal_actions(p)
            s.apply_action(p, acts[rng.below(len(acts))])
    assert checked > 50
