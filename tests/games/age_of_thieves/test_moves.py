"""Movement, sewers, jewels, tokens, theft, the jewel, the alarm and the end (Rulebook §4, §"Spielende")."""
from __future__ import annotations

from thieves.games.age_of_thieves import actions, planning
from .helpers import act, fresh, give, path, plan

G = "E43"


def start_exec(s, plans):
    for p, cards in enumerate(plans):
        plan(s, p, cards)


def test_zain_through_the_sewer_onto_a_gem_rulebook_example():
    s = fresh("zain,jasmine", die=1)
    d = s.data
    s.thieves[0]["pos"] = "N1"
    exit_ = d.of_kind["sewer_out"][0]
    s.gems[exit_] = ["yellow"]
    start_exec(s, [[("move", 5)], []])
    act(s, 0, "sneak")
    act(s, 0, "to W1")
    act(s, 0, "to N16")  # 2 spaces: a sewer entrance
    act(s, 0, f"sewer {exit_}")
    legal = s.legal_actions(0)
    assert not any(a.startswith("to ") for a in legal)  # the sewer ends the movement
    assert "take yellow" in legal
    act(s, 0, "take yellow")
    assert s.thieves[0]["yellow"] == 1 and exit_ not in s.gems


def test_starting_on_an_entrance_is_not_entering_it():
    s = fresh("zain,jasmine", die=1)
    s.thieves[0]["pos"] = "N16"
    start_exec(s, [[("move", 5)], []])
    act(s, 0, "sneak")
    assert not any(a.startswith("sewer ") for a in s.legal_actions(0))


def test_sprint_moves_only_and_know_the_city_adds_a_space():
    s = fresh("zain,jasmine", die=1)
    a = path(s, "N10", 7)
    s.thieves[0]["pos"] = "N10"
    s.thieves[0]["sheet"] = ["knowcity"]
    s.gems[a[1]] = ["yellow"]
    start_exec(s, [[("move", 5)], []])
    act(s, 0, "sprint")
    act(s, 0, f"to {a[1]}")
    assert "take yellow" not in s.legal_actions(0)  # Sprint: no pick-ups, no theft
    for n in a[2:7]:
        act(s, 0, f"to {n}")
    act(s, 0, "know")
    act(s, 0, f"to {a[7]}")
    assert s.thieves[0]["pos"] == a[7] and s.thieves[0]["sheet"] == []


def test_city_tokens_are_revealed_and_kept():
    s = fresh("zain,jasmine", die=1)
    a = path(s, G, 3)
    s.thieves[0]["pos"] = G
    s.tokens = {a[1]: "informer", a[2]: "alley", a[3]: "trinket"}
    start_exec(s, [[("move", 5)], []])
    act(s, 0, "sneak")
    for n in a[1:]:
        act(s, 0, f"to {n}")
        act(s, 0, "take token")
    assert sorted(s.thieves[0]["sheet"]) == ["informer", "trinket"]
    assert s.features == {a[2]: "alley"}  # a Dark Alley stays and makes a hideout
    assert s.vp(0) == 1  # the Trinket counts as a yellow jewel


def test_plainclothes_guard_arrests_the_revealer():
    s = fresh("zain,jasmine", die=1)
    a = path(s, G, 1)
    s.thieves[0]["pos"] = G
    s.tokens = {a[1]: "plainclothes"}
    start_exec(s, [[("move", 5)], []])
    act(s, 0, "sneak")
    act(s, 0, f"to {a[1]}")
    act(s, 0, "take token")
    assert s.thieves[0]["dungeon"] and a[1] in s.guards.values()


def test_theft_marker_lets_one_thief_steal_once():
    s = fresh("nikolai,jasmine,zain", die=1)
    a = path(s, G, 2)
    s.thieves[0]["pos"] = G
    s.thieves[1]["pos"] = a[2]
    s.thieves[1]["yellow"], s.thieves[1]["green"] = 1, 1
    give(s, 0, "noise")
    start_exec(s, [[("noise", 6), ("move", 3)], [], []])
    act(s, 0, "play noise")
    act(s, 0, f"at {a[2]}")
    assert s.thieves[1]["marker"]
    if s.act and s.act.get("then") == "noise_guard":
        act(s, 0, "nothing")
    act(s, 0, "sneak")
    act(s, 0, f"to {a[1]}")
    act(s, 0, f"to {a[2]}")
    assert set(a for a in s.legal_actions(0) if a.startswith("steal")) == {"steal 2 green", "steal 2 yellow"}
    act(s, 0, "steal 2 green")
    assert s.thieves[0]["green"] == 1 and s.thieves[1]["robbed"] and not s.thieves[1]["marker"]
    assert not any(a.startswith("steal") for a in s.legal_actions(0))


def test_same_space_theft_is_immediate_noiron_morius_example():
    s = fresh("noiron,morius", die=1)
    s.thieves[0]["pos"] = s.thieves[1]["pos"] = G
    s.thieves[1]["green"] = 1
    give(s, 0, "noise")
    start_exec(s, [[("noise", 6), ("move", 2)], []])
    act(s, 0, "play noise")
    act(s, 0, f"at {G}")
    act(s, 0, "steal 2 green")
    assert s.thieves[0]["green"] == 1 and s.thieves[1]["robbed"] and s.thieves[1]["green"] == 0


def test_smoke_hides_and_makes_stealable():
    s = fresh("nikolai,jasmine", die=1)
    a = path(s, G, 2)
    s.thieves[0]["pos"] = G
    s.thieves[1]["pos"] = a[2]
    give(s, 0, "smoke")
    start_exec(s, [[("smoke", 6), ("move", 2)], []])
    act(s, 0, "play smoke")
    act(s, 0, f"at {a[2]}")
    assert s.is_hidden(1) and actions.stealable(s, 1) and not s.thieves[1]["marker"]


def test_fire_blocks_movement_but_not_zain():
    s = fresh("jasmine,zain", die=1)
    a = path(s, G, 1)
    s.thieves[0]["pos"] = s.thieves[1]["pos"] = G
    s.fire = [a[1]]
    start_exec(s, [[("move", 6)], [("move", 5)]])
    act(s, 0, "sneak")
    assert f"to {a[1]}" not in s.legal_actions(0)
    act(s, 0, "stop")
    act(s, 1, "sneak")
    assert f"to {a[1]}" in s.legal_actions(1)


def test_stealing_the_emperors_jewel_and_the_alarm():
    s = fresh("zain,jasmine,joanne", die=1)
    z = s.thieves[0]
    z["pos"] = "P8"
    s.gems = {"P0": ["emperor"]}
    start_exec(s, [[("move", 5)], [], []])
    act(s, 0, "sneak")
    act(s, 0, "to P0")
    act(s, 0, "take emperor")
    assert z["emperor"] and z["best"] and s.jewel_taken
    assert s.vp(0) == 3
    act(s, 0, "stop")  # the district card is drawn once Zain's action is over
    assert s.alarm_district not in s.district_deck and len(s.district_deck) == 3
    while s.phase != "plan":
        p = s.players_to_act()[0]
        s.apply_action(p, s.legal_actions(p)[0])
    d = s.data
    dist = s.alarm_district
    assert s.alarm and s.calm_deck == [] and len(s.alarm_deck) == 4  # first alarm event drawn
    caps = sorted(g for g, x in s.guards.items() if g[0] == "c")
    assert caps == ["c1", "c2"]
    assert sorted(s.guards[c] for c in caps) == sorted(x for x in d.of_kind["captain_alarm"]
                                                        if d.district[x] == dist)
    alarm_guards = [x for x in d.of_kind["guard_alarm"] if d.district[x] == dist]
    assert all(x in s.guards.values() for x in alarm_guards)
    assert z["red"] == 2  # players - 1 red AP
    assert planning.markers_free(s, 0) == 12


def test_leaving_with_the_emperors_jewel_wins_at_once():
    s = fresh("zain,jasmine", die=1)
    d = s.data
    s.alarm, s.alarm_district, s.jewel_taken = True, "salty_docks", True
    z = s.thieves[0]
    z["pos"], z["emperor"] = "S50", True
    start_exec(s, [[("move", 9)], []])
    act(s, 0, "sprint")
    assert "leave S-ship1" in s.legal_actions(0)
    assert not any(e.startswith("leave N") for e in s.legal_actions(0))
    act(s, 0, "leave S-ship1")
    assert s.is_terminal() and s.winners() == [0]


def test_exits_closed_before_the_jewel_is_taken():
    s = fresh("zain,jasmine", die=1)
    s.thieves[0]["pos"] = "S50"
    start_exec(s, [[("move", 9)], []])
    act(s, 0, "sneak")
    assert not any(a.startswith("leave") for a in s.legal_actions(0))


def test_victory_tie_breakers():
    s = fresh("zain,jasmine,joanne")
    t = s.thieves
    t[0].update(left=2, yellow=2)           # 2 VP
    t[1].update(left=3, green=1)            # 2 VP, one green: beats Zain
    t[2].update(left=None, green=3)         # still in the city: cannot win
    s._finish("dawn")
    assert s.winners() == [1]
    s2 = fresh("zain,jasmine")
    s2.thieves[0].update(left=2, green=1)
    s2.thieves[1].update(left=1, green=1)   # same VP, same green: earlier wins
    s2._finish("dawn")
    assert s2.winners() == [1]
    s3 = fresh("zain,jasmine")
    s3.thieves[1].update(left=1)            # the only one out, even with 0 VP
    s3._finish("dawn")
    assert s3.winners() == [1]


def test_defeat_when_the_calm_deck_runs_out():
    s = fresh("zain,jasmine")
    s.calm_deck = []
    plan(s, 0, [])
    plan(s, 1, [])
    assert s.is_terminal() and s.ended == "defeat" and s.winners() == []


def test_jewel_taken_in_the_tenth_calm_round_goes_on_into_the_alarm():
    s = fresh("zain,jasmine", die=1)
    s.calm_deck = []
    s.gems = {"P0": ["emperor"]}
    s.thieves[0]["pos"] = "P8"
    plan(s, 0, [("move", 5)])
    plan(s, 1, [])
    act(s, 0, "sneak")
    act(s, 0, "to P0")
    act(s, 0, "take emperor")
    act(s, 0, "stop")
    assert not s.is_terminal()
    assert s.alarm or s.pending or s.phase in ("plan", "event")
