"""Thief turns: action points, moving, skipping, buildings, robbing."""
import pytest

from thieves.core.errors import IllegalAction
from thieves.games.thiefdom import thief, townsfolk

from .helpers import clear, park_townsfolk, to_action, turn
from .test_townsfolk import E, N, S, W, setup_cross, step


def test_move_gives_three_points_and_shoes_four():
    s, c = setup_cross()
    th = s.thieves[0][0]
    th["pos"] = c
    turn(s, 0, 0)
    s.apply_action(0, "move")
    assert s.turn["mp"] == 3 and s.turn["ap"] == 2
    s.apply_action(0, "stop")
    th["equip"] = ["shoes"]
    s.apply_action(0, "move")
    assert s.turn["mp"] == 4


def test_stamina_once_a_night():
    s, c = setup_cross()
    turn(s, 0, 0)
    s.apply_action(0, "stamina")
    assert s.turn["ap"] == 4
    s.apply_action(0, "end")
    s.turn = None
    turn(s, 0, 1)
    assert "stamina" not in s.legal_actions(0)


def test_skipping_own_thief_lets_them_swap_goods():
    # Rulebook example: the circled thief passes over its guildmate and they trade.
    s, c = setup_cross()
    city = s.city
    a, b = s.thieves[0][0], s.thieves[0][1]
    a["pos"] = step(city, c, W)
    b["pos"] = c
    a["inv"]["gem"] = 2
    b["inv"]["wine"] = 1
    turn(s, 0, 0)
    s.apply_action(0, "move")
    s.apply_action(0, "e")
    assert s.turn["over"] == "p0t1" and s.turn["mp"] == 3   # skipping is free
    assert "stop" not in s.legal_actions(0)                 # cannot stop on an occupied square
    s.apply_action(0, "give gem")
    s.apply_action(0, "get wine")
    s.apply_action(0, "e")
    assert a["pos"] == step(city, c, E) and s.turn["mp"] == 2
    assert b["inv"]["gem"] == 1 and a["inv"]["wine"] == 1


def test_skipping_an_opposing_thief_costs_1vp_and_benjamin_saves_it():
    s, c = setup_cross()
    city = s.city
    s.thieves[0][0]["pos"] = step(city, c, W)
    s.thieves[1][0]["pos"] = c
    vp0, vp1 = s.vp
    turn(s, 0, 0)
    s.apply_action(0, "move")
    s.apply_action(0, "e")
    s.apply_action(0, "e")
    assert s.vp == [vp0 - 1, vp1]
    s.turn = None
    s.thieves[0][1]["pos"] = step(city, c, W)
    s.thieves[0][1]["ally"] = "benjamin"
    turn(s, 0, 1)
    s.apply_action(0, "move")
    s.apply_action(0, "e")
    s.apply_action(0, "e")
    assert s.vp[0] == vp0 - 1


def test_guard_square_cannot_be_passed():
    s, c = setup_cross()
    city = s.city
    s.tf["gA"] = {"cell": c, "face": N}
    s.thieves[0][0]["pos"] = step(city, c, W)
    turn(s, 0, 0)
    s.apply_action(0, "move")
    assert "e" not in s.legal_actions(0)
    with pytest.raises(IllegalAction):
        s.apply_action(0, "e")
    # option: guards' squares are skipped like any other
    s.options = dict(s.options, thieves_skip_guards=True)
    s._legal_cache = None
    assert "e" in s.legal_actions(0)


def test_entering_a_building_ends_the_move_and_leaving_costs_a_point():
    s, c = setup_cross()
    city = s.city
    house = next(b for b in city.by_type["tower"] if city.buildings[b]["entrances"])
    ent = city.buildings[house]["entrances"][0]
    th = s.thieves[0][0]
    th["pos"] = ent
    turn(s, 0, 0)
    s.apply_action(0, "move")
    d = next(a for a in s.legal_actions(0) if len(a) == 1 and city.building_at[city._step(ent, "nesw".index(a))] == house)
    s.apply_action(0, d)
    assert th["pos"] == house and not s.turn["moving"]
    s.apply_action(0, "move")
    exits = [a for a in s.legal_actions(0) if a.startswith("exit")]
    assert exits
    s.apply_action(0, exits[0])
    assert isinstance(th["pos"], int) and s.turn["mp"] == 2


def test_blue_enters_yellow_hideout_with_white_inside():
    # Rulebook example: blue loses 1 VP for the white thief only; a second
    # yellow thief entering loses nothing.
    s = clear(to_action(4, 0))
    park_townsfolk(s)
    city = s.city
    yellow_home = s.hideout[0]
    for p in (1, 2, 3):
        for th in s.thieves[p]:
            th["pos"] = s.hideout[p]
    s.thieves[2][0]["pos"] = yellow_home          # white thief inside
    s.thieves[0][0]["pos"] = yellow_home          # yellow thief at home
    ent = city.buildings[yellow_home]["entrances"][0]
    s.thieves[3][0]["pos"] = ent
    vp = s.vp[3]
    turn(s, 3, 0)
    s.apply_action(3, "move")
    s.apply_action(3, next(a for a in s.legal_actions(3) if len(a) == 1 and
                       city.building_at[city._step(ent, "nesw".index(a))] == yellow_home))
    assert s.vp[3] == vp - 1
    s.turn = None
    s.thieves[0][1]["pos"] = ent
    s.thieves[3][0]["pos"] = s.hideout[3]
    vp0 = s.vp[0]
    thief.enter_building(s, 0, 1, yellow_home)
    assert s.vp[0] == vp0


def test_entering_own_hideout_clears_wanted_poster():
    s, c = setup_cross()
    th = s.thieves[0][0]
    th["pos"] = c
    th["wanted"] = True
    thief.enter_building(s, 0, 0, s.hideout[0])
    assert not th["wanted"]


def test_catacombs_connect_their_squares():
    s = clear(to_action(2, 3))
    park_townsfolk(s)
    city = s.city
    cells = list(city.catacomb_section)
    th = s.thieves[0][0]
    th["pos"] = cells[0]
    for fig in s.tf:
        if s.tf[fig]["cell"] in cells:
            s.tf[fig]["cell"] = next(i for i in range(city.W * city.H) if city.lantern[i] and i not in cells
                                     and i not in townsfolk.occupancy(s))
    turn(s, 0, 0)
    s.apply_action(0, "move")
    sec = city.catacomb_section[cells[1]]
    s.apply_action(0, f"cata {sec}")
    assert th["pos"] == cells[1] and s.turn["mp"] == 2


def _rob_setup(fig, thief_side=W, face=N):
    s, c = setup_cross()
    city = s.city
    s.tf[fig]["cell"] = c
    if fig[0] == "g":
        s.tf[fig]["face"] = face
    th = s.thieves[0][0]
    th["pos"] = step(city, c, thief_side)
    turn(s, 0, 0)
    return s, th


def test_rob_carriage_gives_wine_and_poster_once_a_night():
    s, th = _rob_setup("car")
    s.apply_action(0, "rob car")
    assert th["inv"]["wine"] == 1 and th["wanted"]
    assert "rob car" not in s.legal_actions(0)


def test_rob_carriage_with_mortana():
    s, th = _rob_setup("car")
    th["ally"] = "mortana"
    th["inv"]["gold"] = 1
    s.apply_action(0, "rob car pay")
    assert th["inv"]["wine"] == 2 and not th["wanted"] and th["inv"]["gold"] == 0


def test_rob_noble_gold_or_gem_then_empty_purse():
    s, th = _rob_setup("nA")
    assert {"rob nA gold", "rob nA gem"} <= set(s.legal_actions(0))
    s.apply_action(0, "rob nA gold")
    assert th["inv"]["gold"] == 2 and s.purses["nA"] is False
    s2, th2 = _rob_setup("nA")
    th2["equip"] = ["thimble"]
    th2["ally"] = "quinta"
    s2.apply_action(0, "rob nA")
    assert th2["inv"]["gold"] == 2 and th2["inv"]["gem"] == 2


def test_rob_guard_badge_only_from_outside_its_view():
    s, th = _rob_setup("gA", thief_side=W, face=N)
    s.apply_action(0, "rob gA")
    assert th["inv"]["badge"] == 1 and s.badges["gA"] == 0
    s2, th2 = _rob_setup("gA", thief_side=W, face=W)   # the guard looks at the thief
    assert "rob gA" not in s2.legal_actions(0)


def test_cudgel_gives_vp_and_moves_the_guard():
    s, th = _rob_setup("gA", thief_side=S, face=N)
    th["equip"] = ["cudgel"]
    vp = s.vp[0]
    s.apply_action(0, "rob gA")
    assert s.vp[0] == vp + 1
    while s.tmove is not None:
        s.apply_action(0, s.legal_actions(0)[0])
    assert s.tf["gA"]["cell"] != step(s.city, th["pos"], N)


def test_vp_never_below_zero():
    s, c = setup_cross()
    s.vp[0] = 1
    townsfolk.arrest(s, 0, 0, "gA")
    assert s.vp[0] == 0


def test_guildmates_trade_goods_in_their_hideout():
    s, c = setup_cross()
    a, b = s.thieves[0][0], s.thieves[0][1]
    a["inv"]["gem"] = 2
    b["inv"]["gold"] = 3
    turn(s, 0, 0)
    s.apply_action(0, "hand 2 gem")
    s.apply_action(0, "take 2 gold")
    s.apply_action(0, "stash gem")
    assert b["inv"]["gem"] == 1 and a["inv"]["gold"] == 1 and s.stash[0]["gem"] == 1
    s.apply_action(0, "fetch gold")
    assert a["inv"]["gold"] == 2


def test_leaving_a_location_onto_any_adjacent_square_or_entrances_only():
    for strict in (False, True):
        s = clear(to_action(2, 0, {"exit_through_entrances": strict}))
        park_townsfolk(s)
        city = s.city
        bid = city.by_type["market"][0]
        b = city.buildings[bid]
        th = s.thieves[0][0]
        th["pos"] = bid
        turn(s, 0, 0)
        s.apply_action(0, "move")
        exits = {city.parse(a.split()[1]) for a in s.legal_actions(0) if a.startswith("exit")}
        occ = townsfolk.occupancy(s)
        want = b["entrances"] if strict else b["adjacent"]
        assert exits == {c for c in want if c not in occ}
