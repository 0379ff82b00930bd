"""Limits that keep one client, or many, from using up the server.

Every refusal is a ``rate_limited`` error (HTTP 429) with a ``Retry-After``
time in seconds. Each limit is a :class:`Limits` field, set by an
environment variable ``THIEVES_<FIELD>`` (upper case) or by
``create_app(limits=...)``; 0 turns a count limit off.

Counts are per process: several ``thieves serve`` processes behind one
address each apply their own (the open-tables count is the database's, so it
is shared).
"""
from __future__ import annotations

import math
import os
import time
from collections import deque
from dataclasses import dataclass, fields

from .errors import TooMany


@dataclass
class Limits:
    #: tables one client address may create per ``tables_window`` seconds
    tables_per_address: int = 20
    tables_window: float = 600.0
    #: tables not finished (and not expired) on the whole site
    open_tables: int = 2000
    #: sockets open to one table, and from one client address
    sockets_per_table: int = 64
    sockets_per_address: int = 32
    #: seconds without a change and without a socket after which a table
    #: leaves memory (finished tables leave at the next sweep); it is read
    #: again from the database when someone opens it
    idle_unload: float = 900.0
    #: seconds without a change after which a table not finished is abandoned:
    #: it no longer counts as open and no action is accepted (410 ``expired``)
    expire_after: float = 14 * 24 * 3600.0
    #: seconds between two sweeps of the tables in memory
    sweep_every: float = 60.0
    #: the table chat (server/chat.py): characters per message, messages per
    #: sender (a seat, or a spectator's address) per ``chat_window`` seconds,
    #: messages kept per table (0: no limit)
    chat_chars: int = 300
    chat_messages: int = 5
    chat_window: float = 10.0
    chat_stored: int = 500
    #: bytes of views (built once per change, shared by the sockets) kept for one
    #: table and for all tables together; the least recently used go first
    view_bytes_per_table: int = 8 * 1024 * 1024
    view_bytes: int = 512 * 1024 * 1024
    #: undos one seat may ask for per ``undos_window`` seconds (each is a stored row)
    undos_per_seat: int = 30
    undos_window: float = 600.0
    #: undos one seat may make in one game, whatever the time (bounds a table's rows)
    undos_per_game: int = 300
    #: replay steps one client address may ask for per ``replays_window`` seconds
    #: (``GET /api/tables/<id>/replay/<k>``, which needs no token)
    replays_per_address: int = 240
    replays_window: float = 60.0

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> "Limits":
        env = os.environ if environ is None else environ
        values = {}
        for f in fields(cls):
            raw = env.get("THIEVES_" + f.name.upper())
            if raw is not None and raw.strip():
                try:
                    values[f.name] = type(getattr(cls, f.name))(float(raw))
                except ValueError:
                    raise ValueError(f"THIEVES_{f.name.upper()} must be a number, not {raw!r}") from None
        return cls(**values)


def too_many(what: str, retry_after: float) -> TooMany:
    return TooMany("rate_limited", f"{what}; try again in {math.ceil(retry_after)} s",
                   retry_after=max(1, math.ceil(retry_after)))


class RateLimit:
    """At most ``count`` events per ``window`` seconds for each key (a sliding window)."""

    def __init__(self, count: int, window: float) -> None:
        self.count = count
        self.window = window
        self._events: dict[str, deque[float]] = {}

    def check(self, key: str, what: str, now: float | None = None) -> None:
        """Count one event for ``key``, or raise ``rate_limited`` (and count nothing)."""
        if self.count <= 0:
            return
        now = time.monotonic() if now is None else now
        q = self._events.setdefault(key, deque())
        while q and q[0] <= now - self.window:
            q.popleft()
        if len(q) >= self.count:
            raise too_many(what, q[0] + self.window - now)
        q.append(now)
        if len(self._events) > 10_000:  # forget addresses with nothing in their window
            for k in [k for k, v in self._events.items() if not v or v[-1] <= now - self.window]:
                del self._events[k]
