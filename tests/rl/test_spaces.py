"""Fixed action spaces: encode/decode round trips and masks equal to the legal actions."""
from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy", reason="the rl extra (numpy) is not installed")

import thieves
from thieves.rl.driver import Table, max_game_length
from thieves.rl.spaces import END, Decision, action_space

SLUGS = ["thiefs-market", "thieves-den", "age-of-thieves", "thiefdom", "cadwallon"]


def _counts(slug: str) -> list[int]:
    g = thieves.load_game(slug)
    return list(range(g.min_players, g.max_players + 1))


def test_space_is_stable_and_sorted():
    for slug in SLUGS:
        sp = action_space(slug)
        assert sp.tokens[0] == END
        assert sp.tokens[1:] == sorted(sp.tokens[1:])
        assert len(set(sp.tokens)) == sp.n
    assert action_space("thiefs-market").n == 117  # 116 whole actions + <end>


@pytest.mark.parametrize("slug", SLUGS)
def test_round_trip_and_masks_over_random_games(slug):
    """Every legal action encodes, decodes back, and the token-by-token masks
    reach exactly the legal actions (no more, no fewer)."""
    sp = action_space(slug)
    for n in _counts(slug):
        st = thieves.load_game(slug).new_game(n, seed=100 + n)
        rnd = random.Random(n)
        plies = 0
        while not st.is_terminal() and plies < 150:
            p = st.players_to_act()[0]
            legal = st.legal_actions(p)
            for a in legal:
                assert sp.join(sp.split(a)) == a
            # walk the whole sub-decision tree: the reachable actions are the legal ones
            reached: set[str] = set()
            stack = [Decision(sp, st, p)]
            while stack:
                d = stack.pop()
                for tok in d.options():
                    d2 = Decision.__new__(Decision)
                    d2.space, d2.player, d2.prefix = d.space, d.player, list(d.prefix)
                    d2.cands, d2._opts, d2._complete = list(d.cands), list(d._opts), d._complete
                    d2._whole = d._whole
                    got = d2.choose(tok)
                    if got is None:
                        stack.append(d2)
                    else:
                        reached.add(got)
            assert reached == set(legal)
            st.apply_action(p, rnd.choice(legal))
            plies += 1


@pytest.mark.parametrize("slug", SLUGS)
def test_bots_games_replay_through_the_integer_steps(slug):
    """steps_for turns each engine action into the integers an agent gives; playing them
    rebuilds exactly the same game."""
    from thieves.bots import make_bot
    n = thieves.load_game(slug).min_players if slug != "thiefdom" else 2
    t = Table(slug, n, seed=21)
    bot = make_bot("greedy", slug, seed=1)
    decisions = 0
    while not t.is_over() and decisions < 120:
        p = t.current
        action = bot.choose(t.state, p)
        before = len(t.state.history)
        for i in t.steps_for(action):
            assert t.current == p and i in t.legal()
            t.step(i)
        assert t.state.history[before:] == [[p, action]]
        decisions += 1


def test_illegal_token_is_refused_and_changes_nothing():
    t = Table("thieves-den", 3, seed=1)
    legal = set(t.legal())
    bad = next(i for i in range(t.space.n) if i not in legal)
    before = t.state.to_json()
    with pytest.raises(ValueError):
        t.step(bad)
    assert t.state.to_json() == before and t.steps == 0


@pytest.mark.parametrize("slug", SLUGS)
def test_random_token_games_finish_within_the_bound(slug):
    for n in _counts(slug)[:2]:
        t = Table(slug, n, seed=n)
        rnd = random.Random(n)
        while not t.is_over():
            t.step(rnd.choice(t.legal()))
        assert t.steps <= max_game_length(slug, n)
        assert sorted(t.returns()) != [0.0] * n


OPTION_SETS = [
    ("thiefs-market", {"game_end": "all_bought", "potion_deck": "own", "extra_buys_stack": False}),
    ("thieves-den", {"passed_locations": "closed", "empty_supply": "forbidden"}),
    ("age-of-thieves", {"specials": False, "guard_fire": "detour", "steal_in_place": True}),
    ("thiefdom", {"chaotic_planning": True, "smuggling_stacks": True, "noble_purse_fixed": True}),
    ("cadwallon", {"adventure": "heroines", "treasure_mix": "six_red_six_purses", "gang_choice": "seat"}),
    ("cadwallon", {"adventure": "guild_demands"}),
    ("cadwallon", {"adventure": "hue_and_cry"}),
]


@pytest.mark.parametrize("slug,options", OPTION_SETS)
def test_every_action_under_other_options_is_in_the_space(slug, options):
    sp = action_space(slug)
    g = thieves.load_game(slug)
    st = g.new_game(g.max_players, seed=3, options=options)
    rnd = random.Random(3)
    while not st.is_terminal() and st.ply < 250:
        p = st.players_to_act()[0]
        legal = st.legal_actions(p)
        for a in legal:
            assert sp.join(sp.split(a)) == a
        st.apply_action(p, rnd.choice(legal))


def test_a_piece_outside_the_space_is_named():
    sp = action_space("thieves-den")
    with pytest.raises(ValueError, match="'L99'"):
        sp.split("loc L99")


def test_documented_examples_of_the_spaces():
    """docs/rl.md quotes these integers; the space is sorted, so they only move when the
    data or the notation words change (then update the docs)."""
    den = action_space("thieves-den")
    assert den.split("move L03 L07") == (133, 66, 70)
    assert den.split("rob 2 jewel") == (141, 13, 130)
    aot = action_space("age-of-thieves")
    assert aot.split("assign g1>E30 g2>E12") == (260, 301, 47, 305, 27)
    assert aot.join((260, 301, 47, 305, 27)) == "assign g1>E30 g2>E12"
