"""The table's websocket (the protocol is server/websocket.py's)."""
from __future__ import annotations

from fastapi import APIRouter, WebSocket

from ..web import origin_refusal
from ..websocket import deny, table_socket
from .deps import PlatformDep

router = APIRouter()


@router.websocket("/ws/{table_id}")
async def ws_table(websocket: WebSocket, platform: PlatformDep, table_id: str) -> None:
    refused = origin_refusal(websocket.headers, websocket.app.state.public_url)
    if refused is not None:  # another site's page may not open a seat's socket
        await deny(websocket, refused)
        return
    await table_socket(websocket, platform, table_id)
