"""The city watch, arrests and the dungeon (Rulebook §"Aktionen der Stadtwachen", §"Verlies")."""
from __future__ import annotations

from thieves.games.age_of_thieves import guards, planning
from .helpers import act, events, fresh, give, path, plan

G = "E43"  # a plain space with room around it on the reconstructed board


def finish_planning(s, *players):
    for p in players:
        plan(s, p, [])


def detected(s):
    return [(e["args"]["space"], e["args"]["player"]) for e in events(s, "detects")]


def test_guard_cannot_detect_hidden_zain_rulebook_example():
    s = fresh("zain,jasmine")
    a = path(s, G, 2)
    b = path(s, G, 2, avoid=set(a[1:]))
    s.guards = {"g1": G}
    s.thieves[0]["pos"], s.thieves[0]["cloak"] = b[2], True  # Zain under his Cloak
    s.thieves[1]["pos"] = a[2]
    finish_planning(s, 0, 1)
    assert detected(s) == [("E43", [1])]  # the guard on E43 detects Jasmine
    assert s.thieves[1]["dungeon"] and not s.thieves[0]["dungeon"]  # movement 2 reaches her
    assert s.guards["g1"] == a[2]


def test_detection_range_and_movement_calm():
    s = fresh("zain,jasmine")
    a = path(s, G, 4)
    s.guards = {"g1": G}
    s.thieves[0]["pos"] = a[4]  # heard at 4, but the guard moves only 2
    s.thieves[1]["pos"] = s.data.of_kind["start"][0]
    finish_planning(s, 0, 1)
    assert not s.thieves[0]["dungeon"]
    assert s.data.dist[s.guards["g1"]][a[4]] == 2


def test_beacon_arrests_jasmine_rulebook_example():
    s = fresh("joanne,jasmine", die=1)
    a = path(s, G, 3)
    s.guards = {"g1": G}
    s.thieves[0]["pos"] = path(s, G, 2, avoid=set(a[1:]))[2]
    s.thieves[1]["pos"] = a[3]
    give(s, 0, "beacon")
    plan(s, 0, [("beacon", 5)])
    finish_planning(s, 1)
    act(s, 0, "play beacon")
    act(s, 0, "guard g1")
    act(s, 0, f"gstep {a[1]}")
    act(s, 0, f"gstep {a[2]}")
    assert not s.thieves[1]["dungeon"]
    act(s, 0, f"gstep {a[3]}")  # the third space: Jasmine is arrested, the guard stops
    assert s.thieves[1]["dungeon"]
    assert s.guards["g1"] == a[3]


def test_two_thieves_on_one_space_start_player_decides_rulebook_example():
    s = fresh("joanne,jasmine,noiron")
    a = path(s, G, 2)
    b = path(s, G, 2, avoid=set(a[1:]))
    s.guards = {"g1": G}
    s.thieves[0]["pos"] = s.thieves[1]["pos"] = a[2]
    s.thieves[1]["cloak"] = True  # Jasmine is hidden
    s.thieves[2]["pos"] = b[2]
    finish_planning(s, 0, 1, 2)
    pd = s.pending[0]
    assert pd["kind"] == "assign" and s.players_to_act() == [s.start]
    choice = f"assign g1>{a[2]}"
    assert set(s.legal_actions(s.start)) == {choice, f"assign g1>{b[2]}"}
    act(s, s.start, choice)
    while s.pending and s.pending[0]["kind"] == "gstep":
        act(s, s.start, s.legal_actions(s.start)[0])
    assert s.thieves[0]["dungeon"] and not s.thieves[1]["dungeon"] and not s.thieves[2]["dungeon"]


def test_nearest_thief_before_bigger_group():
    s = fresh("joanne,jasmine,noiron")
    a = path(s, G, 1)
    b = path(s, G, 2, avoid=set(a[1:]))
    s.guards = {"g1": G}
    s.thieves[2]["pos"] = a[1]
    s.thieves[0]["pos"] = s.thieves[1]["pos"] = b[2]
    finish_planning(s, 0, 1, 2)
    assert s.thieves[2]["dungeon"] and not s.thieves[0]["dungeon"] and not s.thieves[1]["dungeon"]


def test_two_guards_split_up_to_arrest_two_thieves():
    s = fresh("zain,jasmine")
    a = path(s, G, 4)
    s.guards = {"g1": a[0], "g2": a[4]}
    s.thieves[0]["pos"] = a[1]
    s.thieves[1]["pos"] = a[3]
    finish_planning(s, 0, 1)
    assert s.thieves[0]["dungeon"] and s.thieves[1]["dungeon"]


def test_guards_before_captains_rulebook_example():
    s = fresh("morius,noiron")
    s.alarm, s.alarm_district = True, "empty_pot"
    a = path(s, G, 4)
    s.guards = {"g1": a[0], "c1": a[4]}
    s.thieves[0]["pos"] = a[1]
    s.thieves[1]["pos"] = a[3]
    finish_planning(s, 0, 1)
    arrests = [e["args"]["player"] for e in events(s, "arrested")]
    assert arrests[:2] == [0, 1]  # Morius, then Noiron


def test_fire_token_stops_a_captain_rulebook_example():
    s = fresh("zain,jasmine")
    s.alarm, s.alarm_district = True, "empty_pot"
    d = s.data
    a = path(s, G, 2)
    b = path(s, G, 4, avoid=set(a[1:]))
    s.guards = {"c1": G}
    s.thieves[1]["pos"] = a[2]   # Jasmine, nearer
    s.thieves[0]["pos"] = b[4]   # Zain, farther
    s.fire = [n for n in d.adj[G] if d.dist[n][a[2]] == 1]
    finish_planning(s, 0, 1)
    assert not s.thieves[0]["dungeon"] and not s.thieves[1]["dungeon"]
    assert s.guards["c1"] == G  # it heads for Jasmine and is stopped at once by the fire


def test_thief_on_a_guard_space_can_leave_before_the_watch_rulebook_example():
    s = fresh("zain,jasmine", die=4)
    s.guards = {"g1": G}
    s.thieves[0]["pos"] = G
    s.thieves[1]["pos"] = s.data.of_kind["start"][0]
    plan(s, 0, [("move", 5)])
    finish_planning(s, 1)
    act(s, 0, "sneak")
    for n in path(s, G, 4)[1:]:
        act(s, 0, f"to {n}")
    assert not s.thieves[0]["dungeon"]
    s2 = fresh("zain,jasmine", die=6)
    s2.guards = {"g1": G}
    s2.thieves[0]["pos"] = G
    plan(s2, 0, [("move", 5)])
    finish_planning(s2, 1)
    assert s2.thieves[0]["dungeon"]  # the watch acted first


def test_walking_onto_a_guard_means_arrest_unless_hidden():
    s = fresh("zain,jasmine", die=1)
    a = path(s, G, 2)
    s.guards = {"g1": a[2]}
    s.thieves[0]["pos"] = G
    s.thieves[0]["yellow"], s.thieves[0]["green"] = 1, 1
    give(s, 0, "fire", "gas")
    plan(s, 0, [("move", 5)])
    finish_planning(s, 1)
    act(s, 0, "sneak")
    act(s, 0, f"to {a[1]}")
    act(s, 0, f"to {a[2]}")
    z = s.thieves[0]
    # dungeon: lose the cheapest jewel, discard a card, the dungeon of the district
    assert z["dungeon"] and z["yellow"] == 0 and z["green"] == 1
    assert z["pos"] == s.data.dungeon[s.data.district[a[2]]]
    assert s.players_to_act() == [0] and s.pending[0]["kind"] == "discard"
    act(s, 0, "discard gas")
    assert [c.rstrip("0123456789") for c in z["hand"]] == ["fire"]


def test_dungeon_next_round_two_ap_move_first_then_hidden():
    s = fresh("zain,jasmine", die=1)
    d = s.data
    dun = d.dungeon["empty_pot"]
    z = s.thieves[0]
    z["pos"], z["dungeon"], z["arrested"] = dun, True, True
    plan(s, 0, [])
    finish_planning(s, 1)
    while s.phase != "plan":
        p = s.players_to_act()[0]
        s.apply_action(p, s.legal_actions(p)[0])
    assert planning.markers_free(s, 0) == 2  # only 2 blue AP after the arrest
    plan(s, 0, [("ambush", 1), ("move", 1)])
    s.die = 1
    s.alarm = True  # the watch wins ties: it acts first; Zain in the dungeon is not heard
    finish_planning(s, 1)
    legal = s.legal_actions(0)
    assert "cleverness" not in legal and "decline ambush" in legal and "sneak" in legal
    act(s, 0, "sneak")
    act(s, 0, f"to {d.adj[dun][0]}")
    assert not z["dungeon"] and s.is_hidden(0)  # escaped: hidden for the rest of the round


def test_arrest_with_the_emperors_jewel_in_the_palace():
    s = fresh("zain,jasmine", die=1)
    s.thieves[0]["pos"], s.thieves[0]["emperor"] = "P12", True
    s.guards = {"g1": "P0"}
    s.thieves[1]["pos"] = s.data.of_kind["start"][0]
    finish_planning(s, 0, 1)
    assert "emperor" in s.gems["P12"] and s.thieves[0]["dungeon"]
    assert s.data.district[s.thieves[0]["pos"]] != "palace"


def test_arrested_thief_chooses_between_equally_cheap_jewels():
    s = fresh("zain,jasmine", die=1)
    z = s.thieves[0]
    z["pos"], z["yellow"], z["sheet"], z["green"] = G, 1, ["trinket"], 1
    guards.arrest(s, 0, G)
    s._advance()
    assert s.players_to_act() == [0] and set(s.legal_actions(0)) == {"lose yellow", "lose trinket"}
    act(s, 0, "lose trinket")
    assert z["yellow"] == 1 and z["green"] == 1 and "trinket" not in z["sheet"]
