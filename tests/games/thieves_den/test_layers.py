"""Thieves Den's board in layers (docs/engine.md, "Layers"): the layer every viewer shares
is the same whoever looks, holds no seat's secret, and the board put together for a seat
makes clickable only that seat's legal actions, the game's key actions among them."""
from __future__ import annotations

import random
import re

import pytest

from .helpers import GAME

LAYOUTS = ("wide", "narrow")
ACTION = re.compile(r'data-action="([^"]*)"')


def _obs(state, viewer):
    obs = {k: v for k, v in state.observation(viewer).items() if k != "log"}
    obs["recent"] = []
    return obs


def _positions(seed: int, players: int, every: int = 5, most: int = 400):
    """Every ``every``-th position of a game played by random moves (the last one too)."""
    state, rng = GAME.new_game(players, seed), random.Random(seed)
    for step in range(most):
        if state.is_terminal():
            break
        if step % every == 0:
            yield state
        seat = rng.choice(state.players_to_act())
        state.apply_action(seat, rng.choice(state.legal_actions(seat)))
    yield state


def _shared(layer):
    """What a shared layer is, for comparing: its text for nobody, its offers and anchors."""
    return (layer.render(), [(o.action, o.ref, o.label, o.cls, o.extra) for o in layer.offers],
            layer.anchors, layer.width, layer.height)


@pytest.mark.parametrize("seed,players", [(1, 3), (2, 2), (5, 5)])
def test_every_viewer_draws_the_same_shared_layers(seed, players):
    firsts: dict[str, object] = {}
    for state in _positions(seed, players):
        for layout in LAYOUTS:
            spectator = GAME.presentation(None, None, "en", layout=layout)
            public = _shared(spectator.board_public(_obs(state, None)))
            static = spectator.board_static(_obs(state, None))
            firsts.setdefault(layout, static)
            assert static == firsts[layout], "the unchanging layer does not change"
            for seat in range(players):
                pres = GAME.presentation(seat, None, "en", layout=layout)
                obs = _obs(state, seat)
                assert _shared(pres.board_public(obs)) == public, (state.public_ply, layout, seat)
                assert pres.board_static(obs) == static
            assert spectator.board_seat(_obs(state, None), spectator.board_public(_obs(state, None))) is None
    assert state.is_terminal(), "the positions reach the end of the game"


def test_the_board_offers_only_legal_actions_and_every_key_action():
    offered: set[str] = set()
    for seed, players, layout in ((3, 3, "wide"), (4, 4, "narrow")):
        for state in _positions(seed, players, every=2):
            for seat in [*range(players), None]:
                pres = GAME.presentation(seat, None, "en", layout=layout)
                obs = _obs(state, seat)
                acts = set(ACTION.findall(pres.svg(obs)))
                legal = set(obs.get("legal") or ())
                assert acts <= legal, (state.public_ply, seat, acts - legal)
                offered |= {a.split()[0] for a in acts}
    assert {"keep", "loc", "sell", "steal", "take", "witch", "power", "recruit", "return", "rob"} <= offered


def test_no_seats_secret_is_in_a_shared_layer():
    """The hands and picks while scouting, and the schemes till the end: drawn from the
    seat's own observation, nothing of them is in the shared layers, whoever's actions are
    rendered clickable in them; the seat's own layer shows them."""
    checked = 0
    for state in _positions(6, 3, every=3):
        for layout in LAYOUTS:
            for seat in range(3):
                pres = GAME.presentation(seat, None, "en", layout=layout)
                obs = _obs(state, seat)
                public = pres.board_public(obs)
                static = pres.board_static(obs)
                text = public.render(obs.get("legal") or (), ()) + (static.render() if static else "")
                hand = set(obs["hand"]) | ({obs["pick"]} if obs.get("pick") else set())
                for c in hand:
                    assert not re.search(rf"\b{c}\b", text) and pres.term("loc", c) not in text, (layout, c)
                scheme = pres._scheme(state.scheme[seat])
                own = pres.board_seat(obs, public)
                if not state.is_terminal():
                    assert scheme not in text and pres.t("ui.scheme") not in text
                    assert own is not None and scheme in own.render()
                if obs["hand"]:
                    assert all(pres.term("loc", c) in own.render() for c in obs["hand"])
                    checked += 1
    assert checked, "some positions were drawn while scouting"


@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_hands_place_does_not_depend_on_its_cards(layout):
    """Every card of a hand is as tall as the tallest location card, over a card back the
    shared layer draws in its place: which cards a hand holds moves nothing."""
    state = GAME.new_game(3, 8)
    pres = GAME.presentation(None, None, "en", layout=layout)
    public = pres.board_public(_obs(state, None))
    backs = public.render().count('fill="#6b5a45"')
    assert backs == len(state.hands[0]) and public.anchors["hand"]["h"] >= 72
    for seat in range(3):
        own = GAME.presentation(seat, None, "en", layout=layout).board_seat(_obs(state, seat), public)
        assert own is not None and own.height == public.height
        assert own.render().count(f'height="{public.anchors["hand"]["h"]:g}" rx="6" fill="#fbf7ee"') == \
            len(state.hands[seat])


@pytest.mark.parametrize("layout", LAYOUTS)
def test_kept_sections_equal_fresh_ones(layout):
    """The sections are kept by what they show and offer: a shared layer drawn after other
    positions equals one drawn with nothing kept."""
    from thieves.core.svg import clear_memos
    pres = GAME.presentation(None, None, "en", layout=layout)
    for state in _positions(7, 4, every=3):
        obs = _obs(state, None)
        warm = _shared(pres.board_public(obs))
        clear_memos()
        assert _shared(pres.board_public(obs)) == warm, state.public_ply
        for q in range(4):   # warm the memos with each seat's own layer too
            GAME.presentation(q, None, "en", layout=layout).svg(_obs(state, q))
