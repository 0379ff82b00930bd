"""Interrupts: Niggling injury during an enemy thief's move (designer's ruling) and the
re-roll cards (Second chance, Jinx) after a roll."""
import pytest

from thieves.core.errors import IllegalAction

from .helpers import Dice, do, position


def deal(st, *hands):
    for p, h in enumerate(hands):
        st.hands[p] = sorted(h)
    st._legal_cache = None
    return st


# -- Niggling injury --------------------------------------------------------------------------
def test_injury_is_played_during_the_targets_move_and_the_move_is_plotted_again():
    st = deal(position({"E2": "d1"}), [], ["niggling_injury"])
    do(st, "act E2", "move h1")  # 4 zones: d1-e1-f1-g1-h1
    # the move is interrupted: the holder decides now, during player 0's turn
    assert st.players_to_act() == [1] and st.pos["E2"] == "d1"
    assert st.legal_actions(1) == ["no", "play niggling_injury"]
    assert st.observation(1)["pending"] == {"kind": "injury", "player": 1, "char": "E2", "dest": "h1"}
    do(st, "play niggling_injury")
    assert st.discard[-1] == "niggling_injury" and st.hands[1] == []
    # Movement 4 - 2 = 2: h1 is too far, player 0 plots the move again (the AP is spent)
    assert st.players_to_act() == [0] and st.ap[0] == 6
    acts = st.legal_actions(0)
    assert "move h1" not in acts and "move g1" not in acts
    assert {"move f1", "move e2", "stay"} <= set(acts)
    with pytest.raises(IllegalAction, match="plot"):
        do(st, "move h1")
    do(st, "move f1")
    assert st.pos["E2"] == "f1" and not st.injured and not st.queue
    assert not any(a.startswith("move") for a in st.legal_actions(0))  # the move is used


def test_the_window_is_offered_without_the_card_so_a_pass_reveals_nothing():
    st = deal(position({"E2": "d1"}), [], ["fury"])
    do(st, "act E2", "move h1")
    assert st.players_to_act() == [1] and st.legal_actions(1) == ["no"]
    do(st, "no")
    assert st.pos["E2"] == "h1" and st.players_to_act() == [0]


def test_no_window_when_the_card_could_change_nothing():
    st = deal(position({"E2": "d1"}), [], ["niggling_injury"])
    do(st, "act E2", "move e1")  # 1 zone, and 3 Movement points spare
    assert st.pos["E2"] == "e1" and not st.queue
    st = deal(position({"E2": "d1"}), [], [])  # an empty hand is public: nobody is asked
    do(st, "act E2", "move h1")
    assert st.pos["E2"] == "h1" and not st.queue


def test_injury_at_the_end_of_the_move_takes_the_point_an_attack_needs():
    st = deal(position({"E2": "d1", "N4": "g1"}), [], ["niggling_injury"])
    do(st, "act E2", "move f1")  # 2 zones: still within the cut Movement
    do(st, "play niggling_injury")
    assert st.pos["E2"] == "f1" and st.players_to_act() == [0]
    assert "attack N4" not in st.legal_actions(0)  # no Movement point left to step in
    st = deal(position({"E2": "d1", "N4": "g1"}), [], ["niggling_injury"])
    do(st, "act E2", "move f1", "no")
    assert "attack N4" in st.legal_actions(0)


def test_injury_can_stop_a_character_leaving():
    st = deal(position({"E2": "b3"}), [], ["niggling_injury"])
    st.alarm = True
    do(st, "act E2", "leave")  # b3-a3-a2 and one point to step off: 3 of 4
    assert st.players_to_act() == [1]
    do(st, "play niggling_injury")
    acts = st.legal_actions(0)
    assert "leave" not in acts and "move a2" in acts and "stay" in acts
    do(st, "stay")
    assert st.pos["E2"] == "b3" and "E2" not in st.escaped and st.ap[0] == 6


def test_windows_go_clockwise_and_one_injury_per_move():
    st = deal(position({"E2": "d1"}, n=3), [], ["niggling_injury"], ["niggling_injury"])
    do(st, "act E2", "move h1")
    assert st.players_to_act() == [1]
    do(st, "no")
    assert st.players_to_act() == [2]
    do(st, "play niggling_injury")
    assert st.players_to_act() == [0] and st.hands[1] == ["niggling_injury"]
    st = deal(position({"E2": "d1"}, n=3), [], ["niggling_injury"], ["niggling_injury"])
    do(st, "act E2", "move h1", "play niggling_injury")
    assert st.players_to_act() == [0] and st.hands[2] == ["niggling_injury"]


# -- re-roll cards in a fight -----------------------------------------------------------------
def fight(hands, *dice):
    st = deal(position({"E3": "c5", "N4": "d5"}), *hands)
    st.ducats = [5, 5]
    do(st, "act E3", "attack N4")
    st.rng = Dice(*dice)
    return st


def test_second_chance_rerolls_your_own_dice_after_the_roll():
    st = fight([["second_chance"], []], 1, 1, 3, 2, 6, 1)
    assert st.legal_actions(0) == ["nocard"]  # not a card for before the dice
    do(st, "nocard", "nocard")
    # the attacker is losing (1 against 3): its side may now play a re-roll card
    assert st.players_to_act() == [0] and st.legal_actions(0) == ["nocard", "card second_chance"]
    do(st, "card second_chance")
    assert st.ducats == [7, 3] and not st.rng.rolls


def test_jinx_makes_the_winning_side_roll_again():
    st = fight([[], ["jinx"]], 6, 1, 2, 2, 1, 1)
    do(st, "nocard", "nocard")
    assert st.players_to_act() == [1] and st.legal_actions(1) == ["nocard", "card jinx"]
    do(st, "card jinx")
    assert st.ducats == [3, 7]  # 1 against 2 now: the defender wins


def test_the_winning_side_gets_no_window_and_the_losing_side_may_pass():
    st = fight([["second_chance"], ["second_chance"]], 6, 1, 2, 2)
    do(st, "nocard", "nocard")
    assert st.players_to_act() == [1]  # only the loser is asked
    do(st, "nocard")
    assert st.ducats == [7, 3] and st.hands == [["second_chance"], ["second_chance"]]


def test_one_card_per_side_per_fight():
    st = fight([["fury", "second_chance"], []], 1, 1, 1, 3, 2)
    do(st, "card fury", "nocard")
    assert st.ducats == [3, 7] and st.hands[0] == ["second_chance"]  # no second card


def test_both_sides_may_answer_each_other():
    st = fight([["second_chance"], ["jinx"]], 1, 1, 3, 2, 6, 1, 1, 1)
    do(st, "nocard", "nocard", "card second_chance")  # attacker 6 against 3
    assert st.players_to_act() == [1]
    do(st, "card jinx")  # attacker rolls again: 1 against 3
    assert st.ducats == [3, 7]


def test_no_reroll_helps_a_militiaman():
    st = position({"N4": "c6"})
    deal(st, ["jinx", "second_chance"], ["fury"])
    st.phase, st.militia_left = "militia", 1
    st.ducats = [5, 5]
    st.rng = Dice(3, 2, 2, 6, 1)
    do(st, "militia kornak", "mm c6", "nocard")
    # the militiaman is losing, but his controller may play no card for him
    assert st.queue[0]["kind"] == "flee" and st.players_to_act() == [1]


# -- Jinx on an opponent's roll outside fights --------------------------------------------------
def test_jinx_on_a_successful_opening():
    chests = {"c2": {"t": "key1", "sealed": False}}
    st = deal(position({"E2": "c2"}, chests=chests), [], ["jinx"])
    st.rng = Dice(3, 6)
    do(st, "act E2", "open")
    assert st.players_to_act() == [1] and st.legal_actions(1) == ["no", "play jinx"]
    do(st, "play jinx")
    assert st.carried["E2"] == [] and "c2" in st.chests and st.ducats[0] == 0
    st = deal(position({"E2": "c2"}, chests=dict(chests)), [], ["jinx"])
    st.rng = Dice(3)
    do(st, "act E2", "open", "no")
    assert st.carried["E2"] == ["key1"] and st.ducats[0] == 1
    st = deal(position({"E2": "c2"}, chests=dict(chests)), [], ["jinx"])
    st.rng = Dice(5)
    do(st, "act E2", "open")  # a failure needs no jinx: no window
    assert not st.queue and st.players_to_act() == [0]


def test_jinx_on_a_mission_spirit_test():
    st = deal(position({"E2": "c2"}), [], ["jinx"])
    st.missions = ["M09", "M03", "M01"]
    st.carried["E2"] = ["scroll1", "scroll2"]
    st.rng = Dice(2, 6)
    do(st, "mission 1", "play jinx")
    assert st.ducats[0] == 0 and st.carried["E2"] == ["scroll1", "scroll2"] and st.ap[0] == 4
    assert st.missions[0] == "M09"


def test_run_played_during_the_move_can_answer_the_injury():
    """Run is played during your own character's move (fact sheet §6), so after a Niggling
    injury the mover may still add its 2 Movement before plotting the move again."""
    st = deal(position({"E2": "d1"}), ["run"], ["niggling_injury"])
    do(st, "act E2", "move h1", "play niggling_injury")
    assert "play run" in st.legal_actions(0) and "move h1" not in st.legal_actions(0)
    do(st, "play run")
    assert st.players_to_act() == [0] and "move h1" in st.legal_actions(0)
    do(st, "move h1")
    assert st.pos["E2"] == "h1" and st.hands[0] == [] and not st.queue


def test_windows_reveal_nothing_about_the_hand():
    """The same windows open, and the other players see the same thing, whether the asked
    player holds the interrupt card or another card."""
    views = []
    for card in ("niggling_injury", "fury"):
        st = deal(position({"E2": "d1"}), [], [card])
        do(st, "act E2", "move h1")
        views.append((st.players_to_act(), st.observation(0), st.observation(None)))
    assert views[0] == views[1]
    views = []
    for card in ("jinx", "feint"):
        st = fight([[], [card]], 6, 1, 2, 2)
        do(st, "nocard", "nocard")
        views.append((st.players_to_act(), st.observation(0)))
    assert views[0] == views[1]


# -- windows at a table -------------------------------------------------------------------------
def test_a_window_let_go_reads_the_same_to_others_whatever_the_hand():
    """The pass is logged for everybody in the same words; only its player reads
    whether the card was in hand."""
    lines = {}
    for held in (True, False):
        st = deal(position({"E2": "d1"}), [], ["niggling_injury"] if held else ["jinx"])
        do(st, "act E2", "move h1", "no")
        pres = {v: st.game.presentation(v, ["Ann", "Bob"], "en") for v in (0, 1, None)}
        lines[held] = {v: p.log(st.visible_events(v)) for v, p in pres.items()}
    assert lines[True][0] == lines[False][0] and lines[True][None] == lines[False][None]
    assert "Bob lets " in lines[True][0][-2] and lines[True][0][-2].endswith(" move on.")
    assert lines[False][1][-2].endswith("move on (no Niggling injury in hand).")
    assert lines[True][1][-2] == lines[True][0][-2]


def test_reaction_windows_are_named_from_public_facts_only():
    """``reaction_pass`` (what a table answers for a player who switched reactions
    off) is legal, and the same on every re-deal of what others cannot see."""
    import random

    from thieves import load_game

    game = load_game("cadwallon")
    seen = 0
    for seed in range(3):
        st = game.new_game(3, seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal() and st.ply < 600:
            p = st.players_to_act()[0]
            answer = st.reaction_pass(p)
            if answer is not None:
                seen += 1
                assert answer in st.legal_actions(p)
                for q in range(3):
                    if q != p:
                        assert st.determinize(q, seed + q).reaction_pass(p) == answer
            acts = st.legal_actions(p)
            st.apply_action(p, rng.choice(acts))
    assert seen > 10
