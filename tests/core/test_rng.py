from collections import Counter

import pytest
from hypothesis import given, strategies as st

from thieves.core.rng import BATCH, Draws, KeyedRng, Rng, splitmix_batch


def test_same_seed_same_sequence():
    a, b = Rng.from_seed(42), Rng.from_seed(42)
    assert [a.next64() for _ in range(20)] == [b.next64() for _ in range(20)]


def test_different_seeds_differ():
    assert Rng.from_seed(0).next64() != Rng.from_seed(1).next64()


def test_state_is_the_whole_generator():
    a = Rng.from_seed(7)
    a.die()
    b = Rng(a.state)
    assert [a.die() for _ in range(50)] == [b.die() for _ in range(50)]


@given(st.integers(min_value=1, max_value=10**6), st.integers(min_value=0, max_value=2**64 - 1))
def test_below_in_range(n, seed):
    r = Rng.from_seed(seed)
    assert all(0 <= r.below(n) < n for _ in range(5))


def test_die_is_roughly_uniform():
    r = Rng.from_seed(3)
    counts = Counter(r.die(6) for _ in range(60000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(9000 < c < 11000 for c in counts.values())


def test_shuffle_is_a_permutation():
    r = Rng.from_seed(5)
    items = list(range(30))
    r.shuffle(items)
    assert sorted(items) == list(range(30)) and items != list(range(30))


def test_bad_input():
    with pytest.raises(ValueError):
        Rng.from_seed(1).below(0)
    with pytest.raises(TypeError):
        Rng.from_seed("seed")


@pytest.mark.parametrize("state", [0, 1, 2 ** 63, 2 ** 64 - 1, 0x9E3779B97F4A7C15, 123456789])
def test_batch_is_the_generators_next_outputs(state):
    rng = Rng(state)
    assert splitmix_batch(state) == [rng.next64() for _ in range(BATCH)]


@given(st.integers(0, 2 ** 64 - 1), st.lists(st.integers(1, 2 ** 63), max_size=3 * BATCH + 5))
def test_draws_are_the_generators_own_below(state, bounds):
    plain, batched = Rng(state), Rng(state)
    with Draws(batched) as d:
        got = [d.below(n) for n in bounds]
    assert got == [plain.below(n) for n in bounds]
    assert batched.state == plain.state


def test_draws_from_a_keyed_generator_go_through_it():
    plain, drawn = KeyedRng(b"k" * 16), KeyedRng(b"k" * 16)
    with Draws(drawn) as d:
        got = [d.below(6) for _ in range(20)]
    assert got == [plain.below(6) for _ in range(20)] and drawn.count == plain.count
    with pytest.raises(ValueError):
        Draws(Rng(1)).below(0)
