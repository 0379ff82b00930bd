"""The engine contract, checked on a small game built for the purpose."""
import json

import pytest

import thieves
from thieves import GameSetupError, IllegalAction, Replay, load_game
from thieves.bots import RandomBot, play_game
from thieves.testing import check_conformance

from . import toy_game  # noqa: F401  (registers "toy-bids")


def test_conformance_kit_passes_on_toy_game():
    finals = check_conformance("toy-bids", games_per_count=3)
    assert all(s.is_terminal() for s in finals)


def test_new_game_rejects_bad_counts_and_options():
    g = load_game("toy-bids")
    with pytest.raises(GameSetupError, match="2 to 4 players"):
        g.new_game(5, 0)
    with pytest.raises(GameSetupError, match="no option 'speed'"):
        g.new_game(2, 0, {"speed": 2})
    with pytest.raises(GameSetupError, match="must be one of"):
        g.new_game(2, 0, {"rounds": 9})


def test_unknown_game():
    with pytest.raises(thieves.UnknownGame, match="unknown game"):
        load_game("monopoly")


def test_simultaneous_players_and_hidden_bids():
    s = load_game("toy-bids").new_game(3, seed=1)
    assert s.players_to_act() == [0, 1, 2]
    s.apply_action(1, "bid 3")
    assert s.players_to_act() == [0, 2]
    assert s.observation(1)["my_bid"] == 3
    mine = {"key": "my_bid", "args": {"bid": 3}, "ply": 0}
    for viewer in (0, 2, None):
        obs = s.observation(viewer)
        assert obs["my_bid"] is None and "my_bid" not in json.dumps(obs["log"])
        assert s.visible_log(viewer) == ["Player 2 bids."]
    assert mine in s.observation(1)["log"]
    assert s.visible_log(1) == ["Player 2 bids.", "You bid 3."]
    assert s.visible_log(1, lang="fr", names=["Ann", "Bea", "Cy"]) == ["Bea a misé.", "Vous misez 3."]


def test_illegal_actions_explain_and_change_nothing():
    s = load_game("toy-bids").new_game(2, seed=1)
    s.apply_action(0, "bid 1")
    before = s.to_json()
    with pytest.raises(IllegalAction, match="not player 0's turn"):
        s.apply_action(0, "bid 2")
    with pytest.raises(IllegalAction, match="not legal"):
        s.apply_action(1, "bid 7")
    with pytest.raises(IllegalAction, match="no player"):
        s.apply_action(4, "bid 1")
    assert s.to_json() == before


def test_json_round_trip_keeps_generator():
    g = load_game("toy-bids")
    s = g.new_game(2, seed=9)
    s.apply_action(0, "bid 2")
    t = g.state_from_json(s.to_json())
    s.apply_action(1, "bid 3")
    t.apply_action(1, "bid 3")
    assert s.to_json() == t.to_json()


def test_clone_is_independent():
    s = load_game("toy-bids").new_game(2, seed=9)
    c = s.clone()
    c.apply_action(0, "bid 2")
    assert s.players_to_act() == [0, 1] and c.players_to_act() == [1]


def test_replay_reproduces_game():
    s = load_game("toy-bids").new_game(4, seed=11, options={"rounds": 5})
    play_game(s, [RandomBot(seed=i) for i in range(4)])
    r = Replay.from_json(Replay.of(s).to_json())
    assert r.options == {"rounds": 5}
    assert r.final_state().to_json() == s.to_json()


def test_replay_rejects_garbage():
    with pytest.raises(thieves.ThievesError):
        Replay.from_json("not json")
    with pytest.raises(thieves.ThievesError):
        Replay.from_json('{"format": "other"}')


def test_fields_may_not_hide_the_contract():
    from thieves.core.game import State

    with pytest.raises(TypeError, match="hides engine attributes: event, log"):
        type("Bad", (State,), {"FIELDS": ("event", "log", "board")})
