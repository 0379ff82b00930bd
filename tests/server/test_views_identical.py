"""Kept pieces never change what a player sees.

The boards keep what they drew (the static layers of a board, cards, dice,
figures, words) in bounded memos keyed by everything each piece shows, so a
view is mostly put together from pieces drawn for earlier positions. Here,
along seeded random games of every game, for spectators and every seat, in
both layouts and every language, a view built with the memos warm from the
positions before must equal, byte for byte, the same view built after every
memo was emptied (the cold path draws everything afresh).
"""
from __future__ import annotations

import json

import pytest

import thieves
from thieves.core.rng import Rng
from thieves.core.svg import MEMOS, clear_memos
from thieves.server.storage import Storage
from thieves.server.tables import TableManager
from thieves.server.views import build_view
from thieves.testing import random_step

GAMES = ["thiefs-market", "thieves-den", "age-of-thieves", "thiefdom", "cadwallon"]
LANGS = ("en", "fr", "de")
NAMES = ["Ann", "Bo <&> \"x\"", "Player 1", "Élodie"]


def _text(view: dict) -> str:
    return json.dumps(view, sort_keys=True, ensure_ascii=False)


def _cold(table, state, viewer, lang, layout) -> str:
    clear_memos()
    table.log_cache.clear()
    table.events_cache.clear()
    table.public_obs = None
    return _text(build_view(table, state, viewer, lang, layout=layout))


# the largest boards take over 10 s each: in the full run only
LARGE_BOARDS = {"thiefdom", "age-of-thieves", "cadwallon"}


@pytest.mark.parametrize("slug", [pytest.param(g, marks=pytest.mark.slow) if g in LARGE_BOARDS else g for g in GAMES])
def test_kept_pieces_draw_what_a_fresh_drawing_draws(slug, tmp_path):
    manager = TableManager(Storage(f"sqlite:///{tmp_path / 'v.db'}"))
    game = thieves.load_game(slug)
    compared = 0
    for n, seed in ((min(game.max_players, 3), 1), (min(game.max_players, 4), 2)):
        table, _ = manager.create(slug, n, [{"kind": "human", "name": NAMES[i]} for i in range(n)], seed=seed)
        rng = Rng.from_seed(seed)
        for step in range(48):
            if table.state.is_terminal():
                break
            # warm: every viewer after every decision, as a server builds them
            warm = {}
            for viewer in [None, *range(n)]:
                lang = LANGS[(step + (viewer or 0)) % 3]
                layout = "narrow" if (step + (viewer or 0)) % 4 == 0 else "wide"
                warm[viewer, lang, layout] = _text(build_view(table, table.state, viewer, lang, layout=layout))
            if step % 6 == 5:
                for (viewer, lang, layout), text in warm.items():
                    assert _cold(table, table.state, viewer, lang, layout) == text, (slug, n, step, viewer)
                    compared += 1
            # as the server does: the decision on a copy, which becomes the
            # table's state (a table's state is never changed in place, so the
            # log entries a view has read never change either)
            state = table.state.clone()
            random_step(state, rng)
            table.state = state
            table.version += 1
    assert compared >= 20


def test_every_memo_stays_within_its_bound(tmp_path):
    manager = TableManager(Storage(f"sqlite:///{tmp_path / 'v.db'}"))
    for slug in GAMES:  # every game's drawing imported: its memos are listed
        table, _ = manager.create(slug, 3, [{"kind": "open"}] * 3, seed=5)
        build_view(table, table.state, None, "en")
    sizes = [memo.size for memo in MEMOS]
    clear_memos()
    for memo in MEMOS:
        memo.size = 3   # a tiny bound: the oldest entries must go
    try:
        for slug in GAMES:
            table, _ = manager.create(slug, 3, [{"kind": "open"}] * 3, seed=5)
            rng = Rng.from_seed(5)
            for _ in range(12):
                if table.state.is_terminal():
                    break
                for viewer in (None, 0):
                    build_view(table, table.state, viewer, "en")
                random_step(table.state, rng)
        assert all(len(memo.items) <= 3 for memo in MEMOS)
        assert any(len(memo.items) == 3 for memo in MEMOS)
    finally:
        for memo, size in zip(MEMOS, sizes):
            memo.size = size
        clear_memos()
