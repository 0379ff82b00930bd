"""Rulebook §"Ouvrir un coffre", §"Forcer un coffre", §"Les trésors", carrying limit, missions."""
import pytest

from thieves.core.errors import IllegalAction
from thieves.core.rng import Rng

from .helpers import Dice, do, position


def chest(t: str, sealed: bool = False) -> dict:
    return {"t": t, "sealed": sealed}


def test_open_succeeds_on_a_die_at_most_spirit():
    st = position({"E2": "c2"}, chests={"c2": chest("scroll1")})
    st.rng = Dice(4)
    do(st, "act E2", "open")
    assert st.carried["E2"] == ["scroll1"] and "c2" not in st.chests
    assert st.ducats[0] == 1 and st.ap[0] == 6  # 1 ducat from the bank, 1 AP


def test_open_fails_above_spirit_and_spends_the_ap():
    st = position({"E2": "c2"}, chests={"c2": chest("scroll1")})
    st.rng = Dice(5)
    do(st, "act E2", "open")
    assert st.carried["E2"] == [] and "c2" in st.chests and st.ap[0] == 6 and st.ducats[0] == 0
    assert "open" not in st.legal_actions(0)  # the action is used


@pytest.mark.parametrize("char,expected", [("E2", 4 / 6), ("E3", 5 / 6)])
def test_opening_odds_follow_spirit(char, expected):
    """Spirit 4: 4 chances in 6; the locksmith talent adds 1."""
    base = position({char: "c2"}, chests={"c2": chest("red1")})
    do(base, f"act {char}")
    wins = 0
    trials = 1200
    for i in range(trials):
        st = base.clone()
        st.rng = Rng.from_seed(i)
        do(st, "open")
        wins += bool(st.carried[char])
    assert abs(wins / trials - expected) < 0.05


def test_force_always_opens_for_two_ap():
    st = position({"E2": "c2"}, chests={"c2": chest("key1")})
    do(st, "act E2", "force")
    assert st.carried["E2"] == ["key1"] and st.ap[0] == 5 and st.ducats[0] == 1


def test_a_chest_face_token_can_only_be_forced():
    st = position({"E2": "c2"}, chests={"c2": chest("key1", sealed=True)})
    do(st, "act E2")
    acts = st.legal_actions(0)
    assert "open" not in acts and "force" in acts
    with pytest.raises(IllegalAction, match="only be forced"):
        do(st, "open")


def test_davitto_example_force_then_move_leaves_4_ap():
    """Rulebook example: Davitto forces a chest (2 AP) then moves (1 AP): 4 AP remain."""
    st = position({"K1": "c2"}, n=3, chests={"c2": chest("red3")})
    st.current = 2  # Kaldern's gang is the third seat
    do(st, "act K1", "force", "move c1")
    assert st.ap[2] == 4
    acts = st.legal_actions(2)
    assert not any(a.split()[0] in ("move", "open", "force", "attack") for a in acts)


def test_each_character_is_activated_once_and_never_again():
    st = position({"E2": "c2", "E3": "d1"})
    do(st, "act E2", "act E3")
    assert "act E2" not in st.legal_actions(0)
    with pytest.raises(IllegalAction, match="already been activated"):
        do(st, "act E2")


def test_no_activation_without_ap():
    st = position({"E2": "c2", "E3": "d1"})
    st.ap[0] = 0
    assert not any(a.startswith("act ") for a in st.legal_actions(0))
    assert "end" in st.legal_actions(0)


def test_fourth_treasure_goes_down_in_an_empty_room():
    st = position({"E2": "c2"}, chests={"c2": chest("key1"), "c3": chest("red1")})
    st.carried["E2"] = ["red2", "red3", "green1"]
    do(st, "act E2", "force")
    assert st.players_to_act() == [0]
    acts = st.legal_actions(0)
    assert all(a.startswith("drop ") for a in acts)
    assert "drop key b3" in acts and "drop key c3" not in acts  # c3 still holds a chest
    assert "drop red c2" not in acts  # c2 holds E2
    do(st, "drop red b3")
    assert len(st.carried["E2"]) == 3 and st.chests["b3"]["sealed"] is False


@pytest.mark.parametrize("counts,value", [({"green": 1}, 2), ({"green": 2}, 5), ({"green": 3}, 8),
                                          ({"red": 3}, 6), ({"key": 2, "scroll": 3, "red": 1}, 15)])
def test_treasure_set_values(counts, value):
    st = position()
    tids = [f"{k}{i + 1}" for k, n in counts.items() for i in range(n)]
    assert st.treasure_value(tids) == value


def test_mission_hands_in_treasures_for_the_reward():
    st = position({"E2": "c2", "E3": "d1"})
    st.missions = ["M07", "M03", "M01"]
    st.mission_deck = ["M15"]
    st.carried["E2"], st.carried["E3"] = ["green1"], ["green2", "red1"]
    do(st, "mission 1")
    assert st.ducats[0] == 9 and st.ap[0] == 4 and st.bank == 340 - 9
    assert sorted(st.handed_in) == ["green1", "green2"] and st.carried["E3"] == ["red1"]
    assert st.missions == ["M15", "M03", "M01"]
    assert "mission 2" not in st.legal_actions(0)  # no green gem left


def test_mission_spirit_test_can_fail():
    st = position({"E2": "c2"})
    st.missions = ["M09", "M03", "M01"]
    st.carried["E2"] = ["scroll1", "scroll2"]
    st.rng = Dice(5)
    do(st, "mission 1")
    assert st.ducats[0] == 0 and st.ap[0] == 4 and st.carried["E2"] == ["scroll1", "scroll2"]


def test_mission_needs_3_ap():
    st = position({"E2": "c2"})
    st.missions = ["M03", "M03", "M03"]
    st.carried["E2"] = ["green1"]
    st.ap[0] = 2
    assert not any(a.startswith("mission") for a in st.legal_actions(0))
