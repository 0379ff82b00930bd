"""The keyed generator (BLAKE2b in counter mode) used by server tables."""
from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

import thieves
from thieves.core.replay import Replay
from thieves.core.rng import KeyedRng, Rng, make_rng, rng_from_json
from thieves.testing import random_step

SEEDS = st.integers(min_value=0, max_value=2**256)


@given(SEEDS, st.integers(min_value=1, max_value=10**12), st.integers(min_value=0, max_value=40))
def test_draws_stay_in_range_and_copies_follow_the_same_stream(seed, n, skip):
    r = KeyedRng.from_seed(seed)
    for _ in range(skip):
        r.next64()
    twin = rng_from_json(json.loads(json.dumps(r.to_json())))
    copy = r.copy()
    draws = [r.below(n) for _ in range(12)]
    assert all(0 <= x < n for x in draws)
    assert [twin.below(n) for _ in range(12)] == draws == [copy.below(n) for _ in range(12)]
    assert all(1 <= r.die(6) <= 6 for _ in range(5)) and 0.0 <= r.random() < 1.0
    assert -3 <= r.randint(-3, 3) <= 3


@given(SEEDS, st.lists(st.integers(), min_size=0, max_size=40))
def test_shuffle_and_choice(seed, items):
    r = KeyedRng.from_seed(seed)
    shuffled = list(items)
    r.shuffle(shuffled)
    assert sorted(shuffled) == sorted(items)
    if items:
        assert r.choice(items) in items


def test_roughly_uniform_and_seeds_independent():
    r = KeyedRng.from_seed(2**127 + 12345)
    counts = Counter(r.die(6) for _ in range(60000))
    assert set(counts) == {1, 2, 3, 4, 5, 6} and all(9000 < c < 11000 for c in counts.values())
    bits = Counter()
    for _ in range(4000):
        x = r.next64()
        for b in range(64):
            bits[b] += (x >> b) & 1
    assert all(1800 < c < 2200 for c in bits.values())
    # neighbouring seeds give unrelated streams (no shared words)
    a = {KeyedRng.from_seed(s).next64() for s in range(200)}
    assert len(a) == 200


def test_the_key_is_never_shown_and_the_kinds_are_named():
    r = KeyedRng.from_seed(99)
    assert r.key.hex() not in repr(r)
    with pytest.raises(AttributeError):
        r.state
    assert isinstance(make_rng("splitmix", 3), Rng) and not isinstance(make_rng("splitmix", 3), KeyedRng)
    assert isinstance(make_rng("keyed", 3), KeyedRng)
    with pytest.raises(ValueError):
        make_rng("mt19937", 3)
    with pytest.raises(ValueError):
        rng_from_json({"kind": "other"})
    assert rng_from_json(Rng.from_seed(5).to_json()).next64() == Rng.from_seed(5).next64()


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(["thiefs-market", "thieves-den", "toy-bids"]),
       st.integers(min_value=2**127, max_value=2**128 - 1), st.integers(min_value=0, max_value=2**32))
def test_keyed_games_round_trip_through_snapshots_clones_and_replays(slug, seed, walk):
    import tests.core.toy_game  # noqa: F401  (registers toy-bids)
    game = thieves.load_game(slug)
    state = game.new_game(game.min_players, seed, rng="keyed")
    assert state.rng_kind == "keyed" and isinstance(state.rng, KeyedRng)
    steps = Rng.from_seed(walk)
    for _ in range(25):
        if state.is_terminal():
            break
        random_step(state, steps)
    snap = game.state_from_json(state.to_json())
    clone = state.clone()
    replay = Replay.from_json(Replay.of(state).to_json())
    assert replay.rng == "keyed" and replay.seed == seed
    again = replay.final_state()
    for other in (snap, clone, again):
        assert other.to_json() == state.to_json()
    # the futures agree too: the same draws follow
    future = [state.rng.next64() for _ in range(10)]
    for other in (snap, clone, again):
        assert [other.rng.next64() for _ in range(10)] == future
    # the splitmix game of the same seed is another game
    assert game.new_game(game.min_players, seed).to_json() != game.new_game(game.min_players, seed,
                                                                              rng="keyed").to_json()


def test_old_integer_snapshots_and_replays_still_load():
    game = thieves.load_game("thiefs-market")
    state = game.new_game(3, 7)
    d = json.loads(state.to_json())
    assert isinstance(d["rng"], int) and "rng_kind" not in d
    assert game.state_from_json(d).to_json() == state.to_json()
    text = Replay.of(state).to_json()
    assert '"rng"' not in text and Replay.from_json(text).final_state().to_json() == state.to_json()


def test_an_unknown_generator_is_a_setup_error():
    with pytest.raises(thieves.core.errors.GameSetupError):
        thieves.load_game("thiefs-market").new_game(3, 1, rng="nope")


# Two 128-bit seeds with the same public opening of Thief's Market (3 players)
# and different hidden decks. Found by a birthday search over 200,000
# consecutive 128-bit seeds (about 15 s): the public opening (the dice roll
# and the first market row) has only about 30 bits, far fewer than the seed,
# so every opening is shared by a huge number of seeds with other hidden
# decks, and seeing it tells nothing about which of them a table has.
TWINS = (272181358666123509148343276858909373947, 272181358666123509148343276858909393377)


def test_the_public_opening_does_not_determine_the_hidden_cards():
    game = thieves.load_game("thiefs-market")
    a, b = (game.new_game(3, s, rng="keyed") for s in TWINS)
    assert all(s.bit_length() >= 128 for s in TWINS)
    assert a.observation(None) == b.observation(None)
    assert all(a.observation(p) == b.observation(p) for p in range(3))  # every seat too
    assert a.decks != b.decks  # the market cards still to come differ
