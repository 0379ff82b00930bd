"""The trusted fast path plays exactly the games of the checked contract."""
from __future__ import annotations

import pytest

from thieves.cli.bench import midgame_positions
from thieves.core.registry import list_games, load_game
from thieves.core.rng import Rng
from thieves.testing import checked_playout

GAMES = list_games()


@pytest.mark.parametrize("slug", GAMES)
@pytest.mark.parametrize("seed", [3, 11])
def test_random_playout_matches_checked_path(slug: str, seed: int) -> None:
    game = load_game(slug)
    for players in sorted({game.min_players, game.max_players}):
        checked = game.new_game(players, seed)
        fast = game.new_game(players, seed)
        played = checked_playout(checked, Rng.from_seed(seed))
        logged = game.new_game(players, seed)
        assert fast.random_playout(Rng.from_seed(seed)) == played
        assert logged.random_playout(Rng.from_seed(seed), keep_log=True) == played
        assert fast.is_terminal() and checked.is_terminal()
        assert logged.to_json() == checked.to_json()
        # without keep_log the playout records no events; everything else is the same
        assert fast.to_dict(log=False) == checked.to_dict(log=False)
        assert fast.log == checked.log[:len(fast.log)] and len(fast.log) < len(checked.log)
        assert fast.winners() == checked.winners()
        # and the state records events again afterwards
        assert "event" not in vars(fast)


@pytest.mark.parametrize("slug", GAMES)
def test_playouts_from_clones_leave_the_position_alone(slug: str) -> None:
    start = midgame_positions(slug, count=1, seed=5)[0]
    before = start.to_json()
    a, b = start.clone(), start.clone()
    checked_playout(a, Rng.from_seed(1))
    b.random_playout(Rng.from_seed(1), keep_log=True)
    assert a.to_json() == b.to_json()
    assert start.to_json() == before
    # the public contract still works after a fast playout
    assert b.legal_actions(0) == [] and b.is_terminal()


@pytest.mark.parametrize("slug", GAMES)
def test_apply_trusted_equals_apply_action(slug: str) -> None:
    game = load_game(slug)
    a, b = game.new_game(game.min_players, 2), game.new_game(game.min_players, 2)
    rng = Rng.from_seed(9)
    for _ in range(60):
        if a.is_terminal():
            break
        p = a.players_to_act()[0]
        acts = a.legal_actions(p)
        assert b.legal_actions(p) == acts
        action = acts[rng.below(len(acts))]
        a.apply_action(p, action)
        b.apply_trusted(p, action)
        assert a.to_json() == b.to_json()


def test_max_decisions_stops_a_playout() -> None:
    state = load_game(GAMES[0]).new_game(load_game(GAMES[0]).min_players, 1)
    assert state.random_playout(Rng.from_seed(1), max_decisions=5) == 5
    assert state.ply == 5 and len(state.history) == 5


def test_bench_playouts_reports_both_paths(capsys: pytest.CaptureFixture[str]) -> None:
    from thieves.cli.main import main

    assert main(["bench", "thiefs-market", "--playouts", "--seconds", "0.3"]) == 0
    out = capsys.readouterr().out
    assert "checked path:" in out and "fast path:" in out
    assert "same games move for move: yes" in out


def test_a_muted_state_records_nothing_and_its_clones_record_again() -> None:
    game = load_game("thieves-den")
    state = game.new_game(2, 4)
    state.mute()
    assert state.recording is False
    before = list(state.log)
    p = state.players_to_act()[0]
    state.apply_action(p, state.legal_actions(p)[0])
    assert state.log == before
    copy = state.clone()
    assert copy.recording is True
    q = copy.players_to_act()[0]
    copy.apply_action(q, copy.legal_actions(q)[0])
    assert len(copy.log) > len(before)
    # a playout leaves the recording as it found it
    other = game.new_game(2, 4)
    other.random_playout(Rng.from_seed(2), max_decisions=3)
    assert other.recording is True and "recording" not in vars(other)
