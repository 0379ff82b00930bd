"""Rulebook "Fin du tour" (conversions, market refill A -> B -> C) and "Fin du jeu"."""
from .util import buy_phase, card, end_purchases, fresh, legal, play, to_market


def test_bags_become_gold_and_purple_faces_infamy_after_purchases():
    s = buy_phase(["YYPT", "Y", "RB"], market=(), gold=[0, 0, 0])
    end_purchases(s)
    assert s.gold == [2, 1, 0] and s.infamy == [1, 0, 0]
    assert s.phase == "split" and s.round == 2


def test_gold_from_bags_cannot_be_spent_in_the_same_round():
    s = buy_phase(["YYT", "B", "G"], market=("A11",), gold=[0, 0, 0])
    assert "buy A11" not in legal(s)   # the bag dice are not gold yet


def test_imbalanced_scales_and_island_estate_add_one_per_round():
    s = buy_phase(["YYYPPT", "Y", "P"], market=(), gold=[0, 0, 0],
                  cards={0: ["B11"], 2: ["C8"]})
    end_purchases(s)
    assert s.gold == [4, 1, 0]        # 3 bags + 1 (only one extra however many dice)
    assert s.infamy == [2, 0, 2]      # player 3 turns in one purple: 1 + 1
    s = buy_phase(["RT", "B", "G"], market=(), gold=[0, 0, 0], cards={0: ["B11", "C8"]})
    end_purchases(s)
    assert s.gold[0] == 0 and s.infamy[0] == 0   # no bag or purple die, no bonus


def test_all_dice_return_and_the_token_holder_starts_the_next_round():
    s = buy_phase(["R", "BT", "G"], token=1, market=())
    end_purchases(s)
    assert s.current == 1 and s.start_player == 1 and s.token == -1
    assert sum(s.center) == s.num_dice and not any(map(any, s.piles))


def test_bought_cards_are_replaced_from_their_deck():
    s = fresh(3)
    a_left = len(s.decks[0])
    bought = s.rows[0][:3]
    for c in bought:
        s.rows[0].remove(c)
    assert not s._refill()
    assert len(s.rows[0]) == 5 and len(s.decks[0]) == a_left - 3


def test_deck_a_runs_out_a_row_of_five_b_cards_opens():
    s = fresh(3)
    s.rows[0] = s.rows[0][:2]          # 3 A cards bought
    s.decks[0] = s.decks[0][:1]        # only one A card left
    b_before = len(s.decks[1])
    assert not s._refill()
    assert len(s.rows[0]) == 3 and s.decks[0] == []      # the last A card, then A stays short
    assert len(s.rows[1]) == 5 and len(s.decks[1]) == b_before - 5
    assert s.active_row == 1


def test_rulebook_example_old_row_cards_stay_but_are_not_replaced():
    s = fresh(3)
    s.rows[0] = s.rows[0][:2]
    s.decks[0] = []
    s._refill()
    assert len(s.rows[0]) == 2 and len(s.rows[1]) == 5
    s.rows[0].pop()                    # an A card is bought: not replaced
    s.rows[1].pop()                    # a B card is bought: replaced from deck B
    s._refill()
    assert len(s.rows[0]) == 1 and len(s.rows[1]) == 5


def test_a_deck_emptied_exactly_does_not_open_the_next_row_yet():
    s = fresh(3)
    s.rows[0] = s.rows[0][:3]
    s.decks[0] = s.decks[0][:2]
    assert not s._refill()
    assert s.decks[0] == [] and s.rows[1] == [] and s.active_row == 0
    s.rows[0].pop()
    s._refill()
    assert s.active_row == 1 and len(s.rows[1]) == 5


def test_deck_b_runs_out_a_row_of_c_opens_then_c_ends_the_game():
    s = fresh(3)
    s.active_row = 1
    s.rows = [[], s.decks[1][:4], []]
    s.decks[1] = []
    c_before = len(s.decks[2])
    assert not s._refill()
    assert s.active_row == 2 and len(s.rows[2]) == 5 and len(s.decks[2]) == c_before - 5
    s.decks[2] = s.decks[2][:1]
    s.rows[2] = s.rows[2][:3]          # 2 C cards bought, only 1 left in deck C
    assert s._refill()                 # the game ends


def test_game_ends_at_end_of_round_after_conversions():
    s = buy_phase(["YPT", "Y", "P"], market=(), gold=[0, 0, 0])
    s.active_row = 2
    s.rows = [[], [], s.decks[2][:4]]
    s.decks = [[], [], []]
    s.rows[2].pop()                    # rows[2] short by one and deck C empty
    end_purchases(s)
    assert s.is_terminal() and s.players_to_act() == []
    assert s.gold == [1, 1, 0] and s.infamy == [1, 0, 1]
    assert s.winners()


def test_buying_an_old_row_card_never_ends_the_game():
    s = buy_phase(["WWT", "B", "G"], market=("A11",))
    s.active_row = 2
    s.rows[2] = s.decks[2][:5]
    s.decks[2] = []
    play(s, "buy A11")
    end_purchases(s)
    assert not s.is_terminal() and card(s, "A11") in s.tableau[0]


def test_option_deal_last_b_cards():
    # Rulebook "Fin du tour": "Si le deck B n'a plus assez de cartes, ajoutez 5 cartes à partir
    # du deck C". Default: the last B cards are dealt first (as deck A's); the option keeps them.
    for deal, row_b, left_b in ((True, 4, 0), (False, 3, 1)):
        s = fresh(3, deal_last_b_cards=deal)
        s.active_row = 1
        s.rows = [[], s.decks[1][:3], []]   # 2 B cards bought
        s.decks[1] = s.decks[1][3:4]        # one B card left
        assert not s._refill()
        assert len(s.rows[1]) == row_b and len(s.decks[1]) == left_b
        assert s.active_row == 2 and len(s.rows[2]) == 5


def test_option_game_end_all_bought():
    # Literal French "Fin du jeu": deck C cannot replace *all* the cards bought this round.
    for option, over in (("c_row", False), ("all_bought", True)):
        s = buy_phase(["WWT", "BR", "G"], market=("A11",))
        s.options = {**s.options, "game_end": option}
        s.active_row = 2
        to_market(s, "C5", row=2)          # Fur Coat (B R)
        others = [c for c in s.decks[2] if c != card(s, "C5")]
        s.rows[2] += others[:4]
        s.decks[2] = others[4:5]           # one C card left: enough for the C row
        play(s, "buy A11", "end", "buy C5")  # an old A card and a C card: two bought
        end_purchases(s)
        assert s.is_terminal() is over
