"""The Thiefdom board in layers (docs/engine.md, "Layers"): the printed city never
changes, the public layer is the same for every viewer and holds no secret, and
the board put together for a seat makes exactly its legal actions clickable."""
from __future__ import annotations

import hashlib
import marshal
import random
import re
from typing import Any, Iterator

import pytest

from thieves.core.registry import load_game
from thieves.core.svg import Layer, clear_memos

GAME = load_game("thiefdom")
ACTION = re.compile(r'data-action="([^"]*)"')
LAYOUTS = ("wide", "narrow")


def positions(players: int, seed: int, every: int, steps: int = 400, setup: bool = False) -> Iterator[Any]:
    """Positions of a seeded game played with random moves, one every ``every``
    decisions (``setup``: and every one of the first night's draft, purchase and hideouts)."""
    state = GAME.new_game(players, seed=seed)
    rng = random.Random(seed)
    for step in range(steps):
        if state.is_terminal():
            break
        if step % every == 0 or (setup and state.round == 1 and state.phase in ("draft", "buy", "hideout")):
            yield state
        p = state.players_to_act()[0]
        state.apply_action(p, rng.choice(state.legal_actions(p)))
    yield state


def observe(state: Any, viewer: int | None) -> dict[str, Any]:
    return {k: v for k, v in state.observation(viewer).items() if k != "log"}


def shown(layer: Layer) -> tuple[str, tuple[tuple[Any, ...], ...]]:
    """A layer as nobody in particular sees it, and its offers."""
    return layer.render(), tuple((o.action, o.ref, o.label, o.cls, o.extra) for o in layer.offers)


@pytest.mark.parametrize("players,seed", [(3, 1), (2, 5), (4, 2), (1, 3)])
def test_every_viewer_gets_the_same_public_layer(players: int, seed: int) -> None:
    """Each seat's observation and the spectator's draw the same public layer, in
    both layouts, at every stage of a game (solo included)."""
    for state in positions(players, seed, every=37):
        for layout in LAYOUTS:
            spectator = GAME.presentation(None, None, "en", layout=layout)
            public = shown(spectator.board_public(observe(state, None)))
            for seat in range(players):
                pres = GAME.presentation(seat, None, "en", layout=layout)
                assert shown(pres.board_public(observe(state, seat))) == public, (state.phase, seat, layout)


@pytest.mark.parametrize("players", [3, 1])
def test_the_printed_city_is_the_same_from_start_to_end(players: int) -> None:
    games = list(positions(players, 9, every=10_000, steps=2000))
    first, last = games[0], games[-1]
    for layout in LAYOUTS:
        pres = GAME.presentation(None, None, "en", layout=layout)
        start = pres.board_static(observe(GAME.new_game(players, seed=9), None))
        assert start is not None and not start.offers
        end = pres.board_static(observe(last, 0))
        assert end is not None and start.render() == end.render()
        assert start.width == pres.board_public(observe(first, None)).width


@pytest.mark.parametrize("players,seed", [(3, 4), (1, 6)])
def test_the_board_makes_exactly_the_legal_actions_clickable(players: int, seed: int) -> None:
    """Whatever a seat may do is clickable on its board (on the city, its panels,
    or the tray of the moment's choices), nothing else; a spectator clicks nothing."""
    verbs: set[str] = set()
    for state in positions(players, seed, every=9 if players > 1 else 3, setup=True):
        for layout in LAYOUTS:
            for seat in [*range(players), None]:
                obs = observe(state, seat)
                svg = GAME.presentation(seat, None, "en", layout=layout).svg(obs)
                assert svg is not None and svg.startswith("<svg") and svg.endswith("</svg>")
                clickable = set(ACTION.findall(svg))
                legal = set(state.legal_actions(seat)) if seat in state.players_to_act() else set()
                assert clickable == legal, (state.phase, seat, layout, clickable ^ legal)
                verbs |= {a.split()[0] for a in clickable}
    # the game's key decisions are made on the board
    assert {"keep", "plan", "move", "end"} | ({"hideout"} if players > 1 else set()) <= verbs, verbs


def test_the_seats_panels_go_between_the_public_parts() -> None:
    """A seat's own panels push the public lower part down by their height; the
    spectator's board is the public layer as drawn."""
    state = next(s for s in positions(3, 2, every=1) if s.phase == "draft")
    pres = GAME.presentation(0, None, "en")
    spectator = GAME.presentation(None, None, "en")
    public = spectator.board_public(observe(state, None))
    seat = pres.board_seat(observe(state, 0), public)
    assert seat is not None and seat.anchors["dy"] > 100   # the draft hand
    board = pres.board(observe(state, 0), public, static="")
    assert f'height="{public.height + seat.anchors["dy"]:g}"' in board[:300]
    assert f'<g transform="translate(0 {seat.anchors["dy"]:g})">' in board
    assert f'height="{public.height:g}"' in spectator.board(observe(state, None), public, static="")[:300]


def test_no_secret_reaches_the_shared_layers() -> None:
    """The hand being drafted, the cards kept, the planning tiles laid and a plan
    laid face down: drawn from the seat's own observation, the shared layers are
    the same whatever they are, and name none of them."""
    seen_phases = set()
    for state in positions(3, 8, every=2, steps=300):
        if state.phase not in ("draft", "buy", "plan"):
            continue
        seen_phases.add(state.phase)
        for seat in range(3):
            obs = observe(state, seat)
            other = {**obs, "planning": "P3" if obs.get("planning") else "", "legal": [], "recent": ["D4"]}
            if obs.get("draft"):
                other["draft"] = {**obs["draft"], "hand": ["smoke.0"], "kept": ["smoke.1"]}
            if state.phase == "plan" and obs["plans"][seat] not in (None, "placed"):
                other["plans"] = [*obs["plans"]]
                other["plans"][seat] = "P321"[:len(obs["plans"][seat])]
            for layout in LAYOUTS:
                pres = GAME.presentation(seat, None, "en", layout=layout)
                public = pres.board_public(obs)
                assert shown(public) == shown(pres.board_public(other))
                text = public.render() + (pres.board_static(obs) or Layer()).render()
                # the hand's and kept cards' pieces, and the seat's laid tiles, are its own layer's
                assert "draft-" not in text and "kept-" not in text
                if state.phase == "plan":
                    assert f"plan-{seat + 1}-tile-" not in text
    assert {"draft", "plan"} <= seen_phases


def drawn(state: Any, players: int) -> list[str]:
    """Digests of everything the viewers get of a position: the public layer (as
    nobody sees it, and its offers) and the board put together for each seat and
    the spectator, in both layouts."""
    out = []
    for layout in LAYOUTS:
        spectator = GAME.presentation(None, None, "en", layout=layout)
        public = spectator.board_public(observe(state, None))
        texts = [repr(shown(public))]
        for seat in [*range(players), None]:
            pres = GAME.presentation(seat, None, "en", layout=layout)
            texts.append(pres.board(observe(state, seat), public, static=""))
        out += [hashlib.sha1(t.encode()).hexdigest() for t in texts]
    return out


@pytest.mark.parametrize("players,seed,every,steps", [(3, 11, 1, 70), (4, 12, 5, 400), (1, 13, 2, 120)])
def test_kept_sections_draw_what_a_fresh_drawing_draws(players: int, seed: int, every: int, steps: int) -> None:
    """The sections of the board kept from one position to the next (a guild, the
    plans, the townsfolk, the pieces, the viewer's own guild...) are kept by all they
    show: drawn with everything kept from the positions before, every viewer's
    board is byte for byte the board drawn with nothing kept."""
    clear_memos()
    kept = [drawn(state, players) for state in positions(players, seed, every, steps, setup=True)]
    fresh = []
    for state in positions(players, seed, every, steps, setup=True):
        clear_memos()
        fresh.append(drawn(state, players))
    assert len(kept) > 30
    assert kept == fresh


def test_a_copied_observation_draws_the_same_board() -> None:
    """An observation whose printed city is a copy (not the one shared by every
    observation of that city) is drawn the same: kept parts are found by what
    they show, never by which object showed it."""
    state = next(s for s in positions(3, 14, every=1) if s.phase == "action" and s.turn)
    for seat in (0, None):
        obs = observe(state, seat)
        copy = marshal.loads(marshal.dumps(obs))
        pres = GAME.presentation(seat, None, "en")
        shared = pres.board(obs, pres.board_public(obs), static="")
        clear_memos()
        assert pres.board(copy, pres.board_public(copy), static="") == shared
