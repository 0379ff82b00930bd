"""What a table keeps between two views of one viewer (the events of the log
entries already read, the log lines written) is that viewer's own and equals
what a fresh view reads, along the server's own paths: decisions, an undo, a
catch-up with another process's decisions, a table read back from storage."""
from __future__ import annotations

import random

import pytest

from thieves.server.storage import Storage
from thieves.server.tables import TableManager
from thieves.server.views import build_view


def _fresh(table, viewer, lang):
    kept = table.events_cache.copy(), table.log_cache.copy()
    table.events_cache.clear()
    table.log_cache.clear()
    try:
        return build_view(table, table.state, viewer, lang)
    finally:
        table.events_cache, table.log_cache = kept


def _check(table, langs=("en", "fr")):
    n = table.rec.num_players
    for i, viewer in enumerate([None, *range(n)]):
        lang = langs[i % len(langs)]
        view = build_view(table, table.state, viewer, lang)
        assert view == _fresh(table, viewer, lang), (table.state.ply, viewer)
        # the kept events are exactly what this viewer may read
        assert table.events_cache[viewer][1] == table.state.visible_events(viewer)
        assert table.events_cache[viewer][0] == table.state.log


@pytest.mark.parametrize("slug", ["thieves-den", "thiefs-market", "cadwallon"])
def test_kept_events_and_lines_equal_fresh_ones_along_the_servers_paths(slug, tmp_path):
    url = f"sqlite:///{tmp_path / 'c.db'}"
    ma, mb = TableManager(Storage(url)), TableManager(Storage(url))
    table, _tokens = ma.create(slug, 3, [{"kind": "human"}] * 3, seed=11)
    rng = random.Random(11)
    undone = caught_up = 0
    for step in range(70):
        if table.state.is_terminal():
            break
        _check(table)
        seat = rng.choice(table.state.players_to_act())
        if step % 9 == 8:
            # another process decides; this one catches up (its copy of the table
            # is rebuilt from the stored rows on a copy of its state)
            other = mb.get(table.id)
            mb.refresh(other)
            s = rng.choice(other.state.players_to_act())
            mb.act(other, s, rng.choice(other.state.legal_actions(s)))
            assert ma.refresh(table)
            caught_up += 1
            continue
        ma.act(table, seat, rng.choice(table.state.legal_actions(seat)))
        if step % 5 == 4 and table.may_undo(seat) is not None:
            _check(table)
            ma.undo(table, seat)
            undone += 1
    _check(table)
    # read back from storage: new entries, read whole
    ma.unload(table.id)
    again = ma.get(table.id)
    assert again is not table and not again.events_cache
    _check(again)
    assert caught_up >= 3
    if slug != "cadwallon":
        assert undone >= 1


@pytest.mark.parametrize("slug", ["thiefs-market", "thieves-den", "age-of-thieves", "thiefdom", "cadwallon"])
def test_recent_marks_read_from_the_end_are_those_of_every_entry(slug, tmp_path):
    """A view marks the log lines and board refs after the viewer's last
    decision reading the log from its end (``recent_from``): the log is in the
    order of its moves, and the marks are those of reading every entry."""
    from thieves.core.rng import Rng
    from thieves.server.views import recent_from, visible_events
    from thieves.testing import random_step

    manager = TableManager(Storage(f"sqlite:///{tmp_path / 'r.db'}"))
    table, _ = manager.create(slug, 3, [{"kind": "human"}] * 3, seed=6)
    rng = Rng.from_seed(6)
    for _ in range(60):
        if table.state.is_terminal():
            break
        state = table.state.clone()
        random_step(state, rng)
        table.state = state
        table.version += 1
        for viewer in (None, 0, 1, 2):
            events = visible_events(table, state, viewer)
            plies = [ev.get("ply", 0) for ev in events]
            assert plies == sorted(plies)
            last = state.last_decision(viewer)
            view = build_view(table, state, viewer, "en")
            assert view["log_recent"] == [p > last for p in plies]
            assert view["observation"]["recent"] == sorted(
                {r for refs, p in zip(view["log_refs"], plies) if p > last for r in refs})
            assert recent_from(events, last) == next((i for i, p in enumerate(plies) if p > last), len(plies))


def test_views_kept_are_bounded_in_bytes_per_table_and_overall(tmp_path):
    """Every variant of a Thiefdom table's views cached held about 33 MB: the
    views a table keeps are counted in bytes, the least recently used go first,
    within a bound per table and one for all tables."""
    from thieves.server.websocket import ViewCache, view_bytes

    m = TableManager(Storage(f"sqlite:///{tmp_path / 'v.db'}"))
    tables = [m.create("thiefs-market", 3, [{"kind": "human"}] * 3, seed=s)[0] for s in (1, 2)]
    one = view_bytes(build_view(tables[0], tables[0].state, None, "en"))
    cache = ViewCache(per_table=3 * one, total=5 * one)
    variants = [(v, lang) for v in (None, 0, 1, 2) for lang in ("en", "fr", "de")]
    for viewer, lang in variants:
        cache.latest(tables[0], viewer, lang).frames()
    assert cache.bytes_of(tables[0].id) <= 3 * one * 1.2
    # the most recent are kept (asked again: not built again), the oldest went
    kept = cache.latest(tables[0], 2, "de")
    assert cache.latest(tables[0], 2, "de") is kept
    first = cache.latest(tables[0], None, "en")
    assert first.serial > kept.serial  # built again
    for viewer, lang in variants:
        cache.latest(tables[1], viewer, lang)
    assert cache.nbytes <= 5 * one * 1.2
    assert cache.nbytes == sum(cache.bytes_of(t.id) for t in tables)
    cache.forget(tables[0].id)
    assert cache.bytes_of(tables[0].id) == 0 and cache.nbytes == cache.bytes_of(tables[1].id)


def test_log_lines_are_kept_for_a_bounded_number_of_viewers(tmp_path):
    from thieves.server import views

    m = TableManager(Storage(f"sqlite:///{tmp_path / 'l.db'}"))
    table, _ = m.create("thiefs-market", 4, [{"kind": "human"}] * 4, seed=3)
    for viewer in [None, 0, 1, 2, 3]:
        for lang in ("en", "fr", "de"):
            for layout in ("wide", "narrow"):
                build_view(table, table.state, viewer, lang, layout=layout)
    assert len(table.log_cache) == views.LOG_CACHE_KEYS
    assert (3, "de", "narrow") in table.log_cache  # the newest stay
    _check(table)
