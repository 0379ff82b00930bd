"""The observation's keys are the ones observation.py declares: for seeded games, at
every kind of moment, for every seat and for the spectator."""
from __future__ import annotations

from typing import Any

from thieves.core.rng import Rng
from thieves.games.age_of_thieves.observation import AotObservation, SlotView, ThiefView

from .helpers import GAME

#: what the engine adds around the game's own keys (State.observation)
ENGINE_KEYS = {"game", "num_players", "ply", "viewer", "to_act", "terminal", "log"}


def _check(obs: dict[str, Any], viewer: int | None) -> None:
    assert set(obs) - ENGINE_KEYS == set(AotObservation.__annotations__)
    planning = obs["phase"] == "plan"
    for p, t in enumerate(obs["thieves"]):
        keys = set(t)
        assert ThiefView.__required_keys__ <= keys <= ThiefView.__required_keys__ | ThiefView.__optional_keys__
        mine = p == viewer
        # the seat's own hand and AP; the others' AP only outside planning
        assert ("hand" in keys) == mine
        assert ("ap" in keys) == (mine or not planning)
        assert ({"ap_free", "tokens_free", "building"} <= keys) == (mine and planning)
        for slot in t["plan"]:
            assert SlotView.__required_keys__ <= set(slot) <= SlotView.__required_keys__ | SlotView.__optional_keys__


def test_observations_have_the_declared_keys() -> None:
    seen_phases = set()
    for seed in range(3):
        s = GAME.new_game(3, seed)
        rng = Rng.from_seed(seed)
        step = 0
        while not s.is_terminal() and step < 400:
            if step % 7 == 0:
                seen_phases.add(s.phase)
                for viewer in (None, *range(s.num_players)):
                    _check(s.observation(viewer), viewer)
            to_act = s.players_to_act()
            p = to_act[rng.below(len(to_act))]
            acts = s.legal_actions(p)
            s.apply_action(p, acts[rng.below(len(acts))])
            step += 1
        for viewer in (None, *range(s.num_players)):
            _check(s.observation(viewer), viewer)
    assert {"plan", "exec"} <= seen_phases
