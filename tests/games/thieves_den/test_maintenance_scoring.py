"""Rulebook "Phase Maintenance" (steps 1-7) and "Fin de Partie" (majorities, schemes, ties)."""
import pytest

from thieves.games.thieves_den.rounds import final_scoring

from .helpers import give, loc, place, play, set_thieves, thieving, total_thieves, total_treasures


def all_pass(s):
    while s.phase == "thieving" and not s.pending:
        s.apply_action(s.players_to_act()[0], "pass")


def test_maintenance_steps():
    s = thieving(3)
    market, shop = loc(s, "Market"), loc(s, "Potion Shop")
    place(s, 1, market)
    place(s, 2, shop)
    set_thieves(s, 1, 6)
    play(s, 0, f"loc {market}")          # step 1: goes to player 2 (capped at 6)
    fid = next(f for f in s.row if s.data.fence_needs[f][1] == 0)
    give(s, 1, **s.data.fence_needs[fid][0])
    play(s, 1, f"sell {fid}")           # step 2
    give(s, 2, jewel=1, book=1, fossil=2)
    play(s, 2, "witch jewel")          # step 4
    play(s, 0, "steal potion")         # step 5
    play(s, 1, "pass")
    play(s, 2, "recruit book fossil")  # step 6
    give(s, 0, artifact=1)
    powers_top = [st[-1] for st in s.power_stacks]
    acts = [a for a in s.legal_actions(0) if a.startswith("power") and a.endswith("artifact")]
    play(s, 0, acts[0])                 # step 3
    while s.pending:
        q = s.players_to_act()[0]
        s.apply_action(q, s.legal_actions(q)[-1])
    t0, th0 = total_treasures(s), total_thieves(s)
    all_pass(s)
    assert s.round == 2 and s.phase == "draft"
    assert s.loc_thieves == {} and s.steal_slot == 0 and s.fence_thieves == {}
    assert s.thieves[1] == 6            # the thief from the Market would make 7: back to the Forest
    assert market in s.left[1] and shop in s.left[2] and s.above == [[], [], []]
    assert fid in s.right[1] and s.fences_above == [[], [], []]
    assert s.witch_used == [False] * 5 and sum(s.recruit_slot.values()) == 0
    assert s.power_paid == [None] * 3 and all(t not in st for t, st in zip(powers_top, s.power_stacks))
    assert total_treasures(s) == t0 and total_thieves(s) == th0
    assert sum(t0.values()) == 35 and th0 == 18


def test_two_player_neutral_cards_return_under_the_deck():
    s = thieving(2)
    c = loc(s, "Market")
    place(s, None, c)
    play(s, 0, f"loc {c}")
    assert s.treasures[0]["jewel"] == 2 and s.thieves == [2, 3]   # nobody gets a bonus
    forest = s.forest
    all_pass(s)
    assert s.neutral == [] and c not in s.left[0] + s.left[1]
    assert c in s.loc_deck and s.forest == forest + 1


def test_direction_tile_goes_to_lowest_prestige_and_flips():
    s = thieving(3)
    s.prestige = [5, 2, 4]
    all_pass(s)
    assert s.holder == 1 and s.face == "2" and s.direction == -1


def test_direction_tile_tie_fewest_treasures_and_thieves():
    s = thieving(3)
    s.prestige = [1, 1, 4]
    give(s, 0, book=1)
    all_pass(s)
    assert s.holder == 1


def test_direction_tile_full_tie_holder_chooses():
    s = thieving(4)
    s.holder = 2
    s.turn = 2
    s.prestige = [3, 0, 5, 0]
    all_pass(s)
    assert s.phase == "handover" and s.players_to_act() == [2]
    assert s.legal_actions(2) == ["give 2", "give 4"]
    play(s, 2, "give 4")
    assert s.holder == 3 and s.face == "2" and s.phase == "draft" and s.round == 2


def test_game_ends_after_round_three():
    s = thieving(3)
    s.round = 3
    all_pass(s)
    assert s.is_terminal() and s.final is not None and s.legal_actions(0) == []


def fences_of(s, ftype, k):
    return [f.id for f in s.data.fences.values() if f.type == ftype][:k]


def test_fence_majorities_strict_and_ties_score_nothing():
    s = thieving(3)
    s.scheme = ["S01", "S02", "S03"]
    s.right[0] = fences_of(s, "noble", 2) + fences_of(s, "peddler", 1)
    s.right[1] = fences_of(s, "noble", 4)[2:3] + fences_of(s, "peddler", 2)[1:2]
    s.right[2] = fences_of(s, "tinkerer", 1)
    final_scoring(s)
    vals = s.data.board.majority.values
    # noble: 2 vs 1 -> player 1; peddler: 1 vs 1 tie -> nobody; tinkerer: alone -> player 3
    assert s.final["majority"] == [vals["noble"], 0, vals["tinkerer"]]


@pytest.mark.parametrize("sets", [0, 1, 2, 3, 4, 5])
def test_scheme_sets(sets):
    s = thieving(2)
    s.scheme = ["S01", "S02"]     # village + shadow valley
    vil = [c.id for c in s.data.locations.values() if c.type == "village"]
    sha = [c.id for c in s.data.locations.values() if c.type == "shadow_valley"]
    s.left[0] = vil[:sets] + sha[:sets] + sha[sets:sets + 2]   # extra shadow valleys make no set
    final_scoring(s)
    vals = s.data.board.scheme_sets.values
    assert s.final["sets"][0] == sets
    assert s.final["scheme"][0] == vals[min(sets, 4)]
    assert s.prestige[0] == vals[min(sets, 4)]


def test_final_tie_breaker_and_shared_victory():
    s = thieving(3)
    s.scheme = ["S01", "S02", "S03"]
    s.prestige = [10, 10, 3]
    give(s, 1, book=1)
    final_scoring(s)
    assert s.winners() == [1]
    s2 = thieving(3)
    s2.scheme = ["S01", "S02", "S03"]
    s2.prestige = [10, 10, 3]
    final_scoring(s2)
    assert s2.winners() == [0, 1]
