"""Rulebook "Fin du jeu": card points, majority awards and their tie rule, tie-breakers."""
import pytest

from thieves.games.thiefs_market import scoring

from .util import fresh, give


def over(n=3, **options):
    s = fresh(n, **options)
    s.phase, s.current = "over", -1
    s.gold = [0] * n
    return s


@pytest.mark.parametrize("cards,points", [
    (["A11"], 2), (["A15"], 2), (["B3"], 3), (["B14"], 3), (["C5"], 4), (["C6"], 4),
    (["C3"], 6), (["C11"], 6), (["A10"], 1), (["A10", "B4"], 2 + 4), (["B4"], 2),
    (["B4", "B9", "B15"], 12), (["C2"], 0), (["C2", "A1"], 3), (["C2", "A1", "A7", "A13"], 6),
    (["C9", "A2", "A3"], 2), (["C9"], 0), (["C13"], 7), (["C13", "C14"], 14)])
def test_card_points(cards, points):
    s = over()
    give(s, 0, *cards)
    assert scoring.card_points(s, 0) == points


def test_treasure_map_is_worth_less_when_a_rival_owns_a_map_icon():
    s = over()
    give(s, 0, "C13")
    give(s, 1, "C8")                   # Island Estate shows the map icon
    assert scoring.card_points(s, 0) == 5


def test_political_campaign_counts_pairs_of_infamy():
    s = over()
    give(s, 0, "C10")
    s.infamy[0] = 7
    assert scoring.card_points(s, 0) == 3


def test_henchmen_award_most_and_second():
    s = over()
    give(s, 0, "A2", "A3", "A4")
    give(s, 1, "A5", "A6")
    give(s, 2, "A11")
    assert scoring.awards(s)[0] == [3, 1, 0]


def test_executive_assistant_shows_two_henchmen():
    s = over()
    give(s, 0, "B7")
    give(s, 1, "A5")
    assert scoring.awards(s)[0] == [3, 1, 0]


def test_tied_players_get_the_award_minus_one():
    s = over(4)
    give(s, 0, "A2", "A3")
    give(s, 1, "A5", "A6")
    give(s, 2, "A4")
    assert scoring.awards(s)[0] == [2, 2, 0, 0]   # no second place after a tie for first
    s.tableau[3] = []
    give(s, 3, "A8")
    s.tableau[1] = [s.data.index["A5"]]
    assert scoring.awards(s)[0] == [3, 0, 0, 0]   # tie for second: 1 - 1 = 0 each


def test_second_award_after_a_tie_option():
    s = over(4, second_award_after_tie=True)
    give(s, 0, "A2", "A3")
    give(s, 1, "A5", "A6")
    give(s, 2, "A4")
    assert scoring.awards(s)[0] == [2, 2, 1, 0]


def test_gold_award_no_second_place_and_ties():
    s = over(3)
    s.gold = [5, 3, 1]
    assert scoring.awards(s)[1] == [3, 0, 0]
    s.gold = [5, 5, 1]
    assert scoring.awards(s)[1] == [2, 2, 0]


def test_zero_counts_never_score_unless_the_option_says_so():
    s = over(3)
    assert scoring.awards(s) == ([0, 0, 0], [0, 0, 0])
    s = over(3, zero_counts_score=True)
    assert scoring.awards(s) == ([2, 2, 2], [2, 2, 2])


def test_total_adds_cards_infamy_and_awards():
    s = over(3)
    give(s, 0, "A11", "A2")            # 2 NP, one henchman
    s.infamy = [4, 0, 0]
    s.gold = [2, 1, 0]
    assert s.scores() == [2 + 4 + 3 + 3, 0, 0]
    assert scoring.breakdown(s, 0) == {"cards": 2, "infamy": 4, "henchmen_award": 3,
                                       "gold_award": 3, "total": 12}
    assert s.winners() == [0]


def test_tie_breakers_most_cards_then_most_tokens_then_shared():
    s = over(3)
    give(s, 0, "C3")                   # 6 NP + 1 infamy = 7, one card
    give(s, 1, "A11", "B14")           # 2 + 3 NP + 2 infamy = 7, two cards
    s.infamy = [1, 2, 0]
    assert s.scores()[:2] == [7, 7]
    assert s.winners() == [1]          # more cards
    s = over(3)
    give(s, 0, "C3")                   # 6 + 3 infamy = 9, tokens 3
    give(s, 1, "C11")                  # 6 + gold award 3 = 9, tokens 2
    s.infamy = [3, 0, 0]
    s.gold = [0, 2, 0]
    assert s.scores()[:2] == [9, 9]
    assert s.winners() == [0]          # more tokens (infamy + gold)
    s.infamy = [2, 0, 0]
    s.gold = [1, 1, 0]                 # 6 + 2 + 2 vs 6 + 2: not tied any more
    assert s.winners() == [0]
    s.infamy = [1, 1, 0]               # 6 + 1 + 2 each, one card, two tokens each
    assert s.scores()[:2] == [9, 9] and s.winners() == [0, 1]   # the joke rule: shared
