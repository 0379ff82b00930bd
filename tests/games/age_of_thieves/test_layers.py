"""Age of Thieves' board in layers (docs/engine.md, "Layers"): the streets never
change, every viewer's shared layer is the spectator's, the board of the seat to act
offers exactly its legal actions, and nothing of a plan made behind the screen (nor
of a hand) reaches the shared or the unchanging layer."""
from __future__ import annotations

import re
from html import unescape
from typing import Any, Iterator

from thieves.core.rng import Rng
from thieves.core.texts import seat_names
from thieves.games.age_of_thieves.svg_board import public_view

from .helpers import GAME, act, fresh, give

LAYOUTS = ("wide", "narrow")
ACTION = re.compile(r'data-action="([^"]+)"')


def _positions(seed: int, players: int, every: int = 6, plies: int = 240) -> Iterator[Any]:
    """Positions of a seeded game of random moves (every ``every`` plies, and the last)."""
    s = GAME.new_game(players, seed, {})
    rng = Rng.from_seed(seed)
    while not s.is_terminal() and s.ply < plies:
        if s.ply % every == 0:
            yield s
        p = s.players_to_act()[rng.below(len(s.players_to_act()))]
        legal = s.legal_actions(p)
        s.apply_action(p, legal[rng.below(len(legal))])
    yield s


def _pres(s, viewer, layout="wide", lang="en"):
    return GAME.presentation(viewer, seat_names(s.num_players), lang, layout=layout)


def _shape(layer) -> tuple[Any, ...]:
    """All a shared layer is: its text for nobody, its offers, its size and anchors."""
    offers = [(o.action, o.ref, o.label, o.cls, o.extra) for o in layer.offers]
    return layer.render(), offers, layer.width, layer.height, layer.anchors


def _planning(s) -> None:
    """Seat 0 has planned two cards and puts AP on a third, seat 1 has planned one."""
    give(s, 0, "fire", "bola")
    give(s, 1, "rats")
    for p, steps in ((0, ("plan move", "ap 3", "special fire", "ap 2", "plan ambush")),
                     (1, ("plan rats", "ap 2"))):
        for step in steps:
            if step.startswith(("plan ", "special ")) and "next" in s.legal_actions(p):
                act(s, p, "next")
            act(s, p, step)


def test_every_viewer_gets_the_spectators_shared_layer():
    checked = 0
    for seed, players in ((1, 3), (2, 4), (3, 2)):
        for s in _positions(seed, players):
            for layout in LAYOUTS:
                spectator = _shape(_pres(s, None, layout).board_public(s.observation(None)))
                for p in range(players):
                    assert _shape(_pres(s, p, layout).board_public(s.observation(p))) == spectator, \
                        (seed, s.ply, p, layout)
                    checked += 1
    assert checked > 200


def test_the_shared_layer_reads_what_the_spectator_sees_only():
    """public_view: a seat's observation made the spectator's (its hand, AP and plan
    being made gone, its cards behind the screen counted as held)."""
    s = fresh("zain,jasmine,joanne", seed=4)
    _planning(s)
    spectator = s.observation(None)
    for p in range(3):
        assert public_view(s.observation(p))["thieves"] == spectator["thieves"], p
    for s in _positions(5, 3, every=3):
        spectator = s.observation(None)
        for p in range(3):
            assert public_view(s.observation(p))["thieves"] == spectator["thieves"], (s.ply, p)


def test_the_streets_never_change_in_a_game():
    for layout in LAYOUTS:
        for lang in ("en", "de"):
            seen = set()
            last = None
            for last in _positions(7, 3, every=40, plies=2000):
                for viewer in (None, 0, 2):
                    layer = _pres(last, viewer, layout, lang).board_static(last.observation(viewer))
                    assert layer is not None and not layer.offers   # shown as an image: nothing to click
                    seen.add((layer.render(), layer.width, layer.height))
            assert last is not None and last.is_terminal()
            assert len(seen) == 1, (layout, lang)


def test_the_board_of_the_seat_to_act_offers_its_legal_actions_and_no_other():
    offered = set()
    for seed, players in ((8, 3), (9, 2)):
        for s in _positions(seed, players, every=2, plies=300):
            for p in s.players_to_act():
                layout = LAYOUTS[s.ply % 2]
                obs = s.observation(p)
                svg = _pres(s, p, layout).svg(obs)
                clickable = {unescape(a) for a in ACTION.findall(svg)}
                legal = set(obs["legal"])
                assert clickable <= legal, (s.ply, clickable - legal)
                assert clickable == legal, (s.ply, legal - clickable)   # nothing only in a list
                offered |= {a.split()[0] for a in clickable}
            # nobody else's board offers anything
            idle = [p for p in range(players) if p not in s.players_to_act()]
            for p in idle[:1]:
                assert not ACTION.search(_pres(s, p).svg(s.observation(p)))
    # the game's key moves were among them
    assert {"start", "plan", "ap", "done", "sneak", "to"} <= offered, offered


def test_the_board_is_its_layers_put_together():
    s = next(x for x in _positions(10, 3, every=1) if x.phase == "exec")
    for layout in LAYOUTS:
        pres = _pres(s, 1, layout)
        obs = s.observation(1)
        public = pres.board_public(obs)
        static = pres.board_static(obs)
        seat = pres.board_seat(obs, public)
        assert static is not None and seat is not None
        board = pres.board(obs, public, static="<image/>")
        assert board.startswith("<svg") and "<image/>" in board
        assert static.render() not in board   # the unchanging layer came as the caller's image
        assert pres.svg(obs).count(static.render()) == 1
        height = float(re.search(r'height="([\d.]+)"', board).group(1))
        assert abs(height - max(public.height, seat.height, static.height)) < 0.01
        # the viewer's own thief is ringed in their layer, where the shared one says it stands
        x, y = public.anchors["thieves"]["1"]
        assert f'<circle cx="{x:g}" cy="{y:g}" r="12" fill="none" stroke="#111"' in seat.render()
        assert 'stroke="#111"' not in public.render()


def test_a_spectators_own_layer_is_the_legend_only():
    s = next(x for x in _positions(11, 3, every=1) if x.phase == "exec")
    for layout in LAYOUTS:
        pres = _pres(s, None, layout)
        obs = s.observation(None)
        seat = pres.board_seat(obs, pres.board_public(obs))
        assert seat is not None and not seat.offers
        text = seat.render()
        assert pres.t("ui.legend") in text and "data-action" not in text and "data-pid" not in text


def _secrets(pres, s, p: int) -> list[str]:
    """What of seat ``p``'s hand and plan nobody else may read: card names and texts."""
    t = s.thieves[p]
    cards = [c.rstrip("0123456789") for c in t["hand"]]
    for slot in t["plan"] + ([t["cur"]] if t["cur"] else []):
        for c in (slot["card"], slot.get("under")):
            if c and c not in ("move", "ambush", "special"):
                cards.append(c.rstrip("0123456789"))
    return [x for c in cards for x in (pres.t("cardtext." + c),)] + [pres.term("card", c) for c in cards]


def test_a_plan_behind_the_screen_and_a_hand_reach_no_shared_layer():
    s = fresh("zain,jasmine,joanne", seed=6)
    _planning(s)
    assert s.phase == "plan" and s.thieves[0]["cur"] and s.thieves[1]["plan"]
    for layout in LAYOUTS:
        for lang in ("en", "fr"):
            spectator = _shape(_pres(s, None, layout, lang).board_public(s.observation(None)))
            for p in range(3):
                pres = _pres(s, p, layout, lang)
                obs = s.observation(p)
                public = pres.board_public(obs)
                assert _shape(public) == spectator
                static = pres.board_static(obs)
                # even with every offer clickable, as if every action were legal
                shown = public.render([o.action for o in public.offers if o.action], ()) + static.render()
                for secret in _secrets(pres, s, 0) + _secrets(pres, s, 1):
                    assert secret not in shown, (p, secret)
                assert 'data-pid="plan-' not in shown and 'data-pid="hand-' not in shown
                assert pres.t("ui.your_plan") not in shown and pres.t("ui.building") not in shown
                mine = pres.board_seat(obs, public).render()
                if p in (0, 1):   # the seat's own layer has its own plan
                    assert 'data-pid="plan-1"' in mine
                for q in (0, 1):  # and none of a rival's
                    if q != p:
                        for secret in _secrets(pres, s, q):
                            assert secret not in mine or secret in _secrets(pres, s, p), (p, q, secret)
