"""Small helpers for the server's background tasks."""
from __future__ import annotations

import asyncio
from typing import Any


async def cancel_and_wait(task: "asyncio.Task[Any] | None") -> None:
    """Cancel a task (if any) and wait until it has ended, whatever it ended with."""
    if task is None:
        return
    task.cancel()
    try:
        await task
    except (asyncio.CancelledError, Exception):  # noqa: BLE001 - stopped, or failed while stopping
        pass
