"""Stand-in general cards in play: the greedy bot uses them, and the redesigned ranges
(docs/age_of_thieves.md, "Stand-ins in play"; the cards' ``note`` in cards.yaml)."""
from __future__ import annotations

from thieves.bots import make_bot

from .helpers import act, fresh, give, path, plan

SLUG = "age-of-thieves"

G = "N10"  # a plain space with plain ways of 8 steps


def bot(seat: int):
    return make_bot("greedy", SLUG, seat)


def test_thief_targeting_cards_reach_past_a_sneak():
    """Redesigned ranges: a rival 4 spaces away (one Sneak) is in reach of Poisoned Bola,
    Mechanical Rats and the Fishing Rod; the old ranges (2-3) seldom reached one."""
    s = fresh("zain,jasmine")
    for card in ("rod", "bola", "rats"):
        assert s.data.general[card].range >= 4, card
        assert s.data.general[card].reconstructed and s.data.general[card].note, card


def test_poisoned_bola_hits_a_rival_six_spaces_away():
    s = fresh("zain,jasmine", die=1)
    a = path(s, G, 6)
    s.thieves[0]["pos"], s.thieves[1]["pos"] = G, a[6]
    give(s, 0, "bola")
    plan(s, 0, [("bola", 5)])
    plan(s, 1, [("ambush", 1)])
    act(s, 0, "play bola")
    act(s, 0, "thief 2")
    assert s.thieves[1]["poison"] == 3


def test_greedy_plans_a_strike_card_with_ap_left_over():
    """Far from its goal it puts 8 AP on Move and 1 on Ambush; the 10th AP goes on the Rod."""
    s = fresh("zain,jasmine")
    give(s, 0, "rod")
    b = bot(0)
    while s.phase == "plan" and 0 in s.players_to_act():
        s.apply_action(0, b.choose(s, 0))
    cards = {slot["card"].rstrip("0123456789"): slot["ap"] for slot in s.thieves[0]["plan"]}
    assert cards.get("rod") == 1 and cards.get("move") == 8


def test_greedy_steals_the_emperors_jewel_with_the_fishing_rod():
    s = fresh("zain,jasmine", die=1)
    a = path(s, G, 3)
    s.thieves[0]["pos"] = G
    s.thieves[1]["pos"], s.thieves[1]["emperor"] = a[3], True
    s.thieves[1]["green"] = 1
    give(s, 0, "rod")
    plan(s, 0, [("rod", 6)])
    plan(s, 1, [("ambush", 1)])
    b = bot(0)
    assert b.choose(s, 0) == "play rod"
    act(s, 0, "play rod")
    act(s, 0, b.choose(s, 0))
    assert s.thieves[0]["emperor"] and not s.thieves[1]["emperor"]


def test_greedy_moves_a_guard_away_from_itself():
    """Beacon: the guard nearest to the thief, walked away from it."""
    s = fresh("zain,jasmine", die=1)
    a = path(s, G, 8)
    s.thieves[0]["pos"], s.thieves[1]["pos"] = G, a[8]
    s.guards = {"g1": a[3]}
    give(s, 0, "beacon")
    plan(s, 0, [("beacon", 6)])
    plan(s, 1, [("ambush", 1)])
    b = bot(0)
    assert b.choose(s, 0) == "play beacon"
    act(s, 0, "play beacon")
    act(s, 0, b.choose(s, 0))
    assert b.choose(s, 0).startswith("gstep ")
    while s.act is not None and s.act.get("kind") == "gmove":
        act(s, 0, b.choose(s, 0))
    assert s.data.dist[G][s.guards["g1"]] > 3
