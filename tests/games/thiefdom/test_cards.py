"""Every equipment and ally card effect that is not tested with its action."""
from thieves.games.thiefdom.goods import room
from thieves.games.thiefdom import day, townsfolk

from .helpers import clear, park_townsfolk, place_thief, to_action, turn
from .test_townsfolk import E, N, setup_cross, step


def test_sack_adds_two_flexible_slots():
    th = {"inv": {"gold": 4, "gem": 4, "brandy": 0, "wine": 0, "badge": 0, "art": []}, "equip": ["sack"]}
    assert room(th, "gold") == 2 and room(th, "gem") == 2
    th["inv"]["gold"] = 5
    assert room(th, "gem") == 1


def test_crossbow_shoots_a_guard_in_view():
    s, c = setup_cross()
    city = s.city
    s.tf["gA"] = {"cell": step(city, c, N, 2), "face": N}
    th = place_thief(s, c, equip=["crossbow"])
    vp = s.vp[0]
    s.apply_action(0, "crossbow gA")
    assert s.vp[0] == vp + 1
    while s.tmove is not None:
        s.apply_action(0, s.legal_actions(0)[0])
    assert "crossbow gA" not in s.legal_actions(0)   # once per turn


def test_throwing_stars_move_a_noble_and_are_discarded():
    s, c = setup_cross()
    city = s.city
    s.tf["nA"]["cell"] = step(city, c, E, 2)
    th = place_thief(s, c, equip=["stars"])
    vp = s.vp[0]
    s.apply_action(0, "stars nA")
    while s.tmove is not None:
        s.apply_action(0, s.legal_actions(0)[0])
    assert s.vp[0] == vp + 5 and "stars" not in th["equip"]
    assert s.tf["nA"]["cell"] != step(city, c, E, 2)


def test_fishing_rod_from_a_building_next_to_the_carriage():
    s = clear(to_action(2, 0))
    park_townsfolk(s)
    city = s.city
    house = city.by_type["tower"][0]
    s.tf["car"]["cell"] = city.buildings[house]["all_adjacent"][0]
    th = place_thief(s, house, equip=["fishing"])
    vp = s.vp[0]
    s.apply_action(0, "fish")
    assert th["inv"]["wine"] == 1 and s.vp[0] == vp + 2 and not th["wanted"]


def test_grappling_hook_reaches_another_building():
    s = clear(to_action(2, 0))
    park_townsfolk(s)
    city = s.city
    house = city.by_type["garden"][0]
    th = place_thief(s, house, equip=["hook"])
    hooks = [a for a in s.legal_actions(0) if a.startswith("hook")]
    assert hooks
    s.apply_action(0, hooks[0])
    assert th["pos"] == hooks[0].split()[1] and s.turn["ap"] == 2


def test_messenger_pigeon_and_lentz_and_samuel():
    s, c = setup_cross()
    a = place_thief(s, c, equip=["pigeon"], ally="lentz", gem=3)
    b = s.thieves[0][1]
    s.apply_action(0, "pigeon 2")
    for _ in range(3):
        s.apply_action(0, "give gem")
    assert s.legal_actions(0) == ["done"]
    s.apply_action(0, "done")
    assert b["inv"]["gem"] == 3
    s.apply_action(0, "lentz 2")
    s.apply_action(0, "get gem")
    assert "get gem" not in s.legal_actions(0)  # 1 good each way
    s.apply_action(0, "done")
    assert a["inv"]["gem"] == 1
    s.turn = None
    a["ally"] = "samuel"
    turn(s, 0, 0)
    s.apply_action(0, "samuel 2")
    assert a["pos"] == s.hideout[0] and b["pos"] == c


def test_teleport_allies():
    s = clear(to_action(2, 0))
    park_townsfolk(s)
    city = s.city
    for ally, kind in (("siti", "tower"), ("jolanda", "garden"), ("johanna", "stable"), ("larissa", "forge")):
        b = [x for x in city.by_type[kind] if x not in s.hideout]
        s.turn = None
        th = place_thief(s, b[0], ally=ally)
        s.apply_action(0, f"tp {b[1]}")
        assert th["pos"] == b[1]
    taverns = city.by_type["tavern"]
    s.turn = None
    th = place_thief(s, taverns[0], ally="towa")
    s.apply_action(0, f"tp {taverns[1]}")
    assert th["pos"] == taverns[1]


def test_church_allies():
    s = clear(to_action(2, 0))
    park_townsfolk(s)
    church = s.city.by_type["church"][0]
    th = place_thief(s, church, ally="antonius")
    s.apply_action(0, "antonius")
    assert th["inv"]["wine"] == 1 and "antonius" not in s.legal_actions(0)
    s.turn = None
    th = place_thief(s, church, ally="kostanze", gold=4)
    vp = s.vp[0]
    s.apply_action(0, "kostanze")
    s.apply_action(0, "kostanze")
    assert s.vp[0] == vp + 6 and th["inv"]["gold"] == 0
    s.turn = None
    th = place_thief(s, church, ally="beatrix")
    vp = s.vp[0]
    s.apply_action(0, "beatrix")
    assert s.vp[0] == vp + 3 and s.turn["ap"] == 6 and th["ally"] is None


def test_apollon_and_ruth():
    s = clear(to_action(2, 0))
    park_townsfolk(s)
    garden = [g for g in s.city.by_type["garden"] if g not in s.hideout][0]
    th = place_thief(s, garden, ally="apollon", brandy=1)
    s.apply_action(0, "apollon")
    assert th["inv"]["wine"] == 1 and th["inv"]["brandy"] == 0
    s.turn = None
    th = place_thief(s, s.hideout[0], ally="ruth")
    s.stash[0].update({"wine": 1, "gem": 1, "gold": 0})
    vp = s.vp[0]
    s.apply_action(0, "ruth wine")
    s.apply_action(0, "ruth gem")
    assert s.stash[0]["gold"] == 4 and s.vp[0] == vp + 3


def test_melisande_buys_at_a_forge_cheaper_with_a_vp():
    s = clear(to_action(2, 0))
    park_townsfolk(s)
    forge = [f for f in s.city.by_type["forge"] if f not in s.hideout][0]
    s.thieves[0][2]["ally"] = "melisande"
    th = place_thief(s, forge, gold=6)
    buys = [a for a in s.legal_actions(0) if a.startswith("buy")]
    assert buys
    e = buys[0].split()[1]
    eq = s.data.equipment[e]
    vp = s.vp[0]
    s.apply_action(0, buys[0])
    assert th["inv"]["gold"] == 6 - max(0, eq.cost - 1) and s.vp[0] == vp + eq.vp + 1


def test_juma_tristan_jin_climbing():
    s = clear(to_action(2, 0))
    park_townsfolk(s)
    city = s.city
    if len(city.river_spaces) >= 2:
        th = place_thief(s, city.river_spaces[0], ally="juma")
        s.apply_action(0, f"tp {city.river_spaces[1]}")
        assert th["pos"] == city.river_spaces[1]
    # Tristan: +1 movement point through the catacombs
    s.turn = None
    cells = list(city.catacomb_section)
    for fig in s.tf:
        if s.tf[fig]["cell"] in cells:
            s.tf[fig]["cell"] = next(i for i in range(city.W * city.H) if city.lantern[i] and i not in cells
                                     and i not in townsfolk.occupancy(s))
    th = place_thief(s, cells[0], ally="tristan")
    s.apply_action(0, "move")
    s.apply_action(0, f"cata {city.catacomb_section[cells[1]]}")
    assert s.turn["mp"] == 3
    # Jin: hop over a building
    s.turn = None
    s.thieves[0][0]["pos"] = s.hideout[0]
    house = city.by_type["tower"][0]
    start = city.buildings[house]["all_adjacent"][0]
    th = place_thief(s, start, ally="jin")
    s.apply_action(0, "move")
    jins = [a for a in s.legal_actions(0) if a.startswith("jin")]
    assert jins
    s.apply_action(0, jins[0])
    assert s.turn["mp"] == 2 and not [a for a in s.legal_actions(0) if a.startswith("jin")]


def test_climbing_tools_cross_a_wall_once():
    s = clear(to_action(2, 0))
    park_townsfolk(s)
    city = s.city
    a, b = next((x, y) for x, y in sorted(city.walls) if city.alley[x] and not city.alley[y])
    th = place_thief(s, a, equip=["climbing"])
    s.apply_action(0, "move")
    d = next(k for k in range(4) if city._step(a, k) == b)
    assert f"climb {'nesw'[d]}" in s.legal_actions(0)
    s.apply_action(0, f"climb {'nesw'[d]}")
    assert th["pos"] == city.building_at[b] and s.turn["climbed"]


def test_wibald_guards_on_section_7_cannot_arrest():
    s, c = setup_cross()
    city = s.city
    th = s.thieves[0][0]
    th["ally"] = "wibald"
    seven = [i for i in range(city.W * city.H) if city.section_of[i] == 7 and city.lantern[i]][0]
    assert townsfolk.immune(s, 0, 0, "gA", seven) == "wibald"
    other = [i for i in range(city.W * city.H) if city.section_of[i] != 7 and city.lantern[i]][0]
    assert townsfolk.immune(s, 0, 0, "gA", other) is None


def test_stoffel_in_the_day_and_end_bonuses():
    s, c = setup_cross()
    th = s.thieves[0][0]
    th["pos"] = c
    th["ally"] = "stoffel"
    vp = s.vp[0]
    day.administration(s)
    assert th["inv"]["gold"] == 4 and s.vp[0] == vp + 1


def test_svenja_and_jonathan_at_the_tavern():
    s = clear(to_action(2, 0))
    park_townsfolk(s)
    tav = s.city.by_type["tavern"][0]
    th = place_thief(s, tav, ally="svenja")
    s.apply_action(0, "use")
    dealer = s.city.by_type["dealer"][0]
    s.apply_action(0, f"svenja {dealer}")
    assert th["pos"] == dealer
    s.turn = None
    th = place_thief(s, tav, ally="jonathan", t=1, wine=2)
    vp = s.vp[0]
    s.apply_action(0, "use")
    s.apply_action(0, "sell wine")
    assert s.vp[0] == vp + 4


def test_end_bonus_allies_count_the_hideout_only():
    s = clear(to_action(2, 5))
    s.vp = [0, 0]
    s.stash[0] = {"gold": 5, "gem": 3, "brandy": 2, "wine": 0, "badge": 0, "art": []}
    for t, ally in enumerate(("elise", "helmut", "iwana")):
        s.thieves[0][t]["ally"] = ally
    s.thieves[0][0]["inv"]["gold"] = 4   # carried gold does not count for Elise
    day.final_scoring(s)
    assert s.final[0]["allies"] == 5 + 2 + 3
