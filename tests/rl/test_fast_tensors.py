"""The fast observation tensors equal the reference encoder's, bit for bit, and hide
what the reference hides.

A property test over random positions of all five games at every player count from 1
to 5 that the game allows: seeded random play for a random number of decisions, then
every seat's tensor from the fast path (``observation_tensor``) against the reference
(``reference_observation_tensor``: the observation dict and the layout's encoder).
"""
from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy", reason="the rl extra (numpy) is not installed")
from hypothesis import HealthCheck, example, given, settings, strategies as st  # noqa: E402

import thieves  # noqa: E402
from thieves.rl import observe  # noqa: E402
from thieves.rl.layouts import fast_builder  # noqa: E402
from thieves.rl.observe import observation_tensor, reference_observation_tensor  # noqa: E402

SLUGS = ["thiefs-market", "thieves-den", "age-of-thieves", "thiefdom", "cadwallon"]
CASES = [(slug, n) for slug in SLUGS for n in range(1, 6)
         if thieves.load_game(slug).min_players <= n <= thieves.load_game(slug).max_players]


def _walk(slug: str, n: int, seed: int, plies: int, every: int):
    """Positions every ``every`` decisions along a seeded random game of ``plies`` decisions."""
    st_ = thieves.load_game(slug).new_game(n, seed=seed)
    rnd = random.Random(seed)
    for ply in range(plies):
        if st_.is_terminal():
            break
        if ply % every == 0:
            yield st_
        p = st_.players_to_act()[0]
        st_.apply_action(p, rnd.choice(st_.legal_actions(p)))
    yield st_


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


@pytest.mark.parametrize("slug,n", CASES)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), plies=st.integers(0, 900), every=st.integers(3, 40))
@example(seed=1, plies=900, every=4)                       # always one whole game
def test_fast_path_equals_the_reference_encoder(slug: str, n: int, seed: int, plies: int, every: int):
    assert fast_builder(slug) is not None
    assert observe.fast_path_enabled()
    for state in _walk(slug, n, seed, plies, every):
        for p in range(n):
            fast = observation_tensor(state, p)
            ref = reference_observation_tensor(state, p)
            assert _same(fast, ref), (slug, n, state.ply, p, np.flatnonzero(fast != ref)[:10])


@pytest.mark.parametrize("slug", SLUGS)
def test_fast_path_ignores_a_rivals_hidden_information(slug: str):
    """Two states that differ only in what a seat cannot see (``determinize`` redeals
    the others' secrets) give that seat the same fast tensor."""
    g = thieves.load_game(slug)
    n = 3 if g.min_players <= 3 <= g.max_players else g.min_players
    for state in _walk(slug, n, seed=11, plies=500, every=9):
        for p in range(n):
            t = observation_tensor(state, p)
            for seed in (1, 2):
                assert _same(observation_tensor(state.determinize(p, seed), p), t)


def test_switch_selects_the_reference_encoder():
    state = next(iter(_walk("thiefs-market", 3, 1, 30, 30)))
    try:
        observe.set_fast_path(False)
        assert not observe.fast_path_enabled()
        calls = []
        real = observe._fast_of
        observe._fast_of = lambda s: calls.append(s) or real(s)   # type: ignore[assignment]
        observation_tensor(state, 0)
        assert calls == []
    finally:
        observe._fast_of = real                                   # type: ignore[assignment]
        observe.set_fast_path(True)
    with pytest.raises(ValueError):
        observation_tensor(state, 7)


@pytest.mark.parametrize("slug", ["thieves-den", "cadwallon"])
def test_table_keeps_a_tensor_only_while_the_position_stands(slug: str):
    """The wrapper's tensor, kept between the steps of one decision, is always the
    current position's; what an agent gets is its own copy."""
    from thieves.rl.driver import Table
    t = Table(slug, 3, seed=4)
    rnd = random.Random(4)
    k = observe.observation_shape(slug, 3)[0]
    for _ in range(120):
        if t.is_over():
            break
        p = t.seat
        got = t.observe(p)
        assert _same(got[:k], reference_observation_tensor(t.state, p))
        got[:] = -1.0                                     # the agent's copy, not the kept one
        assert (t.observe(p)[:k] != -1.0).all()
        legal = t.legal()
        t.step(legal[rnd.randrange(len(legal))])


@pytest.mark.parametrize("slug,field", [("thieves-den", "hands"), ("thieves-den", "scheme"),
                                        ("cadwallon", "hands")])
def test_a_rivals_secret_reaches_only_its_owner(slug: str, field: str):
    """Swapping two players' secret (hands, schemes) changes their own fast tensors and
    nobody else's."""
    state = None
    for state in _walk(slug, 3, seed=6, plies=1, every=1):
        pass
    assert state is not None and not state.is_terminal()
    secret = getattr(state, field)
    assert secret[1] != secret[2]
    assert not isinstance(secret[1], list) or len(secret[1]) == len(secret[2])   # counts are public
    before = [observation_tensor(state, p) for p in range(3)]
    secret[1], secret[2] = secret[2], secret[1]
    state._legal_cache = None
    after = [observation_tensor(state, p) for p in range(3)]
    assert _same(before[0], after[0])
    assert not _same(before[1], after[1]) and not _same(before[2], after[2])
    assert all(_same(a, reference_observation_tensor(state, p)) for p, a in enumerate(after))
