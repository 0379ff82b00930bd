"""Rulebook §"Tableau d'aventure", §"Fin de la partie": turn track, events, alarm, end, scoring."""
import pytest

from thieves.games.cadwallon import ADVENTURES

from .helpers import GAME, Dice, do, nocards, position


def quiet_turns(st, until_round=None):
    """Deploy, then let every turn pass quietly (militia stays) up to a round or the end."""
    while not st.is_terminal():
        if until_round is not None and st.round >= until_round and st.phase == "militia" \
                and st.current == st.first and st.turns_done == 0:
            return
        p = st.players_to_act()[0]
        acts = st.legal_actions(p)
        for pref in ("mm stay", "militia kornak", "end"):
            if pref in acts:
                do(st, pref)
                break
        else:
            do(st, acts[0])


def alarm_round(adv):
    return next(e.round for e in adv.events if e.effect == "alarm")


@pytest.mark.parametrize("adventure", ADVENTURES)
def test_alarm_sounds_on_its_round_and_game_ends_after_the_track(adventure):
    st = GAME.new_game(3, 1, {"adventure": adventure})
    adv = st.adv
    ar = alarm_round(adv)
    quiet_turns(st, until_round=ar - 1)
    assert st.round == ar - 1 and not st.alarm and not st.portcullis
    quiet_turns(st, until_round=ar)
    assert st.round == ar and st.alarm
    first_drop = next(e.zones for e in adv.events if e.effect == "alarm")
    assert set(first_drop) <= set(st.portcullis)
    quiet_turns(st, until_round=adv.track)
    assert st.round == adv.track and not st.is_terminal()
    quiet_turns(st)
    assert st.is_terminal() and st.round == adv.track
    # everybody stayed inside: 3 ducats lost per character, never below 0
    assert st.scores() == [0.0, 0.0, 0.0]


def test_track_length_is_the_number_of_rounds():
    st = GAME.new_game(2, 0, {"adventure": "hue_and_cry"})
    seen = set()
    while not st.is_terminal():
        seen.add(st.round)
        quiet_turns(st, until_round=st.round + 1)
    assert seen == set(range(1, 10))


def test_dukes_treasure_vault_ducats_and_fines():
    st = GAME.new_game(2, 0, {"adventure": "dukes_treasure"})
    vault = st.data.role["vault"]
    assert st.room_ducats == {vault: 4} and st.bank == 336
    st = position({"N4": "c6"}, adventure="dukes_treasure")
    st.phase, st.militia_left = "militia", 1
    st.hands, st.ducats = [[], []], [5, 5]
    st.rng = Dice(3, 6, 6, 1, 1)
    do(st, "militia kornak", "mm c6")
    nocards(st)
    assert st.ducats == [5, 3] and st.room_ducats[vault] == 6 and st.bank == 336
    # a thief who reaches the vault picks the pile up (reconstructed)


def test_loose_ducats_are_picked_up_by_a_thief():
    st = position({"E2": "e3", "valrut": "g2"}, adventure="dukes_treasure")
    st.pos.pop("valrut")
    st.pos["valrut"] = "h1"
    do(st, "act E2", "move g3")
    assert st.ducats[0] == 4 and st.data.role["vault"] not in st.room_ducats


def test_heroines_guard_a_treasure_and_can_be_robbed():
    st = GAME.new_game(2, 0, {"adventure": "heroines"})
    assert st.pos["sienne"] == "c2" and st.pos["isabeau"] == "g8"
    assert len(st.carried["sienne"]) == 1 and len(st.box) == 2
    loot = st.carried["sienne"][0]
    st = position({"E3": "c1"}, adventure="heroines")
    st.carried["sienne"] = [loot]
    st.hands = [[], []]
    st.rng = Dice(6, 6, 1, 1, 1)  # the heroine rolls 3 dice
    do(st, "act E3", "attack sienne")
    nocards(st)
    assert st.carried["E3"] == [loot]


def test_heroine_rolls_three_dice_and_her_flights_go_to_the_next_player():
    st = position({"E3": "c1"}, adventure="heroines")
    st.hands = [[], []]
    st.ducats = [4, 0]
    st.rng = Dice(5, 5, 1, 1, 6)
    do(st, "act E3", "attack sienne")
    nocards(st)
    assert st.pos["sienne"] == "c2"
    assert st.ducats == [4, 0]  # a heroine takes nothing
    assert st.players_to_act() == [1] or st.pos["E3"] != "c2"


def test_market_day_civilians_block_until_they_go_home():
    st = GAME.new_game(2, 0, {"adventure": "market_day"})
    assert sum(1 for k in st.tokens.values() if k == "civilian") == 8
    st2 = position({"E2": "e4"}, adventure="market_day")
    st2.tokens = {"e5": "civilian"}
    do(st2, "act E2")
    assert "move e5" not in st2.legal_actions(0) and "move e6" not in st2.legal_actions(0)
    quiet_turns(st, until_round=4)
    assert "civilian" not in st.tokens.values()


def test_dead_walk_zombies_until_round_8():
    st = GAME.new_game(2, 0, {"adventure": "dead_walk"})
    assert list(st.tokens.values()).count("zombie") == 5
    quiet_turns(st, until_round=7)
    assert list(st.tokens.values()).count("zombie") == 5
    quiet_turns(st, until_round=8)
    assert not st.tokens


def test_lockdown_reseals_every_treasure():
    st = GAME.new_game(2, 0, {"adventure": "lockdown"})
    quiet_turns(st, until_round=4)
    assert st.chests and all(c["sealed"] for c in st.chests.values())


def test_guild_demands_new_missions_and_bonus():
    st = GAME.new_game(2, 0, {"adventure": "guild_demands"})
    before = list(st.missions)
    quiet_turns(st, until_round=3)
    assert st.missions != before and set(before) <= set(st.mission_discard)
    st2 = position({"E2": "c2"}, adventure="guild_demands")
    st2.missions = ["M03", "M01", "M02"]
    st2.carried["E2"] = ["green1"]
    do(st2, "mission 1")
    assert st2.ducats[0] == 4 + 2


def test_hue_and_cry_two_militia_moves_after_the_alarm():
    st = GAME.new_game(2, 0, {"adventure": "hue_and_cry"})
    quiet_turns(st, until_round=3)
    assert st.alarm and st.militia_left == 2
    quiet_turns(st, until_round=7)
    assert len(st.portcullis) == 9
    quiet_turns(st, until_round=8)
    assert st.room_ducats.get(st.data.role["magister"]) == 5


# -- end of the game and scores ---------------------------------------------------------
def test_final_score_escaped_sets_ducats_and_penalty():
    st = position({"E2": "c2", "N4": "d1"})
    st.escaped = ["E1", "E3", "E4", "N1", "N2", "N3"]
    for c in st.escaped:
        st.pos.pop(c, None)
    st.banked = [["green1", "green2", "red1"], ["key1"]]
    st.carried["E2"] = ["scroll1", "scroll2", "scroll3"]  # worthless: still inside
    st.ducats = [4, 1]
    # P1: 4 + 5 + 2 - 3 = 8; P2: 1 + 2 - 3 = 0
    assert st.scores() == [8.0, 0.0]


def test_score_never_below_zero():
    st = position({"E2": "c2", "E3": "c1", "N4": "d1"})
    st.ducats = [2, 0]
    assert st.scores()[0] == 0.0


def test_tie_break_most_escaped_characters():
    st = position({"E2": "c2", "N4": "d1"})
    st.over = True
    st.escaped = ["E1", "N1", "N2"]
    st.ducats = [9, 9]
    assert st.winners() == [1]
    st.escaped = ["E1", "N1"]
    assert st.winners() == [0, 1]


def test_game_ends_when_every_thief_has_left():
    st = position({"E2": "d1"}, n=2)
    st.escaped = ["E1", "E3", "E4", "N1", "N2", "N3", "N4"]
    st.alarm = True
    st.carried["E2"] = ["red1"]
    do(st, "act E2", "leave", "end")
    assert st.is_terminal() and st.scores()[0] == 2.0


def test_a_robbed_heroine_has_nothing_more_to_give():
    st = position({"E3": "c1"}, adventure="heroines")
    st.carried["sienne"] = []
    st.hands, st.ducats = [[], []], [0, 0]
    st.rng = Dice(6, 6, 1, 1, 1)
    bank = st.bank
    do(st, "act E3", "attack sienne")
    nocards(st)
    assert st.ducats == [0, 0] and st.bank == bank and st.carried["E3"] == []
