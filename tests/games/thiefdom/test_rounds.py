"""Setup, draft, hideouts, planning, administration, final scoring, tie-breakers."""
import pytest

from thieves.core.errors import GameSetupError, IllegalAction
from thieves.games.thiefdom.goods import empty_inv, goods_vp
from thieves.games.thiefdom import day, solo, townsfolk

from .helpers import GAME, clear, park_townsfolk, plan, to_action


@pytest.mark.parametrize("n,cols,guards", [(1, 3, 3), (2, 3, 3), (3, 4, 4), (4, 4, 4)])
def test_setup_counts(n, cols, guards):
    s = GAME.new_game(n, 7)
    city = s.city
    assert s.ncols == cols
    assert sum(1 for f in s.tf if f[0] == "g") == guards
    assert sum(1 for f in s.tf if f[0] == "n") == guards
    # river sections east, villas and catacombs at the entrances
    assert {s.layout[cols - 1][0], s.layout[2 * cols - 1][0]} == {4, 8}
    assert len(s.villas) == (4 if n >= 3 else 3)
    assert len(city.catacombs) == (4 if n >= 3 else 3)
    assert len(city.by_type["dealer"]) == (2 if n >= 3 else 1)
    assert len(city.by_type["smuggler"]) == (4 if n >= 3 else 3)
    assert len(city.by_type["church"]) == 1
    for t in ("tower", "garden", "forge", "stable"):
        assert len(city.by_type[t]) >= 2
    for g, f in s.tf.items():
        assert city.lantern[f["cell"]]
        if g[0] == "g":
            assert f["face"] == (2 if f["cell"] < city.W else 0)  # facing into the city
    assert s.vp == [10] * n and all(st["gold"] == 8 for st in s.stash)
    assert len(s.display) == 4


def test_bad_player_count():
    with pytest.raises(GameSetupError):
        GAME.new_game(5, 0)


def test_multiplayer_draft_keep_pass_buy():
    s = GAME.new_game(3, 1)
    hands = [list(h) for h in s.draft["hands"]]
    for p in range(3):
        s.apply_action(p, s.legal_actions(p)[0])
    # the two remaining cards went to the right (seat p-1)
    for p in range(3):
        assert set(s.draft["hands"][p]) <= set(hands[(p + 1) % 3])
    for p in range(3):
        s.apply_action(p, s.legal_actions(p)[0])
    assert s.phase == "buy" and all(len(k) == 3 for k in s.draft["kept"])
    # others' cards are hidden
    obs = s.observation(0)
    assert obs["draft"]["kept"] == s.draft["kept"][0] and "hands" not in obs["draft"]
    buys = [a for a in s.legal_actions(0) if a.startswith("buy")]
    s.apply_action(0, buys[0])
    e = buys[0].split()[1]
    assert e in s.thieves[0][int(buys[0].split()[2]) - 1]["equip"]
    assert s.stash[0]["gold"] == 8 - s.data.equipment[e].cost


def test_solo_draft_3_2_1():
    s = GAME.new_game(1, 1)
    assert len(s.draft["hands"][0]) == 3
    s.apply_action(0, s.legal_actions(0)[0])
    assert len(s.draft["hands"][0]) == 2
    s.apply_action(0, s.legal_actions(0)[0])
    assert s.phase == "buy" and len(s.draft["kept"][0]) == 3


def test_hideouts_counter_clockwise_from_right_of_first_player():
    s = GAME.new_game(4, 2)
    while s.phase != "hideout":
        p = s.players_to_act()[0]
        a = s.legal_actions(p)
        s.apply_action(p, "done" if "done" in a else a[0])
    first = s.first
    order = []
    while s.phase == "hideout":
        p = s.players_to_act()[0]
        order.append(p)
        acts = s.legal_actions(p)
        assert all(s.city.buildings[a.split()[1]]["type"] in ("tower", "garden", "forge", "stable") for a in acts)
        s.apply_action(p, acts[0])
    assert order == [(first - 1 - i) % 4 for i in range(4)]
    assert len(set(s.hideout)) == 4


def test_planning_is_secret_until_everyone_placed():
    s = GAME.new_game(2, 3)
    while s.phase != "plan":
        p = s.players_to_act()[0]
        a = s.legal_actions(p)
        s.apply_action(p, "done" if "done" in a else a[0])
    s.apply_action(0, "plan 3")
    s.apply_action(0, "plan P")
    # the tiles laid so far are the planner's own business
    assert s.observation(0)["planning"] == "3P"
    assert s.observation(1)["planning"] == "" and s.observation(None)["planning"] == ""
    assert s.legal_actions(0) == ["plan 1", "plan 2"]
    with pytest.raises(IllegalAction):
        s.apply_action(0, "plan 3")  # a tile goes in one slot only
    s.apply_action(0, "plan 2")       # the last tile fills the last slot
    assert s.plans[0] == "3P21" and s.players_to_act() == [1]
    assert s.observation(1)["plans"][0] == "placed"
    assert s.observation(0)["plans"][0] == "3P21"
    for seen in (str(s.observation(1)), str(s.observation(None))):
        assert "3P21" not in seen and "'3', 'P', '2', '1'" not in seen
    with pytest.raises(IllegalAction):
        s.apply_action(1, "plan 4")
    plan(s, 1, "123P")
    assert s.phase == "action" and s.observation(1)["plans"][0] == "3P21"


def test_turn_order_tiles_one_by_one():
    s = GAME.new_game(2, 3)
    while s.phase != "plan":
        p = s.players_to_act()[0]
        a = s.legal_actions(p)
        s.apply_action(p, "done" if "done" in a else a[0])
    plan(s, 0, "123P")
    plan(s, 1, "123P")
    f = s.first
    assert [x[1] for x in s.schedule[:4]] == [f, 1 - f, f, 1 - f]
    assert s.schedule[0] == ["thief", f, 0] and s.schedule[6] == ["patrol", f, 0]


def test_chaotic_planning_places_tiles_at_random():
    s = GAME.new_game(2, 3, {"chaotic_planning": True})
    while s.phase not in ("action",):
        p = s.players_to_act()[0]
        a = s.legal_actions(p)
        s.apply_action(p, "done" if "done" in a else a[0])
    assert all(p is not None for p in s.plans)


def test_administration_after_rounds_2_and_4():
    s = clear(to_action(2, 4))
    park_townsfolk(s)
    s.round = 2
    s.purses["nA"] = False
    s.badges["gA"] = 0
    sec = next(iter(s.smugglers))
    s.smugglers[sec] = None
    old_display = list(s.display)
    old_patrol = list(s.patrol)
    s.thieves[0][0]["pos"] = next(i for i in range(s.city.W * s.city.H) if s.city.alley[i] and i not in townsfolk.occupancy(s))
    vp = list(s.vp)
    day.administration(s)
    assert s.round == 3 and s.purses["nA"] and s.badges["gA"] == 1 and s.smugglers[sec] is not None
    assert s.display != old_display and len(s.display) == 4
    assert s.patrol == [old_patrol[1], old_patrol[0]]
    assert s.vp == [vp[0] + 1, vp[1]]
    s.purses["nA"] = False
    day.administration(s)   # after round 3: no refill
    assert not s.purses["nA"]


def test_planned_smuggling_variant_stacks():
    s = GAME.new_game(3, 2, {"smuggling_stacks": True})
    assert all(len(v) == 2 for v in s.stacks.values()) and len(s.stacks) == 4
    assert not s.mission_pile
    sec = next(iter(s.smugglers))
    top = s.stacks[sec][0]
    s.smugglers[sec] = None
    s.round = 2
    day.administration(s)
    assert s.smugglers[sec] == top and s.observation(1)["stacks"][sec] == [s.stacks[sec][0]]


def test_final_scoring_table_and_home_bonus():
    s = clear(to_action(2, 5))
    s.vp = [0, 0]
    s.stash[0] = {"gold": 9, "gem": 5, "brandy": 3, "wine": 2, "badge": 1, "art": ["art2"]}
    s.thieves[0][0]["inv"]["badge"] = 1
    s.thieves[0][0]["ally"] = "grimm"
    s.thieves[0][1]["ally"] = "wilma"
    s.thieves[0][2]["pos"] = 0
    day.final_scoring(s)
    # goods: 9 gold 2, 5 gems 2, 3 brandy 1, 2 badges 2, 2 wine 2, 1 artwork 3 = 12
    assert s.final[0]["goods"] == 12
    # Grimm 2/badge and Wilma 2/wine count only the hideout: 2 + 4
    assert s.final[0]["allies"] == 6
    assert s.final[0]["home"] == 2
    assert s.vp[0] == 20 and s.is_terminal()


def test_goods_vp_table():
    inv = empty_inv()
    inv.update(gold=7, gem=3, brandy=5, wine=1, badge=2)
    assert goods_vp(inv) == 1 + 1 + 2 + 1 + 2


def test_tie_breakers():
    s = clear(to_action(2, 5))
    day.final_scoring(s)
    s.vp = [30, 30]
    s.final[0]["total_goods"] = 5
    s.final[1]["total_goods"] = 4
    assert s.winners() == [0]
    s.final[1]["total_goods"] = 5
    s.final[1]["art"] = 1
    assert s.winners() == [1]
    s.final[1]["art"] = 0
    for k in ("badge", "wine"):
        s.final[0][k] = s.final[1][k] = 0
    late = s.first_order[-1]
    assert s.winners() == [late]


def test_solo_turns_alternate_and_compass_flips():
    s = GAME.new_game(1, 4)
    while s.phase != "plan":
        a = s.legal_actions(0)
        s.apply_action(0, "done" if "done" in a else a[0])
    assert s.legal_actions(0) == ["plan 1", "plan 2", "plan 3"]
    plan(s, 0, "213")
    assert [x[0] for x in s.schedule] == ["thief", "town"] * 3
    assert s.schedule[0] == ["thief", 0, 1]
    s.turn = None
    s.act = 6
    day.advance(s)
    assert s.round == 2 and s.solo["side"] == "second"
    plan(s, 0, "123")
    assert [x[0] for x in s.schedule] == ["town", "thief"] * 3
    # the rival thieves went to locations; entering costs 1 VP each
    assert any(v for v in s.solo["rivals"].values())


def test_solo_arrest_discards_goods_and_rating():
    s = clear(to_action(1, 0))
    s.thieves[0][0]["inv"]["gem"] = 3
    townsfolk.arrest(s, 0, 0, "gA")
    assert s.dungeon["gem"] == 0
    s.vp[0] = 45
    assert solo.solo_rating(s) == 2
    s.vp[0] = 70
    assert solo.solo_rating(s) == 5
