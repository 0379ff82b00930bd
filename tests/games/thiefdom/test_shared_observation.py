"""The fields of an observation that every viewer sees alike are copied from the
state once per move and shared by the observations of that move (view.py,
_shared_part): each viewer's observation stays what it was when made afresh,
no reader changes the shared part, and the state's later moves never reach it."""
from __future__ import annotations

import marshal
import random

from thieves.core.registry import load_game
from thieves.games.thiefdom.state import ThiefdomState


def _fresh(state: ThiefdomState, viewer: int | None) -> bytes:
    """The observation made with nothing kept (a clone keeps nothing), serialized
    (marshal writes the keys in their order: the order is compared too; version
    2 writes a shared object as often as it occurs, as JSON would)."""
    return marshal.dumps(state.clone().observation(viewer), 2)


def test_each_viewer_sees_what_it_saw_made_afresh_and_the_state_never_reaches_it() -> None:
    game = load_game("thiefdom")
    state = game.new_game(3, seed=5)
    rng = random.Random(5)
    shared_seen = 0
    for step in range(600):
        if state.is_terminal():
            break
        if step % 7 == 0:
            observed = {v: state.observation(v) for v in (0, 1, 2, None)}
            for v, obs in observed.items():
                assert marshal.dumps(obs, 2) == _fresh(state, v), (step, v)
            # one copy of what every viewer sees alike (the speed this is for)
            shared_seen += observed[0]["townsfolk"] is observed[None]["townsfolk"]
            before = {v: marshal.dumps(obs, 2) for v, obs in observed.items()}
            p = state.players_to_act()[0]
            state.apply_action(p, rng.choice(state.legal_actions(p)))
            # the move just made changed the state, not what was handed out before it
            assert {v: marshal.dumps(obs, 2) for v, obs in observed.items()} == before
            continue
        p = state.players_to_act()[0]
        state.apply_action(p, rng.choice(state.legal_actions(p)))
    assert shared_seen > 10


def test_no_reader_changes_the_shared_part() -> None:
    from thieves.rl.observe import observation_tensor

    game = load_game("thiefdom")
    state = game.new_game(4, seed=9)
    rng = random.Random(9)
    for step in range(300):
        if state.is_terminal():
            break
        if step % 20 == 0:
            kept = marshal.dumps(state.observation(None), 2)
            for viewer in (0, 3, None):
                obs = state.observation(viewer)
                for lang, layout in (("en", "wide"), ("fr", "narrow")):
                    pres = game.presentation(viewer, None, lang, layout=layout)
                    board_obs = {k: v for k, v in obs.items() if k != "log"}
                    pres.board(board_obs, pres.board_public(state.observation(None)), static="")
                    pres.prompt(board_obs)
                    if viewer is not None:
                        for a in state.legal_actions(viewer)[:20]:
                            pres.action_text(board_obs, a)
                        observation_tensor(state, viewer)
            assert marshal.dumps(state.observation(None), 2) == kept, step
        p = state.players_to_act()[0]
        state.apply_action(p, rng.choice(state.legal_actions(p)))


def test_the_artwork_draw_is_its_drawers_alone() -> None:
    """The two cards drawn for an artwork reward: the drawer's observation lists
    them, every other one (made from the same shared part) only their number."""
    game = load_game("thiefdom")
    state = game.new_game(3, seed=3)
    rng = random.Random(3)
    while state.turn is None:
        p = state.players_to_act()[0]
        state.apply_action(p, rng.choice(state.legal_actions(p)))
    drawer = state.turn["p"]
    staged = state.clone()   # (a clone keeps no shared part: the staged draw is seen)
    assert staged.turn is not None
    staged.turn["sub"] = {"kind": "artdraw", "cards": ["a", "b"]}
    assert staged.observation(drawer)["turn"]["sub"]["cards"] == ["a", "b"]
    others = [v for v in (0, 1, 2, None) if v != drawer]
    for v in others:
        assert staged.observation(v)["turn"]["sub"]["cards"] == 2
    # and the drawer's own, asked again after the others, still lists them
    assert staged.observation(drawer)["turn"]["sub"]["cards"] == ["a", "b"]
