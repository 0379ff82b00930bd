"""The printed city is described once per city and shared by every observation
(docs/engine.md, speed): nobody who reads an observation may change it."""
from __future__ import annotations

import marshal
import random

from thieves.core.registry import load_game
from thieves.games.thiefdom.view import _geometry, _shared_geometry


def test_observations_share_the_printed_city_and_no_reader_changes_it() -> None:
    from thieves.rl.observe import observation_tensor

    game = load_game("thiefdom")
    state = game.new_game(3, seed=11)
    shared = _shared_geometry(state.city)
    first, second = state.observation(0), state.observation(None)
    # one description for every viewer and call, not a copy each time
    assert first["buildings"] is second["buildings"] is shared["buildings"]
    assert first["city"]["rows"] is shared["city"]["rows"]
    rng = random.Random(11)
    for step in range(400):
        if state.is_terminal():
            break
        if step % 25 == 0:  # every reader: the drawings (both layouts, three languages), texts, tensors
            for viewer in (0, 1, 2, None):
                obs = state.observation(viewer)
                for lang, layout in (("en", "wide"), ("fr", "narrow"), ("de", "wide")):
                    pres = game.presentation(viewer, None, lang, layout=layout)
                    board_obs = {k: v for k, v in obs.items() if k != "log"}
                    pres.svg(board_obs)
                    pres.prompt(board_obs)
                    if viewer is not None:
                        for a in state.legal_actions(viewer)[:20]:
                            pres.action_text(board_obs, a)
                        observation_tensor(state, viewer)
        p = state.players_to_act()[0]
        state.apply_action(p, rng.choice(state.legal_actions(p)))
    assert shared == marshal.loads(_geometry(state.city))
