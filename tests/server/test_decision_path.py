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
from thieves.server.shared import LOCK_TTL, WATCH_TTL, BotLock, Fanout
from thieves.server.storage import Storage, TableRecord
from thieves.server.tables import TableManager
from thieves.server.websocket import ViewCache

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
    from thieves.server.app import Platform
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


def test_changes_announced_together_go_out_in_one_message_in_order():
    sent: list[tuple[str, str]] = []

    class FakeRedis:
        async def publish(self, channel, text):
            sent.append((channel, text))

    async def go():
        fan = Fanout.__new__(Fanout)
        fan.redis, fan.channel, fan.me = FakeRedis(), "thieves:x_changes", "me"
        fan._task, fan._outbox, fan._sender = None, [], None
        fan.announce("a", {"row": 0, "version": 3})
        fan.announce("b", None, [["en", "wide", "{}"]])  # no decision: no views either
        fan.watch("x", [("fr", "narrow")])
        fan.announce("a", {"row": 1, "version": 4}, [["en", "wide", "{}"]])
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        fan.announce("c")
        await asyncio.sleep(0)
        await asyncio.sleep(0)

    asyncio.run(go())
    messages = [json.loads(text) for _channel, text in sent]
    assert [[c["table"] for c in m["changes"]] for m in messages] == [["a", "b", "x", "a"], ["c"]]
    first = messages[0]["changes"]
    assert first[0] == {"table": "a", "news": {"row": 0}}  # the version is this process's own
    assert first[1] == {"table": "b"} and first[2] == {"table": "x", "watch": [["fr", "narrow"]]}
    assert first[3]["views"] == [["en", "wide", "{}"]]
    assert all(m["from"] == "me" for m in messages)


def test_a_listener_reads_batched_and_single_messages():
    got: list[tuple[str, object]] = []

    class FakePubSub:
        async def subscribe(self, channel):
            pass

        async def listen(self):
            for data in [{"from": "other", "changes": [{"table": "a", "news": {"row": 0}}, {"table": "b"}]},
                         {"from": "me", "changes": [{"table": "z"}]},
                         {"from": "other", "table": "c"},  # as sent by an older version
                         "not json"]:
                yield {"type": "message", "data": data if isinstance(data, str) else json.dumps(data)}
            raise asyncio.CancelledError

    class FakeRedis:
        class connection_pool:  # noqa: N801 - as redis-py names it
            connection_kwargs = {"protocol": 3}

        def pubsub(self, ignore_subscribe_messages=True, push_handler_func=None):
            assert push_handler_func is not None  # messages are handed on as they are
            return FakePubSub()

    fan = Fanout.__new__(Fanout)
    fan.redis, fan.channel, fan.me = FakeRedis(), "thieves:x_changes", "me"
    with pytest.raises(asyncio.CancelledError):
        asyncio.run(fan._listen(lambda table, change, sender: got.append((table, change.get("news"), sender))))
    assert got == [("a", {"row": 0}, "other"), ("b", None, "other"), ("c", None, "other")]


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
    from thieves.server.app import Platform
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
    asyncio.run(decide())
    table_id, news, views = out_a.sent[-1]
    text = pa.hub.views.text_now(table_a, None, "fr", "narrow")[1]
    assert views == [["fr", "narrow", text]]  # an unknown language is not drawn
    pb.on_message(table_id, {"table": table_id, "news": news, "views": views}, "A")
    assert pb.hub.views.text_now(table_b, None, "fr", "narrow") == (table_b.version, text)
    assert len(out_b.watched) == 1  # reminded only every WATCH_EVERY
    # a process that stopped saying so gets no more views
    pa._watchers[table_a.id]["B"] = (pa._watchers[table_a.id]["B"][0] - WATCH_TTL - 1, [("fr", "narrow")])
    asyncio.run(decide())
    assert out_a.sent[-1][2] is None and table_a.id not in pa._watchers


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
    from thieves.server.app import Platform
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
