"""Fair bots: a bot's input is the same whatever the others' hidden cards and the future dice."""
from __future__ import annotations

import json

import pytest

from thieves import load_game
from thieves.bots import choose_fairly, fair_view, make_bot, play_game
from thieves.bots.base import Bot
from thieves.core.rng import Rng

GAMES = [("thiefdom", 3), ("thiefs-market", 3), ("age-of-thieves", 3), ("thieves-den", 3), ("cadwallon", 3)]


def _positions(slug: str, n: int, seed: int, every: int = 7):
    """Positions along a seeded random game (every ``every``-th decision)."""
    s = load_game(slug).new_game(n, seed)
    rng = Rng.from_seed(seed)
    k = 0
    while not s.is_terminal():
        to_act = s.players_to_act()
        if k % every == 0:
            yield s, to_act
        p = to_act[rng.below(len(to_act))]
        acts = s.legal_actions(p)
        s.apply_action(p, acts[rng.below(len(acts))])
        k += 1


def _readable(entry, p: int) -> bool:
    """A log entry ``p`` may read in full: public, or addressed to ``p``."""
    to = entry.get("to")
    return to is None or p in to


def _other_world(s, p: int, k: int):
    """The same position as ``p`` knows it, with the others' secrets re-dealt and another future."""
    w = s.determinize(p, 1000 + k)
    w._legal_cache = None
    return w


@pytest.mark.parametrize("slug, n", GAMES)
def test_a_bots_view_does_not_depend_on_what_its_seat_cannot_know(slug, n):
    checked = 0
    for s, to_act in _positions(slug, n, seed=3):
        for p in to_act:
            other = _other_world(s, p, checked)
            assert other.rng.to_json() != s.rng.to_json()
            assert other.observation(p) == s.observation(p)  # both worlds fit p's knowledge
            a, b = fair_view(s, p, 42), fair_view(other, p, 42)
            assert a.to_json() == b.to_json(), f"{slug} ply {s.ply}: the view depends on hidden facts"
            assert a.observation(p) == s.observation(p)
            assert a.legal_actions(p) == s.legal_actions(p)
            # nothing of the real generator, seed or private log lines of others survives
            assert a.rng.to_json() != s.rng.to_json() and a.seed == 0
            assert all(_readable(entry, p) for entry in a.log)
            checked += 1
    assert checked > 10


@pytest.mark.parametrize("slug, n", GAMES)
def test_bots_choose_the_same_whatever_the_hidden_cards_and_dice(slug, n):
    bots = {"greedy": make_bot("greedy", slug, 1), "mcts": make_bot("mcts:12", slug, 1)}
    checked = 0
    for s, to_act in _positions(slug, n, seed=5, every=23):
        p = to_act[0]
        other = _other_world(s, p, checked)
        for name in bots:
            same_seed = [make_bot("mcts:12" if name == "mcts" else name, slug, 9) for _ in range(2)]
            assert choose_fairly(same_seed[0], s, p, 7) == choose_fairly(same_seed[1], other, p, 7), name
        checked += 1
    assert checked >= 5


class Spy(Bot):
    """Records what it is given."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.seen: list = []

    def choose(self, state, player):
        self.seen.append((json.dumps(state.rng.to_json()), state.seed, len(state.history)))
        return state.legal_actions(player)[0]


def test_play_game_never_hands_a_bot_the_real_state():
    s = load_game("thieves-den").new_game(3, seed=8)
    real_rngs = set()
    spies = [Spy() for _ in range(3)]
    orig = s.apply_action

    def apply(p, a):
        real_rngs.add(json.dumps(s.rng.to_json()))
        orig(p, a)
    s.apply_action = apply
    play_game(s, spies)
    seen = [x for spy in spies for x in spy.seen]
    assert seen and all(seed == 0 for _, seed, _ in seen)
    assert not {rng for rng, _, _ in seen} & real_rngs


class Flagged(Bot):
    """A bot that claims to read only the legal actions, to get the fast path, and then
    looks for the real state's secrets."""

    reads_only_legal_actions = True

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.found: list[object] = []

    def choose(self, state, player: int) -> str:
        for name in ("rng", "seed", "history", "log", "hands", "decks", "__dict__"):
            if hasattr(state, name):
                self.found.append(name)
        self.found += [v for v in getattr(state, "__slots__", ()) if not isinstance(getattr(state, v), (int, tuple))]
        return state.legal_actions(player)[0]


def test_the_legal_actions_flag_never_hands_a_bot_the_real_state():
    """``reads_only_legal_actions`` is a class attribute any bot can set: the fast path it
    earns hands over the seat's legal actions and nothing that holds a secret."""
    s = load_game("thieves-den").new_game(3, seed=8)
    bots = [Flagged() for _ in range(3)]
    play_game(s, bots)
    assert s.is_terminal()
    assert not [x for b in bots for x in b.found]


def test_the_random_bot_still_plays_on_the_fast_path():
    s = load_game("thiefs-market").new_game(3, seed=2)
    p = s.players_to_act()[0]
    bot = make_bot("random", "thiefs-market", 5)
    assert choose_fairly(bot, s, p, 1) in s.legal_actions(p)
