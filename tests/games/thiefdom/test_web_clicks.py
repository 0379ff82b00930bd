"""The web board: every legal action aimed at a square, building or figure can be
clicked on the acting seat's board, and what the board is drawn from (the
observation) never depends on what that seat may not know."""
from __future__ import annotations

import random
import re

import pytest

from thieves.core.registry import load_game

def render_svg(obs, lang="en"):
    return load_game("thiefdom").presentation(obs["viewer"], None, lang).svg(obs)


# the kinds that used to be buttons only (their targets need the engine's geometry)
AIMED = {"exit", "hook", "tp", "cata", "svenja", "crossbow", "stars", "rob", "jin", "bernhard"}
EQUIP = ["crossbow", "stars", "hook", "climbing", "cudgel", "smoke"]
ALLIES = ["svenja", "jolanda", "johanna", "larissa", "siti", "towa", "juma", "jin", "bernhard", "mortana",
          None]
PREFER = ("move", "use", "rob", "n", "e", "s", "w", "go", "exit", "cata", "tp", "hook", "svenja",
          "crossbow", "stars", "clients", "jin", "done")


def _kind(action: str) -> str:
    w = action.split()
    if w[0] == "rob":  # a guard's badge, a noble's purse (with or without the goods chosen), the carriage
        return "rob " + ("car" if w[1] == "car" else w[1][0] + ("+" if len(w) > 2 else ""))
    return w[0]


def _positions(n: int, seed: int, steps: int, options: dict | None = None):
    """A random game in which each thief starting a turn gets random target-making
    equipment and a random ally, so aimed actions come up often."""
    game = load_game("thiefdom")
    s = game.new_game(n, seed, options or {})
    rnd = random.Random(seed)
    for _ in range(steps):
        if s.is_terminal():
            return
        tu = s.turn
        if s.phase == "action" and tu is not None and tu["ap"] == 3 and not tu["moving"] \
                and tu["sub"] is None and not tu["once"] and s.tmove is None:
            th = s.thieves[tu["p"]][tu["t"]]
            th["equip"] = rnd.sample(EQUIP, 3) + (["thimble"] if rnd.random() < 0.2 else [])
            th["ally"] = rnd.choice(ALLIES)
            th["inv"]["gold"] = max(th["inv"]["gold"], 1)
            s._legal_cache = None
        p = s.players_to_act()[0]
        yield s, p
        acts = s.legal_actions(p)
        pref = [a for a in acts if a.split()[0] in PREFER and not a.startswith("drop")]
        s.apply_action(p, rnd.choice(pref if pref and rnd.random() < 0.8 else acts))


GAMES = [(2, 1, 500, {}), (3, 2, 500, {}), (4, 3, 400, {}), (1, 4, 300, {}),
         (2, 5, 400, {"exit_through_entrances": True}), (3, 6, 500, {})]


@pytest.mark.slow
def test_every_aimed_legal_action_is_clickable_on_the_seats_board():
    seen = set()
    for n, seed, steps, options in GAMES:
        checked = 0
        for s, p in _positions(n, seed, steps, options):
            legal = s.legal_actions(p)
            aimed = [a for a in legal if a.split()[0] in AIMED]
            obs = s.observation(p)
            svg = render_svg(obs, ("en", "fr", "de")[checked % 3])
            marked = set(re.findall(r'data-action="([^"]*)"', svg))
            assert marked <= set(legal), (marked - set(legal), legal)  # nothing else is offered
            missing = [a for a in aimed if a not in marked]
            assert not missing, (missing, obs["phase"], obs["turn"], legal)
            seen.update(_kind(a) for a in aimed)
            # nobody else (other seats, spectators) is told anything to aim at
            # (seats that must decide too, as in the draft, click their own choices);
            # their boards drawn at every fourth position (no targets means no marks)
            for q in [None] + [q for q in range(s.num_players) if q not in s.players_to_act()]:
                other = s.observation(q)
                assert other["targets"] == []
                if checked % 4 == 0:
                    assert "data-action" not in render_svg(other, "en")
            checked += 1
        assert checked > 50, (n, seed)
    want = {"exit", "hook", "tp", "cata", "crossbow", "stars", "rob g", "rob n+", "rob car"}
    assert want <= seen, want - seen


def test_svenja_teleports_are_clicked_on_the_buildings():
    from .helpers import at_location
    s, th, tav = at_location("tavern", n=2)
    th["ally"] = "svenja"
    s.apply_action(0, "use")
    obs = s.observation(0)
    svenja = [a for a in s.legal_actions(0) if a.startswith("svenja ")]
    assert svenja
    marked = set(re.findall(r'data-action="([^"]*)"', render_svg(obs, "de")))
    assert set(svenja) <= marked <= set(s.legal_actions(0))


@pytest.mark.parametrize("n,seed", [(2, 11), (3, 12), (4, 13), (1, 14)])
def test_observation_does_not_depend_on_hidden_information(n, seed):
    rnd = random.Random(seed)
    for k, (s, p) in enumerate(_positions(n, seed, 400)):
        if k % 7:
            continue
        for q in range(s.num_players):
            obs = s.observation(q)
            drawn = render_svg(obs) if k % 21 == 0 else None
            for d in range(2):
                other = s.determinize(q, rnd.randrange(1 << 30))
                assert other.observation(q) == obs, (q, s.phase)
                if drawn is not None:   # the drawing too (routes, pickers, prompts: all from the observation)
                    assert render_svg(other.observation(q)) == drawn, (q, s.phase)
        assert s.observation(p)["targets"] == [a for a in s.legal_actions(p) if a.split()[0] in AIMED] \
            or s.phase != "action" or s.tmove is not None


def test_the_aimed_actions_come_from_the_engine_cache():
    """observation() lists the seat's aimed actions from the legal actions the engine
    keeps for this move: asking twice computes them once."""
    s = next(s for s, p in _positions(2, 21, 400) if s.phase == "action" and s.turn and s.tmove is None
             and s.observation(p)["targets"])
    p = s.turn["p"]
    calls = []
    orig = s._legal_actions

    def counting(player):
        calls.append(player)
        return orig(player)

    s._legal_cache = None
    s._legal_actions = counting
    s.observation(p)
    s.legal_actions(p)
    s.observation(p)
    assert calls == [p]


@pytest.mark.parametrize("layout", ["wide", "narrow"])
def test_building_names_are_drawn_over_the_walls(layout):
    """A wall along a building's edge used to be drawn after the building's name,
    striking it through: every name's label now comes after the last wall."""
    from thieves.games.thiefdom.board import WALL

    game = load_game("thiefdom")
    s = game.new_game(3, 4, {})
    pres = game.presentation(0, None, "en", layout=layout)
    svg = pres.svg(s.observation(0))
    walls = [m.start() for m in re.finditer(f'stroke="{WALL}"', svg)]
    names = [svg.find(f">{pres.place(bid)}<") for bid, (_ty, cells) in s.observation(0)["buildings"].items()
             if cells]
    assert walls and len(names) > 10
    assert all(i > max(walls) for i in names if i >= 0), "a wall is drawn over a building's name"
    # names written in full where they fit (narrow buildings show their number); the
    # phone's city is turned a quarter, its buildings mostly too narrow: their numbers
    assert sum(i >= 0 for i in names) > (10 if layout == "wide" else 2)
    shown = set(re.findall(r">([^<>]+)</text>", svg))
    assert all(pres.place(bid) in shown or pres.place(bid).rsplit(" ", 1)[-1] in shown
               for bid, (_ty, cells) in s.observation(0)["buildings"].items() if cells)
