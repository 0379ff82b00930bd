"""The search bot of Age of Thieves: its playout policy, the value where playouts stop, and
obvious moves in small positions (docs/age_of_thieves.md "Strength")."""
from __future__ import annotations

import pytest

import copy
import dataclasses

from thieves.bots import make_bot
from thieves.bots.mcts import MCTSBot
from thieves.core.rng import Rng
from thieves.games.age_of_thieves.bots import SEARCH, GreedyBot, greedy_playout, watch_reach

from .helpers import GAME, fresh, plan


def test_the_playout_policy_plays_whole_games_legally():
    for n, seed in ((2, 1), (3, 2), (4, 3)):
        s = GAME.new_game(n, seed)
        rng = Rng.from_seed(seed)
        while not s.is_terminal():
            p = s.players_to_act()[0]
            s.apply_action(p, greedy_playout(s, p, s.legal_actions(p), rng))  # checked: legal
        assert s.ply < 2000


def test_a_greedy_playout_reads_its_own_watch_not_the_last_playouts():
    """The search's playouts share one greedy: its cache of where the watch can strike (kept per
    ply) must not carry over from another playout at the same ply with the guards elsewhere."""
    s = _walk_to_the_jewel()
    while s.act is None or s.act["kind"] != "move":
        p = s.players_to_act()[0]
        s.apply_action(p, greedy_playout(s, p, s.legal_actions(p), Rng.from_seed(1)))
    mine = GreedyBot(seed=0).choose(s, 0)
    other = s.clone()
    other.guards = {"g1": "S48"}  # far away: the step greedy avoids is safe there
    other._legal_cache = None
    assert greedy_playout(other, 0, other.legal_actions(0), Rng.from_seed(1)) != mine
    assert greedy_playout(s, 0, s.legal_actions(0), Rng.from_seed(1)) == mine


def test_greedy_keeps_what_it_worked_out_only_where_it_still_holds():
    """Greedy keeps the watch's reach and its walking distances between decisions, keyed by
    what they were worked out from: it chooses exactly as a bot that works everything out
    afresh at every decision (same generator, same plan), through whole games."""
    for n, seed in ((2, 7), (3, 11)):
        s = GAME.new_game(n, seed)
        bots = [GreedyBot(seed=p) for p in range(n)]
        while not s.is_terminal():
            p = s.players_to_act()[0]
            fresh_bot = GreedyBot.__new__(GreedyBot)
            fresh_bot.__dict__ = {k: copy.deepcopy(v) for k, v in bots[p].__dict__.items()
                                  if k not in ("_memo", "_watch_of")}
            again = fresh_bot.choose(s.clone(), p)
            assert bots[p].choose(s, p) == again
            s.apply_action(p, again)
        assert any(len(m[1]) > 1 for b in bots for m in b._memo.values())  # it did keep answers


def _walk_to_the_jewel(die: int = 1):
    """Zain on a start space, the Emperors' Jewel 11 steps away, a guard 6 steps down the way,
    Move planned with 8 AP (before the watch when the die is lower)."""
    s = fresh("zain,jasmine", die=die)
    s.thieves[0]["pos"], s.thieves[1]["pos"] = "N8", "S48"
    s.gems = {"P0": ["emperor"]}
    s.guards = {"g1": "N50"}
    plan(s, 0, [("move", 8)])
    plan(s, 1, [])
    return s


def test_the_watch_reaches_what_a_guard_can_walk_to_until_it_has_acted():
    s = _walk_to_the_jewel()
    reach = watch_reach(s)
    assert "N51" in reach and "N53" not in reach  # guards walk 2 spaces in calm
    s.exec["guards_done"] = True
    assert not watch_reach(s)  # once the watch has acted this round it reaches nowhere


@pytest.mark.slow
def test_the_search_walks_toward_the_jewel_but_not_into_the_watchs_reach():
    """Moving before the watch, the search (without greedy's prior) ends the Move where the
    guard cannot catch it: its playouts run to the end of the round, so the watch acts in each."""
    s = _walk_to_the_jewel()
    bot = MCTSBot(seed=1, budget="100", spec=dataclasses.replace(SEARCH, prior=None))
    moves = 0
    while s.players_to_act() == [0]:
        s.apply_action(0, bot.choose(s, 0))
        moves += 1
    assert moves > 2  # it did walk
    assert not s.thieves[0]["dungeon"]
    assert s.data.dist[s.thieves[0]["pos"]]["P0"] < 11


def test_a_thief_in_the_dungeon_walks_out_after_the_watch():
    """In the dungeon with 2 AP, the watch already gone: declining the Move would keep the thief
    in the dungeon for another round."""
    s = fresh("zain,jasmine", die=8)
    z = s.thieves[0]
    z["pos"], z["dungeon"] = s.data.dungeon["golden_domes"], True
    s.thieves[1]["pos"] = "S48"
    s.gems = {"P0": ["emperor"]}
    plan(s, 0, [("move", 2)])
    plan(s, 1, [])
    assert s.legal_actions(0) == ["sneak", "sprint", "decline move"]
    assert make_bot("mcts:60", "age-of-thieves", 3).choose(s, 0) != "decline move"
