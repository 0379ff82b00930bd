"""General cards, special actions, thief abilities, events and city tokens (reconstructed texts)."""
from __future__ import annotations


from thieves.games.age_of_thieves import guards, planning
from .helpers import GAME, act, events, fresh, give, path, plan

G = "E43"


def begin(s, plans):
    for p, cards in enumerate(plans):
        plan(s, p, cards)


def test_fake_orders_repositions_without_arrests_morius_example():
    s = fresh("morius,zain", die=1)
    a = path(s, G, 2)
    s.guards = {"g1": G}
    s.thieves[1]["pos"] = a[1]  # Zain would be caught by a walking guard
    free = next(h for h in s.data.guardhouses if s.data.district[h] == "hammerblow")
    give(s, 0, "orders")
    begin(s, [[("orders", 5)], []])
    act(s, 0, "play orders")
    act(s, 0, "guard g1")
    act(s, 0, f"to {free}")
    assert s.guards["g1"] == free and not s.thieves[1]["dungeon"]


def test_confusing_gas_moves_each_guard_as_the_player_likes():
    s = fresh("zain,jasmine", die=1)
    a = path(s, G, 3)
    s.guards = {"g1": a[1], "g2": a[3]}
    s.thieves[0]["pos"] = G
    give(s, 0, "gas")
    begin(s, [[("gas", 5), ("move", 2)], []])
    act(s, 0, "play gas")
    assert s.act["g"] == "g1"
    act(s, 0, "gstop")  # the first stays
    assert s.act["g"] == "g2"
    act(s, 0, f"gstep {a[2]}")
    act(s, 0, "gstop")
    assert s.guards == {"g1": a[1], "g2": a[2]}


def test_automatic_trap_and_poisoned_bola():
    s = fresh("zain,jasmine", die=1)
    a = path(s, G, 2)
    s.thieves[0]["pos"] = G
    s.thieves[1]["pos"] = a[2]
    give(s, 0, "trap", "bola")
    begin(s, [[("trap", 6), ("bola", 3)], [("move", 2)]])
    act(s, 0, "play trap")
    assert "guard g1" not in s.legal_actions(0) and "thief 2" in s.legal_actions(0)
    act(s, 0, "thief 2")
    act(s, 0, "play bola")
    act(s, 0, "thief 2")
    here = s.thieves[1]["pos"]
    act(s, 1, "sneak")  # trapped: no steps, the movement ends at once
    assert s.thieves[1]["pos"] == here
    while s.phase != "plan":
        p = s.players_to_act()[0]
        s.apply_action(p, s.legal_actions(p)[0])
    assert planning.markers_free(s, 1) == 10 - 3


def test_firecrackers_wake_the_guards_early():
    s = fresh("zain,jasmine", die=1)
    a = path(s, G, 2)
    s.guards = {"g1": a[2]}
    s.thieves[0]["pos"] = G
    s.thieves[1]["pos"] = a[2]  # on the guard's space: safe until the watch acts...
    give(s, 0, "firecrackers")
    begin(s, [[("firecrackers", 6)], [("move", 2)]])
    act(s, 0, "play firecrackers")
    assert s.thieves[1]["dungeon"]  # ...unless something makes it act early


def test_mechanical_rats_and_fishing_rod():
    s = fresh("zain,jasmine", die=1)
    a = path(s, G, 2)
    s.thieves[0]["pos"] = G
    s.thieves[1]["pos"] = a[2]
    s.thieves[1]["sheet"] = ["knowcity"]
    s.thieves[1]["yellow"] = 1
    give(s, 0, "rats", "rod")
    begin(s, [[("rats", 5), ("rod", 3), ("move", 2)], []])
    act(s, 0, "play rats")
    act(s, 0, "token 2 knowcity")
    act(s, 0, "play rod")
    act(s, 0, "steal 2 yellow")
    assert s.thieves[0]["sheet"] == ["knowcity"] and s.thieves[0]["yellow"] == 1


def test_rope_and_hook_protects_but_the_guard_still_comes():
    s = fresh("zain,jasmine", die=1)
    a = path(s, G, 2)
    s.guards = {"g1": a[2]}
    s.thieves[0]["pos"] = G
    s.thieves[1]["pos"] = s.data.of_kind["start"][0]
    give(s, 0, "rope")
    begin(s, [[("rope", 5)], []])
    act(s, 0, "play rope")
    act(s, 0, "stop")
    assert not s.thieves[0]["dungeon"] and s.guards["g1"] in (G, a[1])


def test_specials_of_the_six_thieves():
    s = fresh("jasmine,zain", die=1)
    a = path(s, G, 3)
    s.guards = {"g1": a[3]}
    s.thieves[0]["pos"] = G
    s.thieves[1]["pos"] = s.data.of_kind["start"][0]
    give(s, 0, "cloak")
    begin(s, [[("special:cloak", 6)], []])
    act(s, 0, "special")
    act(s, 0, "guard g1")
    assert set(s.legal_actions(0)) == {f"gstep {a[2]}", "gstop"}  # lured toward Jasmine only
    act(s, 0, f"gstep {a[2]}")
    assert f"gstep {G}" not in s.legal_actions(0)  # never onto her own space
    # Zain: firebomb; Morius: to a sewer exit; Noiron: rooftops; Joanne: confiscate; Nikolai: trap
    s = fresh("zain,morius,noiron,joanne", die=1)
    for p in range(4):
        s.thieves[p]["pos"] = G
        give(s, p, "cloak")
    s.thieves[0]["green"] = 1
    begin(s, [[("special:cloak", 9)], [("special:cloak", 8)], [("special:cloak", 7)], [("special:cloak", 6)]])
    act(s, 0, "special")
    spot = s.legal_actions(0)[0]
    act(s, 0, spot)
    assert s.fire == [spot[3:]]
    act(s, 1, "special")
    exit_ = s.data.of_kind["sewer_out"][0]
    act(s, 1, f"at {exit_}")
    assert s.thieves[1]["pos"] == exit_
    act(s, 2, "special")
    assert s.act["kind"] == "move" and s.act["safe"] and s.act["left"] == 3
    act(s, 2, "stop")
    act(s, 3, "special")
    act(s, 3, "steal 1 green")
    assert s.thieves[3]["green"] == 1


def test_abilities():
    s = fresh("nikolai,joanne")
    s.thieves[0]["pos"] = "P12"
    assert s.is_hidden(0)  # Nikolai in the Palace while calm
    s.alarm = True
    assert not s.is_hidden(0)
    s.alarm = False
    s.guards = {"g1": G}
    far = path(s, G, 4)[4]
    s.thieves[1]["pos"] = far
    assert not guards.detects(s, "g1", 1)  # Joanne is heard one space less far
    s.thieves[1]["pos"] = path(s, G, 3)[3]
    assert guards.detects(s, "g1", 1)
    n = fresh("noiron,morius", die=1)
    n.thieves[0]["pos"] = G
    begin(n, [[("move", 5)], []])
    act(n, 0, "sneak")
    assert n.act["left"] == 5  # Noiron's Move goes one space further


def test_alert_citizens_and_thiefs_stash():
    s = fresh("zain,jasmine", die=1)
    a = path(s, G, 2)
    s.thieves[0]["pos"] = G
    s.thieves[1]["pos"] = a[2]
    s.tokens = {a[1]: "citizens", a[2]: "stash"}
    give(s, 0, "cloak")
    give(s, 1, "fire", "gas")
    begin(s, [[("move", 5)], []])
    act(s, 0, "sneak")
    act(s, 0, f"to {a[1]}")
    act(s, 0, "take token")
    assert s.players_to_act() == [1]
    act(s, 1, "discard gas")
    assert len(s.thieves[0]["hand"]) == 0 and len(s.thieves[1]["hand"]) == 1
    act(s, 0, f"to {a[2]}")
    act(s, 0, "take token")
    assert len(s.thieves[0]["hand"]) == 1


def test_events_modify_the_watch_and_give_cards():
    s = fresh("zain,jasmine")
    s.ev = "fog"
    s.guards = {"g1": G}
    assert guards.vigilance(s, "g1") == 2
    s.ev = "night_patrol"
    assert guards.movement(s, "g1") == 3
    s.alarm = True
    s.ev = "lockdown"
    s.guards = {"c1": G}
    assert guards.vigilance(s, "c1") == 7 and guards.movement(s, "c1") == 4


def test_text_svg_and_descriptions():
    s = GAME.new_game(3, 4)
    for p in range(3):
        text = s.render_text(p)
        assert "Round 1" in text
        svg = GAME.presentation(p, None, "de").svg(s.observation(p))
        assert svg.startswith("<svg") and ('data-action="start N8"' in svg) == (p == s.start)
    assert "Sprint" in s.describe_action("sprint") and "6" in s.describe_action("sprint")
    assert "Beacon" in s.describe_action("play beacon")


def test_jasmine_uses_the_beacon_under_her_seduction_rulebook_example():
    s = fresh("jasmine,joanne", die=1)
    a = path(s, G, 3)
    s.guards = {"g1": G, "c1": path(s, G, 2, avoid=set(a[1:]))[2]}
    s.thieves[0]["pos"] = path(s, G, 1, avoid=set(a[1:]))[1]
    s.thieves[1]["pos"] = a[3]
    give(s, 0, "beacon")
    begin(s, [[("special:beacon", 5)], []])
    assert set(s.legal_actions(0)) == {"special", "play beacon", "decline special"}
    act(s, 0, "play beacon")
    assert "guard c1" not in s.legal_actions(0)  # the Beacon names a guard: never a captain
    act(s, 0, "guard g1")
    for n in a[1:]:
        act(s, 0, f"gstep {n}")
    assert s.thieves[1]["dungeon"]
    assert any(e["args"]["player"] == 1 and e["args"]["space"] == a[3] for e in events(s, "arrested"))
