"""Townsfolk movement, fields of view, attempted arrests and arrests."""
from thieves.games.thiefdom.city import DIRS
from thieves.games.thiefdom import townsfolk

from .helpers import clear, cross, park_townsfolk, step, to_action, turn

N, E, S, W = 0, 1, 2, 3


def setup_cross(seed=0, n=2):
    """A position with a four-way lantern whose arms run 2 squares to lanterns."""
    for k in range(seed, seed + 200):
        s = to_action(n, k)
        try:
            c = cross(s.city)
        except AssertionError:
            continue
        clear(s)
        park_townsfolk(s)
        return s, c
    raise AssertionError("no cross found")


def test_noble_skips_the_carriage_and_refuses_an_occupied_dead_end():
    # Rulebook example (noble C): it passes over the carriage's square and stops
    # at the next free lantern; it may not go where it would have to turn back.
    s, c = setup_cross()
    city = s.city
    s.tf["nA"]["cell"] = c
    s.tf["car"]["cell"] = step(city, c, N)           # the carriage blocks the square north
    townsfolk.start_tmove(s, "nA", 0)
    assert s.tmove is not None and sorted(s.legal_actions(0)) == ["go e", "go n", "go s", "go w"]
    s.apply_action(0, "go n")
    assert s.tf["nA"]["cell"] == step(city, c, N, 2)   # skipped the carriage
    assert s.tf["car"]["cell"] == step(city, c, N)
    # a dead end whose square is occupied is refused (it would need a reversal): the
    # only dead ends of the map are the river quays, here with a thief standing on one
    s2, _ = setup_cross(1)
    city = s2.city
    quay = city.river_cells[0]
    lan = city.nbr[quay][W]                              # the lantern west of the quay
    for fig, f in s2.tf.items():
        if f["cell"] == lan:
            f["cell"] = next(i for i in range(city.W * city.H) if city.lantern[i] and i not in townsfolk.occupancy(s2))
    s2.thieves[0][0]["pos"] = quay
    s2.tf["nA"]["cell"] = lan
    s2._legal_cache = None
    townsfolk.start_tmove(s2, "nA", 0)
    assert s2.tmove is not None
    acts = s2.legal_actions(0)
    assert "go e" not in acts and acts                   # the other ways stay open
    assert s2.thieves[0][0]["pos"] == quay


def test_guard_moves_straight_left_or_right_never_back():
    s, c = setup_cross()
    city = s.city
    s.tf["gA"] = {"cell": c, "face": N}
    townsfolk.start_tmove(s, "gA", 0)
    assert sorted(s.legal_actions(0)) == ["go e", "go n", "go w"]
    s.apply_action(0, "go e")
    assert s.tf["gA"]["cell"] == step(city, c, E, 2)
    assert s.tf["gA"]["face"] == E  # it faces the way of its last step


def test_guard_five_lanterns_example_and_two_arrest_attempts():
    # Rulebook example (guard A facing north): the white thief behind it is safe;
    # going one way it skips the purple thief, the other way it ends seeing the
    # yellow thief: both are attempted arrests.
    s, c = setup_cross(n=4)
    city = s.city
    s.tf["gA"] = {"cell": c, "face": N}
    white = step(city, c, S)
    s.thieves[2][0]["pos"] = white
    purple = step(city, c, W)          # on the way west: skipped
    s.thieves[1][0]["pos"] = purple
    s.thieves[1][0]["inv"]["gem"] = 2
    townsfolk.start_tmove(s, "gA", 3)
    s.apply_action(3, "go w")
    assert s.thieves[1][0]["pos"] == s.hideout[1]     # arrested
    assert s.dungeon["gem"] == 2
    assert s.thieves[2][0]["pos"] == white            # behind the guard: safe
    # second attempt: the guard ends its move seeing a thief down the street
    s, c = setup_cross(n=4)
    city = s.city
    s.tf["gA"] = {"cell": c, "face": N}
    stop = step(city, c, E, 2)
    beyond = city.line(stop, E)
    assert beyond, "the street goes on east"
    s.thieves[3][1]["pos"] = beyond[-1]
    vp = s.vp[3]
    townsfolk.start_tmove(s, "gA", 0)
    s.apply_action(0, "go e")
    assert s.thieves[3][1]["pos"] == s.hideout[3]
    assert s.vp[3] == max(0, vp - 2)


def test_reachable_stops_never_start_backwards():
    s, c = setup_cross()
    s.tf["gA"] = {"cell": c, "face": N}
    townsfolk.start_tmove(s, "gA", 0)
    stops = set()
    for a in s.legal_actions(0):
        t = s.clone()
        t.apply_action(0, a)
        while t.tmove is not None:
            t.apply_action(0, t.legal_actions(0)[0])
        stops.add(t.tf["gA"]["cell"])
    assert step(s.city, c, S, 2) not in stops
    assert len(stops) == 3


def test_carriage_stops_at_second_free_lantern():
    s, c = setup_cross()
    city = s.city
    s.tf["car"]["cell"] = c
    townsfolk.start_tmove(s, "car", 0)
    s.apply_action(0, "go n")
    first = step(city, c, N, 2)
    # it passed the first free lantern and the mover picks the way on
    assert s.tf["car"]["cell"] != c
    while s.tmove is not None:
        s.apply_action(0, s.legal_actions(0)[0])
    assert s.tf["car"]["cell"] != first and city.lantern[s.tf["car"]["cell"]]


def test_wanted_thief_arrested_when_noble_skips_it():
    s, c = setup_cross()
    city = s.city
    s.tf["nA"]["cell"] = c
    s.thieves[1][2]["pos"] = step(city, c, N)
    s.thieves[1][2]["wanted"] = True
    townsfolk.start_tmove(s, "nA", 0)
    s.apply_action(0, "go n")
    assert s.thieves[1][2]["pos"] == s.hideout[1]
    assert not s.thieves[1][2]["wanted"]


def test_unwanted_thief_is_not_arrested_by_noble():
    s, c = setup_cross()
    city = s.city
    s.tf["nA"]["cell"] = c
    s.thieves[1][2]["pos"] = step(city, c, N)
    townsfolk.start_tmove(s, "nA", 0)
    s.apply_action(0, "go n")
    assert s.thieves[1][2]["pos"] == step(city, c, N)


def test_thief_stepping_into_view_is_arrested_and_turn_goes_on_from_home():
    s, c = setup_cross()
    city = s.city
    s.tf["gA"] = {"cell": step(city, c, N, 2), "face": S}     # looks down at the cross
    start = step(city, c, W)
    s.thieves[0][0]["pos"] = start
    s.thieves[0][0]["inv"]["gold"] = 3
    turn(s, 0, 0)
    s.apply_action(0, "move")
    s.apply_action(0, "e")                                     # onto the cross: seen
    assert s.thieves[0][0]["pos"] == s.hideout[0]
    assert s.turn is not None and not s.turn["moving"] and s.turn["ap"] == 2
    assert s.dungeon["gold"] == 3


def test_smoke_bomb_escape_and_bernhard():
    s, c = setup_cross()
    city = s.city
    s.tf["gA"] = {"cell": step(city, c, N, 2), "face": S}
    s.thieves[0][0]["pos"] = step(city, c, W)
    s.thieves[0][0]["equip"] = ["smoke"]
    turn(s, 0, 0)
    vp = s.vp[0]
    s.apply_action(0, "smoke")
    assert s.vp[0] == vp + 4 and "smoke" not in s.thieves[0][0]["equip"]
    s.apply_action(0, "move")
    s.apply_action(0, "e")
    assert s.thieves[0][0]["pos"] == c                         # escaped
    # Bernhard: that guard cannot arrest this thief this round
    s, c = setup_cross(2)
    city = s.city
    s.tf["gA"] = {"cell": step(city, c, N, 2), "face": S}
    th = s.thieves[0][0]
    th["pos"] = step(city, c, W)
    th["ally"] = "bernhard"
    th["inv"]["gold"] = 1
    turn(s, 0, 0)
    s.apply_action(0, "bernhard gA")
    assert s.dungeon["gold"] == 1
    s.apply_action(0, "move")
    s.apply_action(0, "e")
    assert th["pos"] == c


def test_solo_guard_roll_8_uses_the_fallback_arrow():
    # Rulebook solo example (guard C facing east, roll 8 = west): west is behind
    # it, so the arrow by the 8 sends it north.
    s, c = setup_cross(0, n=1)
    s.tf["gC"] = {"cell": c, "face": E}
    townsfolk.start_tmove(s, "gC", 0, solo_roll=8)
    assert s.tmove is None
    assert s.tf["gC"]["cell"] == step(s.city, c, N, 2) and s.tf["gC"]["face"] == N
    # an odd roll turns counter-clockwise: roll 7 (west) -> south
    s.tf["gC"] = {"cell": c, "face": E}
    townsfolk.start_tmove(s, "gC", 0, solo_roll=7)
    assert s.tf["gC"]["cell"] == step(s.city, c, S, 2)
    # a roll the figure can follow is followed: roll 3 = east
    s.tf["gC"] = {"cell": c, "face": E}
    townsfolk.start_tmove(s, "gC", 0, solo_roll=3)
    assert s.tf["gC"]["cell"] == step(s.city, c, E, 2)


def test_guard_skipping_an_occupied_lantern_chooses_again():
    # Rulebook example (guard A, five lanterns): an occupied lantern on its way
    # is skipped (the thief there is seen) and the guard chooses again there.
    for seed in range(60):
        s, c = setup_cross(seed, n=4)
        city = s.city
        north = step(city, c, N, 2)
        if sum(1 for d in (N, E, W) if city.nbr[north][d] >= 0) == 3:
            break
    s.tf["gA"] = {"cell": c, "face": N}
    s.thieves[1][0]["pos"] = north      # the purple thief on the lantern north
    townsfolk.start_tmove(s, "gA", 0)
    routes = []
    for a in s.legal_actions(0):
        t = s.clone()
        t.apply_action(0, a)
        if t.tmove is None:
            routes.append((a, t.tf["gA"]["cell"], t.thieves[1][0]["pos"]))
            continue
        for b in t.legal_actions(0):
            u = t.clone()
            u.apply_action(0, b)
            while u.tmove is not None:
                u.apply_action(0, u.legal_actions(0)[0])
            routes.append((a, u.tf["gA"]["cell"], u.thieves[1][0]["pos"]))
    assert len(routes) == 5                       # straight on gives three more choices
    for a, cell, purple in routes:
        assert cell != north and city.lantern[cell]
        if a == "go n":
            assert purple == s.hideout[1]       # it skipped the purple thief: arrested
        else:
            assert purple == north


def test_townsfolk_never_circle_forever():
    # regression: a solo figure following the compass round a ring of occupied
    # lanterns must still end its move
    from thieves.testing import random_game
    s = random_game("thiefdom", 1, 5124)
    assert s.is_terminal()
