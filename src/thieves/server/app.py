"""The web application: lobby, table pages, JSON API, websocket, bots.

``serve(host, port, database_url)`` is what ``thieves serve`` runs.
Environment knobs: ``THIEVES_BOT_DELAY`` (seconds between bot moves,
default 0.8; 0 plays bots at once) and ``THIEVES_DATABASE_URL``.
"""
from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import secrets
import time
import urllib.parse
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator, Callable, Sequence, TypeVar

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.middleware.gzip import GZipMiddleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from fastapi.templating import Jinja2Templates

from ..bots import bot_names
from ..core.game import Option
from ..core.registry import load_game
from .chat import Chat, as_message, sender_key
from .chat import now as chat_now
from .i18n import LANG_NAMES, bot_label, error_text, game_text, game_texts, pick_lang, ui
from .limits import Limits, RateLimit, too_many
from .reference import glossary, rules_html
from .ratings import unrated_reason
from .shared import LOCK_TTL, WATCH_EVERY, WATCH_TTL, Fanout, View
from .storage import Storage
from .replays import replay_async
from .review import install as install_review
from .errors import (BadRequest, Forbidden, NotFound, PositionConflict, ServerError, StorageError, TooLarge,
                     UnsupportedMediaType, stored)
from .tables import ANSWER_DELAY, LiveTable, TableManager, clean_name, playable_games
from .views import game_name, pick_layout, replay_file
from .websocket import MAX_MESSAGE, Hub, deny, table_socket
from .wsdeflate import FORWARD_BITS

T = TypeVar("T")

log = logging.getLogger("thieves.server")
HERE = Path(__file__).parent
DEFAULT_BOT_DELAY = 0.8
#: seconds between two looks at the clocks (a time-out is handed to a bot within this)
CLOCK_EVERY = 0.5
#: the cookie that tells browsers apart when profiles are linked (see ratings.unrated_reason)
BROWSER_COOKIE = "thieves_browser"
#: the largest request body the server reads (JSON or form)
MAX_BODY = 64 * 1024
#: the largest websocket frame uvicorn reads (MAX_MESSAGE characters of UTF-8)
WS_MAX_BYTES = 4 * MAX_MESSAGE
#: chat messages one request reads at most (``since`` reads on)
CHAT_PAGE = 1000
#: the answers' pace (:meth:`Platform.answer_pause`): the operating system's source
_SYSTEM_RANDOM = random.SystemRandom()
#: tables read from storage at once when every table catches up (each time the
#: Redis listener has subscribed): the worker threads stay free for the rest
CATCH_UP_AT_ONCE = 4


#: the answer's header to an action sent with ``then`` (a gesture): how many
#: of its further steps the table applied
THEN_HEADER = "X-Then-Applied"


class Platform:
    """The server's state: storage, live tables, connections, running bots."""

    def __init__(self, storage: Storage, bot_delay: float, limits: Limits | None = None,
                 shared: Fanout | None = None, forward_views: bool = False) -> None:
        self.storage = storage
        #: Redis fan-out when several processes serve one database (None: this process alone)
        self.shared = shared
        #: send the spectators' views with this process's news to the processes that
        #: show them (``THIEVES_FORWARD_VIEWS=1``; off by default, see docs/server.md)
        self.forward_views = forward_views
        self.limits = limits or Limits.from_env()
        self.manager = TableManager(storage, self.limits.open_tables, self.limits.expire_after)
        self.hub = Hub()
        self.hub.views.per_table = self.limits.view_bytes_per_table
        self.hub.views.total = self.limits.view_bytes
        self.bot_delay = bot_delay
        #: when each bot seat ("<table>:<seat>") began its part of a secret phase
        #: (``State.in_secret_phase``): its public step waits for ``secret_run_pad``
        self._secret_runs: dict[str, float] = {}
        self._bot_tasks: dict[str, asyncio.Task[None]] = {}
        self.creations = RateLimit(self.limits.tables_per_address, self.limits.tables_window)
        #: undos per seat (each one is a stored row): "<table>:<seat>" -> their times
        self.undos = RateLimit(self.limits.undos_per_seat, self.limits.undos_window)
        self.manager.undos_per_game = self.limits.undos_per_game
        self.replays = RateLimit(self.limits.replays_per_address, self.limits.replays_window)
        self._sweeper: asyncio.Task[None] | None = None
        self._background: list[asyncio.Task[None]] = []
        self._catching: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()
        #: catching every table up after the Redis listener subscribed
        self._catching_all: asyncio.Task[None] | None = None
        #: table -> process -> (time.monotonic() of its last word, the (lang, layout)
        #: of the spectators it shows): their views go with this process's news
        self._watchers: dict[str, dict[str, tuple[float, list[tuple[str, str]]]]] = {}
        #: table -> when this process last said it shows the table's spectators
        self._watching: dict[str, float] = {}
        #: the table chat's checks and limits (server/chat.py)
        self.chat = Chat(self.limits)
        #: hints and post-game reviews (server/review.py; set by create_app)
        self.reviewer: Any = None

    def sweep(self, now: float | None = None) -> list[str]:
        """Unload the tables nobody uses: finished, abandoned, or idle (no change for
        ``idle_unload`` seconds) with no socket and no bot to play. Returns their ids."""
        now = time.time() if now is None else now
        gone = []
        for table_id, table in list(self.manager.tables.items()):
            if self.hub.count(table_id):
                continue
            task = self._bot_tasks.get(table_id)
            if task is not None and not task.done():
                continue
            idle = now - table.touched >= self.limits.idle_unload
            ticking = table.clock is not None and bool(table.clock.running) and not table.state.is_terminal()
            if table.state.is_terminal() or table.expired or table.broken or (
                    idle and table.auto_to_act() is None and not ticking):
                self.manager.unload(table_id)
                self.hub.views.forget(table_id)
                self._watchers.pop(table_id, None)
                self._watching.pop(table_id, None)
                self._bot_tasks.pop(table_id, None)
                gone.append(table_id)
        return gone

    async def check_clocks(self) -> int:
        """Hand every seat whose time ran out to a bot; returns how many."""
        n = 0
        for table in list(self.manager.tables.values()):
            if table.clock is None or not table.clock.expired(self.manager.now()):
                continue
            try:
                async with table.lock:
                    seats = self.manager.check_clocks(table)
            except ServerError as exc:
                log.warning("time-out at table %s not stored: %s", table.id, exc)
                continue
            if seats:
                log.info("table %s: seat(s) %s ran out of time; bots play on", table.id, seats)
                n += len(seats)
                await self.changed(table)
        return n

    async def _clocks_forever(self) -> None:
        while True:
            await asyncio.sleep(CLOCK_EVERY)
            try:
                await self.check_clocks()
            except Exception:  # noqa: BLE001 - never stop the clocks
                log.exception("checking the clocks failed")

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.limits.sweep_every)
            try:
                gone = self.sweep()
                if gone:
                    log.info("%d idle tables left memory (%d in memory)", len(gone), len(self.manager.tables))
            except Exception:  # noqa: BLE001 - never stop sweeping
                log.exception("sweeping tables failed")

    def check_socket(self, table_id: str, address: str) -> None:
        """Refuse a socket beyond the limits per table and per address (429)."""
        lim = self.limits
        if lim.sockets_per_table > 0 and self.hub.count(table_id) >= lim.sockets_per_table:
            raise too_many(f"this table already has {lim.sockets_per_table} connections", 30)
        if lim.sockets_per_address > 0 and self.hub.count_address(address) >= lim.sockets_per_address:
            raise too_many(f"your address already has {lim.sockets_per_address} connections", 30)

    async def changed(self, table: LiveTable) -> None:
        """After an accepted (stored) change: tell the other processes, mark every
        viewer's socket (never waiting for one: each sends at its own pace), then
        let bots move."""
        if self.shared is not None:
            self._announce(table)
        if self.bot_delay <= 0:
            if table.auto_to_act() is not None:
                if self.shared is None:
                    async with table.lock:
                        self.manager.play_bots_now(table)
                else:
                    async with self.shared.bot_lock(table.id) as lock:
                        if lock is not None:  # else another process is playing them
                            async with table.lock:
                                self.manager.refresh(table)
                                played = self.manager.play_bots_now(table)
                            if played:
                                self._announce(table)
            self.hub.notify(table)
            await self.rate_if_over(table)
            return
        self.hub.notify(table)
        await self.rate_if_over(table)
        self.ensure_bots(table)

    async def rate_if_over(self, table: LiveTable) -> None:
        """A finished table counts once in its profiles' Elo ratings."""
        if self.reviewer is not None:
            self.reviewer.game_over(table)  # its post-game review (server/review.py)
        if not table.state.is_terminal() or table.broken or getattr(table, "rated", False):
            return
        history = list(table.state.history)
        substituted = set(table.deciders)
        hinted = any(s.get("hinted") for s in table.rec.seats)
        try:
            await asyncio.to_thread(self.storage.rate_table, table.id, table.rec.game,
                                    [float(x) for x in table.state.scores()],
                                    lambda links: unrated_reason(links, history, substituted, hinted))
            table.rated = True  # type: ignore[attr-defined]
        except Exception:  # noqa: BLE001 - the next change or a restart tries again
            log.exception("rating table %s failed", table.id)

    async def act(self, table: LiveTable, seat: int | None, action: Any, ply: Any = None,
                  then: Any = None) -> int:
        """A person's decision, stored, then announced (:meth:`changed`). With
        several processes the table is read first only when this process does
        not know its row in storage (``seen``): otherwise the write itself
        finds another process's change (and the table catches up with it).
        ``then``: a gesture's further steps (:meth:`TableManager.act`); returns
        how many of them were applied."""
        version = table.version
        try:
            if self.shared is not None and table.seen is None and await self.manager.refresh_async(table):
                self.hub.notify(table)
            try:
                done = await self.manager.act_async(table, seat, action, ply, then)
            except ServerError as exc:
                # refused on this process's copy of the table (not its turn...):
                # another process may have moved it on and the news be on its way
                if (self.shared is None or not isinstance(exc, PositionConflict) or table.version != version
                        or not await self.manager.refresh_async(table)):
                    raise
                self.hub.notify(table)
                done = await self.manager.act_async(table, seat, action, ply, then)
        except ServerError:
            if table.version != version:  # refused after catching up: show the new position
                self.hub.notify(table)
            raise
        await self.changed(table)
        return done

    async def get(self, table_id: str) -> LiveTable:
        """A table (read from the database when not in memory), caught up with what
        other processes stored (several processes only: one indexed read when nothing changed)."""
        table = await self.manager.get_async(table_id)
        if self.shared is not None and await self.manager.refresh_async(table):
            self.hub.notify(table)
        return table

    @staticmethod
    def _news(table: LiveTable) -> dict[str, Any] | None:
        """The decision to announce with a change, when the table's last change is that decision."""
        news = table.news
        return news if news is not None and news.get("version") == table.version else None

    def _announce(self, table: LiveTable) -> None:
        """Tell the other processes about the table's change (with the decision
        when that is the change, and then the spectators' views they show)."""
        assert self.shared is not None
        news = self._news(table)
        # the others apply the decision themselves only at a table without a
        # clock (its times come from storage): only then can they use the views
        views = (self._views_for_others(table)
                 if news is not None and table.clock is None and table.public_version == table.version else None)
        self.shared.announce(table.id, news, views)

    def _views_for_others(self, table: LiveTable) -> dict[str, list[View]] | None:
        """Per other process that shows this table's spectators (it said so
        within ``WATCH_TTL``), the ``(lang, layout, payload)`` of their views,
        each built here once and compressed as the frame that process sends
        as it is (:meth:`Frames.deflated`): with the spectators spread over
        the processes, only the process that changed the table draws them."""
        watchers = self._watchers.get(table.id)
        if not watchers:
            return None
        now = time.monotonic()
        out: dict[str, list[View]] = {}
        made: dict[tuple[str, str], bytes | None] = {}
        for process, (said, shown) in list(watchers.items()):
            if now - said > WATCH_TTL:
                del watchers[process]  # gone, or no longer showing it
                continue
            views = []
            for lang, layout in shown:
                if (lang, layout) not in made:
                    made[(lang, layout)] = self._payload(table, lang, layout)
                data = made[(lang, layout)]
                if data is not None:
                    views.append((lang, layout, data))
            if views:
                out[process] = views
        if not watchers:
            self._watchers.pop(table.id, None)
        return out or None

    def _payload(self, table: LiveTable, lang: str, layout: str) -> bytes | None:
        try:
            _version, frames = self.hub.views.frames_now(table, None, lang, layout)
        except Exception:  # noqa: BLE001 - a game's bug: the other process builds (and logs) it
            return None
        return frames.deflated(FORWARD_BITS)

    def on_message(self, table_id: str, change: dict[str, Any], sender: str) -> None:
        """One change announced by another process (see ``shared.Fanout``)."""
        if "chat" in change:  # a chat message stored there: only this process's sockets to tell
            message = as_message(change.get("chat"))
            if message is not None:
                self.deliver_chat(table_id, message)
            return
        shown = change.get("watch")
        if shown is not None:
            self._note_watcher(table_id, sender, shown)
            return
        views = change.get("views")
        self.other_process_changed(table_id, change.get("news"), views if isinstance(views, list) else None)

    def _note_watcher(self, table_id: str, sender: str, shown: Any) -> None:
        if table_id not in self.manager.tables or not isinstance(shown, list):
            return
        keys = [(k[0], k[1]) for k in shown[:8] if isinstance(k, list) and len(k) == 2
                and k[0] in LANG_NAMES and k[1] == pick_layout(k[1])]
        self._watchers.setdefault(table_id, {})[sender] = (time.monotonic(), keys)

    def _say_watching(self, table: LiveTable) -> None:
        """Remind the other processes (at most every ``WATCH_EVERY``) that this one
        shows the table's spectators, so their news bring the views along."""
        if self.shared is None or not self.forward_views:
            return
        keys = self.hub.spectator_keys(table.id)
        if not keys:
            return
        now = time.monotonic()
        if now - self._watching.get(table.id, -WATCH_TTL) < WATCH_EVERY:
            return
        self._watching[table.id] = now
        self.shared.watch(table.id, sorted(keys))

    def other_process_changed(self, table_id: str, news: Any = None, views: list[Any] | None = None) -> None:
        """A change stored by another process: catch up if the table is here. Never
        waits: one catch-up per table at a time, and the messages that come
        meanwhile are merged into one more. A message that carries the very next
        decision (``news``) is applied at once, without reading the database, and
        the spectators' views that come with it are the ones this process sends."""
        table = self.manager.tables.get(table_id)
        if table is None:
            return
        if table_id not in self._catching and news is not None and self.manager.apply_news(table, news):
            if views:
                self.hub.views.accept(table, views)
            self.hub.notify(table)
            self._say_watching(table)
            return
        self._catch_up_soon(table_id)

    def _catch_up_soon(self, table_id: str) -> "asyncio.Task[None]":
        """The task catching the table up from storage: a new one, or the one
        running (which then reads storage once more)."""
        task = self._catching.get(table_id)
        if task is not None:
            self._again.add(table_id)
            return task
        task = self._catching[table_id] = asyncio.create_task(self._catch_up(table_id))
        return task

    def catch_up_all(self) -> None:
        """The Redis listener has subscribed (at the start, or again after
        losing its connection): whatever the other processes announced before
        is lost to it, so every table in memory is caught up from storage
        (``CATCH_UP_AT_ONCE`` at a time; never waits)."""
        if self._catching_all is not None:
            self._catching_all.cancel()  # the new round reads every table anyway
        self._catching_all = asyncio.create_task(self._catch_up_all())

    async def _catch_up_all(self) -> None:
        ids = list(self.manager.tables)
        log.info("catching %d table(s) up with storage", len(ids))
        slots = asyncio.Semaphore(CATCH_UP_AT_ONCE)
        for table_id in ids:
            await slots.acquire()
            self._catch_up_soon(table_id).add_done_callback(lambda _task: slots.release())

    async def _catch_up(self, table_id: str) -> None:
        try:
            while True:
                self._again.discard(table_id)
                table = self.manager.tables.get(table_id)
                if table is None:
                    return
                if await self.manager.refresh_async(table):
                    self.hub.notify(table)
                self._say_watching(table)
                if table_id not in self._again:
                    return
        except Exception:  # noqa: BLE001 - the next message or request catches up
            log.exception("catching up with table %s failed", table_id)
        finally:
            self._catching.pop(table_id, None)

    async def _watch_bots(self) -> None:
        """Several processes: a bot turn whose process died (its lock expired) is
        taken over. Every third of the lock's life the tables whose bot is to act
        here and that stood still meanwhile are looked at (read from storage,
        bots started when their lock is free); every WATCH_EVERY seconds all of them."""
        ticks = 0
        while True:
            await asyncio.sleep(LOCK_TTL / 3)
            ticks += 1
            every = ticks % max(1, round(WATCH_EVERY / (LOCK_TTL / 3))) == 0
            for table in list(self.manager.tables.values()):
                try:
                    if time.time() - table.touched < LOCK_TTL / 3:
                        continue  # moving: its bots are played somewhere
                    task = self._bot_tasks.get(table.id)
                    if not every and (table.bot_to_act() is None or (task is not None and not task.done())):
                        continue
                    if await self.manager.refresh_async(table):
                        self.hub.notify(table)
                    self.ensure_bots(table)
                except Exception:  # noqa: BLE001 - never stop watching
                    log.exception("watching the bots of table %s failed", table.id)

    async def say(self, table: LiveTable, seat: int | None, text: Any, name: Any = None,
                  address: str = "?") -> dict[str, Any]:
        """A chat message from ``seat`` (None: a spectator called ``name``):
        checked, counted against its sender's rate, stored, then sent to every
        socket of the table, here and in the other processes. Raises (and
        nothing is sent) for an empty, too long or too frequent message, or a
        full chat. The table's game is not touched (its lock neither)."""
        message = self.chat.compose(table, seat, text, name)
        self.chat.check_rate(sender_key(table.id, seat, address))
        message["at"] = chat_now()
        try:
            msg_id = await asyncio.to_thread(self.storage.add_chat, table.id, message,
                                             self.limits.chat_stored)
        except Exception as exc:  # noqa: BLE001 - any database failure
            log.exception("storing a chat message failed")
            raise StorageError(f"the message could not be stored, try again "
                               f"({type(exc).__name__})") from None
        if msg_id is None:
            raise self.chat.full()
        message = {"id": msg_id, **message}
        self.deliver_chat(table.id, message)
        if self.shared is not None:
            self.shared.say(table.id, message)
        return message

    def deliver_chat(self, table_id: str, message: dict[str, Any]) -> None:
        """Send a chat message to every socket of the table in this process (one text for all)."""
        text = json.dumps({"type": "chat", **message})
        for conn in list(self.hub.conns.get(table_id, ())):
            conn.push(text)

    async def view_response(self, table: LiveTable, seat: int | None, lang: str,
                            layout: str = "wide") -> Response:
        """A view as an HTTP answer, from the shared cache (built once per change)."""
        _version, text = await self.hub.views.text(table, seat, lang, layout)
        return Response(text, media_type="application/json")

    def ensure_bots(self, table: LiveTable) -> None:
        """Bots play, and the table gives its answers (:meth:`LiveTable.answer_for`), in a task of the table."""
        if table.auto_to_act() is None:
            return
        if self.bot_delay <= 0:
            self.manager.play_bots_now(table)
            return
        task = self._bot_tasks.get(table.id)
        if task is None or task.done():
            self._bot_tasks[table.id] = asyncio.create_task(self._run_bots(table))

    async def _run_bots(self, table: LiveTable) -> None:
        if self.shared is None:
            await self._play_bots(table, None)
            return
        for _ in range(10):
            async with self.shared.bot_lock(table.id) as lock:
                if lock is not None:
                    await self._play_bots(table, lock)
                    return
            # another process holds the lock: it is playing them, or just letting go
            await asyncio.sleep(0.2)
            if await self.manager.refresh_async(table):
                self.hub.notify(table)
            if table.auto_to_act() is None:
                return

    def answer_pause(self) -> float:
        """Seconds before the table gives an answer for a person: drawn in one fixed
        range for every answer (``ANSWER_DELAY``, from the system's source), so the
        pace never tells a forced answer from a chosen one."""
        return _SYSTEM_RANDOM.uniform(*ANSWER_DELAY)

    async def _answer(self, table: LiveTable, seat: int, lock: Any) -> None:
        """Give the table's answer for ``seat`` after :meth:`answer_pause`, unless the
        table moved meanwhile (an undo, another process's change: it is decided again)."""
        rows = table.rows
        await asyncio.sleep(self.answer_pause())
        if lock is not None:
            await lock.keep()
            if table.seen is None and await self.manager.refresh_async(table):
                self.hub.notify(table)
        if await self.manager.answer_commit_async(table, seat, rows):
            self.hub.notify(table)
            await self.rate_if_over(table)
            if self.shared is not None:
                self._announce(table)

    @property
    def secret_run_pad(self) -> float:
        """Seconds from a bot's first decision in a secret phase to its public step at
        the least: its secret steps take no time others could count (greedy bots
        plan in milliseconds; a search bot thinking longer than this still shows)."""
        return 4 * self.bot_delay

    def _secret_run(self, table: LiveTable, seat: int) -> str | None:
        """The key of ``seat``'s run of a secret phase, begun now if it just entered
        one (None outside such a phase)."""
        key = f"{table.id}:{seat}"
        if not table.state.in_secret_phase(seat):
            self._secret_runs.pop(key, None)
            return None
        self._secret_runs.setdefault(key, asyncio.get_running_loop().time())
        return key

    async def _end_secret_run(self, key: str) -> None:
        """Wait until the run began ``secret_run_pad`` seconds ago, so the public step's
        time says nothing of how many secret steps came before it."""
        wait = self._secret_runs.pop(key) + self.secret_run_pad - asyncio.get_running_loop().time()
        if wait > 0:
            await asyncio.sleep(wait)

    async def _play_bots(self, table: LiveTable, lock: Any) -> None:
        while True:
            seat = table.bot_to_act()
            if seat is None:
                answered = table.seat_to_answer()
                if answered is None:
                    return
                try:
                    await self._answer(table, answered, lock)
                except ServerError as exc:
                    log.warning("an answer at table %s was not stored: %s", table.id, exc)
                    if not isinstance(exc, StorageError):
                        return
                    await asyncio.sleep(1.0)  # the database is away: try again later
                except Exception:
                    log.exception("an answer at table %s failed", table.id)
                    return
                continue
            history = table.state.history
            # a bot's secret steps follow each other at once: the time to its public
            # step must not count them (``State._secret_step``)
            if not (history and history[-1][0] == seat and table.state.is_secret_step(len(history) - 1)):
                await asyncio.sleep(self.bot_delay)
            try:
                if lock is not None:
                    await lock.keep()  # still ours for long enough
                    # another process's change since: the write would find it
                    # (it is stored only on the row this process saw), so the
                    # table is read first only when that row is not known
                    if table.seen is None and await self.manager.refresh_async(table):
                        self.hub.notify(table)
                    if table.bot_to_act() != seat:
                        continue
                version = table.version
                run = self._secret_run(table, seat)
                # a bot that reads only the legal actions decides here: handing
                # its choice to a worker thread would cost more than making it
                ply, action = (self.manager.bot_choice(table, seat) if self.manager.quick_bot(table, seat)
                               else await asyncio.to_thread(self.manager.bot_choice, table, seat))
                if run is not None and not table.state.is_secret_action(seat, action):
                    await self._end_secret_run(run)
                if await self.manager.bot_commit_async(table, seat, ply, action):
                    self.hub.notify(table)
                    await self.rate_if_over(table)
                    if self.shared is not None:
                        self._announce(table)
                elif table.version != version:  # it caught up with another process's change
                    self.hub.notify(table)
            except ServerError as exc:
                if not isinstance(exc, StorageError):  # the bot chose wrongly: trying again would loop
                    log.error("bot at table %s stopped: %s", table.id, exc)
                    return
                # the database is away: try again later
                log.warning("bot move at table %s failed: %s", table.id, exc)
                await asyncio.sleep(max(self.bot_delay, 1.0))
            except Exception:
                log.exception("bot at table %s crashed", table.id)
                return

    async def stop(self) -> None:
        for task in self._background:
            task.cancel()
        if self._catching_all is not None:
            self._catching_all.cancel()
        if self.shared is not None:
            await self.shared.close()
        if self._sweeper is not None:
            self._sweeper.cancel()
        for task in self._bot_tasks.values():
            task.cancel()
        self._bot_tasks.clear()


# -- helpers ----------------------------------------------------------------------
def _lang(request: Request) -> str:
    return pick_lang(request.query_params.get("lang"), request.cookies.get("lang"),
                     request.headers.get("accept-language"))


def _error(exc: ServerError) -> JSONResponse:
    resp = JSONResponse({"error": exc.code, "message": str(exc)}, status_code=exc.status)
    if exc.retry_after:
        resp.headers["Retry-After"] = str(exc.retry_after)
    return resp


def client_address(conn: Request | WebSocket) -> str:
    """Who is asking, for the limits (the peer's address as uvicorn gives it)."""
    return conn.client.host if conn.client else "?"


def web_options(slug: str) -> list[Option]:
    """Options a web user may set (never data_dir: a path on the server)."""
    return [o for o in load_game(slug).all_options() if o.name != "data_dir"]


#: the options the lobby shows unfolded (a game's main variants); the others are
#: readings of the rules a newcomer never needs, folded under "More options"
MAIN_OPTIONS: dict[str, tuple[str, ...]] = {
    "age-of-thieves": ("specials",),
    "thiefdom": ("smuggling_stacks", "chaotic_planning"),
    "cadwallon": ("adventure",),
}
#: "Play now": the number of seats (you and bots) when the game allows it, and the bot
QUICK_PLAYERS = 3
QUICK_BOT = "greedy"


def quick_setup(slug: str) -> tuple[int, str]:
    """One click's table: (number of players, bot) -- you against bots, the game's defaults."""
    g = load_game(slug)
    bots = bot_names(slug)
    return (min(max(QUICK_PLAYERS, g.min_players), g.max_players),
            QUICK_BOT if QUICK_BOT in bots else bots[-1])


def option_view(slug: str, o: Option, lang: str) -> dict[str, Any]:
    """An option for the lobby: its name, help and every choice in words (game texts)."""
    d = o.describe()
    d["label"] = game_text(slug, lang, f"option.{o.name}", o.name.replace("_", " "))
    d["help"] = game_text(slug, lang, f"option.{o.name}.help", o.help)
    d["choice_labels"] = [game_text(slug, lang, f"option.{o.name}.{c}", str(c)) for c in o.choices or []]
    d["main"] = o.name in MAIN_OPTIONS.get(slug, ())
    return d


def games_catalog(lang: str) -> list[dict[str, Any]]:
    out = []
    for slug in playable_games():
        g = load_game(slug)
        opts = [option_view(slug, o, lang) for o in web_options(slug)]
        players, bot = quick_setup(slug)
        out.append({"slug": slug, "name": game_name(slug, lang), "min_players": g.min_players,
                    "max_players": g.max_players,
                    "summary": game_text(slug, lang, "summary", g.summary),
                    "options": opts, "bots": bot_names(slug),
                    "bot_labels": {b: bot_label(b, lang) for b in bot_names(slug)},
                    "quick": {"players": players, "bot": bot, "bot_label": bot_label(bot, lang)}})
    return out


def table_summary(t: LiveTable, lang: str) -> dict[str, Any]:
    return {"id": t.id, "game": t.rec.game, "game_name": game_name(t.rec.game, lang),
            "num_players": t.rec.num_players, "status": t.status(), "ply": t.state.public_ply,
            "created": t.rec.created, "broken": t.broken,
            "seats": [{"seat": i, "name": name, "kind": s["kind"], "bot": s["bot"],
                       "claimed": s["kind"] == "bot" or i in t.digests}
                      for i, (s, name) in enumerate(zip(t.rec.seats, t.display_names(lang)))]}


def stored_summary(platform: "Platform", row: dict[str, Any], lang: str) -> dict[str, Any]:
    """A table for the lobby from its stored row (the live table when it is in memory)."""
    rec = row["rec"]
    live = platform.manager.tables.get(rec.id)
    if live is not None:
        return table_summary(live, lang)
    status = row["status"] or "playing"
    if status != "finished" and time.time() - row["updated"] > platform.limits.expire_after:
        status = "expired"
    shell = LiveTable(rec, None, None, {i: "" for i in row["claimed"]})  # type: ignore[arg-type]
    return {"id": rec.id, "game": rec.game, "game_name": game_name(rec.game, lang),
            "num_players": rec.num_players, "status": status, "ply": _stored_ply(rec.game, status, row["ply"]),
            "created": rec.created, "broken": None,
            "seats": [{"seat": i, "name": name, "kind": s["kind"], "bot": s["bot"],
                       "claimed": s["kind"] == "bot" or i in row["claimed"]}
                      for i, (s, name) in enumerate(zip(rec.seats, shell.display_names(lang)))]}


def _stored_ply(slug: str, status: str, rows: int) -> int | None:
    """The move number of a stored row for the lobby: its rows count every decision,
    secret steps (``State._secret_step``) included, so in a game with those it is
    shown only once the game is over."""
    if status == "finished":
        return rows
    try:
        return None if load_game(slug).state_class.has_secret_steps else rows
    except Exception:  # noqa: BLE001 - a game that no longer loads
        return None


def lobby_tables(platform: "Platform", lang: str, status: str | None = None,
                 limit: int = 200) -> list[dict[str, Any]]:
    since = None if status in (None, "finished") else time.time() - platform.limits.expire_after
    rows = platform.storage.list_tables(limit, status, since)
    return [stored_summary(platform, r, lang) for r in rows if r["rec"].game in playable_games()]


#: the time controls the lobby offers: (form value, time control)
CLOCK_CHOICES: list[tuple[str, dict[str, Any]]] = [
    ("none", {"kind": "none"}),
    ("realtime:180:2", {"kind": "realtime", "base": 180, "increment": 2}),
    ("realtime:600:5", {"kind": "realtime", "base": 600, "increment": 5}),
    ("realtime:1800:15", {"kind": "realtime", "base": 1800, "increment": 15}),
    ("turn:3600", {"kind": "turn", "per_move": 3600}),
    ("turn:86400", {"kind": "turn", "per_move": 86400}),
    ("turn:259200", {"kind": "turn", "per_move": 259200}),
]


def form_clock(value: str) -> dict[str, Any]:
    """The lobby form's time control ("realtime:<base>:<increment>", "turn:<seconds>", "none")."""
    for key, control in CLOCK_CHOICES:
        if key == value:
            return control
    raise BadRequest("bad_request", f"there is no time control {value[:40]!r}")


def clock_label(key: str, lang: str) -> str:
    """A time control in words, e.g. "Real time: 10 min + 5 s per move"."""
    texts = ui(lang)
    parts = key.split(":")
    if parts[0] == "realtime":
        return texts["clock_realtime"].format(min=int(parts[1]) // 60, inc=parts[2])
    if parts[0] == "turn":
        return texts["clock_turn"].format(h=int(parts[1]) // 3600)
    return texts["clock_none"]


def _form_option(o: Option, raw: Any) -> Any:
    """A lobby form value turned into the option's type."""
    if o.kind is bool:
        return raw in ("on", "true", "1", True)
    if raw is None or raw == "":
        return o.default
    if o.choices is not None:
        for c in o.choices:
            if str(c) == raw:
                return c
        return raw
    if o.kind is int:
        try:
            return int(raw)
        except ValueError:
            return raw
    return raw


def _form_setup(slug: str, players: int, form: dict[str, str]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The seats and options a lobby form asks for; "Play now" (``quick``): you and
    bots, every option at the game's default."""
    g = load_game(slug)
    if not g.min_players <= players <= g.max_players:  # checked before any work per seat
        raise BadRequest("bad_setup", f"{g.name} is played by {g.min_players} to "
                         f"{g.max_players} players, not {players}")
    if form.get("quick"):
        bot = quick_setup(slug)[1]
        you = {"kind": "human", "name": form.get("name")}
        return [you] + [{"kind": "bot", "bot": bot} for _ in range(players - 1)], {}
    seats: list[dict[str, Any]] = []
    for i in range(players):
        choice = str(form.get(f"seat_{i}", "bot:random"))
        if choice == "you":
            seats.append({"kind": "human", "name": form.get("name")})
        elif choice == "open":
            seats.append({"kind": "open"})
        else:
            seats.append({"kind": "bot", "bot": choice.removeprefix("bot:")})
    options = {o.name: _form_option(o, form.get(f"opt_{o.name}")) for o in web_options(slug)}
    return seats, options


def create_app(database_url: str | None = None, bot_delay: float | None = None,
               table_prefix: str | None = None, limits: Limits | None = None,
               public_url: str | None = None, redis_url: str | None = None,
               allowed_hosts: Sequence[str] | None = None, trusted_proxies: Sequence[str] | None = None,
               bind_host: str | None = None) -> FastAPI:
    """The application; ``bot_delay`` 0 lets bots answer at once (tests).

    ``allowed_hosts`` (or ``$THIEVES_ALLOWED_HOSTS``, comma-separated): the
    names a request's ``Host`` may give besides the public URL's (see
    :func:`host_allow_list`; against DNS rebinding). ``trusted_proxies`` (or
    ``$THIEVES_TRUSTED_PROXIES``): the addresses of the proxies in front,
    whose ``X-Forwarded-For`` says who is asking; default none (the peer's
    own address counts).

    ``public_url`` (or ``$THIEVES_PUBLIC_URL``), e.g. ``https://thieves.example``:
    the address people use; links shown to them are built from it, and
    state-changing requests and websockets must come from its origin.
    """
    public_url = (public_url or os.environ.get("THIEVES_PUBLIC_URL") or "").rstrip("/") or None
    if allowed_hosts is None:
        allowed_hosts = _env_list("THIEVES_ALLOWED_HOSTS")
    if trusted_proxies is None:
        trusted_proxies = _env_list("THIEVES_TRUSTED_PROXIES")
    table_prefix = table_prefix or os.environ.get("THIEVES_TABLE_PREFIX") or "thieves_"
    redis_url = redis_url or os.environ.get("THIEVES_REDIS_URL") or None
    if bot_delay is None:
        bot_delay = float(os.environ.get("THIEVES_BOT_DELAY", DEFAULT_BOT_DELAY))
    storage = Storage(database_url, prefix=table_prefix)
    shared = Fanout(redis_url, table_prefix) if redis_url else None
    forward = os.environ.get("THIEVES_FORWARD_VIEWS", "0").strip() in ("1", "true", "yes")
    platform = Platform(storage, bot_delay, limits, shared, forward_views=forward)
    # one process alone: it was down, so nobody's clock ran meanwhile; with
    # several, the others kept the clocks (a table's time is its stored moves')
    platform.manager.load_all(restart_clocks=shared is None)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        for table in list(platform.manager.tables.values()):
            platform.ensure_bots(table)
        platform._sweeper = asyncio.create_task(platform._sweep_forever())
        platform._background.append(asyncio.create_task(platform._clocks_forever()))
        if platform.shared is not None:
            platform.shared.start(platform.on_message, platform.catch_up_all)
            platform._background.append(asyncio.create_task(platform._watch_bots()))
        yield
        await platform.stop()

    app = FastAPI(title="thieves", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.platform = platform
    app.state.public_url = public_url
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    # static files: compressed, and kept by browsers for an hour (then revalidated by ETag)
    app.mount("/static", GZipMiddleware(CachedStatic(directory=str(HERE / "static")), minimum_size=512,
                                        compresslevel=6), name="static")

    def site(request: Request) -> str:
        """The address for links shown to people: the configured public URL, else this request's."""
        return public_url or f"{request.url.scheme}://{request.url.netloc}"

    @app.exception_handler(RequestValidationError)
    async def bad_path(request: Request, exc: RequestValidationError) -> JSONResponse:
        # e.g. /api/tables/x/seats/abc/claim: our error shape, not FastAPI's
        where = ", ".join(str(e.get("loc", ["?"])[-1]) for e in exc.errors()) or "?"
        return JSONResponse({"error": "bad_request", "message": f"bad value in the address: {where}"},
                            status_code=400)

    @app.middleware("http")
    async def security_headers(request: Request, call_next: Any) -> Response:
        if request.method not in ("GET", "HEAD", "OPTIONS"):
            refused = origin_refusal(request.headers, public_url)
            if refused is None and request.url.path.startswith("/api/"):
                refused = content_type_refusal(request.headers)
            if refused is not None:
                return _error(refused)
        response: Response = await call_next(request)
        asked = request.query_params.get("lang")
        if asked and pick_lang(asked) == asked.strip().lower()[:2] and "set-cookie" not in response.headers:
            # ?lang=fr is remembered, so the pages reached from here (a new
            # table, a seat link) stay in that language
            response.set_cookie("lang", pick_lang(asked), max_age=3600 * 24 * 365, samesite="lax")
        response.headers["Referrer-Policy"] = "no-referrer"  # seat links never leak
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Content-Security-Policy"] = (
            "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
            "img-src 'self' data:; connect-src 'self' ws: wss:; frame-ancestors 'none'")
        return response

    def page(request: Request, name: str, lang: str, status_code: int = 200, **ctx: Any) -> HTMLResponse:
        ctx.update(t=ui(lang), lang=lang, langs=LANG_NAMES, path=request.url.path)
        return templates.TemplateResponse(request, name, ctx, status_code=status_code)

    # -- pages ------------------------------------------------------------------
    @app.get("/", response_class=HTMLResponse)
    async def lobby(request: Request) -> HTMLResponse:
        lang = _lang(request)
        return page(request, "lobby.html", lang, games=games_catalog(lang),
                    open_tables=lobby_tables(platform, lang, "open", 50),
                    running=lobby_tables(platform, lang, "playing", 50),
                    finished=lobby_tables(platform, lang, "finished", 50),
                    clocks=[(key, clock_label(key, lang)) for key, _c in CLOCK_CHOICES])

    @app.get("/lobby/lists", response_class=HTMLResponse)
    async def lobby_lists(request: Request) -> HTMLResponse:
        """The lobby's lists of tables alone: the lobby patches them in place."""
        lang = _lang(request)
        resp = page(request, "lobby_lists.html", lang, open_tables=lobby_tables(platform, lang, "open", 50),
                    running=lobby_tables(platform, lang, "playing", 50),
                    finished=lobby_tables(platform, lang, "finished", 50))
        resp.headers["Cache-Control"] = "no-store"
        return resp

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> RedirectResponse:
        return RedirectResponse("/static/favicon.svg", status_code=301)

    @app.get("/lang/{code}")
    async def set_lang(code: str, next: str = "/") -> RedirectResponse:
        # only a path on this site: "//host" and "/\\host" would lead browsers elsewhere
        if (not next.startswith("/") or next.startswith("//") or "\\" in next
                or any(ord(ch) < 32 or ord(ch) == 127 for ch in next)):
            next = "/"
        resp = RedirectResponse(next, status_code=303)
        resp.set_cookie("lang", pick_lang(code), max_age=3600 * 24 * 365, samesite="lax")
        return resp

    @app.post("/tables")
    async def create_from_form(request: Request) -> Response:
        """The lobby's form (or its one-click "Play now": ``quick=1``). A browser
        without script gets the seat's page (303); the lobby's script asks for
        JSON (``Accept: application/json``) and shows the seat link first."""
        lang = _lang(request)
        wants_json = "application/json" in request.headers.get("accept", "")
        try:
            form = await _form(request)
            lang = pick_lang(form.get("lang"), lang)  # the lobby's language
            platform.creations.check(client_address(request), "you have created many tables just now")
            slug = str(form.get("game", ""))
            if slug not in playable_games():
                raise NotFound("unknown_game", f"there is no game {slug!r}")
            if form.get("quick"):
                players = quick_setup(slug)[0]
            else:
                try:
                    players = int(str(form.get("players", "")))
                except ValueError:
                    raise BadRequest("bad_request", "choose a number of players") from None
            seats, options = _form_setup(slug, players, form)
            table, tokens = platform.manager.create(slug, players, seats, options,
                                                    pick_lang(str(form.get("lang", lang))),
                                                    clock=form_clock(str(form.get("clock", "none"))))
        except ServerError as exc:
            if wants_json:
                return JSONResponse({"error": exc.code, "message": error_text(exc.code, lang, str(exc))},
                                    status_code=exc.status,
                                    headers={"Retry-After": str(exc.retry_after)} if exc.retry_after else None)
            resp = page(request, "error.html", lang, message=error_text(exc.code, lang, str(exc)),
                        status_code=exc.status)
            if exc.retry_after:
                resp.headers["Retry-After"] = str(exc.retry_after)
            return resp
        await platform.changed(table)
        if wants_json:
            # the lobby's script: it shows the seat link before it goes there
            names = table.display_names(lang)
            links = [{"seat": i, "name": names[i], "url": f"/t/{table.id}/s/{tok}"}
                     for i, tok in sorted(tokens.items())]
            return JSONResponse({"id": table.id, "links": links, "watch": f"/t/{table.id}",
                                 "url": links[0]["url"] if len(links) == 1 else None},
                                status_code=201, headers=NO_STORE)
        if len(tokens) > 1:
            # several seats are the creator's (people sharing one screen, or
            # friends to send links to): each link is shown once, here, and
            # never again (only their digests are stored)
            origin = site(request)
            names = table.display_names(lang)
            links = [{"seat": i, "name": names[i], "url": f"/t/{table.id}/s/{tok}",
                      "full": f"{origin}/t/{table.id}/s/{tok}"} for i, tok in sorted(tokens.items())]
            resp = page(request, "seat_links.html", lang, links=links, table_id=table.id,
                        game_name=game_name(table.rec.game, lang), watch=f"/t/{table.id}",
                        watch_full=f"{origin}/t/{table.id}", status_code=201)
            resp.headers["Cache-Control"] = "no-store"
            return resp
        if tokens:
            return RedirectResponse(f"/t/{table.id}/s/{tokens[min(tokens)]}", status_code=303)
        return RedirectResponse(f"/t/{table.id}", status_code=303)

    @app.post("/t/{table_id}/join/{seat}")
    async def join_from_form(request: Request, table_id: str, seat: int) -> Response:
        lang = _lang(request)
        try:
            form = await _form(request)
            await platform.get(table_id)  # caught up with the other processes first
            table, token = platform.manager.claim(table_id, seat, form.get("name"))
        except ServerError as exc:
            return page(request, "error.html", lang, message=error_text(exc.code, lang, str(exc)),
                        status_code=exc.status)
        await platform.changed(table)  # the last seat taken starts the game
        return RedirectResponse(f"/t/{table.id}/s/{token}", status_code=303)

    async def table_page(request: Request, table_id: str, token: str | None, name: str) -> HTMLResponse:
        lang = _lang(request)
        try:
            table = await platform.get(table_id)
            seat = table.seat_of(token)
        except ServerError as exc:
            return page(request, "error.html", lang, message=ui(lang)["not_found"] + f" ({exc})",
                        status_code=exc.status)
        # the page itself carries no game data: it arrives over the websocket
        config = {"table": table.id, "game": table.rec.game, "token": token, "seat": seat, "lang": lang, "ui": ui(lang),
                  "num_players": table.rec.num_players}
        base = f"/t/{table.id}" + (f"/s/{token}" if token else "")
        watch_url = f"{site(request)}/t/{table.id}"
        resp = page(request, name, lang, table_id=table.id, watch_url=watch_url, game_name=game_name(table.rec.game, lang),
                    config=json.dumps(config).replace("<", "\\u003c"), base=base, seat=seat,
                    rules_html=rules_html(table.rec.game, lang),
                    names=table.display_names(lang), open_seats=[i for i, s in enumerate(table.rec.seats)
                                                     if s["kind"] == "human" and i not in table.digests])
        if token:  # a seat's page holds its secret link: never kept by a cache
            resp.headers["Cache-Control"] = "no-store"
        return resp

    @app.get("/t/{table_id}", response_class=HTMLResponse)
    async def watch(request: Request, table_id: str) -> HTMLResponse:
        return await table_page(request, table_id, None, "table.html")

    @app.get("/t/{table_id}/s/{token}", response_class=HTMLResponse)
    async def play(request: Request, table_id: str, token: str) -> HTMLResponse:
        return await table_page(request, table_id, token, "table.html")

    @app.get("/t/{table_id}/replay", response_class=HTMLResponse)
    async def replay_page(request: Request, table_id: str) -> HTMLResponse:
        return await table_page(request, table_id, None, "replay.html")

    @app.get("/t/{table_id}/s/{token}/replay", response_class=HTMLResponse)
    async def seat_replay_page(request: Request, table_id: str, token: str) -> HTMLResponse:
        return await table_page(request, table_id, token, "replay.html")

    # -- JSON API -----------------------------------------------------------------
    @app.get("/api/games")
    async def api_games(request: Request) -> JSONResponse:
        return JSONResponse(games_catalog(_lang(request)))

    @app.get("/api/games/{slug}/texts")
    async def api_texts(request: Request, slug: str) -> JSONResponse:
        """A game's texts (data/i18n.yaml) in one language, English where missing."""
        if slug not in playable_games():
            return _error(NotFound("unknown_game", f"there is no game {slug!r}"))
        lang = _lang(request)
        texts = game_texts(slug)
        merged = dict(texts.get("en", {}))
        merged.update(texts.get(lang, {}))
        return JSONResponse(merged)

    @app.get("/api/games/{slug}/glossary")
    async def api_glossary(request: Request, slug: str) -> JSONResponse:
        """Every public component of a game in one language (the same for everyone)."""
        if slug not in playable_games():
            return _error(NotFound("unknown_game", f"there is no game {slug!r}"))
        lang = _lang(request)
        return JSONResponse({"game": slug, "lang": lang, "entries": glossary(slug, lang)},
                            headers={"Cache-Control": "public, max-age=3600"})

    @app.get("/api/games/{slug}/rules")
    async def api_rules(request: Request, slug: str) -> JSONResponse:
        """A game's rules summary in one language as HTML (headings, lists)."""
        if slug not in playable_games():
            return _error(NotFound("unknown_game", f"there is no game {slug!r}"))
        lang = _lang(request)
        return JSONResponse({"game": slug, "lang": lang, "html": rules_html(slug, lang)})

    @app.get("/api/tables")
    async def api_tables(request: Request) -> JSONResponse:
        lang = _lang(request)
        return JSONResponse(lobby_tables(platform, lang))

    @app.post("/api/tables")
    async def api_create(request: Request) -> JSONResponse:
        try:
            body = await _json_body(request)
            platform.creations.check(client_address(request), "you have created many tables just now")
            # in a worker thread: the write must not hold up the other tables
            table, tokens = await asyncio.to_thread(
                platform.manager.create, body.get("game"), body.get("players"), body.get("seats"),
                body.get("options") or {}, pick_lang(body.get("lang")), clock=body.get("clock"))
        except ServerError as exc:
            return _error(exc)
        await platform.changed(table)
        return JSONResponse({"id": table.id, "tokens": {str(k): v for k, v in tokens.items()},
                             "urls": {str(k): f"/t/{table.id}/s/{v}" for k, v in tokens.items()},
                             "watch": f"/t/{table.id}"}, status_code=201, headers=NO_STORE)

    @app.post("/api/tables/{table_id}/seats/{seat}/claim")
    async def api_claim(request: Request, table_id: str, seat: int) -> JSONResponse:
        try:
            body = await _json_body(request, allow_empty=True)
            await platform.get(table_id)  # caught up with the other processes first
            table, token = platform.manager.claim(table_id, seat, body.get("name"))
        except ServerError as exc:
            return _error(exc)
        await platform.changed(table)  # the last seat taken starts the game
        return JSONResponse({"token": token, "url": f"/t/{table.id}/s/{token}"}, status_code=201,
                            headers=NO_STORE)

    async def by_seat(request: Request, table_id: str,
                      act: Callable[[LiveTable, int | None, dict[str, Any]], T]) -> tuple[LiveTable, int | None, T]:
        """The common start of a seat's request: its JSON body, the table, the seat its
        token names, then ``act(table, seat, body)`` under the table's lock."""
        body = await _json_body(request)
        table = await platform.get(table_id)
        seat = table.seat_of(body.get("token"))
        async with table.lock:
            return table, seat, act(table, seat, body)

    @app.post("/api/tables/{table_id}/fill")
    async def api_fill(request: Request, table_id: str) -> JSONResponse:
        """The creator gives the open seats to bots: the game starts."""
        try:
            table, seat, filled = await by_seat(
                request, table_id, lambda t, s, b: platform.manager.fill_with_bots(t, s, b.get("bot")))
        except ServerError as exc:
            return _error(exc)
        await platform.changed(table)
        return JSONResponse({"filled": filled})

    async def seat_change(request: Request, table_id: str, what: str) -> JSONResponse:
        def change(t: LiveTable, s: int | None, b: dict[str, Any]) -> None:
            if what == "back":
                platform.manager.take_back(t, s)
            else:
                platform.manager.leave(t, s, b.get("bot"), concede=what == "concede")

        try:
            table, seat, _ = await by_seat(request, table_id, change)
        except ServerError as exc:
            return _error(exc)
        await platform.changed(table)  # the substitute plays at once if it is that seat's turn
        return JSONResponse({"seat": seat, "sub": table.rec.seats[seat].get("sub") if seat is not None else None})

    @app.post("/api/tables/{table_id}/undo")
    async def api_undo(request: Request, table_id: str) -> JSONResponse:
        """Take one's own decisions back to the start of one's turn, when allowed."""
        try:
            def undo(t: LiveTable, s: int | None, _body: Any) -> int:
                if s is not None:
                    platform.undos.check(f"{t.id}:{s}", "you have taken back many decisions just now")
                return platform.manager.undo(t, s)

            table, seat, target = await by_seat(request, table_id, undo)
        except ServerError as exc:
            return _error(exc)
        await platform.changed(table)
        return JSONResponse({"ply": target})

    @app.post("/api/tables/{table_id}/reactions")
    async def api_reactions(request: Request, table_id: str) -> JSONResponse:
        """A player switches reactions to "not this round" (``{"off": true}``) or back:
        while off, the table lets that seat's reaction windows go by. Only the seat's
        own view changes."""
        try:
            table, seat, off = await by_seat(
                request, table_id, lambda t, s, b: platform.manager.set_reactions(t, s, b.get("off")))
        except ServerError as exc:
            return _error(exc)
        assert seat is not None
        platform.hub.notify_seat(table, seat)
        platform.ensure_bots(table)  # a window open for that seat now is let go
        return JSONResponse({"seat": seat, "off": off})

    @app.post("/api/tables/{table_id}/rematch")
    async def api_rematch(request: Request, table_id: str) -> JSONResponse:
        """The same seats and options again: the first click makes the table, the
        others take their kept seats."""
        def rematch(t: LiveTable, s: int | None, _body: Any) -> tuple[LiveTable, int, str]:
            if s is not None and t.state.is_terminal() and not t.rec.rematch:
                # the click that makes the new table counts as a table made
                platform.creations.check(client_address(request), "you have created many tables just now")
            return platform.manager.rematch(t, s)

        try:
            table, seat, (new, new_seat, token) = await by_seat(request, table_id, rematch)
        except ServerError as exc:
            return _error(exc)
        platform.hub.notify(table)  # its end screen now offers to join the rematch
        await platform.changed(new)
        return JSONResponse({"id": new.id, "seat": new_seat, "token": token,
                             "url": f"/t/{new.id}/s/{token}"}, status_code=201, headers=NO_STORE)

    # -- profiles and ratings -------------------------------------------------------
    @app.post("/api/profiles")
    async def api_new_profile(request: Request) -> JSONResponse:
        """A profile without password: its secret key is kept in the browser."""
        try:
            body = await _json_body(request, allow_empty=True)
            platform.creations.check(client_address(request), "you have created many profiles just now")
            name = clean_name(body.get("name"), "")
            if not name:
                raise BadRequest("bad_request", "a profile needs a display name")
            key = secrets.token_urlsafe(24)  # 192 random bits; only its digest is stored
            pid = secrets.token_urlsafe(9)
            stored("the profile could not be stored", platform.storage.add_profile, pid, key, name)
        except ServerError as exc:
            return _error(exc)
        return JSONResponse({"id": pid, "key": key, "name": name}, status_code=201, headers=NO_STORE)

    def profile_of(body: dict[str, Any]) -> dict[str, Any]:
        key = body.get("key")
        found = platform.storage.profile_by_key(key) if isinstance(key, str) and 0 < len(key) <= 200 else None
        if found is None:
            raise Forbidden("bad_profile", "this profile key is not known here")
        return found

    @app.post("/api/profiles/me")
    async def api_my_profile(request: Request) -> JSONResponse:
        """The profile a key opens (a key moved from another device is checked here)."""
        try:
            body = await _json_body(request)
            me = profile_of(body)
            if body.get("name") is not None:
                name = clean_name(body["name"], me["name"])
                platform.storage.rename_profile(me["id"], name)
                me["name"] = name
        except ServerError as exc:
            return _error(exc)
        return JSONResponse(me, headers=NO_STORE)

    @app.post("/api/tables/{table_id}/profile")
    async def api_link_profile(request: Request, table_id: str) -> JSONResponse:
        """This seat is played by this profile (once; before the game ends): its result counts in the ratings."""
        try:
            body = await _json_body(request)
            table = await platform.get(table_id)
            seat = table.seat_of(body.get("token"))
            if seat is None:
                raise Forbidden("not_a_player", "only a seat can be linked to a profile")
            me = profile_of(body)
            if table.state.is_terminal():
                raise PositionConflict("game_over", "the game is over")
            # this browser's mark (a cookie): two profiles linked from one
            # browser (or one address) at one table do not rate each other
            browser = request.cookies.get(BROWSER_COOKIE) or ""
            if not (16 <= len(browser) <= 64 and browser.replace("-", "").replace("_", "").isalnum()):
                browser = secrets.token_urlsafe(18)
            linked = platform.storage.link_seat(table.id, seat, me["id"], table.state.ply,
                                                client_address(request), browser)
        except ServerError as exc:
            return _error(exc)
        resp = JSONResponse({"seat": seat, "profile": me["id"], "linked": linked})
        resp.set_cookie(BROWSER_COOKIE, browser, max_age=3600 * 24 * 365, httponly=True, samesite="lax")
        return resp

    @app.get("/api/leaderboard/{slug}")
    async def api_leaderboard(slug: str) -> JSONResponse:
        if slug not in playable_games():
            return _error(NotFound("unknown_game", f"there is no game {slug!r}"))
        return JSONResponse(platform.storage.leaderboard(slug))

    @app.get("/api/players/{profile_id}")
    async def api_player(profile_id: str) -> JSONResponse:
        found = platform.storage.profile(profile_id) if len(profile_id) <= 16 else None
        if found is None:
            return _error(NotFound("unknown_player", "there is no such player"))
        found["seats"] = [{"table": t, "seat": s} for t, s in found["seats"]]
        return JSONResponse(found)

    @app.get("/players", response_class=HTMLResponse)
    async def leaderboard_page(request: Request) -> HTMLResponse:
        lang = _lang(request)
        boards = [{"slug": slug, "name": game_name(slug, lang), "rows": platform.storage.leaderboard(slug, 20)}
                  for slug in playable_games()]
        return page(request, "players.html", lang, boards=boards)

    @app.get("/p/{profile_id}", response_class=HTMLResponse)
    async def player_page(request: Request, profile_id: str) -> HTMLResponse:
        lang = _lang(request)
        found = platform.storage.profile(profile_id) if len(profile_id) <= 16 else None
        if found is None:
            return page(request, "error.html", lang, message=error_text("unknown_player", lang), status_code=404)
        rows = {r["rec"].id: r for r in platform.storage.list_tables(500)}
        games = []
        for table_id, seat in found["seats"]:
            row = rows.get(table_id)
            if row is not None:
                games.append({"id": table_id, "seat": seat, "game": game_name(row["rec"].game, lang),
                              "status": row["status"], "created": row["rec"].created})
        judged = platform.storage.unrated([g["id"] for g in games])
        texts = ui(lang)
        for g in games:
            if g["id"] in judged:
                reason = judged[g["id"]]
                g["rating_note"] = texts["rated"] if reason is None else texts.get(f"unrated_{reason}", reason)
        games.sort(key=lambda g: -g["created"])
        for r in found["ratings"]:
            r["name"] = game_name(r["game"], lang) if r["game"] in playable_games() else r["game"]
        return page(request, "player.html", lang, player=found, games=games)

    @app.get("/profile", response_class=HTMLResponse)
    async def profile_page(request: Request) -> HTMLResponse:
        lang = _lang(request)
        return page(request, "profile.html", lang, config=json.dumps({"ui": ui(lang), "lang": lang}))

    @app.post("/api/tables/{table_id}/leave")
    async def api_leave(request: Request, table_id: str) -> JSONResponse:
        """A player leaves: a bot of the chosen level plays their seat until they come back."""
        return await seat_change(request, table_id, "leave")

    @app.post("/api/tables/{table_id}/concede")
    async def api_concede(request: Request, table_id: str) -> JSONResponse:
        """A player gives up: a bot plays their seat to the end; there is no coming back."""
        return await seat_change(request, table_id, "concede")

    @app.post("/api/tables/{table_id}/back")
    async def api_back(request: Request, table_id: str) -> JSONResponse:
        """A player who left takes their seat back (the game went on meanwhile)."""
        return await seat_change(request, table_id, "back")

    @app.get("/api/tables/{table_id}/view")
    async def api_view(request: Request, table_id: str, token: str | None = None) -> Response:
        try:
            table = await platform.get(table_id)
            seat = table.seat_of(token)
        except ServerError as exc:
            return _error(exc)
        return await platform.view_response(table, seat, _lang(request),
                                             pick_layout(request.query_params.get("layout")))

    @app.post("/api/tables/{table_id}/actions")
    async def api_act(request: Request, table_id: str) -> Response:
        try:
            table = await platform.get(table_id)
            body = await _json_body(request)
            seat = table.seat_of(body.get("token"))
            done = await platform.act(table, seat, body.get("action"), body.get("ply"), body.get("then"))
        except ServerError as exc:
            return _error(exc)
        response = await platform.view_response(table, seat, _lang(request),
                                                 pick_layout(request.query_params.get("layout")))
        if body.get("then") is not None:  # a gesture: how many of its further steps were taken
            response.headers[THEN_HEADER] = str(done)
        return response

    @app.get("/api/tables/{table_id}/replay/{ply}")
    async def api_replay_step(request: Request, table_id: str, ply: int, token: str | None = None,
                              viewer: str | None = None) -> JSONResponse:
        try:
            platform.replays.check(client_address(request), "you have asked for many replay steps just now")
            table = await platform.get(table_id)
            seat = table.seat_of(token)
            v: int | None = None
            if viewer not in (None, "", "spectator"):
                try:
                    v = int(viewer)
                except ValueError:
                    raise BadRequest("bad_seat", f"there is no seat {viewer!r}") from None
            # from checkpoints, in a worker thread, kept a while (see replays.py)
            return JSONResponse(await replay_async(table, ply, v, _lang(request), seat,
                                                   pick_layout(request.query_params.get("layout"))))
        except ServerError as exc:
            return _error(exc)

    @app.get("/api/tables/{table_id}/chat")
    async def api_chat(table_id: str, since: int = 0) -> JSONResponse:
        """The table's chat, oldest first (``since``: only the messages after that id)."""
        try:
            table = await platform.get(table_id)
            messages = await asyncio.to_thread(stored, "the chat could not be read",
                                               platform.storage.chat_messages, table.id, max(since, 0), CHAT_PAGE)
        except ServerError as exc:
            return _error(exc)
        state = table.state
        if state.is_terminal() and state.secret_steps:
            # a finished game's replay steps through every decision: each message's
            # ``step`` is where its public move number stands there
            for m in messages:
                m["step"] = state.ply_of_public(m["ply"])
        lim = platform.limits
        return JSONResponse({"messages": messages, "limits": {
            "chars": lim.chat_chars, "messages": lim.chat_messages, "window": lim.chat_window,
            "stored": lim.chat_stored}})

    @app.post("/api/tables/{table_id}/chat")
    async def api_say(request: Request, table_id: str) -> JSONResponse:
        """Write in the table's chat: ``{"token", "text"}`` for a seat, ``{"name", "text"}``
        for a spectator; every socket of the table gets it too."""
        try:
            body = await _json_body(request)
            table = await platform.get(table_id)
            seat = table.seat_of(body.get("token"))
            message = await platform.say(table, seat, body.get("text"), body.get("name"),
                                         client_address(request))
        except ServerError as exc:
            return _error(exc)
        return JSONResponse(message, status_code=201)

    @app.get("/api/tables/{table_id}/replay.json")
    async def api_replay_file(table_id: str) -> Response:
        try:
            table = await platform.get(table_id)
            chat = await asyncio.to_thread(stored, "the chat could not be read",
                                           platform.storage.chat_messages, table.id)
            text = replay_file(table, chat)
        except ServerError as exc:
            return _error(exc)
        return Response(text, media_type="application/json", headers={
            "Content-Disposition": f'attachment; filename="thieves-{table_id}.json"'})

    @app.websocket("/ws/{table_id}")
    async def ws_table(websocket: WebSocket, table_id: str) -> None:
        refused = origin_refusal(websocket.headers, public_url)
        if refused is not None:  # another site's page may not open a seat's socket
            await deny(websocket, refused)
            return
        await table_socket(websocket, platform, table_id)

    # outermost: a request naming another host (DNS rebinding) is refused before
    # anything else, HTTP and websockets alike; then who is asking, from the
    # trusted proxies' X-Forwarded-For only
    if trusted_proxies:
        from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=list(trusted_proxies))
    app.state.allowed_hosts = host_allow_list(public_url, allowed_hosts, bind_host)
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=app.state.allowed_hosts, www_redirect=False)
    platform.reviewer = install_review(app, platform)  # hints and post-game reviews
    return app


#: the hosts a server started without ``--public-url`` nor ``--allowed-host`` answers to
LOCAL_HOSTS = ("localhost", "127.0.0.1", "[::1]")


def host_allow_list(public_url: str | None, allowed: Sequence[str], bind_host: str | None = None) -> list[str]:
    """The names a request's ``Host`` header may give: the public URL's host and
    the allowed hosts (``*.example.org`` allows its subdomains, ``*`` any host);
    when neither is given, this machine's own names and the address it is bound
    to (not 0.0.0.0 nor ::, which are no one's name)."""
    hosts = []
    for raw in allowed:
        host = raw.strip().lower()
        if host:
            hosts.append(host)
    if public_url:
        name = urllib.parse.urlsplit(public_url).hostname
        if name:
            hosts.append(f"[{name}]" if ":" in name else name)
    if not hosts:
        hosts = list(LOCAL_HOSTS)
        if bind_host and bind_host not in ("0.0.0.0", "::", ""):
            hosts.append(f"[{bind_host}]" if ":" in bind_host and not bind_host.startswith("[") else bind_host)
    return list(dict.fromkeys(hosts))


def _env_list(name: str) -> list[str]:
    """A comma-separated environment variable as a list (empty when unset)."""
    return [x.strip() for x in os.environ.get(name, "").split(",") if x.strip()]


async def _body(request: Request) -> bytes:
    """The request body, refused beyond MAX_BODY bytes (never read whole into memory)."""
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > MAX_BODY:
        raise TooLarge("too_large", f"requests are at most {MAX_BODY} bytes")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise TooLarge("too_large", f"requests are at most {MAX_BODY} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


async def _form(request: Request) -> dict[str, str]:
    """An urlencoded form (parsed here: python-multipart is not a dependency)."""
    raw = await _body(request)
    try:
        pairs = urllib.parse.parse_qsl(raw.decode("utf-8"), keep_blank_values=True, max_num_fields=200)
    except (UnicodeDecodeError, ValueError):
        raise BadRequest("malformed", "the form could not be read") from None
    return dict(pairs)


async def _json_body(request: Request, allow_empty: bool = False) -> dict[str, Any]:
    raw = await _body(request)
    if not raw and allow_empty:
        return {}
    try:
        body = json.loads(raw)
    except (ValueError, RecursionError):  # RecursionError: "[[[[..." nested too deep
        raise BadRequest("malformed", "the request body must be a JSON object") from None
    if not isinstance(body, dict):
        raise BadRequest("malformed", "the request body must be a JSON object")
    return body


def origin_refusal(headers: Any, public_url: str | None) -> ServerError | None:
    """A request that changes something (or a websocket) from another site's page.

    Browsers send ``Sec-Fetch-Site`` (it must be ``same-origin``) and ``Origin``
    with every such request; the origin must be this site: the configured
    public URL's origin, else the host the request was sent to (``null``, what
    a form sends under ``Referrer-Policy: no-referrer``, counts only with
    ``Sec-Fetch-Site: same-origin``). Programs that send neither (curl, bots)
    are not browsers and are let in.
    """
    fetch_site = headers.get("sec-fetch-site")
    if fetch_site is not None and fetch_site not in ("same-origin", "none"):
        return Forbidden("forbidden_origin", "requests from other sites are refused")
    origin = headers.get("origin")
    if origin is None:
        return None
    if origin == "null":
        # our pages' forms send "null" (Referrer-Policy: no-referrer); the browser
        # still says where the request came from in Sec-Fetch-Site
        if fetch_site is not None:
            return None
        return Forbidden("forbidden_origin", "requests from an unknown origin are refused")
    if public_url:
        parts = urllib.parse.urlsplit(public_url)
        ok = origin.lower() == f"{parts.scheme}://{parts.netloc}".lower()
    else:
        ok = urllib.parse.urlsplit(origin).netloc.lower() == (headers.get("host") or "").lower()
    if not ok:
        return Forbidden("forbidden_origin", f"requests from {origin[:80]!r} are refused")
    return None


def content_type_refusal(headers: Any) -> ServerError | None:
    """The JSON API reads JSON only (a form or text/plain body is what another
    site's page can send without asking first)."""
    kind = (headers.get("content-type") or "").split(";")[0].strip().lower()
    length = headers.get("content-length")
    if kind == "application/json" or (not kind and length in (None, "0")):
        return None
    return UnsupportedMediaType("unsupported_media_type", "the JSON API accepts only application/json")


class CachedStatic(StaticFiles):
    """Static files with a cache lifetime (ETag and Last-Modified come with them)."""

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        resp = super().file_response(*args, **kwargs)
        resp.headers.setdefault("Cache-Control", "public, max-age=3600")
        return resp


NO_STORE = {"Cache-Control": "no-store"}


def serve(host: str = "127.0.0.1", port: int = 8000, database_url: str | None = None,
          public_url: str | None = None, redis_url: str | None = None,
          allowed_hosts: Sequence[str] | None = None, trusted_proxies: Sequence[str] | None = None) -> None:
    """Run the server (what ``thieves serve`` calls)."""
    import uvicorn

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    app = create_app(database_url, public_url=public_url, redis_url=redis_url,
                     allowed_hosts=allowed_hosts or None, trusted_proxies=trusted_proxies or None,
                     bind_host=host)
    print(f"thieves: serving on http://{host}:{port}/  (database: {app.state.platform.storage.engine.url.render_as_string(hide_password=True)})",
          flush=True)
    # ws_max_size: a frame over the limit is refused (1009) before it is read whole
    # permessage-deflate shrinks frames (boards are SVG) but costs CPU: each
    # text is compressed once for every socket that sends it (server/wsdeflate.py);
    # THIEVES_WS_DEFLATE=0 turns it off
    deflate = os.environ.get("THIEVES_WS_DEFLATE", "1").strip() not in ("0", "false", "no")
    from .wsdeflate import protocol_class

    print(f"thieves: answering to the hosts {', '.join(app.state.allowed_hosts)} "
          "(--public-url, --allowed-host)", flush=True)
    # proxy_headers off: uvicorn would trust X-Forwarded-For from 127.0.0.1 by
    # default; the app trusts only the proxies it was given (--trusted-proxy)
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=WS_MAX_BYTES, proxy_headers=False,
                ws_per_message_deflate=deflate, ws=protocol_class() or "auto")
