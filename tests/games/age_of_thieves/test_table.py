"""Age of Thieves at the table: every choice on the board, what just happened glowing,
seat colours, and the end explained (the table standard, parts 4, 5, 6 and 8)."""
from __future__ import annotations

import re

from thieves.core.rng import Rng
from thieves.core.svg import seat_color
from thieves.core.texts import seat_names

from .helpers import GAME, act, fresh, path

NAMES = seat_names(3)
ACTIONS = re.compile(r'data-action="([^"]+)"')


def _svg(s, viewer, recent=()):
    obs = s.observation(viewer)
    return GAME.presentation(viewer, NAMES[:s.num_players], "en").svg({**obs, "recent": list(recent)})


def test_every_choice_of_the_acting_seat_can_be_clicked_on_the_board():
    missing = []
    for n, seed in ((2, 3), (3, 4)):
        s = GAME.new_game(n, seed, {})
        rng = Rng.from_seed(seed)
        while not s.is_terminal() and s.ply < 600:
            p = s.players_to_act()[rng.below(len(s.players_to_act()))]
            legal = s.legal_actions(p)
            if s.ply % 3 == 0:
                on_board = set(ACTIONS.findall(_svg(s, p)))
                missing += [a for a in legal if a not in on_board]
            s.apply_action(p, legal[rng.below(len(legal))])
    assert not missing, sorted(set(missing))[:10]


def test_the_board_never_offers_what_is_not_legal():
    s = GAME.new_game(3, 1, {})
    rng = Rng.from_seed(1)
    for _ in range(80):
        p = s.players_to_act()[0]
        legal = set(s.legal_actions(p))
        for q in (0, 1, 2, None):
            own = set(s.legal_actions(q)) if q is not None else set()  # empty when q is not to act
            assert set(ACTIONS.findall(_svg(s, q))) <= own, s.ply
        s.apply_action(p, sorted(legal)[rng.below(len(legal))])


def test_a_guard_that_moved_and_the_thief_it_arrested_glow():
    s = fresh("zain,jasmine", die=9)
    a = path(s, "E43", 2)
    s.guards = {"g1": a[0]}
    s.thieves[1]["pos"] = a[2]
    s.thieves[0]["pos"] = "N1"  # far away in a corner
    last = s.last_decision(0)
    plan_both = [("plan move", 0), ("ap 1", 0), ("done", 0), ("done", 1)]
    for action, p in plan_both:
        act(s, p, action)
    events = [e for e in s.visible_events(0) if e["ply"] > last]
    assert any(e["key"] == "guard_moved" for e in events) and any(e["key"] == "arrested" for e in events)
    pres = GAME.presentation(0, NAMES[:2], "en")
    recent = {r for refs in pres.log_refs(events) for r in refs}
    svg = _svg(s, 0, recent)
    assert re.search(r'<g class="figure[^"]*recent"[^>]*data-ref="g1"', svg)  # the guard glows
    assert re.search(r'<g class="thief[^"]*recent"[^>]*data-ref="seat:1"', svg)  # so does Jasmine
    assert any(x in recent for x in a[1:])  # the route the guard walked


def test_each_seat_has_its_panel_colour_on_the_board():
    s = GAME.new_game(3, 2, {})
    while s.phase != "plan":
        p = s.players_to_act()[0]
        s.apply_action(p, s.legal_actions(p)[0])
    svg = _svg(s, None)
    for q in range(3):
        assert seat_color(q) in svg


def test_the_end_is_explained_by_a_score_table():
    s = fresh("zain,jasmine,joanne")
    t = s.thieves
    t[0].update(left=2, yellow=2)
    t[1].update(left=3, green=1)
    s._finish("dawn")
    pres = GAME.presentation(None, ["Ann", "Bob", "Cy"], "en")
    table = pres.score_table(s.observation(None), s.scores(), s.winners())
    assert table["columns"] == ["Ann", "Bob", "Cy"]
    total = table["rows"][-1]
    assert total == ["Total", 2, 2, 0]
    assert "more green jewels" in table["tiebreak"] and "Bob" in table["tiebreak"]
    lost = fresh("zain,jasmine")
    lost._finish("defeat")
    table = GAME.presentation(None, ["Ann", "Bob"], "de").score_table(lost.observation(None), lost.scores(), [])
    assert table["tiebreak"].startswith("Alle verlieren")
    won = fresh("zain,jasmine")
    won.thieves[0].update(left=1, emperor=True)
    won.emperor_winner = 0
    won._finish("emperor")
    table = GAME.presentation(None, ["Ann", "Bob"], "fr").score_table(won.observation(None), won.scores(), [0])
    assert "Ann" in table["tiebreak"] and "Joyau de l'Empereur" in table["tiebreak"]
