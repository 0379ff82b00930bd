"""Conformance kit that every game's test suite runs.

Modelled on OpenSpiel's random-simulation tests and TAG's forward-model
tester: seeded random games at every player count, checking at every step
that the engine contract holds. Use it from a game's tests::

    from thieves.testing import check_conformance
    def test_conformance():
        check_conformance("thiefs-market", games_per_count=5)

Each check raises ``AssertionError`` with the seed and step that failed.
"""
from __future__ import annotations

import json
from typing import Any, Iterable

from .core.errors import IllegalAction
from .core.game import State
from .core.registry import load_game
from .core.replay import Replay
from .core.rng import Rng

JUNK_ACTIONS = ["", " ", "???", "pass pass pass", "x" * 200, "\u00e9\u0000", "-1", "999999"]


def random_step(state: State, rng: Rng) -> tuple[int, str]:
    """Apply one random legal decision; returns (player, action)."""
    to_act = state.players_to_act()
    assert to_act, f"non-terminal state with nobody to act at ply {state.ply}"
    player = to_act[rng.below(len(to_act))]
    actions = state.legal_actions(player)
    assert actions, f"player {player} must act but has no legal action at ply {state.ply}"
    assert len(actions) == len(set(actions)), f"duplicate legal actions at ply {state.ply}: {actions}"
    action = actions[rng.below(len(actions))]
    state.apply_action(player, action)
    return player, action


def random_game(slug: str, num_players: int, seed: int, options: dict[str, Any] | None = None,
                max_decisions: int = 20_000) -> State:
    """Play a whole game by uniformly random decisions."""
    game = load_game(slug)
    state = game.new_game(num_players, seed, options)
    rng = Rng.from_seed(seed ^ 0x5EED)
    while not state.is_terminal():
        random_step(state, rng)
        assert state.ply <= max_decisions, f"{slug} seed {seed}: no end after {max_decisions} decisions"
    return state


def assert_json_safe(obj: Any, where: str) -> None:
    text = json.dumps(obj, allow_nan=False)
    assert json.loads(text) == obj, f"{where}: not plain JSON data (tuples or non-str keys?)"


def check_illegal_rejected(state: State) -> None:
    """Junk, out-of-turn and non-player actions raise IllegalAction and change nothing."""
    before = state.to_json()
    to_act = state.players_to_act()
    legal = {p: set(state.legal_actions(p)) for p in to_act}
    probes: list[tuple[Any, Any]] = [(p, a) for p in to_act for a in JUNK_ACTIONS if a not in legal[p]]
    probes += [(-1, "pass"), (state.num_players, "pass"), (None, "pass"), (True, "pass")]
    for p in to_act:
        probes.append((p, 12345))  # not a string
    idle = [p for p in range(state.num_players) if p not in to_act]
    if idle and to_act:
        some = next(iter(legal[to_act[0]]), "pass")
        probes.append((idle[0], some))
    for player, action in probes:
        try:
            state.apply_action(player, action)  # type: ignore[arg-type]
        except IllegalAction as exc:
            assert str(exc), "IllegalAction without a reason"
        else:
            raise AssertionError(f"illegal action {action!r} by {player!r} was accepted at ply {state.ply}")
        assert state.to_json() == before, f"illegal action {action!r} changed the state"


def check_game_run(slug: str, num_players: int, seed: int, options: dict[str, Any] | None = None,
                   max_decisions: int = 20_000, deep_every: int = 1) -> State:
    """One seeded random game with every contract check along the way."""
    game = load_game(slug)
    state = game.new_game(num_players, seed, options)
    again = game.new_game(num_players, seed, options)
    assert state.to_json() == again.to_json(), "new_game is not deterministic for a seed"
    rng = Rng.from_seed(seed ^ 0x5EED)
    step = 0
    while True:
        where = f"{slug} {num_players}p seed {seed} ply {state.ply}"
        if step % deep_every == 0:
            snap = state.to_json()
            restored = game.state_from_json(snap)
            assert restored.to_json() == snap, f"{where}: to_json round trip differs"
            for p in [None, *range(num_players)]:
                obs = state.observation(p)
                assert_json_safe(obs, f"{where} observation({p})")
                assert restored.observation(p) == obs, f"{where}: restored observation differs"
            # what a player cannot see may change in a determinized copy; what they see may not
            # (a hidden card that shows up in observation(p) would differ here: a leak)
            for p in range(num_players):
                guess = state.determinize(p, seed * 7919 + step)
                assert guess.observation(p) == state.observation(p), \
                    f"{where}: determinize({p}) changed what player {p} sees"
            twin = state.clone()
            assert twin.to_json() == snap, f"{where}: clone differs from its original"
            if not state.is_terminal():
                check_illegal_rejected(state)
                # a clone moves on without touching its original
                random_step(twin, Rng.from_seed(step))
                assert state.to_json() == snap, f"{where}: playing a clone changed the original"
        if state.is_terminal():
            break
        assert state.players_to_act(), f"{where}: nobody to act"
        for p in range(num_players):
            if p not in state.players_to_act():
                assert state.legal_actions(p) == [], f"{where}: player {p} has actions out of turn"
        random_step(state, rng)
        step += 1
        assert state.ply <= max_decisions, f"{where}: no end after {max_decisions} decisions"
    scores = state.scores()
    assert len(scores) == num_players
    winners = state.winners()
    assert winners or game.all_may_lose, f"{slug}: nobody won, but the rules always make a winner"
    assert all(0 <= w < num_players for w in winners), f"{slug}: bad winners {winners}"
    # replay determinism
    replay = Replay.from_json(Replay.of(state).to_json())
    assert replay.final_state().to_json() == state.to_json(), f"{slug} seed {seed}: replay differs"
    return state


def check_conformance(slug: str, games_per_count: int = 3, player_counts: Iterable[int] | None = None,
                      options: dict[str, Any] | None = None, deep_every: int = 1,
                      first_seed: int = 0) -> list[State]:
    """Run :func:`check_game_run` for several seeds at every allowed player count."""
    game = load_game(slug)
    counts = list(player_counts) if player_counts is not None else list(
        range(game.min_players, game.max_players + 1))
    finals = []
    for n in counts:
        for seed in range(first_seed, first_seed + games_per_count):
            finals.append(check_game_run(slug, n, seed, options, deep_every=deep_every))
    return finals
