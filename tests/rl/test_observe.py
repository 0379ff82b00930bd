"""Observation tensors: fixed shape, relative seats, blind to what the viewer cannot see."""
from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy", reason="the rl extra (numpy) is not installed")

import thieves
from thieves.rl.observe import observation_shape, observation_tensor

SLUGS = ["thiefs-market", "thieves-den", "age-of-thieves", "thiefdom", "cadwallon"]


def _positions(slug: str, n: int, seed: int, every: int = 7, limit: int = 140):
    st = thieves.load_game(slug).new_game(n, seed=seed)
    rnd = random.Random(seed)
    ply = 0
    while not st.is_terminal() and ply < limit:
        if ply % every == 0:
            yield st
        p = st.players_to_act()[0]
        st.apply_action(p, rnd.choice(st.legal_actions(p)))
        ply += 1
    yield st


@pytest.mark.parametrize("slug", SLUGS)
def test_tensor_is_unchanged_by_what_the_viewer_cannot_see(slug):
    g = thieves.load_game(slug)
    n = max(g.min_players, 3) if g.max_players >= 3 else g.max_players
    for st in _positions(slug, n, seed=5):
        for p in range(n):
            t = observation_tensor(st, p)
            assert t.shape == observation_shape(slug, n) and t.dtype == np.float32
            assert np.isfinite(t).all()
            for seed in (1, 2):
                other = st.determinize(p, seed)
                assert np.array_equal(observation_tensor(other, p), t)


def test_hidden_information_reaches_only_its_owner():
    """Thief's Market: infamy counts are secret; changing one changes only its owner's tensor."""
    st = next(_positions("thiefs-market", 3, seed=3, every=1))
    before = [observation_tensor(st, p) for p in range(3)]
    st.infamy[1] += 3
    after = [observation_tensor(st, p) for p in range(3)]
    assert np.array_equal(before[0], after[0]) and np.array_equal(before[2], after[2])
    assert not np.array_equal(before[1], after[1])


def test_seats_are_relative_to_the_viewer():
    """Thief's Market gold: each viewer sees its own gold in the same (seat 0) feature."""
    st = next(_positions("thiefs-market", 3, seed=4, every=1))
    st.gold = [7, 0, 0]
    a = observation_tensor(st, 0)
    st.gold = [0, 7, 0]
    b = observation_tensor(st, 1)
    st.gold = [0, 0, 7]
    c = observation_tensor(st, 0)
    d = observation_tensor(st, 1)
    # the viewer's own 7 gold lands in the same slot whoever the viewer is
    own = np.flatnonzero(a == 7)
    assert own.size and (b[own] == 7).all()
    # player 2's gold is "two seats after" for player 0 and "one seat after" for player 1
    assert not np.array_equal(c, d)


def test_thiefs_market_layout_is_fixed_per_player_count():
    from thieves.rl.observe import tm_layout
    for n in (3, 4, 5):
        st = next(_positions("thiefs-market", n, seed=n, every=1))
        layout = tm_layout(n, list(st.data.ids))
        t = observation_tensor(st, 0)
        assert t.shape == (sum(w for _, w in layout),)
        assert t[:4].sum() == 1.0            # phase is one-hot


def test_thieves_den_tensor_turns_with_the_viewer():
    """Thieves Den: rotating every per-seat fact by one seat and looking from the next seat
    gives the same tensor (seat 0 of a tensor is always the viewer)."""
    st = None
    for st in _positions("thieves-den", 3, seed=8, every=1, limit=60):
        pass
    obs = st.observation(0)
    rot = st.clone()
    n = 3
    for f in ("prestige", "treasures", "thieves", "passed", "above", "fences_above", "left",
              "right", "hands", "picks", "scheme"):
        v = getattr(st, f, None)
        if isinstance(v, list) and len(v) == n:
            setattr(rot, f, [v[(q - 1) % n] for q in range(n)])
    for f in ("holder", "turn"):
        v = getattr(st, f, None)
        if isinstance(v, int) and 0 <= v < n:
            setattr(rot, f, (v + 1) % n)
    rot._legal_cache = None
    assert st.phase == "thieving" and not st.pending   # a plain turn, no secret choice
    assert np.array_equal(observation_tensor(st, 0), observation_tensor(rot, 1))


def test_generic_encoder_turns_with_the_viewer():
    """The hashing encoder: the same table seen from the next seat, with every per-seat list
    and seat number turned by one, gives the same tensor."""
    from thieves.rl.hashing import Paths as _Paths, encode as _encode
    lists = frozenset({"players", "hideouts"})
    a = {"players": [{"gold": 1, "hand": ["x"]}, {"gold": 2, "hand": []}, {"gold": 3, "hand": ["y"]}],
         "hideouts": ["1Aa", "2Bb", "3Ac"], "turn": 2, "to_act": [2], "deck": ["c1", "c2"]}
    b = {"players": [a["players"][2], a["players"][0], a["players"][1]],
         "hideouts": ["3Ac", "1Aa", "2Bb"], "turn": 0, "to_act": [0], "deck": ["c2", "c1"]}
    paths = _Paths()
    ta = _encode(a, 3, 0, lists, paths)
    tb = _encode(b, 3, 1, lists, paths)
    assert np.array_equal(ta, tb)
    # and it does see who is who: another viewer of the same table sees something else
    assert not np.array_equal(ta, _encode(a, 3, 1, lists, paths))
