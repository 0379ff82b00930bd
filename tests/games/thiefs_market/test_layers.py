"""The board in layers (docs/engine.md, "Layers"): one public layer for every viewer,
no unchanging one, a small layer of the viewer's own; the board they make clicks as
the rules allow and keeps every seat's infamy to its seat."""
import re

import pytest

from thieves.core.rng import Rng

from .util import GAME, buy_phase, fresh

NAMES = ["Alice", "Bruno", "Clara", "Dora", "Emil"]
LAYOUTS = ("wide", "narrow")


def positions(n, seed, every=7):
    """Positions of a seeded game (buying when it can half the time), every ``every`` decisions."""
    s = GAME.new_game(n, seed)
    rng = Rng.from_seed(seed)
    k = 0
    while not s.is_terminal():
        if k % every == 0:
            yield s
        p = s.players_to_act()[0]
        acts = s.legal_actions(p)
        buys = [a for a in acts if a.startswith("buy")]
        s.apply_action(p, buys[rng.below(len(buys))] if buys and rng.below(2) else acts[rng.below(len(acts))])
        k += 1
    yield s


def shape(layer):
    """What a layer is for every viewer: its text with nothing clickable, its offers, size, anchors."""
    return (layer.render(), [(o.action, o.ref, o.label, o.cls, o.extra) for o in layer.offers],
            layer.width, layer.height, layer.anchors)


@pytest.mark.parametrize("n,seed", [(3, 1), (4, 2), (5, 3)])
def test_every_viewer_gets_the_spectators_public_layer(n, seed):
    viewers = [None, *range(n)]
    pres = {(v, lay): GAME.presentation(v, NAMES[:n], "en", layout=lay) for v in viewers for lay in LAYOUTS}
    for s in positions(n, seed, every=11):
        for lay in LAYOUTS:
            spectator = shape(pres[None, lay].board_public(s.observation(None)))
            for v in range(n):
                assert shape(pres[v, lay].board_public(s.observation(v))) == spectator, (lay, v, s.ply)


def test_nothing_of_the_board_is_unchanging():
    s = fresh(3)
    pres = GAME.presentation(None, NAMES[:3], "en")
    start = pres.board_static(s.observation(None))
    while not s.is_terminal():
        s.apply_action(s.players_to_act()[0], s.legal_actions(s.players_to_act()[0])[0])
    assert start is None and pres.board_static(s.observation(None)) is None


@pytest.mark.parametrize("layout", LAYOUTS)
def test_the_board_of_the_seat_to_act_clicks_what_the_rules_allow(layout):
    seen = set()
    for s in positions(4, 5, every=5):
        if s.is_terminal():
            break
        p = s.players_to_act()[0]
        obs = s.observation(p)
        svg = GAME.presentation(p, NAMES[:4], "en", layout=layout).svg(obs)
        clickable = set(re.findall(r'data-action="([^"]*)"', svg))
        assert clickable == set(obs["legal"]) - {"end"}, s.ply   # "end" is the action bar's
        other = (p + 1) % 4
        assert 'data-action="' not in GAME.presentation(other, NAMES[:4], "en", layout=layout).svg(
            s.observation(other))
        seen |= {a.split()[0] for a in clickable}
    assert {"take", "steal", "done", "buy"} <= seen, seen


def test_the_payment_choices_are_the_payers_own_layer():
    s = buy_phase(["RRWT", "B", "G"], market=("A1",), gold=[2, 0, 0], cards={0: []})
    s.apply_action(0, "buy A1")            # costs two red gems: a die or a gold coin each
    for lay in LAYOUTS:
        pres = GAME.presentation(0, NAMES[:3], "en", layout=lay)
        obs = s.observation(0)
        public = pres.board_public(obs)
        mine = pres.board_seat(obs, public).render(obs["legal"])
        assert 'data-action="gold R"' in mine and 'data-action="gold R"' not in public.render(obs["legal"])
        assert 'data-action="pay R"' in public.render(obs["legal"])   # a die of the payer's pile
        other = GAME.presentation(1, NAMES[:3], "en", layout=lay)
        assert "gold R" not in other.board_seat(s.observation(1), public).render()


def test_a_seats_infamy_is_only_in_its_own_layer():
    s = fresh(3)
    s.infamy = [987, 654, 321]
    secret = {0: "987", 1: "654", 2: "321"}
    for lay in LAYOUTS:
        for v in range(3):
            pres = GAME.presentation(v, NAMES[:3], "en", layout=lay)
            obs = {**s.observation(v), "recent": []}
            public = pres.board_public(obs)
            static = pres.board_static(obs)
            for text in (public.render(obs["legal"]), static.render() if static else ""):
                words = " ".join(re.findall(r">([^<]+)<", text))   # what is written, not the coordinates
                assert not any(x in words for x in secret.values()), (lay, v)
            assert "infamy hidden" in public.render()
            seat = pres.board_seat(obs, public)
            assert seat is not None and f"infamy {secret[v]}<" in seat.render()
            assert not any(x in seat.render() for q, x in secret.items() if q != v)
            assert "(you)" in seat.render() and len(seat.render()) < 1500   # small: drawn for every viewer
        spectator = GAME.presentation(None, NAMES[:3], "en", layout=lay)
        assert spectator.board_seat(s.observation(None), spectator.board_public(s.observation(None))) is None
