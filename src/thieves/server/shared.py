"""Several ``thieves serve`` processes behind one address, on one database.

Every process keeps the tables it serves in memory, reads any other from the
database on demand, and tells the others about each change it stores
through Redis pub/sub (channel ``thieves:<prefix>changes``): a process that
has the table in memory catches up from the database (the stored actions
are the truth) and sends the new state to its sockets. A table's bots are
played by one process at a time, the holder of the Redis lock
``thieves:<prefix>bots:<table>``; the primary key (table, move) makes a
second decision at the same move impossible anyway.
"""
from __future__ import annotations

import asyncio
import json
import logging
import os
import secrets
import time
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator, Callable

log = logging.getLogger("thieves.server")

#: seconds a bot lock lives unless renewed (a killed process frees it after this)
LOCK_TTL = 30.0
#: seconds between two reminders that a process shows a table's spectators
#: (:meth:`Fanout.watch`), and how long the others take one into account
WATCH_EVERY = 10.0
WATCH_TTL = 3 * WATCH_EVERY


class Fanout:
    """Redis pub/sub for table changes, and per-table bot locks."""

    def __init__(self, url: str, prefix: str = "thieves_") -> None:
        import redis.asyncio as aioredis

        self.url = url
        self.redis = aioredis.Redis.from_url(url)
        self.channel = f"thieves:{prefix}changes"
        self.lock_prefix = f"thieves:{prefix}bots:"
        #: this process, so it skips its own messages
        self.me = f"{os.getpid()}-{secrets.token_hex(4)}"
        #: how this process's own messages begin (:meth:`_send`): the listener
        #: skips them unread (with views they are large)
        self._mine = json.dumps({"from": self.me})[:-1].encode()
        self._task: asyncio.Task[None] | None = None
        #: changes announced and not sent yet, and the task sending them
        self._outbox: list[dict[str, Any]] = []
        self._sender: asyncio.Task[None] | None = None

    async def publish(self, table_id: str, news: dict[str, Any] | None = None) -> None:
        """Tell the others that a table changed (see :meth:`announce`)."""
        self.announce(table_id, news)

    def announce(self, table_id: str, news: dict[str, Any] | None = None,
                 views: list[list[str]] | None = None) -> None:
        """Tell the others that a table changed; ``news``: the decision that
        changed it, which they may apply without reading the database;
        ``views``: the spectators' view texts after it (``[lang, layout,
        text]``), for the processes that said they show its spectators
        (:meth:`watch`), so they need not build them again. Never waits: the
        changes announced while the previous message was being sent go out
        together in the next one (one Redis command, one message for each
        listener to read, however many tables changed), in order."""
        change: dict[str, Any] = {"table": table_id}
        if news is not None:
            change["news"] = {k: v for k, v in news.items() if k != "version"}
            if views:
                change["views"] = views
        self._queue(change)

    def watch(self, table_id: str, keys: list[tuple[str, str]]) -> None:
        """Tell the others that this process shows the table's spectators in
        these ``(lang, layout)``: the process that changes the table sends their
        views with its news for a while (``WATCH_TTL``)."""
        self._queue({"table": table_id, "watch": [list(k) for k in keys]})

    def _queue(self, change: dict[str, Any]) -> None:
        self._outbox.append(change)
        if self._sender is None or self._sender.done():
            self._sender = asyncio.create_task(self._send())

    async def _send(self) -> None:
        while self._outbox:
            changes, self._outbox = self._outbox, []
            message = {"from": self.me, "changes": changes}
            try:
                await self.redis.publish(self.channel, json.dumps(message))
            except Exception:  # noqa: BLE001 - Redis away: others catch up when they next read the table
                log.exception("could not tell the other processes about %d change(s)", len(changes))

    def start(self, on_change: Callable[[str, dict[str, Any], str], None]) -> None:
        """Listen for other processes' changes; ``on_change(table_id, change, sender)``
        (``change``: what :meth:`announce` or :meth:`watch` sent, ``sender``: which
        process) must not block."""
        self._task = asyncio.create_task(self._listen(on_change))

    async def _listen(self, on_change: Callable[[str, dict[str, Any], str], None]) -> None:
        while True:
            try:
                pubsub = self.redis.pubsub(ignore_subscribe_messages=True, **self._push_handler())
                await pubsub.subscribe(self.channel)
                async for message in pubsub.listen():
                    if message.get("type") != "message":
                        continue
                    raw = message["data"]
                    if isinstance(raw, bytes) and raw.startswith(self._mine):
                        continue  # this process's own
                    try:
                        data = json.loads(raw)
                    except (ValueError, TypeError):
                        continue
                    if not isinstance(data, dict) or data.get("from") == self.me:
                        continue
                    changes, sender = data.get("changes"), str(data.get("from"))
                    for change in changes if isinstance(changes, list) else [data]:
                        if isinstance(change, dict) and isinstance(change.get("table"), str):
                            try:
                                on_change(change["table"], change, sender)
                            except Exception:  # noqa: BLE001 - one table's trouble never stops listening
                                log.exception("catching up with table %s failed", change["table"])
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - Redis restarted: subscribe again
                log.exception("listening to Redis failed; trying again in 1 s")
                await asyncio.sleep(1.0)

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
        except Exception:  # noqa: BLE001 - Redis away: nobody plays bots rather than twice
            log.exception("bot lock of table %s unavailable", table_id)
            got = False
        try:
            yield BotLock(lock) if got else None
        finally:
            if got:
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
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):  # noqa: BLE001
                pass
        await self.redis.aclose()


class BotLock:
    """A held bot lock, renewed only when a third of its life has gone (not at
    every move: each renewal is a round trip to Redis)."""

    def __init__(self, lock: Any) -> None:
        self.lock = lock
        self.renewed = time.monotonic()

    async def keep(self) -> None:
        """Before a move: make sure the lock lives at least two thirds of
        ``LOCK_TTL`` more (raises when Redis says it is no longer ours)."""
        now = time.monotonic()
        if now - self.renewed >= LOCK_TTL / 3:
            await self.lock.reacquire()
            self.renewed = now


async def _as_is(response: Any) -> Any:
    return response
