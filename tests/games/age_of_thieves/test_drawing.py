"""Age of Thieves' drawing: a route in one click, the legend in three languages, the
secret plan out of every rival's drawing, the planned cards out of the hand, and what
glows for a spectator (the table standard, parts 15, 16 and 18)."""
from __future__ import annotations

import json
import re
from html import unescape

from thieves.core.rng import Rng
from thieves.core.texts import seat_names

from .helpers import GAME, act, fresh, give, plan

NAMES = seat_names(3)
#: a clickable group: its first action and the attributes after it
CLICKABLE = re.compile(r'<g class="[^"]*clickable[^"]*" data-action="([^"]+)"([^>]*)>')


def _svg(s, viewer, lang="en", recent=(), layout="wide"):
    obs = s.observation(viewer)
    pres = GAME.presentation(viewer, NAMES[:s.num_players], lang, layout=layout)
    return pres.svg({**obs, "recent": list(recent)})


def _gestures(svg: str) -> list[tuple[str, list[str], str, str | None]]:
    """(action, then, path, confirm) of every clickable that carries further steps."""
    out = []
    for action, rest in CLICKABLE.findall(svg):
        then = re.search(r"data-then='([^']*)'", rest)
        if not then:
            continue
        path = re.search(r'data-path="([^"]*)"', rest)
        confirm = re.search(r'data-confirm="([^"]*)"', rest)
        out.append((unescape(action), json.loads(unescape(then.group(1))), path.group(1) if path else "",
                    unescape(confirm.group(1)) if confirm else None))
    return out


def _moving(s, p: int, steps: int = 5) -> None:
    """Thief ``p`` plans only Move and starts to Sneak (the others plan nothing)."""
    for q in range(s.num_players):
        plan(s, q, [("move", steps)] if q == p else [])
    act(s, p, "sneak")


def test_a_route_is_one_click_and_its_steps_are_legal_in_order():
    s = fresh("zain,jasmine", die=1)
    s.thieves[0]["pos"], s.thieves[1]["pos"] = "E43", "N1"
    _moving(s, 0)
    routes = _gestures(_svg(s, 0))
    assert len(routes) >= 10   # Sneak: 4 spaces, every space within reach a target
    for action, then, path, _ in routes:
        t = s.clone()
        for step in [action, *then]:
            act(t, 0, step)   # each step legal at its moment, the same thief still moving
        assert t.thieves[0]["pos"] == then[-1].split()[1]
        points = path.split()
        assert len(points) == len(then) + 2   # the preview: from the thief to the target


def test_the_routes_of_random_games_are_legal_in_order():
    checked = 0
    for n, seed in ((2, 5), (3, 6)):
        s = GAME.new_game(n, seed, {})
        rng = Rng.from_seed(seed)
        while not s.is_terminal() and s.ply < 500 and checked < 60:
            p = s.players_to_act()[rng.below(len(s.players_to_act()))]
            dec = s.observation(p).get("deciding") or {}
            if dec.get("kind") == "move" and dec.get("player") == p:
                for action, then, _, _ in _gestures(_svg(s, p))[:6]:
                    t = s.clone()
                    for step in [action, *then]:
                        assert step in t.legal_actions(p), (step, action, then)
                        t.apply_action(p, step)
                    checked += 1
            legal = s.legal_actions(p)
            s.apply_action(p, legal[rng.below(len(legal))])
    assert checked >= 10


def test_a_route_does_not_walk_through_a_guard_and_asks_before_one():
    s = fresh("zain,jasmine", die=1)
    s.thieves[0]["pos"], s.thieves[1]["pos"] = "E43", "N1"
    near = s.data.adj["E43"][0]
    s.guards = {"g1": near}
    _moving(s, 0)
    routes = _gestures(_svg(s, 0))
    assert all(f"to {near}" not in then[:-1] and action != f"to {near}" or not then
               for action, then, _, _ in routes)
    svg = _svg(s, 0)
    into = re.search(rf'data-action="to {near}"[^>]*data-confirm="([^"]+)"', svg)
    assert into and "arrested" in into.group(1)


def test_a_sprint_or_a_sneak_shows_every_target_as_clickable_on_the_board():
    s = fresh("zain,jasmine", die=1)
    s.thieves[0]["pos"], s.thieves[1]["pos"] = "E43", "N1"
    _moving(s, 0)
    svg = _svg(s, 0, layout="narrow")
    targets = [a for a, _ in CLICKABLE.findall(svg) if a.startswith("to ")]
    reach = [x for x, k in s.data.dist["E43"].items() if 0 < k <= 4 and s.data.kind[x] != "dungeon"]
    assert len(targets) == len(reach)   # the page can bring each one on screen


def test_the_legend_in_three_languages():
    s = fresh("zain,jasmine")
    seen = {}
    for lang in ("en", "fr", "de"):
        pres = GAME.presentation(0, NAMES[:2], lang)
        svg = _svg(s, 0, lang)
        titles = [pres.t(k) for k in ("ui.legend_spaces", "ui.legend_streets", "ui.legend_pieces",
                                      "ui.legend_you", "ui.legend_hidden", "ui.legend_target")]
        for title in titles:
            assert f">{title}<" in svg.replace("&#x27;", "'").replace("&apos;", "'") or \
                title.split()[0] in svg, (lang, title)
        seen[lang] = titles
    assert len({tuple(v) for v in seen.values()}) == 3   # no language falls back to another


def test_a_rivals_secret_plan_leaves_no_trace_in_my_drawing():
    drawings = []
    for rival_plan in ([("move", 7), ("ambush", 2)], [("ambush", 1)], []):
        s = fresh("zain,jasmine,joanne", seed=3)
        plan(s, 1, rival_plan)   # done: that much is public
        act(s, 2, "plan move")   # still planning
        act(s, 2, "ap 2")
        for lang, layout in (("en", "wide"), ("de", "narrow")):
            drawings.append((lang, layout, _svg(s, 0, lang, layout=layout)))
    for i in range(2):
        assert len({svg for lang, layout, svg in drawings[i::2]}) == 1


def test_a_planned_card_leaves_my_hand():
    s = fresh("zain,jasmine")
    give(s, 0, "fire")
    before = _svg(s, 0)
    assert 'data-pid="hand-move-1"' in before and 'data-pid="hand-sp-1"' in before
    for step in ("plan move", "ap 3", "special fire", "ap 2"):
        act(s, 0, step)
    after = _svg(s, 0)
    for card in ("move", "sp", "fire"):   # behind the screen now, in the plan
        assert f'data-pid="hand-{card}-1"' not in after, card
    assert 'data-pid="plan-1"' in after and 'data-pid="plan-2"' in after
    assert 'data-pid="hand-ambush-1"' in after
    act(s, 0, "plan ambush")   # the card being planned is out of the hand too
    assert 'data-pid="hand-ambush-1"' not in _svg(s, 0)


def test_a_spectator_sees_only_the_last_moves_changes_glow():
    s = GAME.new_game(3, 2, {})
    rng = Rng.from_seed(2)
    while s.ply < 60:
        p = s.players_to_act()[0]
        legal = s.legal_actions(p)
        s.apply_action(p, legal[rng.below(len(legal))])
    last = s.last_decision(None)
    events = s.visible_events(None)
    assert last >= 0 and events
    recent = [e for e in events if e["ply"] > last]
    assert recent and all(e["ply"] == events[-1]["ply"] for e in recent)


def test_every_space_and_figure_says_what_it_is():
    s = GAME.new_game(3, 2, {})
    while s.phase != "plan":
        p = s.players_to_act()[0]
        s.apply_action(p, s.legal_actions(p)[0])
    for lang in ("en", "fr", "de"):
        svg = _svg(s, None, lang)
        spaces = re.findall(r'<g class="space[^"]*"[^>]*>(<title>[^<]+</title>)?', svg)
        assert spaces and all(spaces), lang   # a tap or a hover on any space names it
        pres = GAME.presentation(None, NAMES, lang)
        g, at = sorted(s.guards.items())[0]
        kind = "captain" if g.startswith("c") else "guard"
        n = s.observation(None)["watch"][kind][0]
        assert f"<title>{pres.t('ui.figure_on', figure=kind, space=at, n=n)}</title>" in svg.replace("&#x27;", "'")


def test_the_routes_of_a_guard_moved_by_a_card_are_legal_in_order():
    checked = 0
    for seed in range(40):
        s = GAME.new_game(3, seed, {})
        rng = Rng.from_seed(seed)
        while not s.is_terminal() and s.ply < 400 and checked < 400:
            p = s.players_to_act()[rng.below(len(s.players_to_act()))]
            dec = s.observation(p).get("deciding") or {}
            if dec.get("kind") == "gmove" and dec.get("player") == p:
                for action, then, _, _ in _gestures(_svg(s, p)):
                    t = s.clone()
                    for step in [action, *then]:
                        assert step in t.legal_actions(p), (step, action, then)
                        if step == "gstop":   # it stops the guard it moved, not the next one
                            assert (t.observation(p)["deciding"] or {}).get("figure") == dec["figure"]
                        t.apply_action(p, step)
                    checked += 1
            legal = s.legal_actions(p)
            s.apply_action(p, legal[rng.below(len(legal))])
        if checked >= 400:
            break
    assert checked >= 5
