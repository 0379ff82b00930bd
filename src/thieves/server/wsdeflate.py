"""Websocket frames built once per message, not once per socket.

With permessage-deflate each socket normally compresses every frame with
its own compressor (the previous frames are its dictionary), so the same
view sent to ten spectators is compressed ten times; that was a large part
of the server's time per decision. Here the server asks for
``server_no_context_takeover`` (every client must accept it, RFC 7692
section 7.1.1.1): each message is compressed on its own, so one text always
becomes the same bytes.

A view is sent as a :class:`Frames`: the text, and the whole websocket frame
(header and payload, plain or compressed for the socket's window size)
made the first time a socket needs it and written as it is to every other
socket that negotiated the same (:func:`protocol_class`: uvicorn's protocol
with a shortcut for such messages, past Starlette's, uvicorn's and
websockets' work for each frame: encoding the text, compressing it or
looking it up, building the frame, joining its parts). Other messages (errors,
pongs) take the usual path; their compressed bytes are kept by text
(:func:`compressed`).

Compression: zlib level 1 (its fastest) with a window of up to 32 KB (no
larger than the message: :func:`deflate`) and zlib's usual memory level: a
Thief's Market view of about 26 KB becomes about
5.8 KB in about 0.1 ms, where uvicorn's settings for per-socket compressors
(a 4 KB window, memory level 5: kept per socket, they must be small) gave
6.4 KB in about 0.2 ms. Nothing is kept per socket here, so the larger
window costs the server nothing; the browser keeps its usual 32 KB window.

When uvicorn's internals are not the expected ones the server falls back to
uvicorn's own compression (:func:`protocol_class` returns ``None``), and a
server without the shortcut sends a :class:`Frames`' text as usual.
"""
from __future__ import annotations

import logging
import struct
import zlib
from typing import Any

from websockets.extensions.permessage_deflate import PerMessageDeflate, ServerPerMessageDeflateFactory
from websockets.frames import TEXT, Frame

log = logging.getLogger("thieves.server")

#: zlib settings of every outgoing message (the window size is negotiated)
COMPRESS = {"memLevel": 8, "level": 1}
#: the most recent texts whose compressed bytes are kept (:func:`compressed`)
KEEP = 64
#: the scope extension of a socket served by :func:`protocol_class`: a function
#: that writes a :class:`Frames` at once when the socket can take it now
#: (True), else does nothing (False: send it the usual way)
WRITE_NOW = "thieves.write_now"
#: the key of an ASGI ``websocket.send`` message that carries a :class:`Frames`
FRAMES_KEY = "thieves.frames"
#: the window size of the compressed views one process sends another
#: (:meth:`Frames.deflated`): the largest, which browsers and most clients
#: leave the server
FORWARD_BITS = 15

_kept: dict[bytes, bytes] = {}


def deflate(data: bytes, window_bits: int) -> bytes:
    """``data`` as one permessage-deflate message (the final empty block removed).

    The window is no larger than the message needs (a patch of a few KB): every
    reference back fits in it all the same, and setting up zlib's window and
    tables for 32 KB takes longer than compressing 1 KB. A reader's window may
    be larger than the writer's (RFC 7692 section 7.1.2.1)."""
    bits = min(window_bits, max(9, (len(data) - 1).bit_length()))
    enc = zlib.compressobj(wbits=-bits, **COMPRESS)  # type: ignore[arg-type]
    out = enc.compress(data) + enc.flush(zlib.Z_SYNC_FLUSH)
    return out[:-4]  # 0x00 0x00 0xff 0xff, which the protocol leaves out


def compressed(data: bytes, window_bits: int) -> bytes:
    """:func:`deflate`, kept for the next socket that sends the same text."""
    key = data if window_bits == 15 else bytes([window_bits]) + data
    out = _kept.get(key)
    if out is None:
        out = deflate(data, window_bits)
        if len(_kept) >= KEEP:
            del _kept[next(iter(_kept))]  # the oldest
        _kept[key] = out
    return out


def frame_bytes(payload: bytes, deflated: bool) -> bytes:
    """One final, unmasked text frame (a server's) carrying ``payload``."""
    first = 0xC1 if deflated else 0x81  # FIN, RSV1 (compressed), opcode 1 (text)
    n = len(payload)
    if n < 126:
        head = struct.pack("!BB", first, n)
    elif n < 65536:
        head = struct.pack("!BBH", first, 126, n)
    else:
        head = struct.pack("!BBQ", first, 127, n)
    return head + payload


def frame_payload(frame: bytes) -> bytes:
    """The payload of a frame :func:`frame_bytes` made (its header left out)."""
    n = frame[1] & 0x7F
    return frame[2 if n < 126 else 4 if n == 126 else 10:]


class Frames:
    """One text message as websocket frames, made once and sent to every socket
    that wants it: ``frame(None)`` uncompressed, ``frame(bits)`` compressed for
    permessage-deflate without context takeover and a window of ``bits``."""

    __slots__ = ("_text", "_data", "_frames")

    def __init__(self, text: str | None = None, data: bytes | None = None) -> None:
        """The message as ``text``, or as ``data``: its UTF-8 bytes (the other is
        made when first asked for)."""
        assert text is not None or data is not None
        self._text = text
        self._data = data
        self._frames: dict[int | None, bytes] = {}

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = self.data().decode()
        return self._text

    def data(self) -> bytes:
        """The message's UTF-8 bytes (read back from a compressed frame when only
        that is kept)."""
        if self._data is not None:
            return self._data
        if self._text is not None:
            self._data = self._text.encode()
            return self._data
        bits = next(b for b in self._frames if b is not None)
        dec = zlib.decompressobj(wbits=-bits)
        return dec.decompress(frame_payload(self._frames[bits]) + b"\x00\x00\xff\xff")

    def frame(self, window_bits: int | None) -> bytes:
        out = self._frames.get(window_bits)
        if out is None:
            data = self.data()
            out = (frame_bytes(data, False) if window_bits is None
                   else frame_bytes(deflate(data, window_bits), True))
            self._frames[window_bits] = out
            if window_bits is not None:
                # the compressed frame is all a view keeps for as long as it is
                # kept (a quarter of the text): the text is read back from it if
                # ever asked for again (a socket without compression, a request)
                self._text = self._data = None
        return out

    def deflated(self, window_bits: int) -> bytes:
        """The compressed payload of ``frame(window_bits)`` (its header left out)."""
        return frame_payload(self.frame(window_bits))

    @classmethod
    def from_deflated(cls, payload: bytes, window_bits: int) -> "Frames":
        """The message whose ``deflated(window_bits)`` is ``payload`` (made by
        another process): its text is read back from it, its compressed frame
        is that payload as it is. Raises ``zlib.error`` or ``UnicodeDecodeError``
        when it is not one."""
        dec = zlib.decompressobj(wbits=-window_bits)
        data = dec.decompress(payload + b"\x00\x00\xff\xff")
        data.decode()  # not text: UnicodeDecodeError, as the caller expects
        frames = cls(data=data)
        frames._frames[window_bits] = frame_bytes(payload, True)
        return frames

    def message(self) -> dict[str, Any]:
        """The ASGI message that sends it (its text, for a server without the shortcut)."""
        return {"type": "websocket.send", "text": self.text, FRAMES_KEY: self}


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
    # the client's window stays small: this server keeps a decompressor per socket
    return SharedDeflateFactory(server_no_context_takeover=True, client_max_window_bits=12,
                                compress_settings=dict(COMPRESS))


def frame_mode(extensions: list[Any]) -> int | None | bool:
    """How a socket with these extensions takes a :class:`Frames`: ``None``
    uncompressed, the window size when compressed, ``False``: not at all."""
    if not extensions:
        return None
    if len(extensions) == 1 and isinstance(extensions[0], SharedDeflate) \
            and extensions[0].local_no_context_takeover:
        bits: int = extensions[0].local_max_window_bits
        return bits
    return False


def protocol_class() -> Any:
    """uvicorn's websocket protocol with :class:`SharedDeflate` and the shortcut
    for :class:`Frames` (None: use uvicorn's own)."""
    try:
        from uvicorn.protocols.utils import ClientDisconnected
        from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
        from websockets.protocol import OPEN
        from websockets.server import ServerProtocol
    except ImportError:
        return None

    class Protocol(WebSocketsSansIOProtocol):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            if self.config.ws_per_message_deflate:
                self.conn = ServerProtocol(extensions=[factory()], max_size=self.config.ws_max_size,
                                           logger=logging.getLogger("uvicorn.error"))
            self._frame_mode: int | None | bool = False

        def handle_connect(self, event: Any) -> None:
            super().handle_connect(event)
            scope = getattr(self, "scope", None)
            if scope is not None:  # the app's task, made just now, has not read it yet
                scope["extensions"][WRITE_NOW] = self.write_now

        def _mode(self) -> int | None | bool:
            """How this socket takes a :class:`Frames` now (``False``: not as one:
            closing, closed, or an extension this module does not know)."""
            conn = self.conn
            if self.disconnected or self.close_sent or conn.state is not OPEN \
                    or conn.expect_continuation_frame or self.transport.is_closing():
                return False
            mode = self._frame_mode
            if mode is False:
                mode = self._frame_mode = frame_mode(conn.extensions)
            return mode

        def write_now(self, frames: Frames) -> bool:
            """Write ``frames`` if the socket takes it without waiting (open, its
            buffer not full): the usual path's work (the app's, Starlette's and
            uvicorn's layers for one message) skipped for a frame made once."""
            if not (self.handshake_complete and self.initial_response is None and self.writable.is_set()):
                return False
            mode = self._mode()
            if mode is False:
                return False
            self.transport.write(frames.frame(mode))
            return True

        async def send(self, message: Any) -> None:
            frames = message.get(FRAMES_KEY)
            if frames is None or not self.handshake_complete or self.initial_response is not None:
                await super().send(message)
                return
            await self.writable.wait()
            if self.disconnected:
                raise ClientDisconnected()
            mode = self._mode()
            if mode is False:
                await super().send(message)  # what uvicorn does then (raises, ignores, or sends)
                return
            self.transport.write(frames.frame(mode))

    return Protocol
