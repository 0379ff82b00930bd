"""Stable piece ids on every game's board (table standard part 16, docs/engine.md "Stable ids").

The page slides a piece from where it was to where it is by its ``data-pid``:
within one drawing an id names one piece; from one position to the next an id
names the same piece (the same kind of piece, the same card); a spectator's
pieces are every seat's pieces too (a public piece has one id for everyone);
and an id never tells what the viewer's view does not show.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from typing import Any

import pytest

import thieves
from thieves.core.game import State
from thieves.core.rng import Rng
from thieves.testing import random_step

GAMES = ("thiefs-market", "thieves-den", "age-of-thieves", "thiefdom", "cadwallon")
STEPS = 24


def _svg(state: State, viewer: int | None, layout: str = "wide") -> str:
    pres = state.game.presentation(viewer, None, "en", state.options.get("data_dir"), layout=layout)
    obs = {k: v for k, v in state.observation(viewer).items() if k != "log"}
    obs["recent"] = []
    svg = pres.svg(obs)
    assert svg
    return svg


def _pieces(svg: str) -> list[ET.Element]:
    return [el for el in ET.fromstring(svg).iter() if "data-pid" in el.attrib]


def _signature(el: ET.Element) -> tuple[Any, ...]:
    """What a piece is, whatever its place: its kind, else what it names."""
    if "data-kind" in el.attrib:
        return (el.attrib["data-kind"],)
    return tuple(sorted({e.attrib["data-ref"] for e in el.iter() if "data-ref" in e.attrib}))


def _positions(slug: str, seed: int = 3) -> list[State]:
    state = thieves.load_game(slug).new_game(3, seed=seed)
    rng, out = Rng(seed), [state.clone()]
    for _ in range(STEPS):
        if state.is_terminal():
            break
        random_step(state, rng)
        out.append(state.clone())
    return out


@pytest.mark.parametrize("slug", GAMES)
def test_piece_ids_are_unique_and_stable(slug: str) -> None:
    positions = _positions(slug)
    for layout in ("wide", "narrow"):
        before: dict[int | None, dict[str, tuple[Any, ...]]] = {}
        for state in positions:
            seen: dict[int | None, set[str]] = {}
            for viewer in (0, 1, 2, None):
                pieces = _pieces(_svg(state, viewer, layout))
                ids = [el.attrib["data-pid"] for el in pieces]
                twice = [i for i, n in Counter(ids).items() if n > 1]
                assert not twice, f"{slug} ply {state.ply} seat {viewer} {layout}: ids drawn twice {twice}"
                assert ids, f"{slug} ply {state.ply}: no piece carries an id"
                now = {el.attrib["data-pid"]: _signature(el) for el in pieces}
                # the same id names the same piece in the next position
                for pid in now.keys() & before.get(viewer, {}).keys():
                    if now[pid] and before[viewer][pid]:   # (a piece that names nothing says nothing)
                        assert now[pid] == before[viewer][pid], f"{slug} ply {state.ply}: {pid} changed what it is"
                before[viewer] = now
                seen[viewer] = set(now)
            for seat in (0, 1, 2):   # what a spectator sees is public: every seat has it, by the same id
                # (a place holding what only its owner sees is a "slot" to the others)
                missing = {pid for pid in seen[None] - seen[seat] if "-slot-" not in pid}
                assert not missing, f"{slug} ply {state.ply} {layout}: seat {seat} lacks public ids {missing}"


def test_drawing_the_same_position_twice_gives_the_same_ids() -> None:
    for slug in GAMES:
        state = _positions(slug)[-1]
        assert [e.attrib["data-pid"] for e in _pieces(_svg(state, 0))] == \
            [e.attrib["data-pid"] for e in _pieces(_svg(state, 0))]


def _ids(state: State, viewer: int) -> list[str]:
    return sorted(el.attrib["data-pid"] for el in _pieces(_svg(state, viewer)))


def test_a_rivals_secret_plan_changes_no_id_in_thiefdom() -> None:
    """Thiefdom: a rival's face-down plan is drawn as slots; which tiles it
    holds changes neither the ids nor anything else of the viewer's board."""
    state = thieves.load_game("thiefdom").new_game(3, seed=4)
    rng = Rng(4)
    for _ in range(400):
        if state.phase == "plan" and state.plans[1] is not None and state.plans[0] is None:
            break
        to_act = state.players_to_act()
        # seat 0 waits while the others plan
        who = [p for p in to_act if not (state.phase == "plan" and p == 0)] or to_act
        p = who[rng.below(len(who))]
        acts = state.legal_actions(p)
        state.apply_action(p, acts[rng.below(len(acts))])
    else:
        pytest.fail("no position where a rival has planned and seat 0 has not")
    other = state.clone()
    plan = state.plans[1]
    assert plan is not None and len(set(plan)) > 1
    other.plans[1] = plan[::-1]
    assert _ids(state, 0) == _ids(other, 0)
    assert _svg(state, 0) == _svg(other, 0)
    assert _ids(state, 1) != _ids(other, 1) or _svg(state, 1) != _svg(other, 1)  # the rival sees its own plan


def test_a_rivals_hidden_hand_changes_no_id_in_cadwallon() -> None:
    """Cadwallon: a rival's hand holding other cards gives the viewer the same ids."""
    state = thieves.load_game("cadwallon").new_game(3, seed=5)
    rng = Rng(5)
    while not (state.hands[1] and state.deck and any(c != state.hands[1][0] for c in state.deck)):
        random_step(state, rng)
    other = state.clone()
    k = next(i for i, c in enumerate(other.deck) if c != other.hands[1][0])
    other.hands[1][0], other.deck[k] = other.deck[k], other.hands[1][0]
    assert _ids(state, 0) == _ids(other, 0)
    assert _ids(state, 1) != _ids(other, 1)   # its holder sees which card it holds


def test_the_kit_wraps_a_piece_in_its_id() -> None:
    from thieves.core.svg import Svg, piece_head, slot_pid
    s = Svg(100, 100)
    s.card(10, 10, 50, 60, "Rope", "Climb.", pid="card-C1")
    s.card(10, 10, 50, 60, "Rope", "Climb.")          # the same card, kept: no id of the first
    with s.moving("thief-den1-2", "thief", 3, (5, 6), origin='a"b'):
        s.circle(5, 6, 4, "#000")
    with s.moving(None):
        s.circle(7, 7, 2, "#000")
    root = ET.fromstring(s.done())
    pieces = [el.attrib for el in root.iter() if "data-pid" in el.attrib]
    assert [p["data-pid"] for p in pieces] == ["card-C1", "thief-den1-2"]
    assert pieces[1] == {"data-pid": "thief-den1-2", "data-kind": "thief", "data-count": "3",
                         "data-at": "5 6", "data-from": 'a"b'}
    assert slot_pid("hand-1", 3) == "hand-1-slot-3"
    assert piece_head("x") == '<g data-pid="x">'
