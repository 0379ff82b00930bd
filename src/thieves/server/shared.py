"""Several ``thieves serve`` processes behind one address, on one database.

Every process keeps the tables it serves in memory, reads any other from the
database on demand, and tells the others about each change it stores
through Redis pub/sub (channel ``thieves:<prefix>changes``): a process that
has the table in memory catches up from the database (the stored actions
are the truth) and sends the new state to its sockets. The spectators'
views that go with a decision (``THIEVES_FORWARD_VIEWS=1``) go only to the
processes that show them, each on its own channel
``thieves:<prefix>to:<process>``, just before the news they belong to. A
listener that has subscribed (at the start, or again when Redis dropped it
or restarted) has missed whatever was announced before: it asks the process
to catch every table it holds up from the database. A table's bots are played by one process at
a time, the holder of the Redis lock ``thieves:<prefix>bots:<table>``; the
primary key (table, move) makes a second decision at the same move
impossible anyway.
"""
from __future__ import annotations

import asyncio
import json
import logging
import os
import secrets
import time
import urllib.parse
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator, Callable, Sequence

from .tasks import cancel_and_wait

log = logging.getLogger("thieves.server")

#: seconds before subscribing again after a failure, doubling up to the max
LISTEN_BACKOFF = 1.0
LISTEN_BACKOFF_MAX = 30.0
#: seconds between two log lines about one kind of failed Redis command
TROUBLE_EVERY = 60.0
#: seconds a bot lock lives unless renewed (a killed process frees it after
#: this); its holder renews it every third of that while it holds it, so a
#: bot that thinks long keeps it, and another process takes a dead process's
#: bots over within about LOCK_TTL + LOCK_TTL / 3 (docs/server.md: ~10 s)
LOCK_TTL = 6.0
#: seconds between two reminders that a process shows a table's spectators
#: (:meth:`Fanout.watch`), and how long the others take one into account
WATCH_EVERY = 10.0
WATCH_TTL = 3 * WATCH_EVERY

#: a spectators' view sent to another process: ``(lang, layout, payload)``
View = tuple[str, str, bytes]
#: where a decision leaves a table in storage, ``(move number, time of last change)``
Mark = tuple[int, float]


class Fanout:
    """Redis pub/sub for table changes, and per-table bot locks."""

    def __init__(self, url: str, prefix: str = "thieves_") -> None:
        import redis.asyncio as aioredis

        self.url = url
        #: this process, so it skips its own messages
        self.me = f"{os.getpid()}-{secrets.token_hex(4)}"
        self.redis = aioredis.Redis.from_url(url)
        self.channel = f"thieves:{prefix}changes"
        #: each process's own channel begins so (views for it alone)
        self.to_prefix = f"thieves:{prefix}to:"
        self.lock_prefix = f"thieves:{prefix}bots:"
        #: how this process's own messages begin (:meth:`_send`): the listener
        #: skips them unread
        self._mine = json.dumps({"from": self.me})[:-1].encode()
        self._task: asyncio.Task[None] | None = None
        #: failed subscriptions in a row (the wait before the next one doubles)
        self._failures = 0
        #: kind of failure -> when it was last logged (:meth:`_trouble`)
        self._troubles: dict[str, float] = {}
        #: changes announced and not sent yet (each with the views for each
        #: process that shows them), and the task sending them
        self._outbox: list[tuple[dict[str, Any], dict[str, list[View]] | None]] = []
        self._sender: asyncio.Task[None] | None = None
        #: sender -> (table, mark after the decision) -> its views, until that
        #: sender's next message on the shared channel (which brings the news)
        self._letters: dict[str, dict[tuple[str, Mark], list[View]]] = {}

    @property
    def inbox(self) -> str:
        """This process's own channel."""
        return self.to_prefix + self.me

    async def publish(self, table_id: str, news: dict[str, Any] | None = None) -> None:
        """Tell the others that a table changed (see :meth:`announce`)."""
        self.announce(table_id, news)

    def announce(self, table_id: str, news: dict[str, Any] | None = None,
                 views: dict[str, list[View]] | None = None) -> None:
        """Tell the others that a table changed; ``news``: the decision that
        changed it, which they may apply without reading the database;
        ``views``: per process that said it shows the table's spectators
        (:meth:`watch`), their views after it (``(lang, layout, payload)``),
        so that it need not build them again; they go to that process alone,
        on its own channel, just before the news. Never waits: the changes
        announced while the previous message was being sent go out together
        in the next one (one Redis command, one message for each listener to
        read, however many tables changed), in order."""
        change: dict[str, Any] = {"table": table_id}
        letters = None
        if news is not None:
            change["news"] = {k: v for k, v in news.items() if k != "version"}
            after = news.get("after")
            if views and isinstance(after, list) and len(after) == 2:
                letters = views
        self._queue(change, letters)

    def say(self, table_id: str, message: dict[str, Any]) -> None:
        """Tell the others about a chat message stored here (they send it to
        their sockets of the table; nothing to read from the database)."""
        self._queue({"table": table_id, "chat": message})

    def watch(self, table_id: str, keys: list[tuple[str, str]]) -> None:
        """Tell the others that this process shows the table's spectators in
        these ``(lang, layout)``: the process that changes the table sends their
        views with its news for a while (``WATCH_TTL``)."""
        self._queue({"table": table_id, "watch": [list(k) for k in keys]})

    def _queue(self, change: dict[str, Any], letters: dict[str, list[View]] | None = None) -> None:
        self._outbox.append((change, letters))
        if self._sender is None or self._sender.done():
            self._sender = asyncio.create_task(self._send())

    async def _send(self) -> None:
        while self._outbox:
            batch, self._outbox = self._outbox, []
            # the views first, each process's on its own channel: Redis hands a
            # subscriber its messages in order, so they wait there for the news
            post: dict[str, list[tuple[str, list[Any], list[View]]]] = {}
            for change, letters in batch:
                for process, views in (letters or {}).items():
                    post.setdefault(process, []).append((change["table"], change["news"]["after"], views))
            changes = [change for change, _letters in batch]
            message = json.dumps({"from": self.me, "changes": changes})
            try:
                if not post:
                    await self.redis.publish(self.channel, message)
                    continue
                # one round trip for all (a busy loop takes long to come back to this task)
                async with self.redis.pipeline(transaction=False) as pipe:
                    for process, items in post.items():
                        pipe.publish(self.to_prefix + process, pack_views(self.me, items))
                    pipe.publish(self.channel, message)
                    await pipe.execute()
            except Exception as exc:  # noqa: BLE001 - Redis away: others catch up when they next read the table
                self._trouble("could not tell the other processes about a change", exc)

    def start(self, on_change: Callable[[str, dict[str, Any], str], None],
              on_subscribed: Callable[[], None] | None = None) -> None:
        """Listen for other processes' changes; ``on_change(table_id, change, sender)``
        (``change``: what :meth:`announce` or :meth:`watch` sent, with the
        views sent to this process alone as ``change["views"]``; ``sender``:
        which process) and ``on_subscribed()`` (the listener has subscribed,
        the first time or again after losing its connection: whatever was
        announced before is lost to it, the changes made between reading a
        table at the start and the first subscription included) must not
        block."""
        self._task = asyncio.create_task(self._listen(on_change, on_subscribed))

    async def _listen(self, on_change: Callable[[str, dict[str, Any], str], None],
                      on_subscribed: Callable[[], None] | None = None) -> None:
        channels = [self.channel, self.inbox]
        inbox = self.inbox.encode()
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=False, **self._push_handler())
            try:
                # redis-py subscribes again by itself when it reconnects in
                # ``listen``: Redis's confirmations say when it is done, either way
                await pubsub.subscribe(*channels)
                async for message in pubsub.listen():
                    kind = message.get("type")
                    if kind == "message":
                        if message.get("channel") == inbox:
                            self._read_letter(message["data"])
                        else:
                            self._read(message["data"], on_change)
                    elif kind == "subscribe" and message.get("data") == len(channels):
                        self._listen_ok()
                        if on_subscribed is not None:
                            on_subscribed()  # catch up with what was announced before
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - Redis restarted, or dropped this reader: subscribe again
                wait = self._listen_failed(exc)
                await asyncio.sleep(wait)
            finally:
                try:
                    await pubsub.aclose()  # type: ignore[no-untyped-call,unused-ignore]  # typed from redis 8 on
                except Exception:  # noqa: BLE001 - already gone
                    pass

    def _listen_failed(self, exc: BaseException) -> float:
        """Log a failed subscription without a traceback: the first one with its
        reason, then one short line per try as the wait doubles (up to
        ``LISTEN_BACKOFF_MAX``). Returns the seconds to wait before the next try."""
        self._failures += 1
        wait = float(min(LISTEN_BACKOFF_MAX, LISTEN_BACKOFF * 2.0 ** (self._failures - 1)))
        if self._failures == 1:
            log.warning("listening to Redis at %s failed (%s: %s); trying again in %.3g s",
                        _safe_url(self.url), type(exc).__name__, exc, wait)
        else:
            log.warning("Redis still unreachable (%d tries); next try in %.3g s", self._failures, wait)
        return wait

    def _trouble(self, what: str, exc: BaseException) -> None:
        """One short line (no traceback) for a Redis command that failed, at most
        once per ``TROUBLE_EVERY`` seconds for each kind of failure."""
        now = time.monotonic()
        if now - self._troubles.get(what, -TROUBLE_EVERY) >= TROUBLE_EVERY:
            self._troubles[what] = now
            log.warning("Redis: %s (%s: %s)", what, type(exc).__name__, exc)

    def _listen_ok(self) -> None:
        if self._failures:
            log.warning("listening to Redis again after %d failed tries", self._failures)
        self._failures = 0

    def _read(self, raw: Any, on_change: Callable[[str, dict[str, Any], str], None]) -> None:
        """One message on the shared channel: each change to ``on_change``, a
        decision with the views that came for it."""
        if isinstance(raw, bytes) and raw.startswith(self._mine):
            return  # this process's own
        try:
            data = json.loads(raw)
        except (ValueError, TypeError):
            return
        if not isinstance(data, dict) or data.get("from") == self.me:
            return
        changes, sender = data.get("changes"), str(data.get("from"))
        letters = self._letters.pop(sender, None)
        for change in changes if isinstance(changes, list) else [data]:
            if not (isinstance(change, dict) and isinstance(change.get("table"), str)):
                continue
            news = change.get("news")
            mark = _mark(news.get("after")) if letters and isinstance(news, dict) else None
            if letters and mark is not None:
                views = letters.get((change["table"], mark))
                if views:
                    change["views"] = views
            try:
                on_change(change["table"], change, sender)
            except Exception:  # noqa: BLE001 - one table's trouble never stops listening
                log.exception("catching up with table %s failed", change["table"])

    def _read_letter(self, raw: Any) -> None:
        """Views sent to this process alone: kept until their news come."""
        letter = unpack_views(raw)
        if letter is None:
            log.warning("a message on this process's channel could not be read")
            return
        sender, views = letter
        self._letters.setdefault(sender, {}).update(views)

    def _push_handler(self) -> dict[str, Any]:
        """On RESP3 (redis-py's default), messages come through a handler whose
        default writes each whole message into a debug line even when nothing
        logs it (about 0.1 ms for a message with a view): one that only hands
        it on."""
        try:
            from redis.utils import DEFAULT_RESP_VERSION as default
        except ImportError:  # an older redis-py: RESP2 by default
            default = 2
        protocol = self.redis.connection_pool.connection_kwargs.get("protocol") or default
        return {"push_handler_func": _as_is} if str(protocol) == "3" else {}

    @asynccontextmanager
    async def bot_lock(self, table_id: str) -> AsyncIterator["BotLock | None"]:
        """The table's bot lock if free now (yields it, or None when another process holds it)."""
        lock = self.redis.lock(self.lock_prefix + table_id, timeout=LOCK_TTL, blocking=False)
        try:
            got = await lock.acquire(blocking=False)
        except Exception as exc:  # noqa: BLE001 - Redis away: nobody plays bots rather than twice
            self._trouble("a bot lock is unavailable (no bot plays meanwhile)", exc)
            got = False
        held = BotLock(lock).start() if got else None
        try:
            yield held
        finally:
            if held is not None:
                held.stop()
                try:
                    await lock.release()
                except Exception:  # noqa: BLE001 - expired meanwhile: nothing to free
                    pass

    async def close(self) -> None:
        if self._sender is not None:
            try:
                await asyncio.wait_for(asyncio.shield(self._sender), 1.0)
            except Exception:  # noqa: BLE001 - Redis away: the others catch up by themselves
                pass
        await cancel_and_wait(self._task)
        await self.redis.aclose()


class BotLock:
    """A held bot lock, renewed every third of its life while held (not at
    every move: each renewal is a round trip to Redis)."""

    def __init__(self, lock: Any) -> None:
        self.lock = lock
        self.renewed = time.monotonic()
        #: renews the lock every third of its life while it is held (a bot
        #: thinking longer than LOCK_TTL would lose it otherwise): :meth:`start`
        self._beat: asyncio.Task[None] | None = None

    def start(self) -> "BotLock":
        """Renew the lock in the background until :meth:`stop` (on the event loop)."""
        self._beat = asyncio.create_task(self._heartbeat())
        return self

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(LOCK_TTL / 3)
            try:
                await self.lock.reacquire()
                self.renewed = time.monotonic()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - lost or Redis away: keep() says so before a move
                log.warning("could not renew a bot lock (%s: %s)", type(exc).__name__, exc)
                return

    def stop(self) -> None:
        """No more renewals (the lock is being let go)."""
        if self._beat is not None:
            self._beat.cancel()

    async def keep(self) -> None:
        """Before a move: make sure the lock lives at least two thirds of
        ``LOCK_TTL`` more (raises when Redis says it is no longer ours)."""
        now = time.monotonic()
        if now - self.renewed >= LOCK_TTL / 3:
            await self.lock.reacquire()
            self.renewed = now


async def _as_is(response: Any) -> Any:
    return response


def pack_views(sender: str, items: Sequence[tuple[str, Any, list[View]]]) -> bytes:
    """Views for one process: a line of JSON (who sends them, and per table its
    mark after the decision and the language, layout and length of each view),
    then the views' bytes one after the other (no JSON for them: they are
    compressed)."""
    head = {"from": sender, "views": [[table, list(after), [[lang, layout, len(data)] for lang, layout, data in views]]
                                      for table, after, views in items]}
    return b"".join([json.dumps(head).encode(), b"\n", *(data for _t, _a, views in items for *_k, data in views)])


def unpack_views(raw: Any) -> tuple[str, dict[tuple[str, Mark], list[View]]] | None:
    """What :func:`pack_views` made, as ``(sender, {(table, mark): views})``;
    None when it is not that."""
    if not isinstance(raw, bytes):
        return None
    line, _nl, body = raw.partition(b"\n")
    try:
        head = json.loads(line)
        out: dict[tuple[str, Mark], list[View]] = {}
        at = 0
        for table, after, shown in head["views"]:
            views = []
            for lang, layout, n in shown:
                if not (isinstance(lang, str) and isinstance(layout, str) and isinstance(n, int) and n >= 0):
                    return None
                views.append((lang, layout, body[at:at + n]))
                at += n
            mark = _mark(after)
            if not isinstance(table, str) or mark is None:
                return None
            out[(table, mark)] = views
        if at != len(body):
            return None
        return str(head["from"]), out
    except (ValueError, TypeError, KeyError):
        return None


def _safe_url(url: str) -> str:
    """A Redis URL without its password, for the log."""
    parts = urllib.parse.urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username or ''}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urllib.parse.urlunsplit(parts._replace(netloc=netloc))


def _mark(after: Any) -> Mark | None:
    """A decision's ``after`` (``[move number, time]``) as a key."""
    if (isinstance(after, list) and len(after) == 2 and isinstance(after[0], int)
            and isinstance(after[1], (int, float))):
        return int(after[0]), float(after[1])
    return None
