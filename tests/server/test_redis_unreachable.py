"""With Redis unreachable, the log says so once with its reason, then short
lines as the waits between tries double: no traceback every second."""
from __future__ import annotations

import asyncio
import logging
import socket

import pytest

pytest.importorskip("redis")

from thieves.server import shared  # noqa: E402


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])  # nothing listens there once closed


def test_an_unreachable_redis_is_logged_briefly(caplog, monkeypatch):
    monkeypatch.setattr(shared, "LISTEN_BACKOFF", 0.1)  # tries at 0, 0.1, 0.3, 0.7, 1.5 s
    fanout = shared.Fanout(f"redis://:secret@127.0.0.1:{_closed_port()}/0", "t_")

    async def run() -> None:
        fanout.start(lambda *_: None)
        await asyncio.sleep(1.2)
        fanout._trouble("could not tell", OSError("refused"))
        fanout._trouble("could not tell", OSError("refused"))  # within the minute: not again
        await fanout.close()

    with caplog.at_level(logging.INFO, logger="thieves.server"):
        asyncio.run(run())
    records = [r for r in caplog.records if r.name == "thieves.server"]
    assert all(r.exc_info is None for r in records)  # no traceback
    tries = [r.getMessage() for r in records if "Redis" in r.getMessage()]
    assert 3 <= len(tries) <= 6, tries
    assert "failed" in tries[0] and "Error" in tries[0] and "127.0.0.1" in tries[0]
    assert "secret" not in "".join(tries)
    assert "still unreachable" in tries[1] and "next try in 0.2 s" in tries[1]
    assert sum("could not tell" in t for t in tries) == 1
