"""Property tests: seeded random walks with invariants, the conformance kit, hidden infamy."""
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from thieves.core.errors import IllegalAction
from thieves.core.replay import Replay
from thieves.core.rng import Rng
from thieves.testing import check_conformance, random_step

from .util import GAME

ALL_CARDS = 49


def check_invariants(s):
    where = f"seed {s.seed} ply {s.ply}"
    # 13 dice: those in play are somewhere, the rest stay in the box
    in_play = sum(s.center) + sum(map(sum, s.piles)) + sum(s.returning)
    assert in_play == s.num_dice == {3: 10, 4: 11, 5: 13}[s.num_players], where
    assert all(k >= 0 for k in s.center) and all(k >= 0 for p in s.piles for k in p), where
    # 49 cards, each exactly once
    cards = [c for d in s.decks for c in d] + [c for r in s.rows for c in r] + \
        [c for t in s.tableau for c in t] + s.box + s.discarded
    assert sorted(cards) == list(range(ALL_CARDS)), where
    # one start player token, somewhere
    assert s.token in (-2, -1) or 0 <= s.token < s.num_players, where
    assert all(g >= 0 for g in s.gold) and all(i >= 0 for i in s.infamy), where


@pytest.mark.parametrize("n", [3, pytest.param(4, marks=pytest.mark.slow), pytest.param(5, marks=pytest.mark.slow)])
def test_conformance_kit(n):
    check_conformance("thiefs-market", games_per_count=2, player_counts=[n], deep_every=7)


def test_conformance_kit_with_options():
    check_conformance("thiefs-market", games_per_count=1, player_counts=[4], deep_every=9,
                      options={"start_player": "first", "second_award_after_tie": True,
                               "zero_counts_score": True, "extra_buys_stack": False,
                               "deal_last_b_cards": False, "game_end": "all_bought",
                               "potion_deck": "own"})


@pytest.mark.parametrize("n,seed", [pytest.param(3, 11, marks=pytest.mark.slow), pytest.param(4, 12, marks=pytest.mark.slow), (5, 13)])
def test_random_walk_invariants_round_trips_and_replay(n, seed):
    s = GAME.new_game(n, seed)
    rng = Rng.from_seed(seed)
    while not s.is_terminal():
        check_invariants_with_pending(s)
        snap = s.to_json()
        assert GAME.state_from_json(snap).to_json() == snap
        random_step(s, rng)
    check_invariants(s)
    replay = Replay.from_json(Replay.of(s).to_json())
    assert replay.final_state().to_json() == s.to_json()
    assert s.winners()


def check_invariants_with_pending(s):
    """While a card is being paid for it is in nobody's hands: count it back in."""
    if s.pay_card >= 0:
        s.box.append(s.pay_card)
        try:
            check_invariants(s)
        finally:
            s.box.pop()
    else:
        check_invariants(s)


def test_many_games_conserve_everything_cheaply():
    rng = Rng.from_seed(99)
    decisions = 0
    for seed in range(12):
        s = GAME.new_game(3 + seed % 3, 1000 + seed)
        while not s.is_terminal():
            random_step(s, rng)
            decisions += 1
            if decisions % 5 == 0:
                check_invariants_with_pending(s)
        check_invariants(s)
    assert decisions > 3000


def test_illegal_actions_change_nothing():
    rng = Rng.from_seed(5)
    s = GAME.new_game(4, 5)
    probes = ["take Q", "steal 9", "steal 0", "buy Z9", "buy A1", "use A1 W", "use C4", "pay R",
              "gold W", "free B", "reroll R", "keep", "done", "end", "take all", "return T"]
    checked = 0
    while not s.is_terminal():
        p = s.players_to_act()[0]
        before = s.to_json()
        legal = s.legal_actions(p)
        for a in probes:
            if a not in legal:
                with pytest.raises(IllegalAction) as exc:
                    s.apply_action(p, a)
                assert str(exc.value)
                checked += 1
        assert s.to_json() == before
        random_step(s, rng)
    assert checked > 1000


def test_observation_never_holds_another_players_infamy():
    rng = Rng.from_seed(7)
    s = GAME.new_game(4, 7)
    while not s.is_terminal():
        for viewer in range(4):
            obs = s.observation(viewer)
            other = s.clone()
            for q in range(4):
                if q != viewer:
                    other.infamy[q] = 777 + q
            assert other.observation(viewer) == obs
            assert obs["infamy"][viewer] == s.infamy[viewer]
            assert all(v is None for q, v in enumerate(obs["infamy"]) if q != viewer)
        random_step(s, rng)
    assert s.observation(0)["infamy"] == s.infamy   # revealed at the end


def test_private_infamy_events_reach_only_their_owner():
    rng = Rng.from_seed(8)
    s = GAME.new_game(4, 8)
    while not s.is_terminal():
        random_step(s, rng)
    private = [e for e in s.log if "to" in e]
    assert private and all(len(e["to"]) == 1 and e["key"].startswith("infamy") for e in private)
    assert not any(e["key"].startswith("infamy") for e in s.log if "to" not in e)
    assert not any("total" in e["args"] for e in s.log if "to" not in e)


def test_observation_hides_unseen_cards():
    s = GAME.new_game(4, 3)
    obs = json.dumps(s.observation(0))
    for c in [c for d in s.decks for c in d] + s.box:
        cid = s.data.ids[c]
        assert f'"{cid}"' not in obs


def test_determinize_keeps_the_public_position_and_reshuffles_unseen_cards():
    s = GAME.new_game(4, 3)
    d = s.determinize(0, 123)
    assert d.observation(0) == s.observation(0)
    pool = sorted([c for dk in s.decks for c in dk] + s.box)
    assert sorted([c for dk in d.decks for c in dk] + d.box) == pool
    assert [len(x) for x in d.decks] == [len(x) for x in s.decks]


@settings(max_examples=15, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(3, 5), seed=st.integers(0, 10_000),
       picks=st.lists(st.integers(0, 1_000), min_size=50, max_size=200))
def test_hypothesis_action_sequences_keep_the_invariants(n, seed, picks):
    s = GAME.new_game(n, seed)
    for k in picks:
        if s.is_terminal():
            break
        p = s.players_to_act()[0]
        acts = s.legal_actions(p)
        s.apply_action(p, acts[k % len(acts)])
        check_invariants_with_pending(s)
    snap = s.to_json()
    assert GAME.state_from_json(snap).to_json() == snap
    assert s.clone().to_json() == snap


def test_determinize_keeps_every_unseen_card_behind_its_own_deck_letter():
    # Rulebook "Matériel & mise en place": decks are sorted by the letter on the card backs, so
    # everyone knows which letter each deck (and each card left in the box) carries
    s = GAME.new_game(4, 3)
    box_letters = sorted(s.data.deck_of[c] for c in s.box)
    for seed in range(20):
        d = s.determinize(0, seed)
        for r, deck in enumerate(d.decks):
            assert all(d.data.deck_of[c] == r for c in deck)
            assert sorted(deck + [c for c in d.box if d.data.deck_of[c] == r]) == sorted(
                s.decks[r] + [c for c in s.box if s.data.deck_of[c] == r])
        assert sorted(d.data.deck_of[c] for c in d.box) == box_letters
