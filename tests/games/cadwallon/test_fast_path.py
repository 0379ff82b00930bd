"""Cadwallon's trusted playout (:meth:`CadwallonState._random_playout`) plays exactly the
games of the checked contract, and the hot listings it calls give exactly the actions of
the plain rules written out below (the listing as it read before the speed work)."""
from __future__ import annotations

from functools import partial

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from thieves.cli.bench import midgame_positions
from thieves.core.rng import KeyedRng, Rng
from thieves.games.cadwallon.combat import flee_options
from thieves.games.cadwallon.legal import (ACTION_CARDS, MISSION, MOVE_CARDS, PLAY, main_actions,
                                          main_listing, mission_items)
from thieves.games.cadwallon.movement import blocked_zones, enterable, militia_may_attack, militia_targets
from thieves.testing import check_fast_playout, checked_playout

from .helpers import GAME
from .test_properties import walk

OPTION_SETS = [
    {},
    {"adventure": "quiet_night"},
    {"adventure": "hue_and_cry", "militia_still_face": 1},
    {"portcullis_blocks_zone": False, "attack_needs_movement": False},
    {"gang_choice": "seat", "treasure_mix": "six_red_six_purses", "fines_room": "guard_room"},
    {"adventure": "lockdown", "portcullis_blocks_zone": False},
]


def same_games(start, seed: int, limit: int = 1_000_000) -> int:
    """Play ``start`` out by the checked loop and by the fast path (muted and logged) with
    the same picking seed: the same decisions, positions, chance and picks."""
    checked, fast, played = check_fast_playout(start, seed, limit)
    # the public contract goes on from the same place
    for p in checked.players_to_act():
        assert fast.legal_actions(p) == checked.legal_actions(p)
    return played


@settings(max_examples=30, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 4), seed=st.integers(0, 100_000), cut=st.integers(0, 400),
       options=st.sampled_from(OPTION_SETS), limit=st.sampled_from([1_000_000, 1, 7, 60]))
def test_fast_playout_plays_the_checked_games(n, seed, cut, options, limit):
    start = GAME.new_game(n, seed, options)
    checked_playout(start, Rng.from_seed(seed + 50), cut)
    same_games(start, seed, limit)


@pytest.mark.parametrize("seed", [0, 5])
def test_fast_playout_from_the_bench_positions(seed):
    for i, start in enumerate(midgame_positions("cadwallon", 4, 4, seed)):
        for k in range(3):
            assert same_games(start, seed * 100 + i * 10 + k) > 0


def test_other_generators_play_the_checked_games_too():
    """A keyed generator, or the state's own, goes through the engine's loop."""
    start = midgame_positions("cadwallon", 1, 3, 2)[0]
    a, b = start.clone(), start.clone()
    assert a.random_playout(KeyedRng.from_seed(4)) == checked_playout(b, KeyedRng.from_seed(4))
    assert a.to_dict(log=False) == b.to_dict(log=False)
    a, b = start.clone(), start.clone()
    assert a.random_playout(a.rng) == checked_playout(b, b.rng)
    assert a.to_dict(log=False) == b.to_dict(log=False)


# -- the plain rules the hot listings must match -------------------------------------------------
def reach(data, start, steps, blocked, walls=0, through=None):
    """Zones reachable in at most ``steps`` steps -> fewest steps: a breadth-first search over
    (zone, red walls still crossable), through blocked zones only where ``through`` says."""
    out = {}
    best = {(start, walls)}
    frontier = [(start, walls)]
    for depth in range(1, steps + 1):
        nxt = []
        for z, w in frontier:
            cands = [(n, w) for n in data.adj[z]]
            if w:
                cands += [(n, w - 1) for n in data.wall_adj[z]]
            for n, nw in cands:
                if (n, nw) in best:
                    continue
                if n not in blocked:
                    best.add((n, nw))
                    nxt.append((n, nw))
                    if n != start and n not in out:
                        out[n] = depth
                elif through is not None and through(n):
                    best.add((n, nw))
                    nxt.append((n, nw))
        frontier = nxt
    return out


def plain_flee_ends(s, char):
    """Every flight of at most 3 zones (never twice the same zone, through open zones), the
    ends of the longest that stop in an empty zone."""
    occupied, closed = set(s.pos.values()), s.portcullis if s.options["portcullis_blocks_zone"] else ()
    ends = {}

    def walk(path):
        if len(path) > 1 and path[-1] not in occupied and path[-1] not in s.tokens:
            ends.setdefault(len(path) - 1, set()).add(path[-1])
        if len(path) <= 3:
            for n in s.data.adj[path[-1]]:
                if n not in path and n not in closed:
                    walk(path + [n])

    walk([s.pos[char]])
    return sorted(ends[max(ends)]) if ends else []


def plain_movement(s, c):
    d = s.data
    mv = d.movement_of[c] + (1 if d.talent_of[c] == "nimble" else 0)
    if s.act and s.active == c and "run" in s.act["cards"]:
        mv += 2
    mv -= s.injured.get(c, 0)
    return max(mv, 0)


def plain_targets(s, c):
    cards = s.act["cards"] if s.act and s.active == c else ()
    blocked = set(s.pos.values()) | set(s.tokens)
    if s.options["portcullis_blocks_zone"]:
        blocked |= set(s.portcullis)
    return reach(s.data, s.pos[c], plain_movement(s, c), blocked,
                 walls=1 if "secret_passage" in cards else 0,
                 through=partial(enterable, s) if "rooftops" in cards else None)


def plain_can_leave(s, c, targets):
    if not s.alarm:
        return False
    mv = plain_movement(s, c)
    dep = s.data.deployment_set
    if s.pos[c] in dep and s.pos[c] not in s.portcullis and mv >= 1:
        return True
    return any(steps < mv and z in dep and z not in s.portcullis for z, steps in targets.items())


def plain_attack_targets(s, c):
    act = s.act
    if (s.options["attack_needs_movement"] and act is not None and s.active == c
            and act["moved"] and act.get("left", 1) < 1):
        return []
    adj = s.data.adj_set[s.pos[c]]
    closed = s.portcullis if s.options["portcullis_blocks_zone"] else ()
    return sorted(t for t, z in s.pos.items() if z in adj and militia_may_attack(s, t, s._player(c))
                  and z not in closed)


def plain_main_actions(s, p, rest_only=False):
    """The main phase's listing as the rules give it, one part after the other (``rest_only``:
    the part outside the activation)."""
    d = s.data
    out = []
    ap, c, hand = s.ap[p], s.active, s.hands[p]
    if c is not None and not rest_only:
        act = s.act
        if not act["moved"] and ap >= 1:
            targets = plain_targets(s, c)
            out += [f"move {z}" for z in sorted(targets)]
            if plain_can_leave(s, c, targets):
                out.append("leave")
        if not act["acted"]:
            chest = s.chests.get(s.pos[c])
            if chest is not None:
                if ap >= 1 and not chest["sealed"]:
                    out.append("open")
                if ap >= 2:
                    out.append("force")
            if ap >= 1:
                out += [f"attack {t}" for t in plain_attack_targets(s, c)]
        if not act["talent"]:
            tal = d.talent_of[c]
            if tal == "shadow_step" and ap >= d.talent[tal].cost:
                out += [f"talent {z}" for z in d.step_or_wall[s.pos[c]] if z not in blocked_zones(s)]
            elif tal == "sleight":
                out += [f"talent {k}" for k in sorted(set(hand))]
        if not act["moved"]:
            out += [PLAY[k] for k in MOVE_CARDS if k in hand and k not in act["cards"]]
        if not act["acted"]:
            out += [PLAY[k] for k in ACTION_CARDS if k in hand and k not in act["cards"]]
    thieves = s._thieves_of(p)
    if ap >= 1:
        out += [f"act {x}" for x in thieves if x not in s.activated]
    if "second_wind" in hand:
        out.append("play second_wind")
    if "pickpocket" in hand:
        out += [f"play pickpocket P{q + 1}" for q in range(s.num_players) if q != p]
    if "reinforced_lock" in hand:
        out += [f"play reinforced_lock {z}" for z in sorted(s.chests) if not s.chests[z]["sealed"]]
    if ap >= 3:
        for i, m in enumerate(s.missions):
            if m is not None and mission_items(s, p, m) is not None:
                out.append(MISSION[i])
    out.append("end")
    return out


def plain_militia_targets(s, m, roll, p):
    blocked = set(s.pos.values()) | set(s.tokens)
    if s.options["portcullis_blocks_zone"]:
        blocked |= set(s.portcullis)
    moves = reach(s.data, s.pos[m], roll, blocked)
    near = set(s.data.adj[s.pos[m]]) if roll > 0 else set()
    for z, steps in moves.items():
        if steps < roll:
            near.update(s.data.adj[z])
    out = set(moves)
    closed = s.portcullis if s.options["portcullis_blocks_zone"] else ()
    out |= {z for c, z in s.pos.items() if z in near and militia_may_attack(s, c, p) and z not in closed}
    return sorted(out)


@pytest.mark.parametrize("options", OPTION_SETS)
@pytest.mark.parametrize("n", [2, 4])
def test_hot_listings_give_the_plain_rules(n, options):
    """At every decision of busy random games: the main listing, the targets and Movement it
    hands to the move, and the militia's moves are those of the plain rules."""
    seen = set()
    for seed in (1, 2):
        for s in walk(n, seed, options=options):
            if s.is_terminal():
                continue
            if s.queue:
                task = s.queue[0]
                if task["kind"] == "flee":
                    assert flee_options(s, task["char"]) == plain_flee_ends(s, task["char"])
                    seen.add("flee")
                continue
            p = s.current
            if s.phase == "main":
                acts, targets, mv, split = main_listing(s, p)
                assert main_listing(s, p, acts[split:])[0] == acts
                assert acts[split:] == plain_main_actions(s, p, rest_only=True)
                assert acts == plain_main_actions(s, p)
                assert main_actions(s, p) == acts
                if targets is not None:
                    assert targets == plain_targets(s, s.active)
                    assert mv == plain_movement(s, s.active)
                seen.update(a.split()[0] for a in acts)
            elif s.phase == "militia_move":
                want = plain_militia_targets(s, s.militia_sel, s.militia_roll, p)
                assert militia_targets(s, s.militia_sel, s.militia_roll, p) == want
                assert s.legal_actions(p) == ["mm stay"] + [f"mm {z}" for z in want]
    assert {"move", "act", "end", "play", "flee"} <= seen


def mutable_ids(value, out):
    """The ids of every list and dict within ``value``."""
    if isinstance(value, (list, dict)):
        out.add(id(value))
        for v in (value.values() if isinstance(value, dict) else value):
            mutable_ids(v, out)
    return out


def test_clone_tables_name_every_field_once():
    from thieves.games.cadwallon import rules
    tables = (rules.SHARED_FIELDS + rules.LIST_FIELDS + rules.DICT_FIELDS + rules.LISTS_FIELDS
              + rules.NESTED_FIELDS)
    assert sorted(tables) == sorted(GAME.state_class.FIELDS)


@pytest.mark.parametrize("n", [2, 4])
def test_clone_is_the_engine_clone_and_shares_nothing_that_changes(n):
    """The game's own clone gives what the engine's marshal copy gives (every attribute, the
    same snapshot, recording again), and no list or dict of the position is shared."""
    from thieves.core.game import State
    kinds = set()
    for i, s in enumerate(walk(n, 3, options={"adventure": "hue_and_cry"})):
        if i % 7 and not (s.queue or s.combat):
            continue
        s.mute()
        a, b = s.clone(), State.clone(s)
        s.unmute()
        assert vars(a).keys() == vars(b).keys()
        assert a.to_json() == b.to_json() == s.to_json()
        assert a.recording and "event" not in vars(a)
        mine = set().union(*(mutable_ids(getattr(s, f), set()) for f in s.FIELDS))
        theirs = set().union(*(mutable_ids(getattr(a, f), set()) for f in a.FIELDS))
        assert not mine & theirs
        kinds.update(t["kind"] for t in s.queue)
        kinds.update(["act"] if s.act else [])
        kinds.update(["combat"] if s.combat else [])
    assert {"act", "combat", "card", "injury"} <= kinds
