"""The phone layout of every game's table (table standard part 3).

At a 420 px window the board is one SVG about 380 px wide: the viewer's hand,
cards, plan and choices are drawn at full size, so their text shows at 12 px
or more; only the shared board may be a scaled-down inset (the zoom buttons
enlarge it). Narrow and wide offer exactly the same clickable actions.
"""
from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest

from thieves.core.registry import load_game
from thieves.core.svg import MIN_FONT

GAMES = ["thiefs-market", "thieves-den", "age-of-thieves", "thiefdom", "cadwallon"]
NS = "{http://www.w3.org/2000/svg}"
WINDOW = 420


def _actions(svg: str) -> set[str]:
    return set(re.findall(r'data-action="([^"]*)"', svg))


def _full_size_fonts(svg: str) -> tuple[float, list[float]]:
    """The viewBox width and the font sizes of every text outside a scaled inset."""
    root = ET.fromstring(svg)
    width = float(root.get("viewBox", "0 0 0 0").split()[2])
    sizes: list[float] = []

    def walk(node: ET.Element, inset: bool) -> None:
        inset = inset or (node.tag == NS + "g" and "inset" in (node.get("class") or "").split())
        if node.tag == NS + "text" and not inset and (node.text or "").strip():
            sizes.append(float(node.get("font-size", "16")))
        for child in node:
            walk(child, inset)

    walk(root, False)
    return width, sizes


def _positions(slug: str, seed: int, steps: int):
    """Observations of the seat to act along a seeded random game."""
    game = load_game(slug)
    state = game.new_game(3, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            return
        p = state.players_to_act()[0]
        obs = {k: v for k, v in state.observation(p).items() if k != "log"}
        obs["recent"] = []
        yield game, p, obs
        state.apply_action(p, rng.choice(state.legal_actions(p)))


@pytest.mark.parametrize("slug", GAMES)
def test_narrow_board_keeps_the_hand_readable_and_every_action(slug):
    seen_full = 0
    for game, p, obs in _positions(slug, 5, 40):
        wide = game.presentation(p, None, "en").svg(obs)
        narrow = game.presentation(p, None, "en", layout="narrow").svg(obs)
        assert _actions(narrow) == _actions(wide)
        width, sizes = _full_size_fonts(narrow)
        assert width <= 400, "a phone board is about as wide as the window"
        assert sizes, "something is drawn at full size"
        smallest = min(sizes) * WINDOW / width
        assert smallest >= MIN_FONT, f"text at {smallest:.1f} px at a {WINDOW} px window"
        seen_full += len(sizes)
    assert seen_full


@pytest.mark.parametrize("slug", GAMES)
def test_wide_board_is_unchanged_by_the_layout_switch(slug):
    """The default stays the desktop drawing (about 900 px wide)."""
    game, p, obs = next(iter(_positions(slug, 2, 1)))
    default = game.presentation(p, None, "en").svg(obs)
    assert default == game.presentation(p, None, "en", layout="wide").svg(obs)
    assert default == game.presentation(p, None, "en", layout="bogus").svg(obs)
    assert float(ET.fromstring(default).get("viewBox", "").split()[2]) >= 880
