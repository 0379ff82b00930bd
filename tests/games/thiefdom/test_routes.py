"""Routes in one click: every square a thief can reach this turn is one click on
the board whose further steps (``data-then``) replay legally to that square."""
from __future__ import annotations

import html
import json
import re

from thieves.core.registry import load_game
from thieves.games.thiefdom.routes import plan_routes

from .test_web_clicks import _positions, render_svg

GAME = load_game("thiefdom")


def _turn_positions(n: int, seed: int, steps: int):
    for s, p in _positions(n, seed, steps):
        if s.phase == "action" and s.tmove is None and s.turn and s.turn["p"] == p and s.turn["sub"] is None \
                and not s.turn["over"]:
            yield s, p


def test_every_route_replays_legally_to_its_square():
    checked = 0
    for n, seed in ((2, 31), (3, 32), (4, 33), (1, 34)):
        for k, (s, p) in enumerate(_turn_positions(n, seed, 300)):
            if k % 3:
                continue
            routes = plan_routes(s.data, s.observation(p))
            for goal, route in list(routes.items())[::4]:
                c = s.clone()
                vp = c.vp[p]
                for a in route.actions:
                    assert a in c.legal_actions(p), (goal, route, a)
                    c.apply_action(p, a)
                th = c.thieves[p][s.turn["t"]]
                if route.seen:   # a guard saw him there: arrested, or stopped there
                    assert th["pos"] in (goal, None) or isinstance(th["pos"], str)
                    continue
                assert th["pos"] == goal, (goal, route, th["pos"])
                assert c.vp[p] == vp - route.vp
                assert c.turn["ap"] == s.turn["ap"] - route.ap
                checked += 1
    assert checked > 300


def test_routes_are_one_click_each_with_their_steps_and_path():
    for s, p in _turn_positions(3, 41, 200):
        obs = s.observation(p)
        routes = plan_routes(s.data, obs)
        if len(routes) < 20:
            continue
        svg = render_svg(obs)
        groups = re.findall(r'<g class="route[^"]*"([^>]*)>', svg)
        assert len(groups) >= len([g for g in routes if isinstance(g, int)])
        legal = set(s.legal_actions(p))
        for attrs in groups:
            first = html.unescape(re.search(r'data-action="([^"]*)"', attrs).group(1))
            assert first in legal
            then = re.search(r"data-then='([^']*)'", attrs) or re.search(r'data-then="([^"]*)"', attrs)
            steps = json.loads(html.unescape(then.group(1))) if then else []
            assert len(steps) <= 40
            assert re.search(r'data-path="[\d.]+,[\d.]+ ', attrs)
        return
    raise AssertionError("no position with routes")


def test_a_route_into_a_guards_view_asks_first_in_the_viewers_language():
    for s, p in _turn_positions(3, 42, 400):
        obs = s.observation(p)
        seen = [r for r in plan_routes(s.data, obs).values() if r.seen]
        if not seen:
            continue
        for lang, word in (("en", "guard"), ("fr", "garde"), ("de", "Wache")):
            svg = render_svg(obs, lang)
            asks = [html.unescape(q) for q in re.findall(r'data-confirm="([^"]*)"', svg)]
            assert any(word.lower() in q.lower() for q in asks), (lang, asks[:3])
        return
    raise AssertionError("no route into a field of view")


def test_a_routes_further_steps_are_written_as_the_kit_writes_them():
    """The board writes a route's ``data-then`` from each step's kept JSON: the
    same text as the kit's ``gesture_attrs``, escapes and too many steps included."""
    from thieves.core.svg import MAX_THEN, gesture_attrs
    from thieves.games.thiefdom.board import _then_attrs
    cases = [(), ("n",), ("move", "n", "e"), ("exit 3.4", "cata B"), ("it's",), ("a&b", "n"), ("x\ny",),
             ("é", 'say "hi"'), ("n",) * MAX_THEN]
    for s, p in _turn_positions(3, 42, 120):
        cases += [r.actions[1:] for r in plan_routes(s.data, s.observation(p)).values()]
    assert len(cases) > 100
    for then in cases:
        assert _then_attrs(then) == gesture_attrs(then), then
    try:
        _then_attrs(("n",) * (MAX_THEN + 1))
    except ValueError:
        pass
    else:
        raise AssertionError("a gesture of too many steps was written")


def test_the_kept_route_marks_hold_the_public_view_only():
    """The goals' marks outlive the drawing that needed them (a module memo, per
    city and geometry): the board kept with them is one of the public view, so
    no viewer's own fields (their legal actions, their hand) stay in memory there."""
    from thieves.core.svg import clear_memos
    from thieves.games.thiefdom import board
    clear_memos()
    drawn = 0
    for s, p in _turn_positions(3, 43, 120):
        obs = s.observation(p)
        assert obs["legal"]
        render_svg(obs)
        drawn += 1
        if drawn == 6:
            break
    kept = list(board._GOAL_MARKS.items.values())
    assert kept, "the acting seat's routes were drawn with their goals' marks"
    for looks in kept:
        assert looks.board.mode == "public"
        assert looks.board.obs["legal"] == [] and looks.board.obs["viewer"] is None
        assert looks.board.obs["draft"] is None or looks.board.obs["draft"]["hand"] == []
