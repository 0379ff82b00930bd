"""Rules-review fixes and the rulebook examples that had no test yet."""
from __future__ import annotations

import pytest

from thieves.games.age_of_thieves import guards, planning
from .helpers import GAME, act, events, fresh, give, path, plan

G = "E43"


def begin(s, plans):
    for p, cards in enumerate(plans):
        plan(s, p, cards)


def run_until_plan(s):
    while s.phase != "plan" or s.pending:
        p = s.players_to_act()[0]
        s.apply_action(p, s.legal_actions(p)[0])


# -- Rulebook §"In die Schatzkammer eindringen" ------------------------------------------------

def test_escape_district_is_drawn_after_the_jewel_thief_ends_the_action():
    """'Nachdem der Spieler ... seine Aktion beendet hat, ... zieht 1 Karte': no exit is open
    during the very movement in which the jewel is first taken; the red AP come at once."""
    s = fresh("zain,jasmine,joanne", die=1)
    z = s.thieves[0]
    z["pos"] = "S50"  # an exit space (a ship of the Salty Docks)
    s.gems = {"S50": ["emperor"]}
    begin(s, [[("move", 5)], [], []])
    act(s, 0, "sneak")
    act(s, 0, "take emperor")
    assert z["emperor"] and z["best"] and z["red"] == 2  # players - 1, at once
    assert s.alarm_district is None and len(s.district_deck) == 4
    assert not any(a.startswith("leave") for a in s.legal_actions(0))
    act(s, 0, "stop")
    assert s.alarm_district is not None and len(s.district_deck) == 3
    assert events(s, "escape_district")


# -- Rulebook §"Aufräumen c)" and §"Verlies" ------------------------------------------------------

def _jailed_two_rounds(opts):
    s = fresh("zain,jasmine", die=1, **opts)
    z = s.thieves[0]
    # arrested in an earlier round: still in the dungeon, no longer "arrested this round"
    z["pos"], z["dungeon"], z["arrested"] = s.data.dungeon["empty_pot"], True, False
    begin(s, [[], []])
    run_until_plan(s)
    return s


def test_a_thief_still_in_the_dungeon_keeps_only_two_blue_ap():
    assert planning.markers_free(_jailed_two_rounds({}), 0) == 2
    assert planning.markers_free(_jailed_two_rounds({"dungeon_ap": "after_arrest"}), 0) == 10


# -- Rulebook §"2. Phase: Aktionskarte ziehen" ------------------------------------------------------

def test_discard_pile_is_reshuffled_as_soon_as_the_last_card_is_drawn():
    s = fresh("zain,jasmine")
    last, *rest = s.deck[:3]
    s.discard = rest
    s.deck = [last]
    s.draw_card(0)
    assert sorted(s.deck) == sorted(rest) and s.discard == []
    assert [c for c in s.thieves[0]["hand"]] == [last]


# -- Rulebook §"Diebstahl" example 1: the Noise Grenade concerns guards and captains --------------

def test_noise_grenade_may_move_a_captain():
    s = fresh("noiron,morius", die=1)
    s.alarm, s.alarm_district = True, "empty_pot"
    a = path(s, G, 3)
    s.thieves[0]["pos"] = G
    s.thieves[1]["pos"] = a[3]
    s.guards = {"c1": a[2]}
    give(s, 0, "noise")
    begin(s, [[("noise", 9)], []])
    act(s, 0, "play noise")
    act(s, 0, f"at {a[3]}")
    assert "guard c1" in s.legal_actions(0)


# -- option last_calm_round ---------------------------------------------------------------------------

def test_jewel_in_the_tenth_calm_round_option_end():
    s = fresh("zain,jasmine", die=1, last_calm_round="end")
    s.calm_deck = []
    s.gems = {"P0": ["emperor"]}
    s.thieves[0]["pos"] = "P8"
    begin(s, [[("move", 5)], []])
    act(s, 0, "sneak")
    act(s, 0, "to P0")
    act(s, 0, "take emperor")
    act(s, 0, "stop")
    assert s.is_terminal() and s.ended == "calm_over" and s.winners() == []


# -- rulebook examples without a test so far -----------------------------------------------------------

def test_automatic_trap_never_a_captain_rulebook_example():
    s = fresh("zain,jasmine", die=1)
    s.alarm, s.alarm_district = True, "empty_pot"
    a = path(s, G, 2)
    b = path(s, G, 2, avoid=set(a[1:]))
    s.thieves[0]["pos"] = G
    s.thieves[1]["pos"] = s.data.of_kind["start"][0]
    s.guards = {"g1": a[2], "c1": b[2]}
    give(s, 0, "trap")
    begin(s, [[("trap", 9)], []])
    act(s, 0, "play trap")
    legal = s.legal_actions(0)
    assert "guard g1" in legal and "guard c1" not in legal


def test_confusing_gas_three_guards_rulebook_example():
    """Three guards in range: the first 1 space, the second 2 spaces, the third stays."""
    s = fresh("zain,jasmine", die=1)
    a = path(s, G, 5)
    b = path(s, G, 2, avoid=set(a[1:]))
    s.thieves[0]["pos"] = G
    s.thieves[1]["pos"] = s.data.of_kind["start"][0]
    s.guards = {"g1": a[2], "g2": a[3], "g3": b[2]}
    give(s, 0, "gas")
    begin(s, [[("gas", 9)], []])
    act(s, 0, "play gas")
    act(s, 0, f"gstep {a[1]}")
    act(s, 0, "gstop")
    act(s, 0, f"gstep {a[4]}")
    act(s, 0, f"gstep {a[5]}")
    act(s, 0, "gstop")
    assert s.guards == {"g1": a[1], "g2": a[5], "g3": b[2]}


def test_fire_grenade_on_a_jewel_but_never_on_a_figure_rulebook_example():
    s = fresh("zain,jasmine", die=1)
    a = path(s, G, 2)
    s.thieves[0]["pos"] = G
    s.thieves[1]["pos"] = a[2]
    s.gems = {a[1]: ["emperor"]}
    give(s, 0, "fire")
    begin(s, [[("fire", 9)], []])
    act(s, 0, "play fire")
    legal = s.legal_actions(0)
    assert f"at {a[1]}" in legal and f"at {a[2]}" not in legal and f"at {G}" not in legal


def test_theft_example_1_nobody_else_may_rob_morius_this_round():
    s = fresh("noiron,morius,zain", die=1)
    s.thieves[0]["pos"] = s.thieves[1]["pos"] = G
    s.thieves[1]["green"], s.thieves[1]["yellow"] = 1, 1
    a = path(s, G, 1)
    s.thieves[2]["pos"] = a[1]
    give(s, 0, "noise")
    give(s, 2, "smoke")
    begin(s, [[("noise", 9)], [], [("smoke", 6), ("move", 4)]])
    act(s, 0, "play noise")
    act(s, 0, f"at {G}")
    act(s, 0, "steal 2 green")  # no guard near, but the theft symbol: at once, same space
    assert s.thieves[0]["green"] == 1 and s.thieves[1]["robbed"]
    act(s, 2, "play smoke")
    act(s, 2, f"at {G}")  # smoke would make Morius stealable: ignored this round
    act(s, 2, "sneak")
    act(s, 2, f"to {G}")
    legal = s.legal_actions(2)
    assert not any(x.startswith("steal 2 ") for x in legal)  # Morius: robbed once already
    assert "steal 1 green" in legal  # Noiron stands in the smoke too and was not robbed yet


def test_theft_example_2_smoke_then_walk_over_and_steal():
    s = fresh("nikolai,jasmine", die=1)
    a = path(s, G, 2)
    s.thieves[0]["pos"] = G
    s.thieves[1]["pos"] = a[2]
    s.thieves[1]["yellow"] = 1
    give(s, 0, "smoke")
    begin(s, [[("smoke", 6), ("move", 4)], []])
    act(s, 0, "play smoke")
    act(s, 0, f"at {a[2]}")
    assert s.act is None and s.is_hidden(1)  # not on her space: no theft yet
    act(s, 0, "sneak")
    act(s, 0, f"to {a[1]}")
    act(s, 0, f"to {a[2]}")
    act(s, 0, "steal 2 yellow")  # hidden thieves can be robbed
    assert s.thieves[0]["yellow"] == 1 and s.thieves[1]["yellow"] == 0


def test_know_the_city_after_the_sewer():
    s = fresh("zain,jasmine", die=1)
    d = s.data
    s.thieves[0]["pos"] = "N1"
    s.thieves[0]["sheet"] = ["knowcity"]
    exit_ = d.of_kind["sewer_out"][0]
    begin(s, [[("move", 5)], []])
    act(s, 0, "sneak")
    act(s, 0, "to W1")
    act(s, 0, "to N16")
    act(s, 0, f"sewer {exit_}")
    assert "know" in s.legal_actions(0)
    act(s, 0, "know")
    nxt = next(n for n in d.adj[exit_] if d.kind[n] != "dungeon")
    act(s, 0, f"to {nxt}")
    assert s.thieves[0]["pos"] == nxt
    assert not any(x.startswith("to ") for x in s.legal_actions(0))


def test_arrest_with_the_emperors_jewel_outside_the_palace():
    s = fresh("zain,jasmine", die=1)
    d = s.data
    a = path(s, G, 1)
    s.guards = {"g1": G}
    z = s.thieves[0]
    z["pos"], z["emperor"], z["yellow"] = a[1], True, 1
    s.thieves[1]["pos"] = d.of_kind["start"][0]
    begin(s, [[], []])
    dist = d.district[a[1]]
    assert "emperor" in s.gems[d.imperial[dist]] and z["yellow"] == 1  # only 1 jewel lost
    assert z["pos"] == d.dungeon[dist]


def test_arrest_after_the_alarm_goes_to_the_alarm_districts_dungeon():
    s = fresh("zain,jasmine", die=1)
    d = s.data
    s.alarm, s.alarm_district, s.jewel_taken = True, "salty_docks", True
    a = path(s, G, 1)
    s.guards = {"g1": G}
    s.thieves[0]["pos"] = a[1]
    s.thieves[1]["pos"] = d.of_kind["start"][0]
    begin(s, [[], []])
    assert s.thieves[0]["pos"] == d.dungeon["salty_docks"] != d.dungeon[d.district[a[1]]]


def test_noiron_uses_the_fishing_rod_then_only_cleverness_rulebook_example():
    """Zain (Emperors' Jewel, initiative 8) walks out of the Rod's range; Noiron may still
    resolve the Rod (no target), and then only the upper Ambush effect is left."""
    s = fresh("noiron,zain", die=1)
    rod = s.data.general["rod"].range
    a = path(s, G, rod + 1)
    s.thieves[0]["pos"] = G
    s.thieves[1]["pos"], s.thieves[1]["emperor"] = a[rod - 2], True  # in range
    give(s, 0, "rod")
    begin(s, [[("ambush", 1), ("rod", 6)], [("move", 8)]])
    act(s, 1, "sneak")
    for step in a[rod - 1:rod + 2]:  # 3 steps: one space beyond the Rod's range
        act(s, 1, f"to {step}")
    act(s, 1, "stop")
    act(s, 0, "play rod")
    assert s.act is None  # out of range: nothing to steal
    assert s.legal_actions(0) == ["cleverness", "decline ambush"]


def test_options_are_documented():
    names = {o.name for o in GAME.all_options()}
    assert {"dungeon_ap", "last_calm_round", "specials", "thieves"} <= names


def test_morius_rat_tunnels_onto_a_guard_is_an_arrest_like_the_sewers():
    s = fresh("morius,zain", die=1)
    exit_ = s.data.of_kind["sewer_out"][0]
    s.thieves[0]["pos"] = G
    s.thieves[1]["pos"] = s.data.of_kind["start"][0]
    s.guards = {"g1": exit_}
    give(s, 0, "cloak")
    begin(s, [[("special:cloak", 9)], [("ambush", 3)]])  # Zain before the watch (die 1)
    act(s, 0, "special")
    act(s, 0, f"at {exit_}")
    assert s.thieves[0]["dungeon"] and s.turn == 1  # at once, not by the watch later


def test_fire_on_the_way_option_detour():
    """Default: the captain is held up by the fire (rulebook example); option: it walks around."""
    for opt, moved in (("stop", False), ("detour", True)):
        s = fresh("zain,jasmine", guard_fire=opt)
        s.alarm, s.alarm_district = True, "empty_pot"
        d = s.data
        a = path(s, G, 2)
        s.guards = {"c1": G}
        s.thieves[1]["pos"] = a[2]
        s.thieves[0]["pos"] = d.of_kind["start"][0]
        s.fire = [n for n in d.adj[G] if d.dist[n][a[2]] == 1]
        around = guards.blocked_dist(s, a[2])  # way lengths around the fire
        plan(s, 0, [])
        plan(s, 1, [])
        while s.pending and s.pending[0]["kind"] == "gstep":  # equally short ways: start player
            act(s, s.start, s.legal_actions(s.start)[0])
        assert (s.guards["c1"] != G) == moved, opt
        if moved:
            assert s.thieves[1]["dungeon"] or around[s.guards["c1"]] == around[G] - 4  # captains move 4


def test_fake_orders_onto_a_thief_option_placement_arrests():
    for opt, caught in (("as_written", False), ("all", True)):
        s = fresh("morius,zain", die=1, placement_arrests=opt)
        s.guards = {"g1": G}
        house = next(h for h in s.data.guardhouses if s.data.district[h] == "hammerblow")
        s.thieves[0]["pos"] = s.data.of_kind["start"][0]
        s.thieves[1]["pos"] = house
        give(s, 0, "orders")
        begin(s, [[("orders", 5)], [("ambush", 3)]])  # Zain acts before the watch (die 1)
        act(s, 0, "play orders")
        act(s, 0, "guard g1")
        act(s, 0, f"to {house}")
        assert s.thieves[1]["dungeon"] == caught, opt
        keys = [(e["key"], e["args"].get("player")) for e in s.log]
        if caught:  # arrested on arrival, before the watch's own turn
            arrest = keys.index(("arrested", 1))
            assert all(i > arrest for i, k in enumerate(keys) if k[0] == "watch_acts")
        else:
            assert s.turn == 1


def test_theft_needs_moving_onto_the_space_option_steal_in_place():
    for opt in (False, True):
        s = fresh("nikolai,jasmine", die=1, steal_in_place=opt)
        a = path(s, G, 1)
        s.thieves[0]["pos"] = s.thieves[1]["pos"] = G
        s.thieves[1]["yellow"], s.thieves[1]["marker"] = 1, True
        begin(s, [[("move", 5)], []])
        act(s, 0, "sneak")
        assert ("steal 2 yellow" in s.legal_actions(0)) == opt
        act(s, 0, f"to {a[1]}")
        act(s, 0, f"to {G}")  # moving onto the marked thief's space
        assert "steal 2 yellow" in s.legal_actions(0)


@pytest.mark.slow
def test_conformance_with_every_alternative_option():
    from thieves.testing import check_game_run
    opts = {"dungeon_ap": "after_arrest", "last_calm_round": "end", "guard_fire": "detour",
            "placement_arrests": "all", "steal_in_place": True, "specials": False}
    for n in (2, 4):
        final = check_game_run("age-of-thieves", n, 7, options=opts, deep_every=4)
        if not final.winners():
            assert final.ended in ("defeat", "dawn", "all_left", "calm_over")


def _at_planning(seed: int):
    from thieves.core.registry import load_game
    s = load_game("age-of-thieves").new_game(2, seed)
    while not (s.phase == "plan" and not s.pending and s.players_to_act() == [0, 1]):
        p = s.players_to_act()[0]
        s.apply_action(p, s.legal_actions(p)[0])
    return s


def _plan(s, p: int, actions: list[str]) -> None:
    for a in actions:
        s.apply_action(p, a)


def test_a_search_copy_does_not_keep_a_rivals_plan_behind_the_screen() -> None:
    # A plan is made behind the screen (Rulebook, planning phase): seat 1 sees only
    # that seat 0 is done and how many cards it holds in all, so its search copy
    # must be the same whatever seat 0 planned.
    planned, empty = _at_planning(5), _at_planning(5)
    _plan(planned, 0, ["plan move", "ap 3", "plan ambush", "ap 1", "done"])
    _plan(empty, 0, ["done"])
    assert planned.observation(1)["thieves"][0] == empty.observation(1)["thieves"][0]
    a, b = planned.determinize(1, 11), empty.determinize(1, 11)
    assert a.to_dict()["fields"] == b.to_dict()["fields"]
    # the rival's plan in the copy is made up afresh; seat 1 keeps its own planning
    assert a.thieves[0]["done"] and a.players_to_act() == [1]
    assert a.observation(1) == planned.observation(1)
    mine = planned.clone()
    _plan(mine, 1, ["plan move", "ap 2"])
    assert mine.determinize(1, 3).thieves[1]["cur"] == mine.thieves[1]["cur"]
