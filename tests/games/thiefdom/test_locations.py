"""Every location: market, villa, dealer, tavern, dungeon, smuggler."""
from thieves.games.thiefdom import day

from .helpers import at_location, turn


def test_market_fills_gold_and_sells_brandy_once_a_night():
    s, th, bid = at_location("market", brandy=2, gold=1)
    vp = s.vp[0]
    s.apply_action(0, "use")
    s.apply_action(0, "sell brandy")
    s.apply_action(0, "sell brandy")
    s.apply_action(0, "fill gold")
    assert "fill gold" not in s.legal_actions(0)
    s.apply_action(0, "done")
    assert th["inv"]["gold"] == 4 and s.vp[0] == vp + 2
    assert "use" not in s.legal_actions(0)  # once per location per night


def test_market_with_sack_janus_kunrad():
    s, th, bid = at_location("market", brandy=1)
    th["equip"] = ["sack"]
    th["ally"] = "kunrad"
    vp = s.vp[0]
    s.apply_action(0, "use")
    assert th["inv"]["gem"] == 1 and s.vp[0] == vp + 1
    s.apply_action(0, "fill gold")
    assert th["inv"]["gold"] == 6
    s2, th2, _ = at_location("market", brandy=1)
    th2["ally"] = "janus"
    vp = s2.vp[0]
    s2.apply_action(0, "use")
    s2.apply_action(0, "sell brandy")
    assert s2.vp[0] == vp + 2


def test_villa_gems_art_and_locks():
    s, th, bid = at_location("villa")
    v = s.villas[bid[5:]]
    lock = s.data.villas[v["villa"]].locked
    s.apply_action(0, "use")
    acts = s.legal_actions(0)
    assert ("take gems" in acts) == (lock != "gems")
    assert ("take art" in acts) == (lock != "art")
    s2, th2, bid2 = at_location("villa")
    th2["equip"] = ["lockpick"]
    vp = s2.vp[0]
    s2.apply_action(0, "use")
    assert s2.vp[0] == vp + 1
    art = s2.villas[bid2[5:]]["art"]
    s2.apply_action(0, "take art")
    assert th2["inv"]["art"] == [art] and s2.villas[bid2[5:]]["art"] is None
    assert "take gems" not in s2.legal_actions(0)   # one option only
    s3, th3, bid3 = at_location("villa")
    th3["equip"] = ["lockpick"]
    s3.apply_action(0, "use")
    s3.apply_action(0, "take gems")
    assert th3["inv"]["gem"] == 4


def test_villa_jonathan_sells_wine():
    s, th, bid = at_location("villa", wine=2)
    th["ally"] = "jonathan"
    vp = s.vp[0]
    s.apply_action(0, "use")
    s.apply_action(0, "sell wine")
    assert s.vp[0] == vp + 4


def test_dealer_delivers_art_sells_gems_buys_equipment():
    s, th, bid = at_location("dealer", gem=2, gold=4)
    th["inv"]["art"] = ["art2"]
    th["inv"]["gem"] = 0
    vp = s.vp[0]
    s.apply_action(0, "use")
    s.apply_action(0, "deliver art2")
    assert s.vp[0] == vp + 5 and "art2" in s.delivered and not th["inv"]["art"]
    th["inv"]["gem"] = 2
    th["ally"] = "malika"
    s.apply_action(0, "sell gem")
    assert s.vp[0] == vp + 7
    buys = [a for a in s.legal_actions(0) if a.startswith("buy")]
    if buys:
        e = buys[0].split()[1]
        s.apply_action(0, buys[0])
        assert e in th["equip"] and len(s.display) == 3
        s.apply_action(0, "done")
        s.apply_action(0, "end")
        assert len(s.display) == 4  # refilled after the buyer's turn


def test_equipment_limits_two_per_thief_no_duplicates():
    s, th, bid = at_location("dealer", gold=4)
    th["equip"] = ["sack", "shoes"]
    s.apply_action(0, "use")
    assert not [a for a in s.legal_actions(0) if a.startswith("buy")]
    th["equip"] = [s.display[0].split(".")[0]]
    assert f"buy {th['equip'][0]}" not in s.legal_actions(0) or \
        sum(1 for c in s.display if c.split('.')[0] == th["equip"][0]) == 0


def test_tavern_ally_brawl_decline_wine_brandy():
    s, th, bid = at_location("tavern", gold=4, wine=1)
    vp = s.vp[0]
    s.apply_action(0, "use")
    s.apply_action(0, "sell wine")
    assert s.vp[0] == vp + 2
    s.apply_action(0, "buy brandy")
    assert th["inv"]["brandy"] == 1 and th["inv"]["gold"] == 3
    s.apply_action(0, "clients")
    assert len(s.revealed) == 4
    cheap = [a for a in s.legal_actions(0) if a.startswith("ally")]
    s.apply_action(0, cheap[0])
    cid = cheap[0].split()[1]
    assert th["ally"] == cid and len(s.client_discard) == 3 and not s.revealed
    # brawl
    s2, th2, _ = at_location("tavern")
    vp = s2.vp[0]
    s2.apply_action(0, "use")
    s2.apply_action(0, "clients")
    s2.apply_action(0, next(a for a in s2.legal_actions(0) if a.startswith("brawl")))
    assert th2["brawl"] and s2.vp[0] == vp + 1 and th2["ally"] is None
    s2.apply_action(0, "done")
    s2.apply_action(0, "end")
    day.administration(s2)
    s2.turn = None
    turn(s2, 0, 0)
    s2.apply_action(0, "use")
    assert "clients" not in s2.legal_actions(0)   # never again after a brawl


def test_richard_allies_for_free_even_at_the_market():
    s, th, bid = at_location("market")
    s.thieves[0][1]["ally"] = "richard"
    s.apply_action(0, "use")
    s.apply_action(0, "clients")
    allies = [a for a in s.legal_actions(0) if a.startswith("ally")]
    assert len(allies) == 4


def test_dungeon_take_sell_badges_burn_poster():
    s, th, bid = at_location("dungeon", badge=2)
    th["wanted"] = True
    s.dungeon["gem"] = 3
    vp = s.vp[0]
    s.apply_action(0, "use")
    s.apply_action(0, "take gem")
    s.apply_action(0, "sell badge")
    s.apply_action(0, "burn poster")
    assert th["inv"]["gem"] == 1 and s.dungeon["gem"] == 2
    assert s.vp[0] == vp + 5 and not th["wanted"]


def test_smuggler_mission_and_oswald():
    s, th, bid = at_location("smuggler")
    sec = str(s.city.buildings[bid]["section"])
    m = s.data.missions[s.smugglers[sec]]
    assert "use" not in s.legal_actions(0)   # nothing to deliver
    th["inv"].update(m.deliver)
    s.thieves[0][2]["ally"] = "oswald"
    s._legal_cache = None
    vp = s.vp[0]
    s.apply_action(0, "use")
    assert s.vp[0] == vp + m.reward["vp"] + 2
    assert s.smugglers[sec] is None and m.id in s.missions_done[0]
