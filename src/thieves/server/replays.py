"""Replays of live tables: positions rebuilt from checkpoints, off the event loop.

``GET /api/tables/<id>/replay/<k>`` needs no token: anyone may step through
a table's history. Replaying from move 0 for every request cost about 90 ms
late in a long game, on the event loop, so a few looping clients slowed
every table down. Here:

* a position is rebuilt from the nearest **checkpoint** at or before it (a
  copy of the position every :data:`EVERY` decisions, kept per table for the
  last :data:`TABLES` tables replayed), so a request replays at most
  ``EVERY`` decisions;
* the work runs in a worker thread, at most :data:`WORKERS` at a time
  (:func:`replay_async`), and the server limits requests per client address
  (``Limits.replays_per_address``);
* the last :data:`VIEWS` answers are kept (the same step asked again costs nothing).

While the game runs only **public positions** are served: the position after
each public decision, a seat's secret steps (``State._secret_step``) folded
into the public step that ends them, so stepping through the history never
shows how many secret steps a seat took. Once the game is over every decision
is a step of its own.
"""
from __future__ import annotations

import copy
import threading
from collections import OrderedDict
from typing import Any

import anyio
import anyio.to_thread

from ..core.game import State
from .errors import BadRequest, Forbidden
from .tables import LiveTable

#: decisions between two checkpoints
EVERY = 32
#: tables whose checkpoints are kept (the least recently replayed go first)
TABLES = 16
#: replayed views kept (the least recently asked go first)
VIEWS = 64
#: replays computed at once (worker threads)
WORKERS = 2

_limiter: anyio.CapacityLimiter | None = None


def public_positions(state: State) -> list[int]:
    """``out[k]``: the number of decisions of the position after the ``k``-th public
    decision (``out[0] == 0``: the start). Secret steps belong to the public step
    after them; those after the last public step are in no position yet."""
    out = [0]
    secret = set(state.secret_steps)
    for i in range(state.ply):
        if i not in secret:
            out.append(i + 1)
    return out


def steps(state: State) -> list[int]:
    """The decisions of each replay step of ``state``'s table: every decision once
    the game is over, else the public positions (:func:`public_positions`)."""
    if state.is_terminal() or not state.secret_steps:
        return list(range(state.ply + 1))
    return public_positions(state)


class Checkpoints:
    """Copies of tables' positions every :data:`EVERY` decisions (thread-safe).

    A checkpoint is used only while the table's history still begins with the
    decisions it was made from (an undo may have taken some back)."""

    def __init__(self, every: int = EVERY, tables: int = TABLES) -> None:
        self.every = every
        self.tables = tables
        self._lock = threading.Lock()
        #: table id -> {decisions: position}
        self._kept: OrderedDict[str, dict[int, State]] = OrderedDict()

    def position(self, table: LiveTable, history: list[Any], ply: int) -> State:
        """The table's position after the first ``ply`` decisions of ``history``."""
        start = self._nearest(table.id, history, ply)
        state = start.clone() if start is not None else table.game.new_game(
            table.rec.num_players, table.rec.seed, table.rec.options, rng=table.rec.rng)
        for k in range(state.ply, ply):
            player, action = history[k]
            state.apply_action(player, action)
            if (k + 1) % self.every == 0:
                self._keep(table.id, state)
        return state

    def _nearest(self, table_id: str, history: list[Any], ply: int) -> State | None:
        with self._lock:
            kept = self._kept.get(table_id)
            if kept is None:
                return None
            self._kept.move_to_end(table_id)
            for at in sorted(kept, reverse=True):
                if at > ply:
                    continue
                state = kept[at]
                if state.history == history[:at]:
                    return state
                del kept[at]  # taken back since: no longer on the table's way
        return None

    def _keep(self, table_id: str, state: State) -> None:
        with self._lock:
            kept = self._kept.setdefault(table_id, {})
            self._kept.move_to_end(table_id)
            if state.ply not in kept:
                kept[state.ply] = state.clone()
            while len(self._kept) > self.tables:
                self._kept.popitem(last=False)

    def forget(self, table_id: str) -> None:
        with self._lock:
            self._kept.pop(table_id, None)


class ViewMemo:
    """The last replayed views (thread-safe), by table, version, step, viewer,
    language and layout."""

    def __init__(self, size: int = VIEWS) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._views: OrderedDict[tuple[Any, ...], dict[str, Any]] = OrderedDict()

    def get(self, key: tuple[Any, ...]) -> dict[str, Any] | None:
        with self._lock:
            view = self._views.get(key)
            if view is not None:
                self._views.move_to_end(key)
            return view

    def put(self, key: tuple[Any, ...], view: dict[str, Any]) -> None:
        with self._lock:
            self._views[key] = view
            while len(self._views) > self.size:
                self._views.popitem(last=False)


class LogMemo:
    """Per table and viewer, language and layout, the log lines written for the
    longest replayed position (thread-safe): a position's log is a beginning of
    it, so its lines are read from there (``views.log_lines`` writes only the
    lines after those it is given)."""

    def __init__(self, size: int = 4 * TABLES) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._kept: OrderedDict[tuple[Any, ...], tuple[Any, ...]] = OrderedDict()

    def start(self, key: tuple[Any, ...], events: int) -> tuple[Any, ...] | None:
        """The kept lines cut to the first ``events`` (None: nothing kept)."""
        with self._lock:
            kept = self._kept.get(key)
            if kept is None:
                return None
            self._kept.move_to_end(key)
        names, evs, lines, refs = kept
        return names, evs[:events], lines[:events], refs[:events]

    def keep(self, key: tuple[Any, ...], entry: tuple[Any, ...] | None) -> None:
        if entry is None:
            return
        with self._lock:
            kept = self._kept.get(key)
            if kept is None or len(kept[2]) <= len(entry[2]):
                self._kept[key] = entry
                self._kept.move_to_end(key)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)


CHECKPOINTS = Checkpoints()
MEMO = ViewMemo()
LOGS = LogMemo()


def replay_view(table: LiveTable, step: Any, viewer: int | None, lang: str,
                token_seat: int | None, layout: str = "wide",
                checkpoints: Checkpoints | None = None) -> dict[str, Any]:
    """The position at replay step ``step`` as ``viewer`` saw it then (see the module
    docstring for what a step is). Safe in a worker thread: it reads the table's
    position as it was when called and writes nothing of the table."""
    from .views import build_view, presentation   # views imports this module's users
    state_now = table.state
    terminal = state_now.is_terminal()
    at = steps(state_now)
    total = len(at) - 1
    if not isinstance(step, int) or isinstance(step, bool) or not 0 <= step <= total:
        raise BadRequest("bad_ply", f"the move number must be between 0 and {total}")
    if viewer is not None:
        if not isinstance(viewer, int) or isinstance(viewer, bool) or not 0 <= viewer < table.rec.num_players:
            raise BadRequest("bad_seat", f"there is no seat {viewer!r} at this table")
        if viewer != token_seat and not terminal:
            raise Forbidden("forbidden_view",
                            "a seat's point of view is only for its player until the game is over")
    ply = at[step]
    state = (checkpoints or CHECKPOINTS).position(table, state_now.history, ply)
    # a copy of the table for building the view: the live table's caches of
    # log lines are not touched (this may run in a worker thread)
    shell = copy.copy(table)
    shell.log_cache, shell.events_cache, shell.undo_cache = {}, {}, {}
    lines_key = (viewer, lang, layout)
    memo_key = (table.id,) + lines_key   # log_lines checks that the kept events begin these
    start = LOGS.start(memo_key, len(state.visible_events(viewer)))
    if start is not None:
        shell.log_cache[lines_key] = start
    view = build_view(shell, state, viewer, lang, legal=False, layout=layout)
    LOGS.keep(memo_key, shell.log_cache.get(lines_key))
    view["type"] = "replay"
    view["ply"] = step
    view["total"] = total
    view["status"] = table.status()
    last = state_now.history[ply - 1] if ply > 0 else None
    # the decision itself may be a secret (a hidden choice): name it only to
    # its own player, or to everyone once the game is over; while the game
    # runs a step is a public decision (its seat is public), never a secret step
    if last is not None and (terminal or last[0] == viewer):
        pres = presentation(state, viewer, table.display_names(lang), lang)
        text = pres.action_text(view["observation"], last[1])
        view["last_action"] = {"seat": last[0], "action": last[1], "text": text}
    elif last is not None:
        view["last_action"] = {"seat": last[0], "action": None, "text": None}
    if last is not None:
        # who decided: the seat's own player, or the bot standing in for them
        by = table.deciders.get(ply - 1)
        view["last_action"]["by"] = by.removeprefix("sub:") if by else None
    else:
        view["last_action"] = None
    return view


async def replay_async(table: LiveTable, step: Any, viewer: int | None, lang: str,
                       token_seat: int | None, layout: str = "wide") -> dict[str, Any]:
    """:func:`replay_view` in a worker thread (at most :data:`WORKERS` at once), its
    answer kept for the same question at the same version of the table."""
    global _limiter
    # the public version: a seat's secret step changes no replay step (nor how fast it is served)
    key = (table.id, table.public_version, step, viewer, viewer == token_seat, lang, layout)
    view = MEMO.get(key)
    if view is not None:
        return view
    if _limiter is None:
        _limiter = anyio.CapacityLimiter(WORKERS)
    view = await anyio.to_thread.run_sync(
        lambda: replay_view(table, step, viewer, lang, token_seat, layout), limiter=_limiter)
    MEMO.put(key, view)
    return view

