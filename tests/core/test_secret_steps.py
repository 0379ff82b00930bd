"""The engine's rule for secret simultaneous phases: secret steps, the public move number."""
from __future__ import annotations

import json

import pytest

import thieves
from thieves.core.errors import GameSetupError
from thieves.core.rng import Rng
from thieves.core.undo import state_at
from thieves.testing import check_secret_steps, positions_along, secret_actions


def _planning(seed: int = 1, players: int = 3):
    """An Age of Thieves game played on at random until its first planning phase."""
    state = thieves.load_game("age-of-thieves").new_game(players, seed)
    rng = Rng.from_seed(seed)
    while not (state.phase == "plan" and len(state.players_to_act()) == players):
        p = state.players_to_act()[0]
        acts = state.legal_actions(p)
        state.apply_action(p, acts[rng.below(len(acts))])
    return state


def test_secret_steps_do_not_move_the_public_move_number():
    state = _planning()
    public, ply = state.public_ply, state.ply
    assert state.observation(None)["ply"] == public == ply  # nothing secret before planning
    state.apply_action(0, "plan move")
    state.apply_action(0, "ap 2")
    assert state.secret_steps == [ply, ply + 1] and state.public_ply == public and state.ply == ply + 2
    assert all(state.observation(q)["ply"] == public for q in (None, 0, 1, 2))
    assert state.shown_ply(0) == public + 2 and state.shown_ply(1) == state.shown_ply(None) == public
    state.apply_action(0, "done")
    assert state.public_ply == public + 1
    assert state.log[-1]["key"] != "plan_done" or state.log[-1]["ply"] == public
    assert [e for e in state.log if e.get("key") == "plan_done"][-1]["ply"] == public
    assert state.last_decision(0) == public and state.last_decision(1) < public


def test_secret_steps_survive_copies_snapshots_and_replays():
    state = _planning(seed=2)
    rng = Rng.from_seed(9)
    for _ in range(40):
        p = state.players_to_act()[rng.below(len(state.players_to_act()))]
        acts = state.legal_actions(p)
        state.apply_action(p, acts[rng.below(len(acts))])
    assert state.secret_steps
    game = state.game
    for copy in (state.clone(), game.state_from_json(state.to_json()), state_at(state, state.ply)):
        assert copy.secret_steps == state.secret_steps and copy.public_ply == state.public_ply
    # a snapshot written before secret steps were marked: they are found again by replaying
    old = json.loads(state.to_json())
    del old["secret_steps"]
    assert game.state_from_json(old).secret_steps == state.secret_steps
    # an earlier position (an undo) has the secret steps of its own history only
    back = state_at(state, state.secret_steps[0] + 1)
    assert back.secret_steps == [state.secret_steps[0]]


@pytest.mark.parametrize("bad", [[5, 3], [-1], ["1"], [10**9], {"a": 1}])
def test_a_snapshot_with_bad_secret_steps_is_refused(bad):
    state = _planning(seed=3)
    d = json.loads(state.to_json())
    d["secret_steps"] = bad
    with pytest.raises(GameSetupError):
        state.game.state_from_json(d)


def test_a_game_without_secret_steps_has_none():
    state = thieves.load_game("thieves-den").new_game(3, 1)
    for s in positions_along(state, 4, every=5):
        assert not secret_actions(s, s.players_to_act()[0]) and check_secret_steps(s, 1) == 0
    assert state.secret_steps == [] and state.public_ply == state.ply
    assert "secret_steps" not in json.loads(state.to_json())


@pytest.mark.parametrize("slug,players", [("age-of-thieves", 2), ("thiefdom", 3), ("thiefdom", 1)])
def test_the_conformance_check_meets_secret_steps(slug, players):
    """The kit's check is not empty where a game has a secret phase."""
    state = thieves.load_game(slug).new_game(players, 5)
    compared = sum(check_secret_steps(s, s.ply) for s in positions_along(state, 5, every=2))
    assert compared > 0


def test_the_conformance_check_finds_a_leak():
    """A game whose observation counts a rival's secret steps fails the check."""
    state = _planning(seed=4)
    cls = type(state)

    class Leaky(cls):  # type: ignore[misc, valid-type]
        def _observe(self, viewer):
            obs = super()._observe(viewer)
            obs["steps"] = len(self.secret_steps)
            return obs

    leaky = Leaky.__new__(Leaky)
    leaky.__dict__.update(state.clone().__dict__)
    with pytest.raises(AssertionError, match="changed what"):
        check_secret_steps(leaky, 1)


def test_an_older_snapshot_whose_history_does_not_replay_is_refused():
    state = _planning(seed=6)
    d = json.loads(state.to_json())
    del d["secret_steps"]
    d["history"][-1] = [d["history"][-1][0], "no such move"]
    with pytest.raises(GameSetupError, match="does not replay"):
        state.game.state_from_json(d)


def test_a_public_move_number_maps_to_the_decision_right_after_that_public_step():
    # a finished game's replay steps through every decision: the chat's public move
    # numbers are placed there with ply_of_public
    state = _planning(seed=3)
    rng = Rng.from_seed(5)
    for _ in range(60):
        p = state.players_to_act()[0]
        acts = state.legal_actions(p)
        state.apply_action(p, acts[rng.below(len(acts))])
    assert state.secret_steps, "the random play went through a planning phase"
    assert state.ply_of_public(0) == 0
    for k in range(state.public_ply + 1):
        n = state.ply_of_public(k)
        assert state.public_index(n) == k if n < state.ply else state.public_ply == k
        assert n == 0 or not state.is_secret_step(n - 1)   # right after a public step
