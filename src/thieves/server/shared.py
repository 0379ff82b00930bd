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
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator, Callable

log = logging.getLogger("thieves.server")

#: seconds a bot lock lives unless renewed (a killed process frees it after this)
LOCK_TTL = 30.0


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
        self._task: asyncio.Task[None] | None = None

    async def publish(self, table_id: str, news: dict[str, Any] | None = None) -> None:
        """Tell the others that a table changed; ``news``: the decision that
        changed it, which they may apply without reading the database."""
        message: dict[str, Any] = {"table": table_id, "from": self.me}
        if news is not None:
            message["news"] = {k: v for k, v in news.items() if k != "version"}
        try:
            await self.redis.publish(self.channel, json.dumps(message))
        except Exception:  # noqa: BLE001 - Redis away: others catch up when they next read the table
            log.exception("could not tell the other processes about table %s", table_id)

    def start(self, on_change: Callable[[str, Any], None]) -> None:
        """Listen for other processes' changes; ``on_change(table_id, news)`` must not block."""
        self._task = asyncio.create_task(self._listen(on_change))

    async def _listen(self, on_change: Callable[[str, Any], None]) -> None:
        while True:
            try:
                pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
                await pubsub.subscribe(self.channel)
                async for message in pubsub.listen():
                    if message.get("type") != "message":
                        continue
                    try:
                        data = json.loads(message["data"])
                    except (ValueError, TypeError):
                        continue
                    if isinstance(data, dict) and data.get("from") != self.me and isinstance(data.get("table"), str):
                        try:
                            on_change(data["table"], data.get("news"))
                        except Exception:  # noqa: BLE001 - one table's trouble never stops listening
                            log.exception("catching up with table %s failed", data["table"])
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - Redis restarted: subscribe again
                log.exception("listening to Redis failed; trying again in 1 s")
                await asyncio.sleep(1.0)

    @asynccontextmanager
    async def bot_lock(self, table_id: str) -> AsyncIterator[Any]:
        """The table's bot lock if free now (yields the lock, or None when another process holds it)."""
        lock = self.redis.lock(self.lock_prefix + table_id, timeout=LOCK_TTL, blocking=False)
        try:
            got = await lock.acquire(blocking=False)
        except Exception:  # noqa: BLE001 - Redis away: nobody plays bots rather than twice
            log.exception("bot lock of table %s unavailable", table_id)
            got = False
        try:
            yield lock if got else None
        finally:
            if got:
                try:
                    await lock.release()
                except Exception:  # noqa: BLE001 - expired meanwhile: nothing to free
                    pass

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):  # noqa: BLE001
                pass
        await self.redis.aclose()
