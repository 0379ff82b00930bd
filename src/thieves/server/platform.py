"""The server's state and its life: storage, live tables, connections, bots.

:class:`Platform` is what every route works on (``request.app.state.platform``,
see server/routes/deps.py): it applies a person's decision and announces it
(:meth:`Platform.act`, :meth:`Platform.changed`), plays the bots and the table's
answers in a task per table, keeps the clocks and sweeps idle tables, and, with
several processes (server/shared.py), catches tables up with the others.
"""
from __future__ import annotations

import asyncio
import json
import logging
import random
import time
from typing import Any

from fastapi.responses import Response

from .chat import Chat, as_message, sender_key
from .chat import now as chat_now
from .errors import PositionConflict, ServerError, StorageError
from .i18n import LANG_NAMES
from .limits import Limits, RateLimit, too_many
from .ratings import unrated_reason
from .shared import LOCK_TTL, WATCH_EVERY, WATCH_TTL, Fanout, View
from .storage import Storage
from .tables import ANSWER_DELAY, LiveTable, TableManager
from .views import pick_layout
from .websocket import Hub
from .wsdeflate import FORWARD_BITS

log = logging.getLogger("thieves.server")

#: seconds between two looks at the clocks (a time-out is handed to a bot within this)
CLOCK_EVERY = 0.5
#: the answers' pace (:meth:`Platform.answer_pause`): the operating system's source
_SYSTEM_RANDOM = random.SystemRandom()
#: tables read from storage at once when every table catches up (each time the
#: Redis listener has subscribed): the worker threads stay free for the rest
CATCH_UP_AT_ONCE = 4


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

    def start(self) -> None:
        """When the server starts (on the event loop): the bots of the tables
        read at the start play, the clocks are watched, idle tables swept, and
        with several processes the others' news listened to."""
        for table in list(self.manager.tables.values()):
            self.ensure_bots(table)
        self._sweeper = asyncio.create_task(self._sweep_forever())
        self._background.append(asyncio.create_task(self._clocks_forever()))
        if self.shared is not None:
            self.shared.start(self.on_message, self.catch_up_all)
            self._background.append(asyncio.create_task(self._watch_bots()))

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

