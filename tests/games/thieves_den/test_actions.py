"""Rulebook "Phase Voleurs" and "Actions": the six actions, passing, limits and the supply."""
import pytest

from thieves.core.errors import IllegalAction

from .helpers import GAME, give, loc, place, play, set_thieves, thieving, total_thieves, total_treasures


def finish_pending(s):
    while s.pending:
        q = s.players_to_act()[0]
        s.apply_action(q, s.legal_actions(q)[0])


def test_market_example_owner_bonus():
    # "Activer un Lieu" example: Kira uses David's Market: 2 treasures for her, 2 thieves for him
    s = thieving(3)
    market = loc(s, "Market")
    place(s, 1, market)
    play(s, 0, f"loc {market}")
    assert s.treasures[0]["jewel"] == 2
    assert s.thieves[0] == 2 and s.thieves[1] == 5
    assert s.loc_thieves[market] == 1
    assert s.players_to_act() == [1]   # next player in the tile's direction
    # at cleanup the thief Kira placed goes to David
    for p in (1, 2, 0):
        play(s, p, "pass")
    assert s.thieves[1] == 6 and s.thieves[0] == 2


def test_no_owner_bonus_on_own_card_and_space_taken():
    s = thieving(3)
    market = loc(s, "Market")
    place(s, 0, market)
    play(s, 0, f"loc {market}")
    assert s.thieves[0] == 2 and s.treasures[0]["jewel"] == 2
    assert f"loc {market}" not in s.legal_actions(1)
    with pytest.raises(IllegalAction, match="already taken"):
        s.apply_action(1, f"loc {market}")


def test_activation_needs_a_thief():
    s = thieving(3)
    market = loc(s, "Market")
    place(s, 1, market)
    set_thieves(s, 0, 0)
    assert f"loc {market}" not in s.legal_actions(0)
    before = s.to_json()
    with pytest.raises(IllegalAction, match="no thief"):
        s.apply_action(0, f"loc {market}")
    assert s.to_json() == before


def test_supply_limit_potion_shop_example():
    # "Limite de la Réserve": only 2 potions left, the ability gives 3: take the 2
    s = thieving(3)
    shop = loc(s, "Potion Shop")
    place(s, 0, shop)
    give(s, 2, potion=s.city["potion"] - 2)
    play(s, 0, f"loc {shop}")
    assert s.treasures[0]["potion"] == 2 and s.city["potion"] == 0


def test_treasure_limit_owner_chooses_the_discard():
    # "Coffres au Trésor" example: Alice has 8, David uses her card with a treasure bonus
    s = thieving(3)
    card = next(c.id for c in s.data.locations.values()
                if not c.instant and c.owner_bonus and c.owner_bonus[0].kind == "gain"
                and c.ability[0].kind == "gain")
    bonus_type = next(iter(s.data.locations[card].owner_bonus[0].gain))
    place(s, 1, card)
    other, third = [t for t in ("book", "fossil", "artifact") if t != bonus_type][:2]
    give(s, 1, **{other: 4, third: 4})
    play(s, 0, f"loc {card}")
    assert s.players_to_act() == [1]
    acts = s.legal_actions(1)
    assert acts == sorted(acts, key=["discard book", "discard jewel", "discard artifact",
                                     "discard fossil", "discard potion"].index)
    assert f"discard {other}" in acts and f"discard {bonus_type}" in acts
    play(s, 1, f"discard {other}")     # keeps the new one
    assert sum(s.treasures[1].values()) == 8 and s.treasures[1][bonus_type] >= 1
    assert s.players_to_act() == [1] and s.pending == []   # then the turn passes on normally


def test_thief_limit_six():
    s = thieving(3)
    market = loc(s, "Market")   # owner bonus: 2 thieves
    place(s, 1, market)
    set_thieves(s, 1, 5)
    play(s, 0, f"loc {market}")
    assert s.thieves[1] == 6
    assert total_thieves(s) == 18 and s.forest == 7 - 2 + 1  # 2 taken, the excess 1 back


def test_sell_to_a_fence_and_refill():
    s = thieving(3)
    fid = next(f for f in s.row if s.data.fence_needs[f][1] == 0)
    spec, _ = s.data.fence_needs[fid]
    assert f"sell {fid}" not in s.legal_actions(0)
    give(s, 0, **spec)
    top = s.fence_deck[-1]
    play(s, 0, f"sell {fid}")
    f = s.data.fences[fid]
    assert s.prestige[0] == f.prestige
    assert fid in s.fences_above[0] and s.fence_thieves[fid] == 1
    assert s.fence_treasures[fid] == spec and sum(s.treasures[0].values()) == 0
    assert top in s.row and fid not in s.row and s.thieves[0] == 2
    # maintenance: tokens to the supply, card face down to the right
    for p in (1, 2, 0):
        play(s, p, "pass")
    assert fid in s.right[0] and s.fence_treasures == {} and s.fence_thieves == {}


def test_sell_jokers_paid_by_choice_and_empty_deck():
    s = thieving(3)
    fid = next(f.id for f in s.data.fences.values() if "joker" in f.wants)
    s.fence_deck = [x for x in s.fence_deck if x != fid]
    s.row[0] = fid
    s.fence_deck = []
    spec, jokers = s.data.fence_needs[fid]
    give(s, 0, **spec)
    give(s, 0, **{next(t for t in ("potion", "book", "jewel") if t not in spec): jokers})
    before = total_treasures(s)
    play(s, 0, f"sell {fid}")
    assert s.players_to_act() == [0] and all(a.startswith("pay ") for a in s.legal_actions(0))
    finish_pending(s)
    assert sum(s.treasures[0].values()) == 0
    assert s.row[0] is None          # empty fence deck: the slot stays empty
    assert total_treasures(s) == before


def test_sell_needs_a_thief():
    s = thieving(3)
    fid = s.row[0]
    spec, j = s.data.fence_needs[fid]
    give(s, 0, **spec)
    if j:
        give(s, 0, fossil=j)
    set_thieves(s, 0, 0)
    with pytest.raises(IllegalAction, match="needs a thief"):
        s.apply_action(0, f"sell {fid}")


def test_witch_slot_once_per_round():
    s = thieving(3)
    give(s, 0, jewel=1)
    give(s, 1, jewel=1)
    play(s, 0, "witch jewel")
    assert s.prestige[0] == 4       # the rulebook example's slot is worth 4
    assert "witch jewel" not in s.legal_actions(1)
    with pytest.raises(IllegalAction, match="already taken"):
        s.apply_action(1, "witch jewel")
    for p in (1, 2, 0):
        play(s, p, "pass")
    assert s.witch_used == [False] * 5   # maintenance step 4 frees it


def test_steal_a_treasure_two_thieves_any_number_of_times():
    s = thieving(2)
    play(s, 0, "steal fossil")
    play(s, 1, "steal fossil")
    assert s.steal_slot == 4 and s.thieves == [1, 1]
    assert s.treasures[0]["fossil"] == 1
    assert not any(a.startswith("steal") for a in s.legal_actions(0))
    play(s, 0, "pass")
    play(s, 1, "pass")
    assert s.steal_slot == 0   # step 5: the thieves go to the Forest, not back


def test_recruit_a_thief_two_treasures():
    s = thieving(3)
    give(s, 0, book=1, potion=1)
    assert "recruit book potion" in s.legal_actions(0)
    assert "recruit book book" not in s.legal_actions(0)
    play(s, 0, "recruit book potion")
    assert s.thieves[0] == 4 and s.recruit_slot["book"] == 1 and s.recruit_slot["potion"] == 1
    s.forest = 0
    s._legal_cache = None
    give(s, 1, book=2)
    # "Limite de la Réserve": an empty Forest means recruiting gains nothing (option empty_supply)
    assert "recruit book book" in s.legal_actions(1)
    play(s, 1, "recruit book book")
    assert s.thieves[1] == 3 and s.recruit_slot["book"] == 3


def _last_line(s, lang):
    ev = s.visible_events(None)[-1]
    return ev["key"], GAME.presentation(None, ["Ann", "Bob", "Cy"], lang).log([ev])[0]


@pytest.mark.parametrize("lang,empty,full", [
    ("en", "the Forest is empty", "den is full (6 thieves)"),
    ("fr", "la Forêt est vide", "repaire est plein (6 voleurs)"),
    ("de", "der Wald ist leer", "Versteck ist voll (6 Diebe)")])
def test_recruit_that_gains_no_thief_says_why(lang, empty, full):
    # "Recruter un Voleur": 2 treasures for 1 thief; "Limite de la Réserve": an empty Forest
    # still takes the treasures and gives nothing; "Sièges": a 7th thief goes straight back.
    # The log once read "pays Fossil and Fossil to recruit 0 thieves".
    s = thieving(3)
    s.forest, s.thieves[2] = 0, s.thieves[2] + s.forest
    give(s, 0, fossil=2)
    assert "recruit fossil fossil" in s.legal_actions(0)
    pres = GAME.presentation(0, ["Ann", "Bob", "Cy"], lang)
    assert empty in pres.action_text(s.observation(0), "recruit fossil fossil")
    play(s, 0, "recruit fossil fossil")
    key, line = _last_line(s, lang)
    assert key == "recruit_empty" and empty in line and "0" not in line, line
    assert s.thieves[0] == 3 and s.recruit_slot["fossil"] == 2

    s = thieving(3)
    set_thieves(s, 1, 6)
    s.turn = 1
    give(s, 1, book=1, potion=1)
    forest = s.forest
    assert full.split(" (")[0] in GAME.presentation(1, ["Ann", "Bob", "Cy"], lang).action_text(
        s.observation(1), "recruit book potion")
    play(s, 1, "recruit book potion")
    key, line = _last_line(s, lang)
    assert key == "recruit_full" and full in line, line
    assert s.thieves[1] == 6 and s.forest == forest


def test_recruit_log_counts_the_thief():
    s = thieving(3)
    give(s, 0, book=1, potion=1)
    play(s, 0, "recruit book potion")
    key, line = _last_line(s, "en")
    assert key == "recruit" and line.endswith("to recruit 1 thief."), line
    assert "Pay Book and Potion to recruit a thief" in GAME.presentation(0, ["Ann", "Bob", "Cy"], "en") \
        .action_text(thieving(3).observation(0), "recruit book potion")


def test_passed_players_cannot_be_targeted_or_act():
    s = thieving(3)
    customs = loc(s, "Customs House")
    place(s, 0, customs)
    give(s, 1, jewel=1)
    give(s, 2, fossil=1)
    play(s, 0, "pass")
    play(s, 1, "pass")
    assert s.players_to_act() == [2]
    play(s, 2, f"loc {customs}")       # player 3 targets: only non-passed opponents
    # players 1 and 2 have passed: nobody can be robbed, the effect does nothing
    assert s.treasures[1]["jewel"] == 1
    assert s.players_to_act() == [2]


def test_take_from_an_opponent_guild_witch_hut_laboratory():
    s = thieving(3)
    customs, guild, hut, lab = (loc(s, n) for n in ("Customs House", "Guild", "Witch's Hut", "Laboratory"))
    for c in (customs, guild, hut, lab):
        place(s, 2, c)
    give(s, 1, jewel=1, book=1)
    play(s, 0, f"loc {customs}")
    assert s.legal_actions(0) == ["rob 2 book", "rob 2 jewel"]
    play(s, 0, "rob 2 jewel")
    assert s.treasures[0]["jewel"] == 1 and s.treasures[1]["jewel"] == 0
    play(s, 1, f"loc {guild}")
    assert s.legal_actions(1) == ["rob 1", "rob 3"]
    play(s, 1, "rob 1")
    assert s.thieves[1] == 3 and s.thieves[0] == 1
    play(s, 2, f"loc {hut}")
    play(s, 2, "rob 2 book")
    # 7 - 1 given - 1 Guild owner bonus + 1 destroyed back to the City
    assert s.treasures[1]["book"] == 0 and s.city["book"] == 6
    play(s, 0, f"loc {lab}")
    play(s, 0, "pay jewel", "take potion", "take potion")
    assert s.treasures[0] == {"book": 0, "jewel": 0, "artifact": 0, "fossil": 0, "potion": 2}


def test_pass_is_always_legal_and_illegal_changes_nothing():
    s = thieving(4)
    assert s.legal_actions(0)[-1] == "pass"
    before = s.to_json()
    for bad in ("sell F99", "steal", "witch book", "recruit book", "power 1 book", "loc L01", "rob 2"):
        with pytest.raises(IllegalAction):
            s.apply_action(0, bad)
        assert s.to_json() == before
    with pytest.raises(IllegalAction, match="turn"):
        s.apply_action(1, "pass")


def test_supply_limit_thieves_from_an_empty_forest():
    s = thieving(3)
    market = loc(s, "Market")   # owner bonus: 2 thieves
    place(s, 1, market)
    s.forest = 1
    s.thieves[2] += 8           # (keep the 18 thieves in play: 8 more sit on player 3's board)
    play(s, 0, f"loc {market}")
    assert s.thieves[1] == 4 and s.forest == 0


def test_turn_order_follows_the_tile_and_skips_passed_players():
    s = thieving(4)
    s.face = "2"                 # counter-clockwise
    play(s, 0, "pass")
    assert s.players_to_act() == [3]
    play(s, 3, "steal book")
    assert s.players_to_act() == [2]
    play(s, 2, "pass")
    play(s, 1, "pass")
    assert s.players_to_act() == [3]     # the only one left keeps playing
    play(s, 3, "pass")
    assert s.phase == "draft" and s.round == 2


def test_notation_parses_once_into_a_typed_action_and_back():
    import random

    from thieves.games.thieves_den.notation import DenAction, NotationError

    from .helpers import new
    s = new(4, 3)
    rng = random.Random(3)
    seen = set()
    while not s.is_terminal():
        p = rng.choice(s.players_to_act())
        for a in s.legal_actions(p):
            act = DenAction.parse(a)
            assert str(act) == a
            seen.add(act.verb)
        s.apply_action(p, rng.choice(s.legal_actions(p)))
    assert {"keep", "loc", "sell", "pass"} <= seen
    assert DenAction.parse("rob 3 potion") == DenAction("rob", seat=2, treasure="potion")
    for bad, reason in (("steal gold", "unknown treasure 'gold'"), ("rob x jewel", "not a seat"),
                        ("recruit book", "takes 2 word"), ("fly", "unknown action")):
        with pytest.raises(NotationError, match=reason):
            DenAction.parse(bad)
    s = new(3, 1)
    with pytest.raises(IllegalAction, match="unknown treasure 'gold'"):
        s.apply_action(0, "steal gold")
