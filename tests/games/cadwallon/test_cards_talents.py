"""Arcana cards and talents (stand-ins): each effect once."""
import pytest

from thieves.core.errors import IllegalAction
from thieves.games.cadwallon.movement import movement

from .helpers import Dice, do, moves, nocards, position


def with_hand(st, p, cards):
    st.hands[p] = sorted(cards)
    st._legal_cache = None
    return st


def test_run_adds_two_movement():
    st = with_hand(position({"E2": "d1"}), 0, ["run"])
    do(st, "act E2")
    assert "h1" in moves(st) and "i1" not in moves(st)  # i1 is 5 zones away
    base = moves(st)
    do(st, "play run")
    assert moves(st) > base and {"i1", "i2"} <= moves(st)
    assert st.discard[-1] == "run" and st.ap[0] == 7  # arcana cost no AP


def test_activation_cards_only_before_the_step_they_help():
    st = with_hand(position({"E2": "d1"}), 0, ["run", "skeleton_key"])
    do(st, "act E2", "move c1")
    acts = st.legal_actions(0)
    assert "play run" not in acts and "play skeleton_key" in acts


def test_skeleton_key_and_hidden_purse():
    st = with_hand(position({"E2": "c2"}, chests={"c2": {"t": "red1", "sealed": False}}), 0,
                   ["hidden_purse", "skeleton_key"])
    st.rng = Dice(6)
    do(st, "act E2", "play skeleton_key", "play hidden_purse")
    assert st.carried["E2"] == []
    do(st, "open")  # Spirit 4 + 2 = 6: even a 6 opens
    assert st.carried["E2"] == ["red1"] and st.ducats[0] == 3


def test_second_wind_pickpocket_and_reinforced_lock():
    st = with_hand(position({"E2": "c2", "N4": "d1"}, chests={"c3": {"t": "red1", "sealed": False}}), 0,
                   ["niggling_injury", "pickpocket", "reinforced_lock", "second_wind"])
    st.ducats = [0, 3]
    do(st, "play second_wind")
    assert st.ap[0] == 8
    do(st, "play pickpocket P2")
    assert st.ducats == [2, 1]
    do(st, "play reinforced_lock c3")
    assert st.chests["c3"]["sealed"]
    with pytest.raises(IllegalAction):
        do(st, "play fury")
    # Niggling injury is an interrupt: it is never played on your own turn
    assert not any("niggling" in a for a in st.legal_actions(0))
    with pytest.raises(IllegalAction, match="interrupt"):
        do(st, "play niggling_injury N4")


def test_nimble_moves_one_more():
    st = position({"E1": "d1"})
    do(st, "act E1")
    assert movement(st, "E1") == 5


def test_shadow_step_crosses_a_wall_for_1_ap():
    st = position({"N1": "d5"})
    st.current = 1
    do(st, "act N1")
    assert "talent e5" in st.legal_actions(1) and "move e5" not in st.legal_actions(1)
    do(st, "talent e5")
    assert st.pos["N1"] == "e5" and st.ap[1] == 6
    assert not any(a.startswith("talent") for a in st.legal_actions(1))
    assert any(a.startswith("move") for a in st.legal_actions(1))  # the move is still there


def test_sleight_of_hand_discards_a_card_for_1_ap():
    st = with_hand(position({"E4": "d1"}), 0, ["fury"])
    do(st, "act E4", "talent fury")
    assert st.ap[0] == 8 and st.hands[0] == [] and st.discard[-1] == "fury"


def test_lucky_hands_rerolls_a_failed_opening():
    st = position({"N3": "c2"}, chests={"c2": {"t": "key1", "sealed": False}})
    st.current = 1
    st.rng = Dice(6, 2)
    do(st, "act N3", "open")
    assert st.carried["N3"] == ["key1"]


def test_brawler_rolls_three_dice():
    st = position({"E2": "c5", "N4": "d5"})
    st.ducats = [5, 5]
    st.rng = Dice(1, 1, 6, 5, 5)  # the third die (6) wins the fight
    do(st, "act E2", "attack N4")
    nocards(st)
    assert not st.rng.rolls and st.ducats == [7, 3]
