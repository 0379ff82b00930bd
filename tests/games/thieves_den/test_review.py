"""Rules review: discrepancies found against the rulebook, each pinned by a test."""
import pytest

from thieves.core.errors import DataError, GameSetupError, IllegalAction
from thieves.games.thieves_den.components import load_data

from .helpers import GAME, give, loc, place, play, set_thieves, thieving
from .test_powers import with_power


# -- "Clarifications des Tuiles Pouvoir": the action IS the tile's effect ------------------------
def test_double_job_both_actions_are_mandatory():
    # "Réalisez 2 fois de suite une action ..." (no "vous pouvez", unlike tiles #4 and #7)
    s = thieving(3)
    with_power(s, "P03")
    a, b = loc(s, "Market"), loc(s, "Potion Shop")
    place(s, 1, a)
    place(s, 2, b)
    give(s, 0, book=1)
    play(s, 0, "power 1 book")
    assert "done" not in s.legal_actions(0)
    with pytest.raises(IllegalAction):
        s.apply_action(0, "done")
    play(s, 0, f"loc {a}")
    assert s.legal_actions(0) == [f"loc {b}"]
    play(s, 0, f"loc {b}")
    assert s.players_to_act() == [1]


def test_double_job_second_action_skipped_only_when_impossible():
    s = thieving(3)
    with_power(s, "P03")
    a = loc(s, "Market")
    place(s, 1, a)
    set_thieves(s, 0, 1)
    give(s, 0, book=1)
    play(s, 0, "power 1 book", f"loc {a}")   # no thief left: the second half cannot be done
    assert s.players_to_act() == [1] and s.pending == []


def test_double_job_not_offered_when_nothing_can_be_done():
    s = thieving(3)
    with_power(s, "P03")
    place(s, 1, loc(s, "Market"))
    set_thieves(s, 0, 0)
    give(s, 0, book=1)
    assert not any(x.startswith("power 1") for x in s.legal_actions(0))


def test_owner_cut_and_extra_thief_are_not_skippable():
    # "Réalisez une action « Activer un Lieu »" / "Placez-le sur l'icône ..." are the effect itself
    s = thieving(3)
    with_power(s, "P11")
    market = loc(s, "Market")
    place(s, 1, market)
    give(s, 0, book=1)
    play(s, 0, "power 1 book")
    assert s.legal_actions(0) == [f"loc {market}"]
    s2 = thieving(3)
    with_power(s2, "P02")
    place(s2, 1, market)
    play(s2, 0, f"loc {market}")
    give(s2, 1, book=1)
    play(s2, 1, "power 1 book")
    assert s2.legal_actions(1) == [f"loc {market}"]


def test_refresh_and_new_location_follow_ups_stay_optional():
    # "Vous pouvez également / Vous pouvez ensuite"
    s = thieving(3)
    with_power(s, "P07")
    give(s, 0, book=1)
    play(s, 0, "power 1 book")
    assert s.legal_actions(0)[-1] == "done"


def test_power_not_offered_when_paying_makes_it_impossible():
    # Owner's Cut paid with the only jewel the only affordable location needs: nothing could
    # be done, so the tile is not offered with that payment (it would only cost a treasure)
    s = thieving(3)
    with_power(s, "P11")
    granary = loc(s, "Granary")       # pay 1 jewel, then gain 3 prestige
    place(s, 1, granary)
    give(s, 0, jewel=1, book=1)
    acts = s.legal_actions(0)
    assert "power 1 book" in acts and "power 1 jewel" not in acts


# -- "Phase Voleurs": passing; the alternative reading as an option ---------------------------------
def test_passed_locations_option_closed():
    assert GAME.new_game(3, 0).options["passed_locations"] == "open"
    s = thieving(3, 0, {"passed_locations": "closed"})
    market = loc(s, "Market")
    place(s, 1, market)
    play(s, 0, "pass")
    assert f"loc {market}" in s.legal_actions(1)      # your own cards stay usable
    play(s, 1, "pass")
    assert f"loc {market}" not in s.legal_actions(2)
    with pytest.raises(IllegalAction):
        s.apply_action(2, f"loc {market}")
    s2 = thieving(3, 0, {})
    place(s2, 1, market)
    play(s2, 0, "pass")
    play(s2, 1, "pass")
    assert f"loc {market}" in s2.legal_actions(2)
    with pytest.raises(GameSetupError):
        GAME.new_game(3, 0, {"passed_locations": "maybe"})


# -- "Mise en Place" step 9 / "Phase Maintenance" step 7: the direction tile ----------------------
def test_first_direction_option():
    s = GAME.new_game(3, 0)
    assert s.direction == 1
    s2 = GAME.new_game(3, 0, {"first_direction": "counter-clockwise"})
    assert s2.face == "13" and s2.direction == -1
    s2.face = "2"
    assert s2.direction == 1


# -- "Cartes Lieu" 3: an owner bonus is treasures or thieves --------------------------------------
def test_owner_bonus_is_treasures_or_thieves(tmp_path):
    import thieves.games.thieves_den as pkg
    text = open(pkg.__path__[0] + "/data/locations.yaml", encoding="utf-8").read()
    bad = text.replace("  owner_bonus:\n  - {thieves: 2}", "  owner_bonus:\n  - {prestige: 2}", 1)
    assert bad != text
    (tmp_path / "locations.yaml").write_text(bad)
    with pytest.raises(DataError):
        load_data(str(tmp_path))


# -- rulebook examples -------------------------------------------------------------------------------
def test_sell_example_fence_wants_two_of_one_type():
    # "Vendre des Trésors" example: the fence wants 2 of one type; Kira takes it above her
    # board, puts a thief and the 2 tokens on it, and scores its prestige at once
    s = thieving(3)
    fid = next(f.id for f in s.data.fences.values() if len(f.wants) == 2 and f.wants[0] == f.wants[1])
    t = s.data.fences[fid].wants[0]
    s.fence_deck.remove(fid) if fid in s.fence_deck else None
    old = s.row[0]
    s.row[0] = fid
    s.fence_deck.insert(0, old)
    give(s, 0, **{t: 2})
    play(s, 0, f"sell {fid}")
    assert fid in s.fences_above[0] and s.fence_thieves[fid] == 1
    assert s.fence_treasures[fid] == {t: 2} and s.treasures[0][t] == 0 and s.thieves[0] == 2
    assert s.prestige[0] == s.data.fences[fid].prestige


def test_two_player_leftover_instant_goes_under_the_deck():
    # "Phase Reconnaissance" 4, 2 players: unchosen cards lie face up beside the board, except
    # instant ones, which go under the location deck
    s = GAME.new_game(2, 3)
    d = s.data
    inst = next(c.id for c in d.locations.values() if c.moon and c.instant
                and c.id not in s.hands[0] + s.hands[1])
    plain = next(c.id for c in d.locations.values() if c.moon and not c.instant
                 and c.id not in s.hands[0] + s.hands[1])
    for c in (inst, plain):
        s.loc_deck.remove(c)
    s.loc_deck[0:0] = [s.hands[0][-1], s.hands[1][-1]]   # (keep every card in the game)
    s.hands[0][-1] = inst
    s.hands[1][-1] = plain
    s._legal_cache = None
    for _ in range(3):      # each keeps the first card; the instant and the plain card are left
        for p in (0, 1):
            s.apply_action(p, f"keep {sorted(c for c in s.hands[p] if c not in (inst, plain))[0]}")
        while s.pending and s.phase == "draft":
            q = s.players_to_act()[0]
            s.apply_action(q, s.legal_actions(q)[0])
    assert s.phase == "thieving"
    assert s.neutral == [plain] and s.loc_deck[0] == inst
    assert len(s.loc_deck) + 6 + 1 == sum(1 for c in d.locations.values() if c.moon)


# -- hidden information: determinize must not know the face-down power tiles ------------------------
def test_determinize_reshuffles_face_down_power_tiles():
    s = thieving(3)
    tops = [st[-1] for st in s.power_stacks]
    unders = set()
    for seed in range(30):
        d = s.determinize(0, seed)
        assert [st[-1] for st in d.power_stacks] == tops
        assert [len(st) for st in d.power_stacks] == [3, 3, 3]
        unders |= {t for st in d.power_stacks for t in st[:-1]}
    # the 6 face-down tiles and the 3 in the box are indistinguishable to a player
    assert unders == set(s.data.powers) - set(tops)
    # tiles put back in the box after a round were seen: never dealt again
    for p in (0, 1, 2):
        play(s, p, "pass")
    gone = set(s.power_gone)
    assert gone == set(tops)
    for seed in range(10):
        d = s.determinize(1, seed)
        assert not gone & {t for st in d.power_stacks for t in st}


# -- "Limite de la Réserve": an empty supply means gaining nothing, not a forbidden action ----------
def test_empty_supply_actions_are_taken_and_gain_nothing():
    s = thieving(3)
    s.forest, s.thieves[2] = 0, s.thieves[2] + s.forest   # (thieves stay conserved)
    give(s, 0, book=1, potion=1)
    assert "recruit book potion" in s.legal_actions(0)
    play(s, 0, "recruit book potion")
    assert s.thieves[0] == 3 and s.recruit_slot["book"] == 1 and s.recruit_slot["potion"] == 1
    # the City is empty: stealing is still an action, it gains nothing
    for t in list(s.city):
        s.treasures[2][t] += s.city[t]
        s.city[t] = 0
    s._legal_cache = None
    assert "steal" in s.legal_actions(1) and not any(a.startswith("steal ") for a in s.legal_actions(1))
    play(s, 1, "steal")
    assert s.thieves[1] == 1 and s.steal_slot == 2 and sum(s.treasures[1].values()) == 0


def test_empty_supply_option_forbidden():
    s = thieving(3, 0, {"empty_supply": "forbidden"})
    s.forest, s.thieves[2] = 0, s.thieves[2] + s.forest
    give(s, 0, book=1, potion=1)
    assert not any(a.startswith("recruit") for a in s.legal_actions(0))
    with pytest.raises(IllegalAction, match="Forest"):
        s.apply_action(0, "recruit book potion")


def test_reinforcements_with_an_empty_forest_is_still_usable():
    s = thieving(3)
    with_power(s, "P12")
    s.forest, s.thieves[2] = 0, s.thieves[2] + s.forest
    give(s, 0, book=1)
    assert "power 1 book" in s.legal_actions(0)
    play(s, 0, "power 1 book")
    assert s.thieves[0] == 3 and s.players_to_act() == [1]


# -- the alternative readings keep every contract --------------------------------------------------
ALT = {"passed_locations": "closed", "empty_supply": "forbidden", "first_direction": "counter-clockwise"}


@pytest.mark.parametrize("n", [2, 4])
def test_conformance_with_the_alternative_options(n):
    from thieves.testing import check_conformance
    check_conformance("thieves-den", games_per_count=1, deep_every=7, player_counts=[n], options=ALT)


@pytest.mark.parametrize("options", [{}, ALT])
def test_random_play_conserves_tokens_under_options(options):
    from thieves.core.rng import Rng
    from .helpers import total_thieves, total_treasures
    for seed in range(3):
        s = GAME.new_game(3, 40 + seed, options)
        rng = Rng.from_seed(seed)
        tre0, th0 = total_treasures(s), total_thieves(s)
        while not s.is_terminal():
            p = s.players_to_act()[0]
            acts = s.legal_actions(p)
            s.apply_action(p, acts[rng.below(len(acts))])
            assert total_treasures(s) == tre0 and total_thieves(s) == th0
            assert all(0 <= k <= 6 for k in s.thieves)
