"""Websocket compression done once per frame, not once per socket.

With permessage-deflate each socket normally compresses every frame with
its own compressor (the previous frames are its dictionary), so the same
view sent to ten spectators is compressed ten times; that was a large part
of the server's time per decision. Here the server asks for
``server_no_context_takeover`` (every client must accept it, RFC 7692
section 7.1.1.1): each message is compressed on its own, so one text always
becomes the same bytes, which are kept for the next socket that sends the
same text. Compression level 1 (zlib's fastest): a view of about 26 KB
becomes about 6.4 KB instead of 5.2 KB at the default level, in 60% of the
time. The window sizes are uvicorn's (4 KB, memLevel 5).

Used through :func:`protocol_class`, a subclass of uvicorn's websocket
protocol; when uvicorn's internals are not the expected ones the server
falls back to uvicorn's own compression (``None``).
"""
from __future__ import annotations

import logging
import zlib
from typing import Any

from websockets.extensions.permessage_deflate import PerMessageDeflate, ServerPerMessageDeflateFactory
from websockets.frames import TEXT, Frame

log = logging.getLogger("thieves.server")

#: zlib settings of every outgoing message (the window size is negotiated)
COMPRESS = {"memLevel": 5, "level": 1}
#: the most recent texts whose compressed bytes are kept (a text is a view: about 26 KB)
KEEP = 64

_kept: dict[bytes, bytes] = {}


def compressed(data: bytes, window_bits: int) -> bytes:
    """``data`` as one permessage-deflate message (the final empty block removed)."""
    key = data if window_bits == 12 else bytes([window_bits]) + data
    out = _kept.get(key)
    if out is None:
        enc = zlib.compressobj(wbits=-window_bits, **COMPRESS)  # type: ignore[arg-type]
        out = enc.compress(data) + enc.flush(zlib.Z_SYNC_FLUSH)
        out = out[:-4]  # 0x00 0x00 0xff 0xff, which the protocol leaves out
        if len(_kept) >= KEEP:
            del _kept[next(iter(_kept))]  # the oldest
        _kept[key] = out
    return out


class SharedDeflate(PerMessageDeflate):
    """permessage-deflate whose whole text messages come from :func:`compressed`."""

    def encode(self, frame: Frame) -> Frame:
        if frame.opcode is not TEXT or not frame.fin or not self.local_no_context_takeover:
            return super().encode(frame)
        return Frame(frame.opcode, compressed(bytes(frame.data), self.local_max_window_bits),
                     frame.fin, True, frame.rsv2, frame.rsv3)


class SharedDeflateFactory(ServerPerMessageDeflateFactory):
    """Negotiates as uvicorn does, always without server context takeover."""

    def process_request_params(self, params: Any, accepted_extensions: Any) -> Any:
        response, ext = super().process_request_params(params, accepted_extensions)
        return response, SharedDeflate(ext.remote_no_context_takeover, ext.local_no_context_takeover,
                                       ext.remote_max_window_bits, ext.local_max_window_bits,
                                       ext.compress_settings)


def factory() -> SharedDeflateFactory:
    return SharedDeflateFactory(server_no_context_takeover=True, server_max_window_bits=12,
                                client_max_window_bits=12, compress_settings=dict(COMPRESS))


def protocol_class() -> Any:
    """uvicorn's websocket protocol with :class:`SharedDeflate` (None: use uvicorn's own)."""
    try:
        from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
        from websockets.server import ServerProtocol
    except ImportError:
        return None

    class Protocol(WebSocketsSansIOProtocol):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            if self.config.ws_per_message_deflate:
                self.conn = ServerProtocol(extensions=[factory()], max_size=self.config.ws_max_size,
                                           logger=logging.getLogger("uvicorn.error"))

    return Protocol
