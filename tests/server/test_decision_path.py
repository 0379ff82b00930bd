"""A decision's path through the server costs one database round trip: the
write is stored only on the table's row as this process last saw it (no read
before it), on SQLite and PostgreSQL alike; when another process changed the
table meanwhile nothing is stored, the table catches up and the decision is
made on the new position. Redis messages are batched, bot locks renewed only
when due."""
from __future__ import annotations

import asyncio
import json
import secrets

import pytest

from thieves.core.registry import GAME_MODULES, load_game
from thieves.server.shared import LOCK_TTL, WATCH_TTL, BotLock, Fanout, pack_views, unpack_views
from thieves.server.storage import Storage, TableRecord
from thieves.server.tables import TableManager
from thieves.server.websocket import ViewCache
from thieves.server.wsdeflate import FORWARD_BITS

from .test_postgres import PG_URL, _pg_answers


@pytest.fixture(params=["sqlite", "postgresql"])
def storage(request, tmp_path):
    if request.param == "sqlite":
        s = Storage(f"sqlite:///{tmp_path}/decisions.db")
        yield s
        s.close()
        return
    if not _pg_answers():
        pytest.skip("no PostgreSQL server answers at 127.0.0.1:5432 (database 'test')")
    s = Storage(PG_URL, prefix=f"d{secrets.token_hex(4)}_")
    yield s
    s.drop_all()
    s.close()


def _record(table_id: str = "t1") -> TableRecord:
    seats = [{"kind": "human", "bot": None, "name": f"Player {i + 1}"} for i in range(3)]
    return TableRecord(table_id, "thiefs-market", 3, 7, {}, seats, rng="keyed", created=1000.0)


def test_an_action_is_stored_only_on_the_row_it_saw(storage):
    storage.add_table(_record(), status="playing")
    assert storage.mark("t1") == (0, 1000.0)
    assert storage.add_action("t1", 0, 0, "bid 2", "playing", 1001.5, None, 1001.5, (0, 1000.0)) is True
    assert storage.mark("t1") == (1, 1001.5)
    assert storage.load_actions("t1") == [[0, "bid 2"]]
    # what another process saw before that write: nothing is stored, nothing changes
    assert storage.add_action("t1", 1, 1, "bid 1", "playing", 1002.0, None, 1002.0, (0, 1000.0)) is False
    assert storage.add_action("t1", 1, 1, "bid 1", "playing", 1002.0, None, 1002.0, (1, 1000.0)) is False
    assert storage.mark("t1") == (1, 1001.5)
    assert storage.load_actions("t1") == [[0, "bid 2"]]
    # the row as it is now: stored, with who decided and when
    assert storage.add_action("t1", 1, 1, "bid 1", "finished", 1003.0, "sub:greedy", 1003.0, (1, 1001.5))
    assert storage.load_actions("t1") == [[0, "bid 2"], [1, "bid 1"]]
    assert storage.deciders("t1") == {1: "sub:greedy"}
    assert storage.action_times("t1") == [1001.5, 1003.0]
    assert storage.list_tables()[0]["status"] == "finished"


def test_an_action_without_a_row_seen_is_stored_and_a_second_one_at_its_move_fails(storage):
    storage.add_table(_record(), status="playing")
    assert storage.add_action("t1", 0, 0, "bid 2", "playing", 1001.0, None, 1001.0) is True
    assert storage.mark("t1") == (1, 1001.0)
    with pytest.raises(Exception) as err:
        storage.add_action("t1", 0, 1, "bid 1", "finished", 1002.0, None, 1002.0)
    assert "IntegrityError" in [c.__name__ for c in type(err.value).__mro__]
    # the failed write changed nothing (the table's row neither), and the storage goes on
    assert storage.mark("t1") == (1, 1001.0) and storage.load_actions("t1") == [[0, "bid 2"]]
    assert storage.list_tables()[0]["status"] == "playing"
    assert storage.add_action("t1", 1, 1, "bid 1") is True


def test_a_row_of_an_older_version_counts_as_move_zero(storage):
    storage.add_table(_record(), status="playing")
    with storage.engine.begin() as c:  # made before the mark was kept
        c.execute(storage.tables.update().values(ply=None, updated=None))
    assert storage.mark("t1") == (0, 0.0)
    assert storage.add_action("t1", 0, 0, "bid 2", None, 5.0, None, 5.0, (0, 0.0)) is True
    assert storage.mark("t1") == (1, 5.0)


def _two_managers(tmp_path) -> tuple[TableManager, TableManager]:
    url = f"sqlite:///{tmp_path}/shared.db"
    return TableManager(Storage(url)), TableManager(Storage(url))


def _play_one_turn(manager: TableManager, table) -> list[list]:
    """The seat to act plays (its last legal action each time) until another seat
    is to act; returns the stored rows."""
    seat = table.state.players_to_act()[0]
    for _ in range(30):
        manager.act(table, seat, table.state.legal_actions(seat)[-1])
        if seat not in table.state.players_to_act():
            break
    return [[p, a] for p, a in table.state.history]


def _counting_marks(manager: TableManager) -> list[str]:
    reads: list[str] = []
    real_mark = manager.storage.mark

    def counted_mark(table_id):
        reads.append(table_id)
        return real_mark(table_id)

    manager.storage.mark = counted_mark  # type: ignore[method-assign]
    return reads


def test_a_decision_on_an_outdated_table_catches_up_and_is_judged_on_the_new_position(tmp_path):
    ma, mb = _two_managers(tmp_path)
    table_a, _tokens = ma.create("thiefs-market", 3, [{"kind": "human"}] * 3)
    table_b = mb.get(table_a.id)
    first = table_a.state.players_to_act()[0]
    stored = _play_one_turn(ma, table_a)  # B has not heard of it
    reads = _counting_marks(mb)
    # the same seat again on B (e.g. a second device): B's copy still allows it
    assert first in table_b.state.players_to_act()
    from thieves.server.tables import ServerError

    with pytest.raises(ServerError) as err:
        asyncio.run(mb.act_async(table_b, first, table_b.state.legal_actions(first)[0]))
    assert err.value.code == "not_your_turn"
    # the write found the change (nothing stored), B caught up with one read
    assert reads == [table_a.id]
    assert mb.storage.load_actions(table_a.id) == stored
    assert table_b.rows == len(stored) and table_b.state.history == table_a.state.history
    reads.clear()
    # now B knows the row: the next decision is one write, no read
    seat = table_b.state.players_to_act()[0]
    asyncio.run(mb.act_async(table_b, seat, table_b.state.legal_actions(seat)[0]))
    assert reads == [] and table_b.rows == len(stored) + 1


def test_a_process_behind_takes_a_decision_it_had_not_heard_was_due(tmp_path):
    from thieves.server.platform import Platform
    from thieves.server.limits import Limits

    class Announced:
        def __init__(self) -> None:
            self.tables: list[str] = []

        def announce(self, table_id, news=None, views=None):
            self.tables.append(table_id)

    ma, mb = _two_managers(tmp_path)
    shared = Announced()
    platform = Platform(mb.storage, 0.5, Limits(), shared)  # type: ignore[arg-type]
    table_a, _tokens = ma.create("thiefs-market", 3, [{"kind": "human"}] * 3)
    table_b = asyncio.run(platform.get(table_a.id))
    stored = _play_one_turn(ma, table_a)  # B has not heard of it
    seat = table_a.state.players_to_act()[0]
    assert seat not in table_b.state.players_to_act()
    action = table_a.state.legal_actions(seat)[0]
    asyncio.run(platform.act(table_b, seat, action))
    assert platform.storage.load_actions(table_a.id) == stored + [[seat, action]]
    assert table_b.rows == len(stored) + 1 and shared.tables == [table_a.id]


def test_a_seat_change_by_another_process_is_seen_before_a_decision(tmp_path):
    ma, mb = _two_managers(tmp_path)
    table_a, _tokens = ma.create("thiefs-market", 3, [{"kind": "human"}] * 3)
    table_b = mb.get(table_a.id)
    seat = table_a.state.players_to_act()[0]
    ma.leave(table_a, seat, "random")  # a bot plays the seat now: its person may not act
    from thieves.server.tables import ServerError

    with pytest.raises(ServerError) as err:
        asyncio.run(mb.act_async(table_b, seat, table_b.state.legal_actions(seat)[0]))
    assert err.value.code == "substituted"
    assert mb.storage.load_actions(table_a.id) == []
    assert table_b.rec.seats[seat].get("sub") == "random"


def test_a_bot_move_on_an_outdated_table_is_not_stored(tmp_path):
    ma, mb = _two_managers(tmp_path)
    table_a, _tokens = ma.create("thiefs-market", 3,
                                 [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 2)
    while table_a.bot_to_act() is None:  # the person plays until a bot is to act
        ma.act(table_a, 0, table_a.state.legal_actions(0)[0])
    table_b = mb.get(table_a.id)
    seat = table_a.bot_to_act()
    ply, action = ma.bot_choice(table_a, seat)
    assert ma.bot_commit(table_a, seat, ply, action)  # B has not heard of it
    stored = mb.storage.load_actions(table_a.id)
    seat_b = table_b.bot_to_act()
    ply_b, action_b = mb.bot_choice(table_b, seat_b)
    # B's bot decided on the position before A's decision: not stored; B caught up
    assert asyncio.run(mb.bot_commit_async(table_b, seat_b, ply_b, action_b)) is False
    assert mb.storage.load_actions(table_a.id) == stored
    assert table_b.rows == len(stored) and table_b.state.history == table_a.state.history


def _fanout(redis) -> Fanout:
    """A Fanout on a fake Redis, as process "me" with the table prefix "x_"."""
    fan = Fanout.__new__(Fanout)
    fan.redis, fan.channel, fan.to_prefix, fan.me = redis, "thieves:x_changes", "thieves:x_to:", "me"
    fan._mine = json.dumps({"from": "me"})[:-1].encode()
    fan._task, fan._outbox, fan._sender, fan._letters = None, [], None, {}
    fan.url, fan._failures, fan._troubles = "redis://fake", 0, {}
    return fan


def test_changes_announced_together_go_out_in_one_message_in_order():
    sent: list[tuple[str, str | bytes]] = []

    class FakePipeline:
        def __init__(self) -> None:
            self.commands: list[tuple[str, str | bytes]] = []

        async def __aenter__(self):
            return self

        async def __aexit__(self, *exc):
            return False

        def publish(self, channel, text):
            self.commands.append((channel, text))

        async def execute(self):
            sent.extend(self.commands)
            trips.append(len(self.commands))

    class FakeRedis:
        async def publish(self, channel, text):
            sent.append((channel, text))
            trips.append(1)

        def pipeline(self, transaction=True):
            assert transaction is False  # in order, no MULTI
            return FakePipeline()

    trips: list[int] = []

    async def go():
        fan = _fanout(FakeRedis())
        fan.announce("a", {"row": 0, "version": 3, "after": [1, 5.5]})
        fan.announce("b", None, {"B": [("en", "wide", b"nope")]})  # no decision: no views either
        fan.watch("x", [("fr", "narrow")])
        fan.announce("a", {"row": 1, "version": 4, "after": [2, 6.5]},
                     {"B": [("en", "wide", b"\x00\n{}"), ("fr", "narrow", b"")], "C": [("de", "wide", b"zz")]})
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        fan.announce("c")
        await asyncio.sleep(0)
        await asyncio.sleep(0)

    asyncio.run(go())
    assert trips == [3, 1]  # one round trip per batch
    # each process's views on its own channel, before the news they go with
    assert [channel for channel, _text in sent] == ["thieves:x_to:B", "thieves:x_to:C", "thieves:x_changes",
                                                    "thieves:x_changes"]
    assert unpack_views(sent[0][1]) == ("me", {("a", (2, 6.5)): [("en", "wide", b"\x00\n{}"),
                                                                 ("fr", "narrow", b"")]})
    assert unpack_views(sent[1][1]) == ("me", {("a", (2, 6.5)): [("de", "wide", b"zz")]})
    messages = [json.loads(text) for channel, text in sent if channel == "thieves:x_changes"]
    assert [[c["table"] for c in m["changes"]] for m in messages] == [["a", "b", "x", "a"], ["c"]]
    first = messages[0]["changes"]
    assert first[0] == {"table": "a", "news": {"row": 0, "after": [1, 5.5]}}  # the version is this process's own
    assert first[1] == {"table": "b"} and first[2] == {"table": "x", "watch": [["fr", "narrow"]]}
    assert first[3] == {"table": "a", "news": {"row": 1, "after": [2, 6.5]}}  # the news alone for everyone
    assert all(m["from"] == "me" for m in messages)


class _FakePubSub:
    """What redis-py's pubsub yields: ``script`` is a list of messages (dicts)
    and exceptions to raise."""

    def __init__(self, script, channels_seen):
        self.script, self.channels_seen = script, channels_seen

    async def subscribe(self, *channels):
        self.channels_seen.append(channels)

    async def listen(self):
        for item in self.script:
            if isinstance(item, BaseException):
                raise item
            yield item

    async def aclose(self):
        pass


def _fake_redis(*scripts):
    channels_seen: list[tuple[str, ...]] = []
    left = list(scripts)

    class FakeRedis:
        class connection_pool:  # noqa: N801 - as redis-py names it
            connection_kwargs = {"protocol": 3}

        def pubsub(self, ignore_subscribe_messages=True, push_handler_func=None):
            assert push_handler_func is not None  # messages are handed on as they are
            assert ignore_subscribe_messages is False  # the confirmations say when it is subscribed
            return _FakePubSub(left.pop(0), channels_seen)

    return FakeRedis(), channels_seen


def _message(data, channel=b"thieves:x_changes"):
    return {"type": "message", "channel": channel, "data": data if isinstance(data, bytes) else json.dumps(data)}


def _subscribed(n):
    return {"type": "subscribe", "channel": b"?", "data": n}


def test_a_listener_reads_batched_and_single_messages():
    got: list[tuple[str, object]] = []
    redis, channels = _fake_redis([
        _subscribed(1), _subscribed(2),
        _message({"from": "other", "changes": [{"table": "a", "news": {"row": 0}}, {"table": "b"}]}),
        _message({"from": "me", "changes": [{"table": "z"}]}),
        _message(json.dumps({"from": "me", "changes": [{"table": "y"}]}).encode()),
        _message({"from": "other", "table": "c"}),  # as sent by an older version
        _message("not json"),
        asyncio.CancelledError()])
    fan = _fanout(redis)
    with pytest.raises(asyncio.CancelledError):
        asyncio.run(fan._listen(lambda table, change, sender: got.append((table, change.get("news"), sender))))
    assert got == [("a", {"row": 0}, "other"), ("b", None, "other"), ("c", None, "other")]
    assert channels == [("thieves:x_changes", "thieves:x_to:me")]


def test_views_sent_to_this_process_go_with_their_news_and_only_theirs():
    got: list[tuple[str, object]] = []
    inbox = b"thieves:x_to:me"
    first = pack_views("other", [("a", [3, 7.25], [("en", "wide", b"A3")]),
                                 ("b", [1, 7.5], [("fr", "narrow", b"B1"), ("de", "wide", b"")])])
    stale = pack_views("other", [("a", [4, 8.0], [("en", "wide", b"A4")])])
    redis, _channels = _fake_redis([
        _subscribed(1), _subscribed(2),
        _message(first, inbox),
        _message(pack_views("third", [("a", [3, 7.25], [("en", "wide", b"not from the sender")])]), inbox),
        _message({"from": "other", "changes": [{"table": "a", "news": {"row": 2, "after": [3, 7.25]}},
                                               {"table": "b", "news": {"row": 0, "after": [1, 7.5]}},
                                               {"table": "c", "news": {"row": 0, "after": [1, 7.5]}}]}),
        _message(stale, inbox),
        _message(b"garbage\n", inbox),
        # the news of that decision never came (its publication failed): the
        # next message from that process drops its views
        _message({"from": "other", "changes": [{"table": "a", "news": {"row": 4, "after": [5, 9.0]}}]}),
        asyncio.CancelledError()])
    fan = _fanout(redis)
    with pytest.raises(asyncio.CancelledError):
        asyncio.run(fan._listen(lambda table, change, sender: got.append((table, change.get("views"), sender))))
    assert got == [("a", [("en", "wide", b"A3")], "other"),
                   ("b", [("fr", "narrow", b"B1"), ("de", "wide", b"")], "other"),
                   ("c", None, "other"), ("a", None, "other")]
    assert set(fan._letters) == {"third"}  # kept until that process's own next news


def test_a_listener_asks_to_catch_up_each_time_it_has_subscribed():
    events: list[str] = []
    redis, channels = _fake_redis(
        # redis-py reconnects and subscribes again by itself inside listen()...
        [_subscribed(1), _subscribed(2), _message({"from": "o", "changes": [{"table": "a"}]}),
         _subscribed(1), _subscribed(2), _message({"from": "o", "changes": [{"table": "b"}]}),
         ConnectionError("closed by server")],
        # ...or gives up: the listener subscribes again on a new connection
        [ConnectionError("refused")],
        [_subscribed(1), _subscribed(2), asyncio.CancelledError()])
    fan = _fanout(redis)
    with pytest.raises(asyncio.CancelledError):
        asyncio.run(fan._listen(lambda table, change, sender: events.append(table),
                                lambda: events.append("again")))
    # the first time too: the tables read at the start may have changed before it
    assert events == ["again", "a", "again", "b", "again"]
    assert len(channels) == 3


def test_every_table_in_memory_catches_up_after_the_listener_subscribed_again(tmp_path, monkeypatch):
    from thieves.server import platform as platform_module
    from thieves.server.platform import Platform
    from thieves.server.limits import Limits

    ma, mb = _two_managers(tmp_path)
    tables = [ma.create("thiefs-market", 3, [{"kind": "human"}] * 3)[0] for _ in range(7)]
    behind = [mb.get(t.id) for t in tables]
    for t in tables[:5]:
        _play_one_turn(ma, t)  # stored and announced by A; B missed the news
    pb = Platform(mb.storage, 0.5, Limits())
    pb.manager = mb
    monkeypatch.setattr(platform_module, "CATCH_UP_AT_ONCE", 3)
    reading, most = 0, 0
    refresh = mb.refresh_async

    async def counted(table):
        nonlocal reading, most
        reading += 1
        most = max(most, reading)
        try:
            await asyncio.sleep(0.01)
            return await refresh(table)
        finally:
            reading -= 1

    monkeypatch.setattr(mb, "refresh_async", counted)

    async def go():
        pb.catch_up_all()
        await asyncio.sleep(0)
        assert pb._catching_all is not None
        await pb._catching_all
        await asyncio.gather(*pb._catching.values())

    asyncio.run(go())
    assert [b.state.history for b in behind] == [t.state.history for t in tables]
    assert most == 3 and not pb._catching


def test_a_bot_lock_is_renewed_only_when_a_third_of_its_life_is_gone():
    renewals = []

    class FakeLock:
        async def reacquire(self):
            renewals.append(1)

    held = BotLock(FakeLock())
    asyncio.run(held.keep())
    assert renewals == []
    held.renewed -= LOCK_TTL / 3
    asyncio.run(held.keep())
    assert renewals == [1]
    asyncio.run(held.keep())
    assert renewals == [1]


@pytest.mark.parametrize("slug", sorted(s for s, module in GAME_MODULES.items()
                                        if module.startswith("thieves.games.")))
def test_a_spectator_view_from_the_deciding_process_equals_the_one_built_here(slug, tmp_path):
    """What another process sends with its news is exactly what this one would
    send its spectators (so it may send that text instead of drawing it)."""
    import random

    game = load_game(slug)
    players = max(game.min_players, min(3, game.max_players))
    ma, mb = _two_managers(tmp_path)
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * (players - 1)
    table_a, _tokens = ma.create(slug, players, seats)
    table_b = mb.get(table_a.id)
    views_a, views_b = ViewCache(), ViewCache()
    rng = random.Random(3)
    for step in range(12):
        if table_a.state.is_terminal():
            break
        seat = rng.choice(table_a.state.players_to_act())
        if table_a.controller(seat) is None:
            ma.act(table_a, seat, rng.choice(table_a.state.legal_actions(seat)))
        else:
            ply, action = ma.bot_choice(table_a, seat)
            assert ma.bot_commit(table_a, seat, ply, action)
        if step == 4:
            ma.leave(table_a, 0, "random")  # a substitute plays the person's seat
            assert mb.refresh(table_b)
            continue
        news = {k: v for k, v in table_a.news.items() if k != "version"}
        assert mb.apply_news(table_b, news)
        for lang, layout in (("en", "wide"), ("de", "narrow")):
            assert views_b.text_now(table_b, None, lang, layout)[1] == \
                views_a.text_now(table_a, None, lang, layout)[1]


def test_views_go_with_news_to_the_processes_that_show_them(tmp_path):
    from thieves.server.platform import Platform
    from thieves.server.limits import Limits

    class Outbox:
        def __init__(self) -> None:
            self.sent: list[tuple[str, object, object]] = []
            self.watched: list[tuple[str, list]] = []

        def announce(self, table_id, news=None, views=None):
            self.sent.append((table_id, news, views))

        def watch(self, table_id, keys):
            self.watched.append((table_id, keys))

    ma, mb = _two_managers(tmp_path)
    out_a, out_b = Outbox(), Outbox()
    pa = Platform(ma.storage, 0.5, Limits(), out_a, forward_views=True)  # type: ignore[arg-type]
    pb = Platform(mb.storage, 0.5, Limits(), out_b, forward_views=True)  # type: ignore[arg-type]
    pa.manager, pb.manager = ma, mb
    table_a, _tokens = ma.create("thiefs-market", 3, [{"kind": "human"}] * 3)
    table_b = mb.get(table_a.id)

    class Spectator:  # a socket of B's, as the hub sees it
        viewer, lang, layout, closed, table = None, "fr", "narrow", False, table_b

        def notify(self, force=False):
            pass

    pb.hub.conns[table_b.id] = [Spectator()]  # type: ignore[list-item]

    async def decide():
        seat = table_a.state.players_to_act()[0]
        await pa.act(table_a, seat, table_a.state.legal_actions(seat)[0])

    asyncio.run(decide())
    table_id, news, views = out_a.sent[-1]
    assert news is not None and views is None  # nobody else said they show it
    pb.on_message(table_id, {"table": table_id, "news": news}, "A")
    assert out_b.watched == [(table_a.id, [("fr", "narrow")])]  # B says so (once for a while)
    pa.on_message(table_a.id, {"table": table_a.id, "watch": [["fr", "narrow"], ["xx", "wide"]]}, "B")
    pa.on_message(table_a.id, {"table": table_a.id, "watch": [["en", "wide"], ["fr", "narrow"]]}, "C")
    asyncio.run(decide())
    table_id, news, views = out_a.sent[-1]
    mine = pa.hub.views.frames_now(table_a, None, "fr", "narrow")[1]
    # each process gets the views it shows (an unknown language is not drawn),
    # compressed as the frame it sends as it is
    assert views == {"B": [("fr", "narrow", mine.deflated(FORWARD_BITS))],
                     "C": [("en", "wide", pa.hub.views.frames_now(table_a, None, "en", "wide")[1]
                            .deflated(FORWARD_BITS)),
                           ("fr", "narrow", mine.deflated(FORWARD_BITS))]}
    assert views["B"][0][2] is views["C"][1][2]  # built once
    pb.on_message(table_id, {"table": table_id, "news": news, "views": views["B"]}, "A")
    version, theirs = pb.hub.views.frames_now(table_b, None, "fr", "narrow")
    assert version == table_b.version and theirs.text == mine.text
    assert theirs.frame(FORWARD_BITS) == mine.frame(FORWARD_BITS) and theirs.frame(None) == mine.frame(None)
    assert len(out_b.watched) == 1  # reminded only every WATCH_EVERY
    # a process that stopped saying so gets no more views
    for process in ("B", "C"):
        said, shown = pa._watchers[table_a.id][process]
        pa._watchers[table_a.id][process] = (said - WATCH_TTL - 1, shown)
    asyncio.run(decide())
    assert out_a.sent[-1][2] is None and table_a.id not in pa._watchers


def test_a_view_from_another_process_that_cannot_be_read_is_drawn_here(tmp_path):
    ma, _mb = _two_managers(tmp_path)
    table, _tokens = ma.create("thiefs-market", 3, [{"kind": "human"}] * 3)
    views = ViewCache()
    views.accept(table, [("en", "wide", b"\xff\x00 not deflate"), ("de", "wide", 12), ("fr", "narrow", "{}")])
    assert views.text_now(table, None, "fr", "narrow")[1] == "{}"  # text, as an older version sent it
    assert json.loads(views.text_now(table, None, "en", "wide")[1])["table"] == table.id


def test_a_row_whose_move_number_fell_behind_does_not_stop_the_table(tmp_path):
    ma, _mb = _two_managers(tmp_path)
    table, _tokens = ma.create("thiefs-market", 3, [{"kind": "human"}] * 3)
    stored = _play_one_turn(ma, table)
    # a status written late for an earlier move (a process that read the table
    # just before these decisions) never moves the row back...
    ma.storage.set_status(table.id, "open", 0)
    assert ma.storage.mark(table.id)[0] == len(stored)
    # ...and a row that did (an older version) is set right by the next decision
    with ma.storage.engine.begin() as c:
        c.execute(ma.storage.tables.update().values(ply=0))
    seat = table.state.players_to_act()[0]
    asyncio.run(ma.act_async(table, seat, table.state.legal_actions(seat)[0]))
    assert table.rows == len(stored) + 1 == ma.storage.mark(table.id)[0]
    assert len(ma.storage.load_actions(table.id)) == table.rows
    # the next look at storage (before a decision, with several processes) knows the row again
    ma.refresh(table)
    assert table.seen == ma.storage.mark(table.id)
    seat = table.state.players_to_act()[0]
    asyncio.run(ma.act_async(table, seat, table.state.legal_actions(seat)[0]))
    assert table.seen == ma.storage.mark(table.id) and table.rows == len(stored) + 2


def test_only_a_bot_that_reads_the_legal_actions_decides_on_the_event_loop(tmp_path):
    ma, _mb = _two_managers(tmp_path)
    table, _tokens = ma.create("thiefs-market", 3, [{"kind": "human"}, {"kind": "bot", "bot": "random"},
                                                    {"kind": "bot", "bot": "greedy"}])
    assert ma.quick_bot(table, 1) is True
    assert ma.quick_bot(table, 2) is False
    ma.leave(table, 0, "greedy")  # a substitute decides as its bot does
    assert ma.quick_bot(table, 0) is False


def test_a_run_is_kept_for_undo_only_when_a_person_plays_it(tmp_path):
    ma, _mb = _two_managers(tmp_path)
    table, _tokens = ma.create("thiefs-market", 3, [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 2)
    for _ in range(40):
        if table.state.is_terminal():
            break
        seat = table.state.players_to_act()[0]
        before = table.state
        if table.controller(seat) is None:
            ma.act(table, seat, table.state.legal_actions(seat)[0])
        else:
            ply, action = ma.bot_choice(table, seat)
            assert ma.bot_commit(table, seat, ply, action)
        if not before.history or before.history[-1][0] != seat:  # a new run began
            if table.controller(seat) is None:
                assert table.run_start is not None and table.run_start.ply == before.ply
            else:
                assert table.run_start is None


def test_views_are_not_forwarded_unless_asked(tmp_path):
    from thieves.server.platform import Platform
    from thieves.server.limits import Limits

    class Outbox:
        def __init__(self) -> None:
            self.watched: list[tuple[str, list]] = []

        def announce(self, table_id, news=None, views=None):
            pass

        def watch(self, table_id, keys):
            self.watched.append((table_id, keys))

    ma, _mb = _two_managers(tmp_path)
    out = Outbox()
    p = Platform(ma.storage, 0.5, Limits(), out)  # type: ignore[arg-type]
    p.manager = ma
    table, _tokens = ma.create("thiefs-market", 3, [{"kind": "human"}] * 3)

    class Spectator:
        viewer, lang, layout, closed = None, "fr", "narrow", False

        def notify(self, force=False):
            pass

    Spectator.table = table
    p.hub.conns[table.id] = [Spectator()]  # type: ignore[list-item]
    p._say_watching(table)
    assert out.watched == []  # the default: every process draws its own spectators' views
    p.forward_views = True
    p._say_watching(table)
    assert out.watched == [(table.id, [("fr", "narrow")])]


def test_sqlite_decisions_share_one_kept_connection_from_any_thread(tmp_path):
    from concurrent.futures import ThreadPoolExecutor
    storage = Storage(f"sqlite:///{tmp_path}/kept.db")
    for t in ("t1", "t2", "t3"):
        storage.add_table(_record(t), status="playing")

    def play(table_id: str) -> list[bool]:
        return [storage.add_action(table_id, ply, ply % 3, f"bid {ply}") for ply in range(20)]

    with ThreadPoolExecutor(3) as pool:
        assert all(all(done) for done in pool.map(play, ["t1", "t2", "t3"]))
    # one connection is kept out of the pool for decisions, none per decision
    assert storage.engine.pool.checkedout() == 1
    for t in ("t1", "t2", "t3"):
        assert storage.load_actions(t) == [[ply % 3, f"bid {ply}"] for ply in range(20)]
        assert storage.mark(t)[0] == 20
    storage.close()
    assert storage.engine.pool.checkedout() == 0
    # another process (a new storage) reads every decision back
    again = Storage(f"sqlite:///{tmp_path}/kept.db")
    assert len(again.load_actions("t2")) == 20
    again.close()


@pytest.mark.parametrize("asked, sync, inline", [(None, 1, True), ("normal", 1, True), ("FULL", 2, False)])
def test_sqlite_syncs_as_asked_and_only_a_commit_that_does_not_wait_for_the_disk_is_made_on_the_loop(
        tmp_path, monkeypatch, asked, sync, inline):
    if asked is None:
        monkeypatch.delenv("THIEVES_SQLITE_SYNC", raising=False)
    else:
        monkeypatch.setenv("THIEVES_SQLITE_SYNC", asked)
    storage = Storage(f"sqlite:///{tmp_path}/sync.db")
    with storage.engine.connect() as c:
        assert c.exec_driver_sql("PRAGMA synchronous").scalar() == sync  # 1 NORMAL, 2 FULL
        assert c.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    assert storage.writes_inline is inline
    manager = TableManager(storage)
    table, _ = manager.create("thiefs-market", 3, [{"kind": "human"}] * 3, seed=3)
    threads: list[str] = []
    write = manager._write

    def spy(*args):
        import threading
        threads.append(threading.current_thread().name)
        return write(*args)

    manager._write = spy

    async def play():
        async with table.lock:
            seat = table.state.players_to_act()[0]
            await manager.commit_async(table, seat, table.state.legal_actions(seat)[0])
        return threading.current_thread().name

    import threading
    loop_thread = asyncio.run(play())
    assert (threads == [loop_thread]) is inline and len(threads) == 1
    assert len(storage.load_actions(table.id)) == 1  # stored either way
    storage.close()


def test_an_unknown_sqlite_sync_is_refused_with_the_choices(tmp_path, monkeypatch):
    monkeypatch.setenv("THIEVES_SQLITE_SYNC", "sometimes")
    with pytest.raises(ValueError, match="NORMAL, FULL"):
        Storage(f"sqlite:///{tmp_path}/bad.db")
