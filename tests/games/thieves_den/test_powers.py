"""Rulebook "Utiliser une tuile Pouvoir" and "Clarifications des Tuiles Pouvoir": all 12 tiles."""
import pytest

from thieves.core.errors import IllegalAction

from .helpers import give, loc, place, play, thieving, total_thieves, total_treasures


def with_power(s, pid, slot=0):
    """Make tile pid the face-up tile of stack ``slot`` (swapping it with the one there)."""
    top = s.power_stacks[slot][-1]
    for st in s.power_stacks:
        if pid in st:
            st[st.index(pid)] = top
            break
    else:
        pass   # pid was in the box
    s.power_stacks[slot][-1] = pid
    s._legal_cache = None


def test_power_costs_one_treasure_once_per_round():
    s = thieving(3)
    with_power(s, "P05")   # +3 prestige
    give(s, 0, book=1)
    give(s, 1, jewel=1)
    assert "power 1 book" in s.legal_actions(0)
    play(s, 0, "power 1 book")
    assert s.prestige[0] == 3 and s.power_paid[0] == "book" and s.treasures[0]["book"] == 0
    assert not any(a.startswith("power 1") for a in s.legal_actions(1))
    with pytest.raises(IllegalAction, match="power"):
        s.apply_action(1, "power 1 jewel")
    # maintenance step 3: payment to the City, the top tile to the box, the next one revealed
    for p in (1, 2, 0):
        play(s, p, "pass")
    assert s.power_paid == [None, None, None]
    assert "P05" not in s.power_stacks[0] and len(s.power_stacks[0]) == 2


def test_power_needs_a_treasure():
    s = thieving(3)
    assert not any(a.startswith("power") for a in s.legal_actions(0))


def test_recall_takes_thief_and_card_goes_on_deck():
    s = thieving(3)
    with_power(s, "P01")
    market = loc(s, "Market")
    place(s, 1, market)
    play(s, 0, f"loc {market}")
    give(s, 1, book=1)
    play(s, 1, "power 1 book")
    assert s.legal_actions(1) == [f"recall {market}"]
    play(s, 1, f"recall {market}")
    assert market not in s.above[1] and s.loc_deck[-1] == market and market not in s.loc_thieves
    assert s.thieves[1] == 3 + 2 + 1


def test_extra_thief_on_an_occupied_space():
    s = thieving(3)
    with_power(s, "P02")
    market = loc(s, "Market")
    place(s, 1, market)
    play(s, 0, f"loc {market}")
    play(s, 1, "pass")   # a passed player's card may still be used; the bonus is still paid
    give(s, 2, book=1)
    forest = s.forest
    play(s, 2, "power 1 book")
    assert f"loc {market}" in s.legal_actions(2)
    play(s, 2, f"loc {market}")
    # 1 from the Forest for the space, 2 for the owner bonus, 1 back (owner over 6)
    assert s.loc_thieves[market] == 2 and s.forest == forest - 1 - 2 + 1 and s.thieves[1] == 6
    assert s.treasures[2]["jewel"] == 2 and s.thieves[2] == 3


def test_extra_thief_sells_to_an_opponents_fence_without_taking_it():
    s = thieving(3)
    with_power(s, "P02")
    fid = next(f for f in s.row if s.data.fence_needs[f][1] == 0)
    spec, _ = s.data.fence_needs[fid]
    give(s, 0, **spec)
    play(s, 0, f"sell {fid}")
    give(s, 1, **spec)
    give(s, 1, potion=1)
    play(s, 1, "power 1 potion", f"sell {fid}")
    assert fid in s.fences_above[0] and fid not in s.fences_above[1]
    assert s.prestige[1] == s.data.fences[fid].prestige and s.fence_thieves[fid] == 2


def test_double_action():
    s = thieving(3)
    with_power(s, "P03")
    a, b = loc(s, "Market"), loc(s, "Potion Shop")
    place(s, 1, a)
    place(s, 2, b)
    give(s, 0, book=1)
    play(s, 0, "power 1 book", f"loc {a}")
    assert s.players_to_act() == [0] and "done" not in s.legal_actions(0)   # mandatory
    play(s, 0, f"loc {b}")
    assert s.thieves[0] == 1 and s.treasures[0]["jewel"] == 2 and s.treasures[0]["potion"] == 3
    assert s.players_to_act() == [1]


def test_refresh_fences_then_optional_action():
    s = thieving(3)
    with_power(s, "P04")
    give(s, 0, book=1)
    old = list(s.row)
    tops = s.fence_deck[-3:]
    play(s, 0, "power 1 book", f"return {old[0]}", f"return {old[1]}", f"return {old[2]}")
    assert s.fence_deck[:3] == [old[2], old[1], old[0]]
    assert set(s.row[:3]) == set(tops) and s.row[3:] == old[3:]
    assert s.legal_actions(0)[-1] == "done"
    play(s, 0, "done")
    assert s.players_to_act() == [1]


def test_prestige_treasure_reinforcements_ransom():
    s = thieving(3)
    give(s, 0, book=4)
    with_power(s, "P06", 0)
    with_power(s, "P12", 1)
    with_power(s, "P08", 2)
    play(s, 0, "power 1 book", "take potion")
    assert s.treasures[0]["potion"] == 1
    play(s, 1, "pass")
    play(s, 2, "pass")
    play(s, 0, "power 2 book")
    assert s.thieves[0] == 6      # 3 + 3
    play(s, 0, "power 3 book", "take jewel", "take fossil")
    assert s.thieves[0] == 4 and s.treasures[0]["jewel"] == 1 and s.treasures[0]["fossil"] == 1


def test_new_location_is_yours():
    s = thieving(3)
    with_power(s, "P07")
    top = next(c for c in reversed(s.loc_deck) if not s.data.locations[c].instant
               and s.data.locations[c].ability[0].kind == "gain")
    s.loc_deck.remove(top)
    s.loc_deck.append(top)
    give(s, 0, book=1)
    play(s, 0, "power 1 book")
    assert top in s.above[0]
    assert f"loc {top}" in s.legal_actions(0)


def test_relocate_moves_a_thief_and_returns_it():
    s = thieving(3)
    with_power(s, "P09")
    a, b = loc(s, "Market"), loc(s, "Potion Shop")
    place(s, 1, a)
    place(s, 2, b)
    play(s, 0, f"loc {a}")          # player 1's thief on player 2's Market
    give(s, 1, book=1)
    play(s, 1, "power 1 book", f"move {a} {b}")
    assert s.treasures[1]["potion"] == 3
    assert a not in s.loc_thieves and b not in s.loc_thieves   # the moved thief is back on a board
    assert s.thieves[1] == 3 + 2 + 1
    assert total_thieves(s) == 18


def test_swap_locations_thieves_stay():
    s = thieving(3)
    with_power(s, "P10")
    a, b = loc(s, "Market"), loc(s, "Potion Shop")
    place(s, 0, a)
    place(s, 1, b)
    play(s, 0, f"loc {a}")
    give(s, 1, book=1)
    assert "power 1 book" in s.legal_actions(1)
    play(s, 1, "power 1 book", f"swap {b} {a}")
    assert s.above[1] == [a] and s.above[0] == [b] and s.loc_thieves[a] == 1


def test_swap_not_with_a_passed_player():
    s = thieving(3)
    with_power(s, "P10")
    place(s, 0, loc(s, "Market"))
    place(s, 1, loc(s, "Potion Shop"))
    give(s, 1, book=1)
    play(s, 0, "pass")
    assert not any(x.startswith("power 1") for x in s.legal_actions(1))


def test_owner_cut_takes_the_bonus():
    s = thieving(3)
    with_power(s, "P11")
    market = loc(s, "Market")
    place(s, 1, market)
    give(s, 0, book=1)
    play(s, 0, "power 1 book", f"loc {market}")
    assert s.thieves[0] == 3 - 1 + 2 and s.thieves[1] == 3
    # on your own card you take the bonus too
    s2 = thieving(3)
    with_power(s2, "P11")
    place(s2, 0, market)
    give(s2, 0, book=1)
    play(s2, 0, "power 1 book", f"loc {market}")
    assert s2.thieves[0] == 4 and s2.treasures[0]["jewel"] == 2


def test_every_power_keeps_tokens_conserved():
    for pid in [f"P{i:02d}" for i in range(1, 13)]:
        s = thieving(4, seed=int(pid[1:]))
        with_power(s, pid)
        for p, name in ((1, "Market"), (2, "Potion Shop"), (3, "Laboratory")):
            place(s, p, loc(s, name))
        play(s, 0, f"loc {loc(s, 'Market')}")
        give(s, 1, book=2, jewel=2, potion=2)
        t0, th0 = total_treasures(s), total_thieves(s)
        acts = [a for a in s.legal_actions(1) if a.startswith("power 1")]
        assert acts, pid
        s.apply_action(1, acts[0])
        while s.pending:
            q = s.players_to_act()[0]
            s.apply_action(q, s.legal_actions(q)[0])
        assert total_treasures(s) == t0 and total_thieves(s) == th0, pid
