"""Rulebook "Phase 1: diviser le butin" (splitting the loot)."""
import pytest

from thieves.core.errors import IllegalAction

from .util import counts, dice_total, fresh, give, legal, play, set_center


def test_start_player_rolls_all_dice_and_token_goes_to_center():
    s = fresh(4)
    assert s.phase == "split" and s.current == 0
    assert sum(s.center) == 11 and s.token == -1
    assert s.has_pile == [False] * 4


def test_take_is_a_sequence_of_objects_ended_by_done():
    s = fresh(4)
    set_center(s, "RRWBGYPPGBW")
    play(s, "take R")
    assert s.step == "take" and "done" in legal(s)
    assert not any(a.startswith("steal") for a in legal(s))  # a take cannot turn into a steal
    play(s, "take R", "take T", "done")
    assert s.piles[0] == counts("RR") and s.token == 0
    assert s.current == 1 and s.has_pile[0]


def test_first_taker_must_take_at_least_one_object():
    s = fresh(4)
    assert "done" not in legal(s)
    with pytest.raises(IllegalAction):
        s.apply_action(0, "done")


def _erin_takes(s):
    """Erin (seat 1, start player) takes a red die, a blue die and the token."""
    set_center(s, "RBWWGGYYPPW")
    play(s, "take R", "take B", "take T", "done")
    assert s.current == 1  # Michael


def test_erin_michael_example_keep_red_and_blue_return_token():
    s = fresh(4)
    _erin_takes(s)
    assert "steal 1" in legal(s)
    play(s, "steal 1")
    assert not s.has_pile[0] and s.piles[1] == counts("RB") and s.token == 1
    assert "done" not in legal(s)  # at least one object must go back
    play(s, "return T", "done")
    assert s.piles[1] == counts("RB") and s.token == -1
    assert dice_total(s) == 11


@pytest.mark.parametrize("give_back,kept", [("B", "R"), ("R", "B")])
def test_erin_michael_example_keep_token_and_one_gem(give_back, kept):
    s = fresh(4)
    _erin_takes(s)
    before = sum(s.center)
    play(s, "steal 1", f"return {give_back}", "done")
    assert s.piles[1] == counts(kept) and s.token == 1
    assert sum(s.center) == before + 1  # the returned die is back (rerolled) in the center
    assert dice_total(s) == 11


def test_erin_michael_example_keep_a_single_object():
    s = fresh(4)
    _erin_takes(s)
    play(s, "steal 1", "return R", "return B")
    # only the token is left: the thief must keep it, so the steal ends by itself
    assert s.step == "" and s.piles[1] == counts("") and s.token == 1
    assert s.current == 2


def test_returned_dice_are_rerolled():
    faces = set()
    for seed in range(30):
        s = fresh(4, seed=seed)
        set_center(s, "RRRRRRRRRRR")
        play(s, "take R", "take R", "done", "steal 1", "return R")  # one left: ends
        faces.update(f for f in range(6) if s.center[f] and f != 0)
    assert len(faces) >= 3


def test_after_a_steal_the_victim_acts_again_in_clockwise_order():
    s = fresh(3)
    set_center(s, "RWBGYPRWBG")
    play(s, "take R", "take W", "done")         # P1
    play(s, "steal 1", "return W")             # P2 steals P1, keeps R
    assert s.current == 2                      # P3 is next without a pile
    play(s, "take B", "done")                  # P3
    assert s.current == 0                      # P1 acts again
    assert s.has_pile == [False, True, True]


def test_a_pile_of_one_object_cannot_be_stolen():
    s = fresh(4)
    set_center(s, "RWBGYPRWBGY")
    play(s, "take R", "done")
    assert "steal 1" not in legal(s)
    with pytest.raises(IllegalAction, match="only one object"):
        s.apply_action(1, "steal 1")


def test_players_with_a_pile_are_skipped():
    s = fresh(4)
    set_center(s, "RWBGYPRWBGY")
    play(s, "take R", "done", "take W", "done", "take B", "done")
    assert s.current == 3


def test_last_player_without_a_pile_must_take_everything():
    s = fresh(3)
    set_center(s, "RWBGYPRWBG")
    play(s, "take R", "take W", "done", "take B", "done")
    acts = legal(s)
    assert "take all" in acts and not any(a.startswith("take ") and a != "take all" for a in acts)
    assert "steal 1" in acts  # the last player may still steal instead
    with pytest.raises(IllegalAction, match="last player"):
        s.apply_action(2, "take G")
    play(s, "take all")
    assert not any(s.center) and s.token == 2
    assert s.phase == "buy" and s.current == 2  # the token holder buys first


def test_center_emptied_early_leaves_stealing_only():
    s = fresh(3)
    set_center(s, "RWBGYPRWBG")
    play(s, "take R", "take W", "take B", "take G", "take Y", "take P", "take R", "take W",
         "take B", "take G", "take T")   # the center is empty: the take ends by itself
    assert s.current == 1 and legal(s) == ["steal 1"]


def test_phase_ends_when_everyone_has_a_pile_and_center_is_empty():
    s = fresh(3)
    set_center(s, "RWBGYPRWBG")
    play(s, "take R", "done", "take W", "done", "take all")
    assert s.phase == "buy" and sum(s.center) == 0 and s.token in (0, 1, 2)
    assert s.p1_mask[0] == 1 and s.p1_objects[0] == 1


def test_wicked_clutches_gives_infamy_when_stolen_privately():
    s = fresh(4)
    give(s, 0, "B19")
    _erin_takes(s)
    n_log = len(s.log)
    play(s, "steal 1")
    assert s.infamy[0] == 1
    private = [e for e in s.log[n_log:] if "to" in e]
    assert private and all(e["to"] == [0] and e["args"]["card"] == "B19" for e in private)


def test_lucky_animal_appendage_returned_dice_keep_their_faces():
    for seed in range(10):
        s = fresh(4, seed=seed)
        give(s, 0, "B13")
        set_center(s, "RRRRRRRRRRR")
        play(s, "take R", "take R", "take R", "done", "steal 1", "return R", "return R")
        assert s.center == counts("RRRRRRRRRR")  # 8 left + 2 returned, still red


@pytest.mark.parametrize("returns,kept,token", [(("return B", "return T"), "R", -1),
                                                (("return R", "return T"), "B", -1),
                                                (("return R", "return B"), "", 1)])
def test_erin_michael_example_4_keep_any_single_object(returns, kept, token):
    # Rulebook example, option 4: "Garder un seul objet, et remettre le reste en relançant les
    # joyaux"; the steal ends by itself once a single object is left
    s = fresh(4)
    _erin_takes(s)
    before = sum(s.center)
    play(s, "steal 1", *returns)
    assert s.step == "" and s.current == 2
    assert s.piles[1] == counts(kept) and s.token == token and s.objects(1) == 1
    assert sum(s.center) == before + 2 - (token == -1) and dice_total(s) == 11
