"""Rulebook "Phase 2: effectuer des achats" and the card abilities used in it."""
import pytest

from thieves.core.errors import IllegalAction

from .util import buy_phase, card, counts, fresh, give, legal, play, split_done, to_market


def test_purchases_start_with_the_token_holder_and_go_clockwise():
    s = buy_phase(["R", "W", "BT"], token=2)
    assert s.phase == "buy" and s.current == 2
    play(s, "end")
    assert s.current == 0
    play(s, "end")
    assert s.current == 1


def test_buy_with_matching_dice_and_only_one_card_per_turn():
    s = buy_phase(["WWRT", "B", "G"], gold=[0, 0, 0])
    assert legal(s) == ["buy A11", "buy A16", "buy A4", "end"]
    play(s, "buy A11")                 # W W paid with the two white dice, no choice left
    assert s.tableau[0] == [card(s, "A11")] and s.piles[0] == counts("R")
    assert legal(s) == ["end"]         # one purchase per turn
    with pytest.raises(IllegalAction, match="every purchase"):
        s.apply_action(0, "buy A16")


def test_gold_stands_in_for_any_gem_and_bag_faces_are_not_gold():
    s = buy_phase(["YYT", "B", "G"], gold=[2, 0, 0])
    assert "buy A11" in legal(s)       # WW paid with 2 gold
    with pytest.raises(IllegalAction, match="cannot pay"):
        buy_phase(["YYT", "B", "G"], gold=[1, 0, 0]).apply_action(0, "buy A11")
    play(s, "buy A11")
    assert s.gold[0] == 0 and s.piles[0] == counts("YY")


def test_paying_is_a_choice_between_die_and_gold():
    s = buy_phase(["RT", "B", "G"], gold=[1, 0, 0])
    play(s, "buy A16")                 # cost R: a red die or a gold coin
    assert legal(s) == ["pay R", "gold R"]
    with pytest.raises(IllegalAction, match="finish paying"):
        s.apply_action(0, "end")
    play(s, "gold R")
    assert s.gold[0] == 0 and s.piles[0] == counts("R") and s.tableau[0] == [card(s, "A16")]


def test_spent_dice_go_back_to_the_center():
    s = buy_phase(["WWT", "B", "G"])
    play(s, "buy A11")
    assert sum(s.center) == 2


@pytest.mark.parametrize("cid,face", [("A4", "W"), ("A5", "R"), ("A8", "B"), ("B7", "G")])
def test_extra_purchase_if_the_pile_held_the_face_after_phase_1(cid, face):
    s = buy_phase([face + "WWRT", "B", "G"], cards={0: [cid]}, market=("A11", "A16", "A15"))
    play(s, "buy A11")
    assert "buy A16" in legal(s)       # a second purchase
    s2 = buy_phase(["WWRT" if face != "W" else "RRT", "B", "G"], cards={0: [cid]},
                   market=("A11", "A16", "A15"), gold=[2, 0, 0])
    play(s2, "buy A16" if face == "W" else "buy A11")
    assert not any(a.startswith("buy") for a in legal(s2))


def test_extra_purchase_card_works_the_round_it_is_bought():
    s = buy_phase(["WRT", "B", "G"], market=("A4", "A16"))
    play(s, "buy A4")                  # Corrupt Official, and a white die was in the pile
    assert "buy A16" in legal(s)


def test_extra_purchase_looks_at_the_pile_after_phase_1_even_if_the_die_is_spent():
    s = buy_phase(["WWT", "B", "G"], cards={0: ["A4"]}, market=("A11", "A9"), gold=[1, 0, 0])
    play(s, "buy A11", "pay W", "pay W")   # both white dice are gone
    assert "buy A9" in legal(s)        # still a second purchase (paid with gold)


def test_extra_purchases_stack_unless_the_option_says_otherwise():
    s = buy_phase(["WRBT", "B", "G"], cards={0: ["A4", "A5"]}, market=("A9", "A16", "A3"))
    play(s, "buy A9", "buy A16")
    assert "buy A3" in legal(s)
    s = fresh(3, extra_buys_stack=False)
    s.rows = [[], [], []]
    for cid in ("A9", "A16", "A3"):
        to_market(s, cid)
    give(s, 0, "A4", "A5")
    s.gold = [0, 0, 0]
    split_done(s, ["WRBT", "B", "G"], 0)
    play(s, "buy A9", "buy A16")
    assert legal(s) == ["end"]


def test_insurance_racket_extra_purchase_and_one_gem_less():
    s = buy_phase(["WT", "B", "G"], cards={0: ["C7"]}, market=("A11", "A16"), gold=[0, 0, 0])
    assert "buy A11" in legal(s)       # WW with one white die: the other gem is waived
    play(s, "buy A11")
    assert legal(s) == ["pay W", "free W"]
    play(s, "pay W")                   # the second white is then waived without a choice
    assert s.tableau[0][-1] == card(s, "A11") and s.piles[0] == counts("")
    assert "buy A16" in legal(s)       # extra purchase, R waived entirely
    play(s, "buy A16")
    assert s.tableau[0][-1] == card(s, "A16")


def test_insurance_racket_waiver_is_a_choice():
    s = buy_phase(["RT", "B", "G"], cards={0: ["C7"]}, market=("A16",), gold=[1, 0, 0])
    play(s, "buy A16")
    assert legal(s) == ["pay R", "gold R", "free R"]
    play(s, "free R")
    assert s.piles[0] == counts("R") and s.gold[0] == 1


@pytest.mark.parametrize("cid,src,targets", [
    ("A1", "R", "WBG"), ("A2", "R", "Y"), ("A6", "W", "Y"), ("A7", "B", "WRG"), ("A12", "G", "Y"),
    ("A13", "G", "WBR"), ("B2", "B", "Y"), ("B5", "W", "RBG"), ("B12", "Y", "WBRG")])
def test_turn_die_abilities_once_per_round(cid, src, targets):
    s = buy_phase([src + src + "T", "B", "G"], cards={0: [cid]}, market=())
    acts = [a for a in legal(s) if a.startswith("use")]
    assert acts == [f"use {cid} {t}" for t in targets]
    play(s, acts[-1])
    assert s.piles[0] == counts(src + targets[-1])
    assert not any(a.startswith("use") for a in legal(s))   # once per round
    with pytest.raises(IllegalAction, match="already been used"):
        s.apply_action(0, acts[0])


@pytest.mark.parametrize("cid,face,what", [("A3", "B", "infamy"), ("A9", "W", "infamy"),
                                           ("A14", "G", "infamy"), ("A16", "R", "infamy"),
                                           ("B10", "P", "gold")])
def test_spend_die_abilities(cid, face, what):
    s = buy_phase([face + face + "T", "B", "G"], cards={0: [cid]}, market=(), gold=[0, 0, 0])
    play(s, f"use {cid}")
    assert s.piles[0] == counts(face)
    assert (s.infamy[0], s.gold[0]) == ((1, 0) if what == "infamy" else (0, 1))
    assert f"use {cid}" not in legal(s)


def test_gauntlet_gold_can_be_spent_at_once():
    s = buy_phase(["PT", "B", "G"], cards={0: ["B10"]}, market=("A16",), gold=[0, 0, 0])
    assert "buy A16" not in legal(s)
    play(s, "use B10")
    assert "buy A16" in legal(s)


def test_exit_strategy_any_number_of_times():
    s = buy_phase(["T", "B", "G"], cards={0: ["C4"]}, market=(), gold=[3, 0, 0])
    play(s, "use C4", "use C4", "use C4")
    assert s.gold[0] == 0 and s.infamy[0] == 6 and "use C4" not in legal(s)


def test_abilities_only_on_your_own_purchase_turn():
    s = buy_phase(["T", "RR", "G"], cards={1: ["A16"]}, market=())
    with pytest.raises(IllegalAction, match="turn"):
        s.apply_action(1, "use A16")


@pytest.mark.parametrize("cid,gem,buy,gains", [
    ("B1", "R", "A16", 1), ("B1", "R", "A11", 0), ("B6", "W", "A11", 1),
    ("B16", "G", "A10", 1), ("B17", "B", "A3", 1), ("B17", "B", "A16", 0)])
def test_infamy_on_buying_a_card_showing_a_gem(cid, gem, buy, gains):
    s = buy_phase(["T", "B", "G"], cards={0: [cid]}, market=(buy,), gold=[4, 0, 0])
    play(s, f"buy {buy}")
    while s.step == "pay":
        play(s, legal(s)[0])
    assert s.infamy[0] == gains


def test_gem_henchman_counts_its_own_purchase():
    s = buy_phase(["RRWT", "B", "G"], market=("B1",), gold=[0, 0, 0])
    play(s, "buy B1")
    assert s.infamy[0] == 1


def test_big_haul_and_heist_count_the_objects_of_the_pile_after_phase_1():
    for cid, cost in (("C1", "GB"), ("C12", "GW")):
        s = buy_phase([cost + "YPT", "B", "G"], market=(cid,))
        play(s, f"buy {cid}")
        assert s.infamy[0] == 5      # 4 dice + the token, even though 2 dice were spent


def test_unlabeled_potion_is_discarded_and_gains_the_top_card():
    s = buy_phase(["RBT", "B", "G"], market=("B18",))
    s.active_row = 1
    top = s.decks[1][-1]
    play(s, "buy B18")
    assert card(s, "B18") in s.discarded and card(s, "B18") not in s.tableau[0]
    assert s.tableau[0] == [top]


def test_unlabeled_potion_takes_from_deck_c_when_b_is_empty_and_nothing_when_all_are():
    s = buy_phase(["RBT", "B", "G"], market=("B18",))
    s.active_row, s.decks[1] = 1, []
    top = s.decks[2][-1]
    play(s, "buy B18")
    assert s.tableau[0] == [top]
    s = buy_phase(["RBT", "B", "G"], market=("B18",))
    s.active_row, s.decks = 2, [[], [], []]
    play(s, "buy B18")
    assert s.tableau[0] == []


def test_eyepatch_of_command_with_the_token_after_phase_1():
    s = fresh(3)
    give(s, 0, "B8")
    split_done(s, ["RT", "B", "G"], 0)
    assert s.infamy[0] == 1
    s = fresh(3)
    give(s, 0, "B8")
    split_done(s, ["R", "BT", "G"], 1)
    assert s.infamy[0] == 0


def test_lucky_animal_appendage_reroll_at_start_of_phase_2():
    s = fresh(3)
    give(s, 1, "B13")
    split_done(s, ["RT", "BB", "G"], 0)
    assert s.phase == "lucky" and s.current == 1
    assert legal(s) == ["reroll B", "keep"]
    play(s, "reroll B")
    assert sum(s.piles[1]) == 2 and s.phase == "buy" and s.current == 0


def test_potion_gained_card_fires_on_gain_effects_but_is_not_bought():
    s = buy_phase(["RBYT", "B", "G"], market=("B18",), cards={0: ["B17"]})
    s.active_row = 1
    s.decks[1].append(card(s, "C1"))       # Big Haul on top of deck B
    play(s, "buy B18")
    # Dockhand: the Potion's cost shows blue (+1); Big Haul: 4 objects in the pile (+4);
    # Big Haul itself was gained, not bought, so its blue gem gives nothing more
    assert s.infamy[0] == 1 + 4 and s.tableau[0][-1] == card(s, "C1")
    assert s.buys == 1


def test_option_potion_deck_own():
    # Card text: "gagnez gratuitement la carte se trouvant sur le haut du deck, si cela est
    # possible". Default: the deck now supplying the market; option "own": deck B only.
    for option, gains in (("current", True), ("own", False)):
        s = buy_phase(["RBT", "B", "G"], market=("B18",))
        s.options = {**s.options, "potion_deck": option}
        s.active_row, s.decks[1] = 2, []
        top = s.decks[2][-1]
        play(s, "buy B18")
        assert s.tableau[0] == ([top] if gains else [])
    s = buy_phase(["RBT", "B", "G"], market=("B18",))
    s.options = {**s.options, "potion_deck": "own"}
    s.active_row = 2
    s.decks[1] = s.decks[1][:1]        # a B card left in deck B (option deal_last_b_cards off)
    top = s.decks[1][-1]
    play(s, "buy B18")
    assert s.tableau[0] == [top]
