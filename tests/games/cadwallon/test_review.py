"""Rules review: each test covers a discrepancy found against the rulebook and fixed."""
import pytest

from thieves.core.errors import IllegalAction

from .helpers import Dice, do, nocards, position


def test_spent_action_points_come_back_to_everybody_when_the_round_ends():
    """§"Le tour de jeu": when every player has played, the marker advances and the players
    take back the AP they spent (not each at the start of its own turn)."""
    st = position({"E2": "c2", "N4": "d1"})
    st.rng = Dice(6, 6)
    do(st, "end")  # player 1's turn: the militiaman is distracted on a 6
    do(st, "militia kornak")
    st.ap[1] = 2
    do(st, "end")
    assert st.round == 2 and st.current == 0 and st.phase == "militia"
    assert st.ap == [7, 7]


def test_a_militiaman_may_attack_a_heroine():
    """§"Déplacer un milicien": entering a zone holding a character starts a fight; only the
    mover's own gang and the other militiaman are out of bounds."""
    st = position({}, adventure="heroines")
    st.pos["sienne"] = "c6"
    st.carried["sienne"] = ["green1"]
    st.phase, st.militia_left = "militia", 1
    st.ducats = [5, 5]
    st.rng = Dice(3, 5, 5, 1, 2, 1)
    do(st, "militia kornak")
    assert "mm c6" in st.legal_actions(0)
    do(st, "mm c6")
    # a fight (no arcana on either side): the militiaman wins and takes nothing; his
    # controller moves her 3 zones
    assert not st.rng.rolls and any(ev["key"] == "fight_won" and ev["args"]["char"] == "kornak" for ev in st.log)
    assert st.pos["kornak"] == "c6" and st.carried["sienne"] == ["green1"] and st.ducats == [5, 5]
    if st.queue:
        assert st.players_to_act() == [0] and st.queue[0]["kind"] == "flee"
        do(st, st.legal_actions(0)[0])
    assert st.pos["sienne"] != "c6"


def test_rulebook_example_davitto_fails_to_open():
    """§"Ouvrir un coffre" example: Davitto spends 1 AP, rolls more than his Spirit (4) and
    the treasure stays on the board (his stand-in talent must not change that)."""
    st = position({"K1": "c2"}, n=3, chests={"c2": {"t": "red3", "sealed": False}})
    st.current = 2
    for roll in (5, 6):
        trial = st.clone()
        trial.rng = Dice(roll)
        do(trial, "act K1", "open")
        assert trial.carried["K1"] == [] and "c2" in trial.chests and trial.ap[2] == 6


def test_entering_an_enemys_zone_to_attack_is_a_step_of_the_move():
    """§"Se déplacer": a character may enter a zone held by an enemy to attack it; after a
    move that used every Movement point there is none left for that step."""
    st = position({"E3": "a3", "N4": "d5"})
    do(st, "act E3", "move c5")  # a3-a4-a5-b5-c5: 4 zones
    assert "attack N4" not in st.legal_actions(0)
    with pytest.raises(IllegalAction, match="no Movement point left"):
        do(st, "attack N4")
    st = position({"E3": "a4", "N4": "d5"})
    do(st, "act E3", "move c5")  # 3 zones: one point left to step in
    assert "attack N4" in st.legal_actions(0)
    st = position({"E3": "a3", "N4": "d5"}, attack_needs_movement=False)
    do(st, "act E3", "move c5")
    assert "attack N4" in st.legal_actions(0)


def test_dukes_treasure_fines_room_is_an_option():
    """"Le Trésor du Duc": the ducats a winning militiaman takes are not given back to the
    bank but put in a room whose name the OCR garbles (vault by default, guard room as the
    other reading)."""
    st = position({"N4": "c6"}, adventure="dukes_treasure", fines_room="guard_room")
    st.phase, st.militia_left = "militia", 1
    st.ducats = [5, 5]
    st.rng = Dice(3, 6, 6, 1, 1)
    do(st, "militia kornak", "mm c6")
    nocards(st)
    guard = st.data.role["guard_room"]
    assert st.ducats == [5, 3] and st.room_ducats[guard] == 2
