"""The live-table protocol over a websocket.

Connect to ``/ws/{table_id}?token=SEAT_TOKEN&lang=fr&layout=narrow&patch=1`` (no
token: spectator; ``layout=narrow``: the phone board, default "wide"; ``patch=1``:
views after the first as patches).
The server sends JSON messages:

* ``{"type": "state", ...}`` — the whole view (see :func:`views.build_view`),
  on connecting and after every accepted action;
* ``{"type": "patch", "ply": ..., "terminal": ..., ...}`` — instead of the
  whole view, to a client that asked for patches (``patch=1``) and has the
  view before it: what changed since (:mod:`.patches`);
* ``{"type": "error", "code": ..., "message": ...}`` — to the one client
  whose message was refused; nothing changed.

The client sends ``{"type": "action", "action": "<notation>", "ply": N}``
(``ply``, optional: the move number the action was chosen at; a message for
an older move is refused as ``stale``, so a resent action is never applied
twice; ``then``, optional: a gesture's further actions, a list of at most
``MAX_THEN`` notations, applied after it while the same seat acts and each is
legal; the sender also gets ``{"type": "then", "applied": N}``),
``{"type": "lang", "lang": "de"}``, ``{"type": "layout", "layout": "narrow"}`` (the window crossed the phone width), ``{"type": "whole"}`` (send the next view
whole: a client that lost its last one), ``{"type": "ping"}`` or
``{"type": "chat", "text": ..., "name": ..., "ref": ...}`` (a chat message,
``name`` for a spectator: every socket of the table gets ``{"type": "chat",
"id", "at", "ply", "seat", "spectator", "name", "text"}``, the sender then
``{"type": "chat_sent", "id", "ref"}``, or ``{"type": "chat_error", "code",
"message", "retry_after", "ref"}`` alone when it is refused; see :mod:`.chat`).
Messages are text frames of at most 16 KiB.
A wrong table or token gets an error message, then the socket closes
(code 4404 or 4403).

Frames to one connection are sent one at a time by its own task, each
built from the table as it is when it is sent (changes that come faster than
the client reads are merged), so a client never gets an older position after
a newer one, and a slow client delays nobody: one that does not take a frame
within ``SEND_TIMEOUT`` or lets ``MAX_QUEUE`` frames pile up is dropped.
"""
from __future__ import annotations

import asyncio
import itertools
import json
import logging
import marshal
import zlib
from collections import OrderedDict, deque
from typing import TYPE_CHECKING, Any, Callable

import orjson
from starlette.responses import JSONResponse
from starlette.websockets import WebSocket, WebSocketDisconnect

from .i18n import LANGS, pick_lang
from .patches import Drawn, make_patch
from .tasks import cancel_and_wait
from .errors import BadRequest, NotFound, ServerError, TooLarge
from .tables import LiveTable
from .views import build_view, pick_layout
from .wsdeflate import FORWARD_BITS, WRITE_NOW, Frames

if TYPE_CHECKING:
    from .platform import Platform

log = logging.getLogger("thieves.server")


#: the largest message a client may send (an action is at most 200 characters)
MAX_MESSAGE = 16 * 1024
#: seconds one frame may take to leave: a client that does not read (stalled
#: network, or on purpose) is dropped instead of holding anything up
SEND_TIMEOUT = 10.0
#: frames other than the table's state (errors, pongs) waiting for one
#: connection; a connection with more is dropped (it can reconnect)
MAX_QUEUE = 32


class View:
    """One view of a table at one version: the whole view as websocket frames
    (:class:`~.wsdeflate.Frames`, its text made when a socket first needs it)
    and, for the sockets whose last frame was the view before it, its patch
    (:mod:`.patches`, made once too)."""

    __slots__ = ("serial", "version", "drawn", "_frames", "_base", "_base_serial", "_patch", "nbytes")

    def __init__(self, version: int, drawn: Drawn | None = None, frames: Frames | None = None,
                 base: "View | None" = None) -> None:
        assert drawn is not None or frames is not None
        #: unique in this process: what a socket remembers of the last view it sent
        self.serial = next(_SERIALS)
        self.version = version
        self.drawn = drawn
        self._frames = frames
        # the view before it, until its patch is made (a view from another process has none)
        self._base = base if drawn is not None and base is not None and base.drawn is not None else None
        self._base_serial = self._base.serial if self._base is not None else None
        self._patch: Frames | None = None
        if base is not None:
            base._base = None  # no longer the newest: nobody asks for its patch (no chain of views is kept)
        #: about what it holds at most, in bytes (:func:`view_bytes`), counted by the cache
        self.nbytes = view_bytes(drawn.view) if drawn is not None else 3 * len(frames.text) if frames else 0

    def frames(self) -> Frames:
        if self._frames is None:
            assert self.drawn is not None
            # the standard library here: orjson would keep a UTF-8 copy of every
            # non-ASCII string it writes inside that string (CPython caches it),
            # and a whole view's board stays in the cache as long as the view
            self._frames = Frames(json.dumps(self.drawn.view))
        return self._frames

    def patch_after(self, serial: int) -> Frames | None:
        """The patch from the view numbered ``serial`` to this one, when that
        is the view before it (None: send this one whole)."""
        if self._base_serial is None or self._base_serial != serial:
            return None
        if self._patch is None:
            base = self._base
            assert self.drawn is not None and base is not None and base.drawn is not None
            self._patch = Frames(data=frame_json(make_patch(base.drawn, self.drawn)))
            self._base = None  # made: the view before is no longer needed
        return self._patch


_SERIALS = itertools.count(1)


def frame_json(value: Any) -> bytes:
    """A patch as the JSON text a socket sends, UTF-8 encoded: by orjson, several
    times quicker than the standard library on a board's strings (compact,
    non-ASCII characters as they are; keys that are not strings written as
    strings, as ``json.dumps`` does). Copied to bytes of its own size: orjson's
    result keeps the whole buffer it grew, kept as long as the view."""
    return memoryview(orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)).tobytes()

#: bytes of views one table may keep, and all tables together (the least
#: recently used go first; a view not kept is built again when asked for)
VIEW_BYTES_PER_TABLE = 8 * 1024 * 1024
VIEW_BYTES = 512 * 1024 * 1024


def view_bytes(view: Any) -> int:
    """About the bytes a kept view holds at most: its strings (the board's SVG
    above all) once in the view, once as its patch base's pieces, its frame
    (compressed; or its text where a socket takes it plain, or a request read
    it) and its patch; a little for everything else.

    Read in C as far as it goes (a walk through the observation in Python cost
    a fifth of a millisecond per view): the strings and the log's lines by
    their length, the ids the log lines name by their number, the other fields
    by their ``marshal`` form (their strings and a few bytes per other value)."""
    if isinstance(view, dict):
        try:
            return _plain_view_bytes(view)
        except (ValueError, TypeError):  # not plain data
            pass
    strings = 0
    stack = [view]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            strings += len(x)
        elif isinstance(x, dict):
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
        else:
            strings += 8
    return 4 * strings + 2048


def _plain_view_bytes(view: dict[str, Any]) -> int:
    size = 0
    rest = {}
    for key, x in view.items():
        if type(x) is str:
            size += len(x)
        elif key in _LINES and type(x) is list:
            size += sum(map(len, x)) if key == "log" else 24 * len(x)
            if key == "log_refs":
                size += 24 * sum(map(len, x))
        else:
            rest[key] = x
    return 4 * (size + len(marshal.dumps(rest, 2))) + 2048


#: a view's lists measured by their length (:func:`view_bytes`): the log's
#: lines, the ids each names, which are recent
_LINES = frozenset({"log", "log_refs", "log_recent"})


class ViewCache:
    """Each view built once per table change, shared by every connection with
    the same viewer, language and layout (all the spectators of a table share
    one), as a :class:`View`: its websocket frame, whole or as a patch, is made
    once too, and written as it is to every socket that sends it.

    Views are built on the event loop, not in worker threads: a view takes
    about a millisecond, and a thread drawing boards while the loop waits for
    the interpreter's lock made every socket and every table slower (each
    hand-over of the lock can cost the loop up to the switch interval, 5 ms).
    """

    def __init__(self, per_table: int = VIEW_BYTES_PER_TABLE, total: int = VIEW_BYTES) -> None:
        #: every kept view, the least recently used first
        self._views: OrderedDict[tuple[str, int | None, str, str], View] = OrderedDict()
        #: bounds in bytes (:func:`view_bytes`) per table and for all (0: none)
        self.per_table = per_table
        self.total = total
        #: bytes kept per table, and in all
        self._table_bytes: dict[str, int] = {}
        self.nbytes = 0

    def bytes_of(self, table_id: str) -> int:
        """The bytes of views kept for one table."""
        return self._table_bytes.get(table_id, 0)

    def _keep(self, key: tuple[str, int | None, str, str], view: View) -> None:
        """Keep ``view`` under ``key`` (the newest), then let the least recently
        used views go while the table's or the overall bound is passed (never
        the one just kept)."""
        self._drop(key)
        self._views[key] = view
        table_id = key[0]
        self._table_bytes[table_id] = self._table_bytes.get(table_id, 0) + view.nbytes
        self.nbytes += view.nbytes
        if self.per_table > 0 and self._table_bytes[table_id] > self.per_table:
            for old in [k for k in self._views if k[0] == table_id and k != key]:
                self._drop(old)
                if self._table_bytes.get(table_id, 0) <= self.per_table:
                    break
        if self.total > 0 and self.nbytes > self.total:
            for old in list(self._views):
                if self.nbytes <= self.total:
                    break
                if old != key:
                    self._drop(old)

    def _drop(self, key: tuple[str, int | None, str, str]) -> None:
        view = self._views.pop(key, None)
        if view is None:
            return
        left = self._table_bytes.get(key[0], 0) - view.nbytes
        if left > 0:
            self._table_bytes[key[0]] = left
        else:
            self._table_bytes.pop(key[0], None)
        self.nbytes -= view.nbytes

    async def text(self, table: LiveTable, viewer: int | None, lang: str,
                   layout: str = "wide") -> tuple[int, str]:
        """``(version, text)`` of the table as it is now, for ``viewer`` in ``lang``
        and ``layout``."""
        version, frames = self.frames_now(table, viewer, lang, layout)
        return version, frames.text

    def text_now(self, table: LiveTable, viewer: int | None, lang: str,
                 layout: str = "wide") -> tuple[int, str]:
        """:meth:`text` without waiting (a failure is raised, never kept)."""
        version, frames = self.frames_now(table, viewer, lang, layout)
        return version, frames.text

    def frames_now(self, table: LiveTable, viewer: int | None, lang: str,
                   layout: str = "wide") -> tuple[int, Frames]:
        """``(version, frames)``: the whole view as :meth:`text_now` builds it, ready to send."""
        view = self.latest(table, viewer, lang, layout)
        return view.version, view.frames()

    def latest(self, table: LiveTable, viewer: int | None, lang: str, layout: str = "wide") -> View:
        """The :class:`View` of the table as it is now (built if it is not kept)."""
        key = (table.id, viewer, lang, layout)
        version = table.version_for(viewer)  # another seat's secret steps: the same view
        view = self._views.get(key)
        if view is None or view.version != version:
            drawn = Drawn(build_view(table, table.state, viewer, lang, layout=layout))
            view = View(version, drawn, base=view)
            self._keep(key, view)
        else:
            self._views.move_to_end(key)
        return view

    def accept(self, table: LiveTable, views: list[Any]) -> None:
        """Spectators' views of the table as it is now, built by the process
        that changed it: ``(lang, layout, payload)``, the payload compressed
        (:meth:`Frames.deflated` with ``FORWARD_BITS``), or its text; anything
        else is ignored. They are sent whole (no patch from the view before)."""
        for item in views[:8]:
            if not (isinstance(item, (list, tuple)) and len(item) == 3 and item[0] in LANGS
                    and item[1] == pick_layout(item[1])):
                continue
            data = item[2]
            try:
                frames = (Frames(data) if isinstance(data, str)
                          else Frames.from_deflated(data, FORWARD_BITS) if isinstance(data, bytes) else None)
            except (zlib.error, UnicodeDecodeError):
                log.warning("a view from another process of table %s could not be read", table.id)
                continue
            if frames is not None:
                self._keep((table.id, None, item[0], item[1]), View(table.version_for(None), frames=frames))

    def forget_viewer(self, table_id: str, viewer: int) -> None:
        """Drop one seat's views of the table (a setting only that seat sees changed)."""
        for key in [k for k in self._views if k[0] == table_id and k[1] == viewer]:
            del self._views[key]

    def forget(self, table_id: str) -> None:
        for key in [k for k in self._views if k[0] == table_id]:
            self._drop(key)


class Conn:
    """One open socket: the newest state of its table and a short queue of
    other frames, sent by its own task one at a time, so a slow reader only
    ever delays itself. Changes that come faster than it reads are merged:
    it gets the newest position, never an older one after a newer one."""

    def __init__(self, ws: Any, viewer: int | None, lang: str, table: LiveTable | None = None,
                 hub: "Hub | None" = None, address: str = "", layout: str = "wide",
                 patches: bool = False) -> None:
        self.ws = ws
        self.viewer = viewer
        self.lang = lang
        self.layout = layout
        self.table = table
        self.hub = hub
        self.address = address
        self.queue: deque[str] = deque()
        self.dirty = False
        self.sent_version = -1
        #: the client applies patches to its last view (``patch=1``)
        self.patches = patches
        #: the :attr:`View.serial` of the last view sent (whole or as a patch)
        self.sent_serial = -1
        self.closed = False
        #: a frame took longer than SEND_TIMEOUT to leave
        self._timed_out = False
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        #: writes a frame at once where the server offers it (else None)
        self._write_now: Callable[[Frames], bool] | None = _write_now_of(ws)

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run())

    def notify(self, force: bool = False) -> None:
        """The table changed (``force``: send even at the same version, e.g. a new language)."""
        if force:
            self.sent_version = self.sent_serial = -1
        self.dirty = True
        self._wake.set()

    def push(self, text: str) -> None:
        """Queue one frame; a connection that has too many waiting is dropped."""
        if len(self.queue) >= MAX_QUEUE:
            self.drop("too many frames waiting")
            return
        self.queue.append(text)
        self._wake.set()

    def drop(self, why: str) -> None:
        """Close this connection (1011) without waiting for it; it may reconnect."""
        if self.closed:
            return
        self.closed = True
        log.info("dropping a connection to table %s: %s", self.table.id if self.table else "?", why)
        if self.hub is not None and self.table is not None:
            self.hub.remove(self.table.id, self)
        self._wake.set()
        asyncio.ensure_future(self._close())

    async def _close(self) -> None:
        try:
            await asyncio.wait_for(self.ws.close(code=1011), 1.0)
        except Exception:  # noqa: BLE001 - already gone
            pass

    async def _send(self, text: str | Frames) -> bool:
        """Send one frame (from this connection's own task); a frame that does not
        leave within ``SEND_TIMEOUT`` drops the connection. The time limit is a
        timer that cancels the send, not ``asyncio.wait_for`` (which makes a task
        for every frame). A view's frame that the socket takes at once is
        written straight to it (:data:`~.wsdeflate.WRITE_NOW`): nothing waits."""
        if isinstance(text, Frames) and self._write_now is not None and self._write_now(text):
            return True
        task = asyncio.current_task()
        stalled = asyncio.get_running_loop().call_later(SEND_TIMEOUT, self._stalled, task)
        try:
            if isinstance(text, Frames):
                if isinstance(self.ws, WebSocket):
                    # the frame made once for every socket (a server without
                    # the shortcut sends the text)
                    await self.ws.send(text.message())
                else:
                    await self.ws.send_text(text.text)
            else:
                await self.ws.send_text(text)
            return True
        except asyncio.CancelledError:
            if not self._timed_out:
                raise  # stopped
            self.drop("send failed (TimeoutError)")
            return False
        except Exception as exc:  # noqa: BLE001 - a closed or broken socket
            self.drop(f"send failed ({type(exc).__name__})")
            return False
        finally:
            stalled.cancel()

    def _stalled(self, task: "asyncio.Task[Any] | None") -> None:
        self._timed_out = True
        if task is not None:
            task.cancel()

    async def _run(self) -> None:
        assert self.table is not None and self.hub is not None
        while not self.closed:
            await self._wake.wait()
            self._wake.clear()
            while not self.closed and (self.queue or self.dirty):
                if self.queue:
                    if not await self._send(self.queue.popleft()):
                        return
                    continue
                self.dirty = False
                if self.table.version_for(self.viewer) <= self.sent_version:
                    continue  # nothing this viewer can see changed (e.g. a rival's secret step)
                try:
                    view = self.hub.views.latest(self.table, self.viewer, self.lang, self.layout)
                    frames = (self.patches and view.patch_after(self.sent_serial)) or view.frames()
                except Exception:  # noqa: BLE001 - a game's bug: keep the socket, log it
                    log.exception("building a view of table %s failed", self.table.id)
                    continue
                if view.version > self.sent_version:
                    if not await self._send(frames):
                        return
                    self.sent_version, self.sent_serial = view.version, view.serial

    async def wait_idle(self, timeout: float = 5.0) -> None:
        """Until everything queued is sent (tests)."""
        deadline = asyncio.get_running_loop().time() + timeout
        while (self.queue or self.dirty or self._wake.is_set()) and not self.closed:
            if asyncio.get_running_loop().time() > deadline:
                raise TimeoutError("the connection did not catch up")
            await asyncio.sleep(0.005)

    async def stop(self) -> None:
        self.closed = True
        self._wake.set()
        await cancel_and_wait(self._task)


def _write_now_of(ws: Any) -> "Callable[[Frames], bool] | None":
    """The socket's :data:`~.wsdeflate.WRITE_NOW`, if its server offers it."""
    scope = getattr(ws, "scope", None)
    extensions = scope.get("extensions") if isinstance(scope, dict) else None
    write = extensions.get(WRITE_NOW) if isinstance(extensions, dict) else None
    return write if callable(write) else None


class Hub:
    """Open connections per table; a change only marks them (never waits for one)."""

    def __init__(self) -> None:
        self.conns: dict[str, list[Conn]] = {}
        self.views = ViewCache()

    def add(self, table_id: str, conn: Conn) -> None:
        conn.hub = self
        self.conns.setdefault(table_id, []).append(conn)
        conn.start()
        conn.notify()

    def remove(self, table_id: str, conn: Conn) -> None:
        lst = self.conns.get(table_id, [])
        if conn in lst:
            lst.remove(conn)
        if not lst:
            self.conns.pop(table_id, None)

    def spectator_keys(self, table_id: str) -> set[tuple[str, str]]:
        """The ``(lang, layout)`` of the table's spectator sockets here."""
        return {(c.lang, c.layout) for c in self.conns.get(table_id, ()) if c.viewer is None and not c.closed}

    def count(self, table_id: str) -> int:
        return len(self.conns.get(table_id, ()))

    def count_address(self, address: str) -> int:
        return sum(1 for lst in self.conns.values() for c in lst if c.address == address)

    def notify(self, table: LiveTable) -> None:
        """The table changed: every connection will get the new state, at its own pace."""
        for conn in list(self.conns.get(table.id, ())):
            conn.table = table
            conn.notify()

    def notify_seat(self, table: LiveTable, seat: int) -> None:
        """Something only ``seat`` sees changed (the table's version did not): its
        connections get their view again; nobody else is sent anything."""
        self.views.forget_viewer(table.id, seat)
        for conn in list(self.conns.get(table.id, ())):
            if conn.viewer == seat:
                conn.table = table
                conn.notify(force=True)

    async def broadcast(self, table: LiveTable) -> None:
        """Notify, then wait (up to a bound) until the connections have it (tests)."""
        self.notify(table)
        await asyncio.gather(*(c.wait_idle() for c in list(self.conns.get(table.id, ()))),
                             return_exceptions=True)


def _error_text(exc: ServerError) -> str:
    return json.dumps({"type": "error", "code": exc.code, "message": str(exc)})


async def send_error(ws: WebSocket, exc: ServerError) -> None:
    await ws.send_text(_error_text(exc))


async def deny(ws: WebSocket, exc: ServerError) -> None:
    """Refuse a socket before it opens: an HTTP answer (e.g. 429 with Retry-After)
    where the server supports it, else an error message and close code 4000 + status."""
    headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after else {}
    try:
        await ws.send_denial_response(JSONResponse({"error": exc.code, "message": str(exc)},
                                                   status_code=exc.status, headers=headers))
    except RuntimeError:  # the server has no denial responses
        await ws.accept()
        await send_error(ws, exc)
        await ws.close(code=4000 + exc.status)


async def table_socket(ws: WebSocket, platform: "Platform", table_id: str) -> None:
    address = ws.client.host if ws.client else "?"
    try:
        platform.check_socket(table_id, address)
    except ServerError as exc:
        await deny(ws, exc)
        return
    await ws.accept()
    lang = pick_lang(ws.query_params.get("lang"), ws.cookies.get("lang"))
    try:
        table = await platform.get(table_id)
        viewer = table.seat_of(ws.query_params.get("token"))
    except ServerError as exc:
        await send_error(ws, exc)
        await ws.close(code=4404 if isinstance(exc, NotFound) else 4403)
        return
    conn = Conn(ws, viewer, lang, table, address=address,
                layout=pick_layout(ws.query_params.get("layout")),
                patches=ws.query_params.get("patch") == "1")
    platform.hub.add(table.id, conn)
    try:
        while not conn.closed:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            try:
                text = message.get("text")
                if text is None:
                    raise BadRequest("malformed", "messages must be JSON text, not binary frames")
                if len(text) > MAX_MESSAGE:
                    raise TooLarge("too_large", f"messages are at most {MAX_MESSAGE} characters")
                msg = _parse(text)
                kind = msg["type"]
                table = conn.table or table
                if kind == "action":
                    done = await platform.act(table, viewer, msg.get("action"), msg.get("ply"), msg.get("then"))
                    if msg.get("then") is not None:
                        conn.push(json.dumps({"type": "then", "applied": done}))
                elif kind == "lang":
                    conn.lang = pick_lang(msg.get("lang") if isinstance(msg.get("lang"), str) else None)
                    conn.notify(force=True)
                elif kind == "layout":
                    conn.layout = pick_layout(msg.get("layout"))
                    conn.notify(force=True)
                elif kind == "whole":  # the client lost its last view: the next one comes whole
                    conn.notify(force=True)
                elif kind == "ping":
                    conn.push(json.dumps({"type": "pong", "ply": table.state.shown_ply(viewer)}))
                elif kind == "chat":
                    await _chat(platform, conn, table, viewer, msg, address)
                else:
                    raise BadRequest("malformed", f"unknown message type {kind!r}")
            except ServerError as exc:
                conn.push(_error_text(exc))
    except WebSocketDisconnect:
        pass
    finally:
        platform.hub.remove(table.id, conn)
        await conn.stop()


async def _chat(platform: "Platform", conn: Conn, table: LiveTable, viewer: int | None,
                msg: dict[str, Any], address: str) -> None:
    """A chat message from this socket: sent to every socket of the table
    (this one included), then ``chat_sent`` to this one; a refusal goes to
    this socket alone as ``chat_error`` (the page keeps the text)."""
    ref = msg.get("ref")
    ref = ref if isinstance(ref, (str, int)) and not isinstance(ref, bool) and len(str(ref)) <= 40 else None
    try:
        message = await platform.say(table, viewer, msg.get("text"), msg.get("name"), address)
    except ServerError as exc:
        conn.push(json.dumps({"type": "chat_error", "code": exc.code, "message": str(exc),
                              "retry_after": exc.retry_after, "ref": ref}))
        return
    conn.push(json.dumps({"type": "chat_sent", "id": message["id"], "ref": ref}))


def _parse(text: str) -> dict[str, Any]:
    try:
        msg = json.loads(text)
    except (ValueError, TypeError, RecursionError):  # RecursionError: "[[[[..." nested too deep
        raise BadRequest("malformed", "messages must be JSON objects") from None
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise BadRequest("malformed", 'messages must be JSON objects with a "type"')
    return msg
