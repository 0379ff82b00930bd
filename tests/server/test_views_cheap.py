"""Building a view reads no data file: every game's data, texts and hooks are
cached after their first use, so a busy table never waits on the disk."""
from __future__ import annotations

import builtins
import io
import pathlib

import pytest
import yaml

import thieves
from thieves.core.rng import Rng
from thieves.server.storage import Storage
from thieves.server.tables import TableManager
from thieves.server.views import build_view
from thieves.testing import random_step

GAMES = [slug for slug in thieves.list_games()]


class ReadAFile(AssertionError):
    pass


READS: list[str] = []


def _refuse(*args, **kwargs):
    # recorded as well as raised: the server catches a failing hook and falls back
    READS.append(repr(args[:1]))
    raise ReadAFile(f"a view read a data file: {args[:1]!r}")


def _views(table, state, langs):
    for viewer in [None, *range(state.num_players)]:
        for lang in langs:
            build_view(table, state, viewer, lang)


@pytest.mark.parametrize("slug", GAMES)
def test_building_a_view_reads_no_file(slug, tmp_path, monkeypatch):
    manager = TableManager(Storage(f"sqlite:///{tmp_path / 'v.db'}"))
    game = thieves.load_game(slug)
    n = min(game.max_players, max(game.min_players, 3))
    # warm-up: one random game, every viewer, every language
    table, _ = manager.create(slug, n, [{"kind": "open"}] * n)
    rng = Rng.from_seed(1)
    for step in range(60):
        if table.state.is_terminal():
            break
        if step % 5 == 0:
            _views(table, table.state, ("en", "fr", "de"))
        random_step(table.state, rng)
    # then another table: no file may be opened or parsed while its views are built
    other, _ = manager.create(slug, n, [{"kind": "open"}] * n)
    rng = Rng.from_seed(2)
    READS.clear()
    for step in range(40):
        if other.state.is_terminal():
            break
        with monkeypatch.context() as m:
            for target, name in ((builtins, "open"), (io, "open"), (pathlib.Path, "open"),
                                 (pathlib.Path, "read_text"), (pathlib.Path, "read_bytes"),
                                 (yaml, "load"), (yaml, "safe_load")):
                m.setattr(target, name, _refuse)
            _views(other, other.state, ("en", "de") if step % 2 else ("fr",))
        assert not READS, (slug, other.state.ply, READS[:3])
        random_step(other.state, rng)
