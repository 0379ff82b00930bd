"""The Cadwallon board in layers (docs/engine.md, "Layers"): every viewer's observation
gives the spectator's public layer, the unchanging layer is the same all game long, the
board a seat sees offers only its legal actions (and the game's key gestures), and no
hand card leaves the seat's own layer."""
from __future__ import annotations

import random
import re

import pytest

from thieves.core.registry import load_game

GAME = load_game("cadwallon")
NAMES = ["Ann", "Bruno", "Clara", "Dora"]
LAYOUTS = ("wide", "narrow")


def _obs(s, viewer):
    return {k: v for k, v in s.observation(viewer).items() if k != "log"}


def _pres(s, viewer, layout):
    return GAME.presentation(viewer, NAMES[:s.num_players], "en", layout=layout)


def positions(seeds=(1, 2), every=9, limit=400):
    """(state copy) at several positions of seeded random games of 3 players, the end too."""
    for seed in seeds:
        s = GAME.new_game(3, seed, {})
        rng = random.Random(seed)
        step = 0
        while not s.is_terminal() and step < limit:
            if step % every == 0:
                yield s.clone()
            p = s.players_to_act()[0]
            s.apply_action(p, rng.choice(s.legal_actions(p)))
            step += 1
        yield s


def _key(layer):
    return (layer.render(), [(o.action, o.ref, o.label, o.cls, o.extra) for o in layer.offers],
            layer.width, layer.height, repr(sorted(layer.anchors.items())))


@pytest.mark.parametrize("layout", LAYOUTS)
def test_every_viewer_draws_the_spectators_public_layer(layout):
    seen = 0
    for s in positions():
        want = _key(_pres(s, None, layout).board_public(_obs(s, None)))
        for p in range(s.num_players):
            assert _key(_pres(s, p, layout).board_public(_obs(s, p))) == want
        seen += 1
    assert seen > 20


def test_the_unchanging_layer_is_the_same_from_start_to_end():
    for seed in (3, 4):
        s = GAME.new_game(3, seed, {})
        first = _pres(s, None, "wide").board_static(_obs(s, None)).render()
        rng = random.Random(seed)
        while not s.is_terminal():
            p = s.players_to_act()[0]
            s.apply_action(p, rng.choice(s.legal_actions(p)))
        assert _pres(s, 0, "wide").board_static(_obs(s, 0)).render() == first
        assert "data-action" not in first and "<title>" not in first
    assert _pres(s, None, "narrow").board_static(_obs(s, None)) is None   # the phone's district moves


@pytest.mark.parametrize("layout", LAYOUTS)
def test_the_board_offers_only_legal_actions_and_the_key_gestures(layout):
    verbs = set()
    for s in positions(seeds=(5, 6), every=5):
        if s.is_terminal():
            continue
        p = s.players_to_act()[0]
        obs = _obs(s, p)
        legal = set(obs["legal"])
        svg = _pres(s, p, layout).svg(obs)
        actions = re.findall(r'data-action="([^"]+)"', svg)
        assert set(actions) <= legal
        if len(legal) > 1:
            verbs |= {a.split()[0] for a in actions}
            if "data-then" in svg:
                verbs.add("then")
            if "data-needs" in svg:
                verbs.add("needs")
    assert {"gang", "deploy", "at", "militia", "mm", "move", "act", "end", "then", "needs"} <= verbs, verbs


@pytest.mark.parametrize("layout", LAYOUTS)
def test_no_hand_card_in_the_shared_layers(layout):
    """A hand card's name is in no shared layer (drawn from the seat's own
    observation), while the seat's own layer holds the card."""
    seen = 0
    for s in positions(seeds=(7,), every=11):
        for p in range(s.num_players):
            pres, obs = _pres(s, p, layout), _obs(s, p)
            static = pres.board_static(obs)
            shared = pres.board_public(obs).render(obs.get("legal") or (), obs.get("recent") or ())
            shared += static.render() if static is not None else ""
            seat = pres.board_seat(obs, pres.board_public(obs)).render(obs.get("legal") or ())
            for kind in set(s.hands[p]):
                name = pres.term("card", kind)
                if kind not in s.discard:
                    assert f">{name}<" not in shared, (kind, p)
                    assert f"data-pid=\"hand-{kind}-1\"" in seat
                    seen += 1
    assert seen
