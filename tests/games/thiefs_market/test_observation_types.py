"""Every real observation of Thief's Market is what ``observation.py`` declares:
the declared keys (optional ones only where allowed), nothing else, each value
of its declared type; and the infamy stays each seat's secret until the end."""
from __future__ import annotations

import pytest

from thieves.core.rng import Rng
from thieves.games.thiefs_market.observation import MarketFields, MarketObservation
from thieves.testing import random_step

from ..typed_dicts import mismatches
from .util import GAME

#: (players, seed): a few whole games, every position
GAMES = [(3, 1), (4, 2), (5, 3)]


def _viewers(n: int) -> list[int | None]:
    return [*range(n), None]


def _check_position(s, seen: dict[str, set], viewers) -> None:
    over = s.is_terminal()
    for v in viewers:
        obs = s.observation_without_log(v)
        assert not mismatches(obs, MarketObservation), mismatches(obs, MarketObservation)
        # the infamy: the viewer's own count, nobody else's, until the end reveals them all
        for q, inf in enumerate(obs["infamy"]):
            assert (inf is None) == (not over and q != v), (v, q, inf, s.ply)
        seen["phase"].add(obs["phase"])
        seen["step"].add(obs["step"])
        seen["keys"].update(obs)
        seen["paying"].add(obs["paying"] is not None)
    fields = s._observe(s.ply % s.num_players)   # the game's part alone, as the RL encoder gets it
    assert not mismatches(fields, MarketFields), mismatches(fields, MarketFields)


@pytest.mark.parametrize("n,seed", GAMES)
def test_every_observation_is_as_declared(n, seed):
    s = GAME.new_game(n, seed)
    rng = Rng.from_seed(seed)
    seen: dict[str, set] = {"phase": set(), "step": set(), "keys": set(), "paying": set()}
    while not s.is_terminal():
        # the seats to act, another seat in turn (each seat every few positions), the spectator
        _check_position(s, seen, {*s.players_to_act(), s.ply % n, None})
        if s.ply % 50 == 0:                 # with the log now and then (it only grows)
            for v in _viewers(n):
                assert not mismatches(s.observation(v), MarketObservation)
        random_step(s, rng)
    _check_position(s, seen, _viewers(n))
    for v in _viewers(n):
        obs = s.observation(v)
        assert not mismatches(obs, MarketObservation), mismatches(obs, MarketObservation)
        assert "final" in obs and "log" in obs
    # the games went through what the declaration allows
    assert {"split", "buy", "over"} <= seen["phase"]
    assert {"", "take", "return", "pay"} <= seen["step"]
    assert seen["paying"] == {True, False}
    assert "final" in seen["keys"]


def test_final_only_at_the_end():
    s = GAME.new_game(3, 1)
    obs = s.observation(0)
    assert "final" not in obs
    assert mismatches({**obs, "final": []}, MarketObservation) == []   # declared: allowed


def test_the_check_finds_what_is_not_declared():
    """An undeclared key, a missing one, a value of another type: each is found."""
    obs = GAME.new_game(3, 1).observation(0)
    assert not mismatches(obs, MarketObservation)
    assert mismatches({**obs, "secret": 1}, MarketObservation) == [
        "obs: key 'secret' is not declared in MarketObservation"]
    missing = {k: v for k, v in obs.items() if k != "gold"}
    assert mismatches(missing, MarketObservation) == ["obs: required key 'gold' of MarketObservation is missing"]
    assert mismatches({**obs, "round": True}, MarketObservation)          # a bool is not an int
    assert mismatches({**obs, "phase": "setup"}, MarketObservation)       # not a phase
    assert mismatches({**obs, "infamy": [1, "2", None]}, MarketObservation)
    assert mismatches({**obs, "paying": {"card": "A1", "remaining": ["R"]}}, MarketObservation)
