"""The paths the load benchmark made cheaper keep their behaviour: a catch-up
with storage never interleaves with a write of the same process, another
process's announced decision is applied without reading the database only
when it is exactly the next one, log lines kept between views equal freshly
written ones, and a table read in a worker thread is kept once."""
from __future__ import annotations

import asyncio
import random
import time

import pytest

from thieves.core.registry import GAME_MODULES, load_game
from thieves.server.storage import Storage
from thieves.server.tables import TableManager
from thieves.server.views import build_view


def _two_managers(tmp_path) -> tuple[TableManager, TableManager, Storage]:
    """Two processes' managers on one database (as with several servers)."""
    url = f"sqlite:///{tmp_path}/shared.db"
    a, b = Storage(url), Storage(url)
    return TableManager(a), TableManager(b), a


def _humans(manager: TableManager, players: int = 3):
    return manager.create("thiefs-market", players, [{"kind": "human"}] * players)


def test_a_catch_up_waits_for_a_write_in_flight(tmp_path):
    ma, mb, _ = _two_managers(tmp_path)
    table_a, _tokens = _humans(ma)
    table = mb.get(table_a.id)
    seat = table.state.players_to_act()[0]
    action = table.state.legal_actions(seat)[0]
    real_add = mb.storage.add_action

    def slow_add(*args, **kwargs):
        real_add(*args, **kwargs)  # stored; the answer comes late
        time.sleep(0.3)

    mb.storage.add_action = slow_add  # type: ignore[method-assign]

    async def both() -> None:
        act = asyncio.create_task(mb.act_async(table, seat, action))
        await asyncio.sleep(0.1)  # the row is stored, not yet applied here
        await mb.refresh_async(table)
        await act

    asyncio.run(both())
    # the catch-up did not apply this process's own row a second time
    assert table.rows == 1 and table.state.ply == 1
    assert table.state.history == [(seat, action)] or table.state.history == [[seat, action]]
    assert not table.broken


def test_an_announced_decision_is_applied_without_reading_storage(tmp_path):
    ma, mb, _ = _two_managers(tmp_path)
    table_a, _tokens = _humans(ma)
    table_b = mb.get(table_a.id)
    first = table_a.state.players_to_act()[0]
    ma.act(table_a, first, table_a.state.legal_actions(first)[0])
    news = {k: v for k, v in table_a.news.items() if k != "version"}

    def no_reads(*_a, **_k):
        raise AssertionError("the announced decision was applied by reading storage")

    mb.storage.mark = no_reads  # type: ignore[method-assign]
    assert mb.apply_news(table_b, news)
    assert table_b.state.history == table_a.state.history
    assert table_b.rows == table_a.rows == 1
    assert table_b.seen == table_a.seen
    assert mb.apply_news(table_b, news) is False  # the same decision twice: not the next row


def test_news_that_does_not_follow_is_left_to_storage(tmp_path):
    ma, mb, _ = _two_managers(tmp_path)
    table_a, _tokens = _humans(ma)
    table_b = mb.get(table_a.id)
    for _ in range(2):
        seat = table_a.state.players_to_act()[0]
        ma.act(table_a, seat, table_a.state.legal_actions(seat)[0])
    second = {k: v for k, v in table_a.news.items() if k != "version"}
    assert mb.apply_news(table_b, second) is False  # a decision was missed: read storage
    assert table_b.rows == 0
    wrong_before = dict(second, row=0, before=[0, 1.0])
    assert mb.apply_news(table_b, wrong_before) is False  # something else changed meanwhile
    assert mb.refresh(table_b)
    assert table_b.state.history == table_a.state.history


def test_news_is_not_offered_after_another_change(tmp_path):
    from thieves.server.platform import Platform

    ma, _mb, _ = _two_managers(tmp_path)
    table, _tokens = _humans(ma)
    seat = table.state.players_to_act()[0]
    ma.act(table, seat, table.state.legal_actions(seat)[0])
    assert Platform._news(table) is not None
    table.version += 1  # e.g. a seat taken after the decision
    assert Platform._news(table) is None


@pytest.mark.parametrize("slug", sorted(s for s, module in GAME_MODULES.items()
                                        if module.startswith("thieves.games.")))
def test_log_lines_kept_between_views_equal_fresh_ones(slug):
    manager = TableManager(Storage("sqlite:///:memory:"))
    game = load_game(slug)
    players = max(game.min_players, min(3, game.max_players))
    table, _tokens = manager.create(slug, players, [{"kind": "human"}] * players)
    if table.state.game.presentation(None, table.display_names("en"), "en") is None:
        pytest.skip(f"{slug} has no presentation class")
    rng = random.Random(7)
    states = [table.state.clone()]
    for _ in range(30):
        state = table.state
        if state.is_terminal():
            break
        seat = state.players_to_act()[0]
        state = state.clone()
        table._advance(state, seat, rng.choice(state.legal_actions(seat)))
        table.state = state
        table.version += 1
        states.append(state.clone())
        for viewer in (None, seat):
            kept = build_view(table, state, viewer, "fr")
            table.log_cache.clear()
            fresh = build_view(table, state, viewer, "fr")
            assert (kept["log"], kept["log_refs"]) == (fresh["log"], fresh["log_refs"])
    # going back (a replay, an undo): the log shrinks and is written again
    early = build_view(table, states[2], None, "fr")
    table.log_cache.clear()
    assert early["log"] == build_view(table, states[2], None, "fr")["log"]
    # a seat's new name is written into every line again
    build_view(table, table.state, None, "en")
    table.rec.seats[0]["name"] = "Zoé"
    renamed = build_view(table, table.state, None, "en")
    table.log_cache.clear()
    assert renamed["log"] == build_view(table, table.state, None, "en")["log"]


def test_a_table_read_twice_at_once_is_kept_once(tmp_path):
    ma, mb, _ = _two_managers(tmp_path)
    table_a, _tokens = _humans(ma)

    async def both():
        return await asyncio.gather(mb.get_async(table_a.id), mb.get_async(table_a.id))

    one, two = asyncio.run(both())
    assert one is two is mb.tables[table_a.id]
    with pytest.raises(Exception) as exc:
        asyncio.run(mb.get_async("nosuchtable"))
    assert getattr(exc.value, "code", None) == "unknown_table"


def test_one_text_is_compressed_once_and_reads_back():
    import zlib

    from thieves.server.wsdeflate import compressed

    text = ('{"type": "state", "svg": "' + "<g><rect/></g>" * 2000 + '"}').encode()
    first = compressed(text, 12)
    assert compressed(text, 12) is first  # kept: the next socket sends the same bytes
    dec = zlib.decompressobj(wbits=-12)
    assert dec.decompress(first + b"\x00\x00\xff\xff") == text
    assert len(first) < len(text) // 10


@pytest.mark.slow  # a real server process
def test_a_real_server_sends_shared_compressed_frames(tmp_path):
    """Browsers' sockets negotiate permessage-deflate without server context
    takeover, and every spectator reads the same position."""
    import json

    import httpx
    from websockets.sync.client import connect

    from .test_durability import _free_port, _start

    port = _free_port()
    proc = _start(port, f"sqlite:///{tmp_path / 'deflate.db'}")
    try:
        base = f"http://127.0.0.1:{port}"
        made = httpx.post(base + "/api/tables", json={
            "game": "thiefs-market", "players": 3,
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]}).json()
        frames = []
        for _ in range(2):
            with connect(f"ws://127.0.0.1:{port}/ws/{made['id']}", max_size=None) as ws:
                extensions = ws.response.headers.get("Sec-WebSocket-Extensions", "")
                assert "permessage-deflate" in extensions and "server_no_context_takeover" in extensions
                frames.append(json.loads(ws.recv(timeout=10)))
        assert frames[0]["type"] == frames[1]["type"] == "state"
        assert frames[0]["svg"] == frames[1]["svg"] and frames[0]["viewer"] is None
    finally:
        proc.terminate()
        proc.wait(10)
