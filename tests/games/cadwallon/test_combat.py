"""Rulebook §"Attaquer" and §"Déplacer un milicien": fights, ties, spoils, flights, militia."""
import pytest

from thieves.core.errors import IllegalAction

from .helpers import Dice, do, nocards, position


def fight(attacker_dice, defender_dice, carried=None, **kw):
    """E3 (no combat talent) in c5 attacks N4 (no combat talent) in the dead end d5."""
    st = position({"E3": "c5", "N4": "d5"}, **kw)
    st.hands = [[], []]
    for c, t in (carried or {}).items():
        st.carried[c] = t
    st.ducats = [5, 5]
    st.rng = Dice(*attacker_dice, *defender_dice)
    do(st, "act E3", "attack N4")
    nocards(st)
    return st


def test_attack_is_an_action_for_1_ap_and_moves_the_attacker_in():
    st = fight([5, 3], [4, 2])
    assert st.ap[0] == 6
    assert st.pos["E3"] == "d5"
    assert st.act["moved"] and st.act["acted"]


def test_attacker_wins_takes_a_treasure_and_loser_flees_3_zones():
    st = fight([5, 3], [4, 2], carried={"N4": ["scroll1"]})
    assert st.carried["E3"] == ["scroll1"] and st.carried["N4"] == []
    # the winner's owner moves the loser 3 zones, through c5 (now empty) to a5 or c3
    # (c5-c6-c7 ends in the guard room, where Kornak stands)
    assert st.players_to_act() == [0]
    assert st.legal_actions(0) == ["flee a5", "flee c3"]
    do(st, "flee a5")
    assert st.pos["N4"] == "a5" and st.pos["E3"] == "d5"


def test_winner_chooses_which_treasure():
    st = fight([6, 1], [2, 2], carried={"N4": ["scroll1", "red4"]})
    assert st.legal_actions(0) == ["take red", "take scroll"]
    do(st, "take red")
    assert st.carried["E3"] == ["red4"]


def test_no_treasure_means_2_ducats_from_the_loser():
    st = fight([6, 1], [2, 2])
    assert st.ducats == [7, 3]


def test_tie_goes_to_the_attacker():
    st = fight([4, 1], [4, 2])
    assert st.ducats == [7, 3]


def test_defender_wins_and_moves_the_attacker():
    st = fight([2, 1], [5, 3], carried={"E3": ["key2"]})
    assert st.carried["N4"] == ["key2"]
    assert st.players_to_act() == [1]  # the defender's owner moves the beaten attacker
    assert st.legal_actions(1) == ["flee a5", "flee c3"]


def test_stalwart_defender_wins_ties():
    st = position({"E3": "c5", "K2": "d5"}, n=3)
    st.hands = [[], [], []]
    st.ducats = [5, 5, 5]
    st.rng = Dice(4, 1, 4, 2)
    do(st, "act E3", "attack K2")
    nocards(st)
    assert st.ducats == [3, 5, 7]


def test_cutpurse_takes_3_ducats():
    st = position({"N2": "c5", "E3": "d5"})
    st.current = 1
    st.hands = [[], []]
    st.ducats = [5, 5]
    st.rng = Dice(6, 6, 1, 1)
    do(st, "act N2", "attack E3")
    nocards(st)
    assert st.ducats == [2, 8]


def test_combat_cards_attacker_first_then_defender():
    st = position({"E3": "c5", "N4": "d5"})
    st.hands = [["fury"], ["feint", "slippery"]]
    st.ducats = [5, 5]
    do(st, "act E3", "attack N4")
    assert st.players_to_act() == [0] and st.legal_actions(0) == ["nocard", "card fury"]
    do(st, "card fury")
    assert st.players_to_act() == [1]  # the defender decides during the attacker's turn
    assert st.legal_actions(1) == ["nocard", "card feint", "card slippery"]
    # fury +1, feint -1: the attacker rolls 2 dice, the defender 2
    st.rng = Dice(1, 1, 3, 2)
    do(st, "card feint")
    assert st.ducats == [3, 7]
    assert st.discard[-2:] == ["fury", "feint"]


def test_fury_adds_a_die():
    st = position({"E3": "c5", "N4": "d5"})
    st.hands = [["fury"], []]
    st.ducats = [5, 5]
    do(st, "act E3", "attack N4")
    st.rng = Dice(1, 1, 6, 5, 6)  # three attacker dice (best 6) against two (best 6): tie
    do(st, "card fury", "nocard")
    assert st.ducats == [7, 3]


def test_slippery_loser_keeps_everything():
    st = position({"E3": "c5", "N4": "d5"})
    st.hands = [[], ["slippery"]]
    st.carried["N4"] = ["scroll1"]
    do(st, "act E3", "attack N4", "nocard")
    st.rng = Dice(6, 6, 1, 1)
    do(st, "card slippery")
    assert st.carried["N4"] == ["scroll1"] and st.carried["E3"] == []


def test_cannot_attack_a_militiaman_or_a_friend():
    st = position({"E3": "f3", "E2": "e3"})  # Valrut is in the vault g3 next to f3
    do(st, "act E3")
    acts = st.legal_actions(0)
    assert not any(a.startswith("attack") for a in acts)
    with pytest.raises(IllegalAction, match="never attack a militiaman"):
        do(st, "attack valrut")


def test_cannot_attack_across_a_wall():
    st = position({"E3": "d5", "N4": "e5"})
    do(st, "act E3")
    assert "attack N4" not in st.legal_actions(0)


# -- the militia -------------------------------------------------------------------------
def militia(pos, rolls, **kw):
    st = position(pos, **kw)
    st.phase, st.militia_left = "militia", 1
    st.hands = [[], []]
    st.ducats = [5, 5]
    st.rng = Dice(*rolls)
    return st


def test_militia_distracted_on_a_6_by_default():
    st = militia({}, [6])
    do(st, "militia kornak")
    assert st.phase == "main" and st.pos["kornak"] == "c7"


def test_militia_still_face_option():
    st = militia({}, [1], militia_still_face=1)
    do(st, "militia kornak")
    assert st.phase == "main"
    st = militia({}, [6], militia_still_face=1)
    do(st, "militia kornak")
    assert st.phase == "militia_move" and st.militia_roll == 6


def test_militia_moves_at_most_the_roll_and_never_leaves():
    st = militia({}, [2])
    do(st, "militia kornak")
    acts = st.legal_actions(0)
    dist = st.data.dist["c7"]
    targets = [a.split()[1] for a in acts if a != "mm stay"]
    assert targets and all(dist[z] <= 2 for z in targets)
    assert all(a.startswith("mm ") for a in acts)
    do(st, "mm c5")
    assert st.pos["kornak"] == "c5" and st.phase == "main"


def test_militia_cannot_attack_own_gang_or_the_other_militiaman():
    st = militia({"E3": "c6", "valrut": "d7"}, [3])
    do(st, "militia kornak")
    acts = st.legal_actions(0)
    assert "mm c6" not in acts and "mm d7" not in acts
    st2 = militia({"N4": "c6"}, [3])
    do(st2, "militia kornak")
    assert "mm c6" in st2.legal_actions(0)


def test_militia_wins_ties_fines_2_ducats_and_moves_the_loser():
    st = militia({"N4": "c6"}, [3, 4, 1, 4, 2])  # move roll 3, militia 4-1, N4 4-2: tie
    do(st, "militia kornak", "mm c6")
    nocards(st)
    assert st.ducats == [5, 3] and st.bank == 342
    assert st.pos["kornak"] == "c6"
    # the controlling player (0) moves the fleeing thief
    assert st.players_to_act() == [0] and all(a.startswith("flee") for a in st.legal_actions(0))
    assert "kornak" not in st.carried  # a militiaman takes no treasure


def test_no_arcana_helps_a_militiaman_but_the_defender_may_play():
    st = militia({"N4": "c6"}, [3])
    st.hands = [["fury"], ["fury"]]
    do(st, "militia kornak", "mm c6")
    assert st.players_to_act() == [1]  # only the defender gets a card window
    st.rng = Dice(2, 2, 6, 1, 1)
    do(st, "card fury")
    assert st.ducats == [5, 5]  # the militiaman lost and must flee, moved by the winner
    assert st.players_to_act() == [1] and st.queue[0]["char"] == "kornak"


def test_militia_loses_and_flees_moved_by_the_winner():
    st = militia({"N4": "c6"}, [3, 1, 1, 6, 6])
    do(st, "militia kornak", "mm c6")
    nocards(st)
    assert st.ducats == [5, 5]
    assert st.players_to_act() == [1] and st.queue[0]["char"] == "kornak"
    do(st, st.legal_actions(1)[0])
    assert st.pos["kornak"] != "c6" and st.pos["N4"] == "c6"
