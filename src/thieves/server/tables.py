"""Live tables: game states in memory, every accepted action stored first.

All changes happen on the event-loop thread with no ``await`` between the
legality check, the database commit and the state change, so two clients
can never interleave inside one action. An action is checked on a clone,
stored (committed), and only then does the clone become the table's state:
if storing fails, nothing changed.
"""
from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import re
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Generator, NamedTuple, TypeAlias, TypeVar

from ..bots import bot_names, choose_fairly, make_bot
from ..core.errors import ThievesError
from ..core.game import Game, State
from ..core.registry import GAME_MODULES, load_game
from ..core.svg import MAX_THEN
from ..core.undo import UndoRun, own_run_start, state_at
from .clocks import Clock, TimeControl
from .errors import (BadRequest, Conflict, Forbidden, GameFailure, Gone, NotFound, PositionConflict,
                     StorageBehind, StorageConflict, StorageError, TooMany, stored)
from .errors import ServerError as ServerError  # also imported from here (server/boards.py)
from .i18n import LANGS, bot_label, ui
from .storage import RematchExists, Storage, TableRecord, token_digest

log = logging.getLogger("thieves.server")

_MASK63 = (1 << 63) - 1
#: a stored row that takes decisions back: "<UNDO><move number to go back to>"
UNDO = "!undo "
#: the longest action notation a person may send (each step of a gesture too)
MAX_ACTION = 200
#: what a table's stored timing holds besides its time control: when the game
#: started, and when the server was down (charged to nobody's clock)
TIMING_MARKS = ("started", "pauses")
#: pauses kept per table (the oldest are dropped: a later restart charges them)
MAX_PAUSES = 20
#: the seat setting (in the table's seats) of a player who switched reactions to
#: "not this round": the game's round it holds for (True: a game without rounds)
REACTIONS_OFF = "reactions_off"
#: seconds the table waits before it gives an answer for a person (drawn in this
#: range for every answer alike, from the system's source, never the game's
#: generator): a forced "let it go" and a person's quick one are paced the same
ANSWER_DELAY = (0.7, 1.6)
#: bits of a new table's seed (secrets.randbits)
SEED_BITS = 128
NAME_RE = re.compile(r"[^\w .'\-]", re.UNICODE)


_warned: set[str] = set()


def _env_bytes(name: str, default: int) -> int:
    try:
        return max(0, int(os.environ.get(name, default)))
    except ValueError:
        return default


#: bytes of drawings one table keeps for all its viewers (the boards' shared
#: layers, see ``server/boards.py``); ``$THIEVES_LAYER_BYTES_PER_TABLE``, 0: no bound
LAYER_BYTES_PER_TABLE = _env_bytes("THIEVES_LAYER_BYTES_PER_TABLE", 2 * 1024 * 1024)


class SharedDrawings:
    """What one table draws once for every viewer (the unchanging and public
    layers of its boards, per language and layout), counted in bytes and
    bounded: the least recently used go first (a drawing not kept is drawn
    again when asked for). Safe to read from a replay's worker thread."""

    def __init__(self, bound: int | None = None) -> None:
        self.bound = LAYER_BYTES_PER_TABLE if bound is None else bound
        self._items: OrderedDict[Any, tuple[Any, int]] = OrderedDict()
        #: the bytes kept (as the drawer counted them)
        self.nbytes = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: Any) -> Any:
        with self._lock:
            hit = self._items.get(key)
            if hit is None:
                return None
            self._items.move_to_end(key)
            return hit[0]

    def put(self, key: Any, value: Any, nbytes: int) -> Any:
        """Keep ``value`` (about ``nbytes``) under ``key``; returns it."""
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self.nbytes -= old[1]
            self._items[key] = (value, nbytes)
            self.nbytes += nbytes
            while self.bound and self.nbytes > self.bound and len(self._items) > 1:
                _, (_, gone) = self._items.popitem(last=False)
                self.nbytes -= gone
        return value

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.nbytes = 0


def playable_games() -> list[str]:
    """Slugs of the games that load; a game package that fails to import
    (e.g. one being written) is left out instead of breaking the lobby."""
    out = []
    for slug in list(GAME_MODULES):
        try:
            load_game(slug)
        except Exception as exc:  # noqa: BLE001 - any broken package is skipped
            if not isinstance(exc, ThievesError) and slug not in _warned:
                _warned.add(slug)
                log.warning("game %s cannot be loaded: %s: %s", slug, type(exc).__name__, exc)
            continue
        out.append(slug)
    return out


def clean_name(name: Any, default: str) -> str:
    if not isinstance(name, str):
        return default
    name = NAME_RE.sub("", name).strip()[:32]
    return name or default


@dataclass
class LiveTable:
    rec: TableRecord
    game: Game
    state: State
    digests: dict[int, str] = field(default_factory=dict)
    #: seats that already made their secret choice in the current simultaneous step
    chosen: list[int] = field(default_factory=list)
    #: set when the stored actions can no longer be replayed (e.g. the game's rules changed)
    broken: str | None = None
    #: grows with every change (an action, a seat taken): see :attr:`version`
    _version: int = 0
    #: the version of the last change every viewer can see (not secret steps, see :meth:`version_for`)
    public_version: int = 0
    #: per seat, the version of its last secret step (a change only that seat sees)
    own_versions: dict[int, int] = field(default_factory=dict)
    #: what the changes since the last version were: -1 none, a seat: only that seat's
    #: secret steps, None: something others see (see :meth:`note_step`)
    _secret_seat: int | None = field(default=-1, repr=False)
    #: time.time() of the last stored change
    touched: float = field(default_factory=time.time)
    #: abandoned: nothing changed for longer than the server's expiry time
    expired: bool = False
    #: held while a change to this table is being stored (the write runs in a worker thread)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    #: (move number, time of last change) as last stored or read by this process
    seen: tuple[int, float] | None = None
    #: moves decided by a substitute bot (ply -> "sub:<bot>"); the others by the seat's own player
    deciders: dict[int, str] = field(default_factory=dict)
    #: the players' clocks (None: the table has no time control)
    clock: Clock | None = None
    #: rows stored for this table (decisions and undo records; the next row's number)
    rows: int = 0
    #: seat -> undo records stored for it (bounded by ``TableManager.undos_per_game``)
    undos: dict[int, int] = field(default_factory=dict)
    #: (version, seat) -> the move number that seat may undo to (None: it may not)
    undo_cache: dict[tuple[int, int], int | None] = field(default_factory=dict)
    #: (viewer, language, layout) -> the log lines already written for that
    #: viewer, with the events and names they came from (see ``views.log_lines``)
    log_cache: dict[tuple[int | None, str, str], tuple[Any, ...]] = field(default_factory=dict, repr=False)
    #: viewer -> the log entries of the last view built for them and their
    #: visible events (see ``views.visible_events``)
    events_cache: dict[int | None, tuple[list[Any], list[dict[str, Any]]]] = field(default_factory=dict,
                                                                                  repr=False)
    #: the spectator's observation of the table's position as ``(state, key, obs)``,
    #: made once per change for the public layer and the spectators' view
    #: (``boards.public_obs``; never changed once made)
    public_obs: tuple[State, Any, dict[str, Any]] | None = field(default=None, repr=False)
    #: the drawings made once for every viewer (``server/boards.py``)
    shared: SharedDrawings = field(default_factory=SharedDrawings, repr=False)
    #: the position before the last run of one seat's decisions (what an undo goes back to)
    run_start: State | None = None
    #: what undoing is decided from during that run (its re-dealt copies, kept for the run)
    undo_run: UndoRun | None = field(default=None, repr=False)
    #: the last decision this process stored, as the other processes can apply it
    #: without reading storage (see :meth:`TableManager.apply_news`), with the
    #: ``version`` it made (None: the last change was not one that can be sent so)
    news: dict[str, Any] | None = None

    @property
    def version(self) -> int:
        """Grows with every change; a change made only of one seat's secret steps
        (``State._secret_step``) is that seat's alone (:meth:`version_for`)."""
        return self._version

    @version.setter
    def version(self, value: int) -> None:
        self._version = value
        seat = self._secret_seat
        if seat is not None and seat >= 0:
            self.own_versions[seat] = value
        else:
            self.public_version = value
        self._secret_seat = -1

    def version_for(self, viewer: int | None) -> int:
        """The version of the last change ``viewer`` can see: another seat's secret
        steps change nothing it sees, so it gets no new view (nor frame) for them."""
        if viewer is None:
            return self.public_version
        return max(self.public_version, self.own_versions.get(viewer, -1))

    def note_step(self, player: int, secret: bool) -> None:
        """A decision (or undo) of ``player`` is part of the next change; ``secret``:
        others see nothing of it."""
        if secret and self._secret_seat in (-1, player):
            self._secret_seat = player
        else:
            self._secret_seat = None

    def note_public(self) -> None:
        """The next change is one everybody sees (whatever decisions are part of it)."""
        self._secret_seat = None

    def note_run(self, state: State, player: int) -> None:
        """Before ``player`` decides on ``state``: remember it when a new run begins
        (only a person's run can be taken back: a bot's, a substitute's included, is not kept)."""
        if not state.history or state.history[-1][0] != player:
            self.run_start = state.clone() if self.controller(player) is None else None
            self.undo_run = None

    def step(self, state: State, player: int, action: str, at: float | None,
             decider: str | None) -> State:
        """One stored row applied to ``state``: a decision (``state`` changes and
        is returned) or an undo record (the earlier position is returned)."""
        if action.startswith(UNDO):
            target = int(action[len(UNDO):])
            if not 0 <= target <= state.ply:
                raise ThievesError(f"an undo to move {target} at move {state.ply}")
            self.undos[player] = self.undos.get(player, 0) + 1
            start = self.run_start
            back = start.clone() if start is not None and start.ply == target else state_at(state, target)
            self.run_start = self.undo_run = None
            self.deciders = {k: v for k, v in self.deciders.items() if k < target}
            # taking back only secret steps: the others saw none of them, nor see this
            secret = all(state.is_secret_step(i) for i in range(target, state.ply))
            self.note_step(player, secret)
            if not secret:
                self.chosen = [c for c in self.chosen if c != player]
            if self.clock is not None and at is not None and not back.is_terminal() and not secret:
                self.clock.resume(back.players_to_act(), at)
            return back
        self.note_run(state, player)
        secrets_before = len(state.secret_steps)
        self._advance(state, player, action)
        secret = len(state.secret_steps) > secrets_before
        self.note_step(player, secret)
        if decider is not None:
            self.deciders[state.ply - 1] = decider
        if not secret:  # a secret step is timed with the public step that ends it
            self.clock_step(state, player, at)
        return state

    def may_undo(self, seat: int | None) -> int | None:
        """The move number ``seat`` may take its decisions back to now (None: no undo).
        Only a person playing their own seat undoes; decided once per change."""
        if seat is None or self.broken or self.expired or self.controller(seat) is not None:
            return None
        if not self.state.history or self.state.history[-1][0] != seat:
            return None
        key = (self.version, seat)
        if key not in self.undo_cache:
            self.undo_cache.clear()
            begun, run, start = self.run_start, self.undo_run, None
            if begun is not None and begun.ply == own_run_start(self.state, seat):
                if run is None or run.before is not begun or run.player != seat:
                    run = self.undo_run = UndoRun(begun, seat)
                start = run.point(self.state)
            # decisions a substitute made are not the person's to take back
            if start is not None and any(k >= start for k in self.deciders):
                start = None
            self.undo_cache[key] = start
        return self.undo_cache[key]

    def make_clock(self) -> None:
        """The clock of the table's time control, not started (None: no clock)."""
        timing = self.rec.timing or {}
        control = TimeControl.parse({k: v for k, v in timing.items() if k not in TIMING_MARKS})
        pauses = [p for p in timing.get("pauses") or []
                  if isinstance(p, list) and len(p) == 2 and all(isinstance(x, (int, float)) for x in p)]
        self.clock = Clock(control, self.rec.num_players, pauses) if control.active else None

    def clock_from_start(self, state: State,
                         action_times: Callable[[], list[float | None]]) -> list[float | None]:
        """A new clock started as the game began at ``state`` (the position before
        any move); returns the stored move times to run it through (none without a clock)."""
        self.make_clock()
        if self.clock is None:
            return []
        times = action_times()
        start = self.started_at()
        if start is not None:
            self.clock.start(state.players_to_act(), start)
        return times

    def started_at(self) -> float | None:
        """When the game started (every seat taken), for a table with a clock."""
        value = (self.rec.timing or {}).get("started")
        return float(value) if isinstance(value, (int, float)) else None

    def clock_step(self, state: State, player: int, at: float | None) -> None:
        """Run the clock through one decision stored at ``at``."""
        if self.clock is None or at is None:
            return
        if state.is_terminal():
            self.clock.stop(at)
        else:
            self.clock.decided(player, state.players_to_act(), at)

    @property
    def id(self) -> str:
        return self.rec.id

    def status(self) -> str:
        if self.state.is_terminal():
            return "finished"
        if self.expired:
            return "expired"
        return self.stored_status(self.state)

    def stored_status(self, state: State, digests: dict[int, str] | None = None) -> str:
        """The status kept in the database: open, playing or finished."""
        if state.is_terminal():
            return "finished"
        digests = self.digests if digests is None else digests
        if any(s["kind"] == "human" and i not in digests for i, s in enumerate(self.rec.seats)):
            return "open"
        return "playing"

    def open_seats(self) -> list[int]:
        """Human seats nobody has taken yet."""
        return [i for i, s in enumerate(self.rec.seats) if s["kind"] == "human" and i not in self.digests]

    def waiting(self) -> bool:
        """The game has not started and a human seat is still open: nobody acts
        (neither people nor bots) until every seat is taken or the creator fills
        the open ones with bots. A table that already has moves (made before
        this rule) plays on."""
        return self.state.ply == 0 and not self.state.is_terminal() and bool(self.open_seats())

    def controller(self, seat: int) -> str | None:
        """The bot that decides for ``seat`` now: its own bot, or the substitute
        of a player who left (None: a person decides)."""
        s = self.rec.seats[seat]
        if s["kind"] == "bot":
            return str(s["bot"])
        sub = s.get("sub")
        return str(sub) if sub else None

    def is_host(self, seat: int | None) -> bool:
        """Whether ``seat`` was taken by the table's creator (who may fill open seats with bots)."""
        return seat is not None and bool(self.rec.seats[seat].get("host"))

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token opens; None for no token. Raises for a wrong token."""
        if token is None or token == "":
            return None
        if not isinstance(token, str) or len(token) > 200:
            raise Forbidden("bad_token", "this seat link is not valid (unknown or expired)")
        digest = token_digest(token)
        for seat, d in self.digests.items():
            if secrets.compare_digest(d, digest):
                return seat
        raise Forbidden("bad_token", "this seat link is not valid (unknown or expired)")

    def answer_for(self, seat: int) -> str | None:
        """The answer the table gives for a person's ``seat`` now (None: the person
        decides): the one legal answer of a decision that has only one (no empty
        questions), or letting a reaction window go by while the seat has its
        reactions switched off ("not this round")."""
        if self.controller(seat) is not None:
            return None
        state = self.state
        if seat not in state.players_to_act():
            return None
        acts = state.legal_actions(seat)
        if len(acts) == 1:
            return acts[0]
        if self.reactions_off(seat):
            answer = state.reaction_pass(seat)
            if answer is not None and answer in acts:
                return answer
        return None

    def reactions_off(self, seat: int) -> bool:
        """Whether ``seat`` switched its reactions to "not this round" (for the game's
        current round; for the whole game in a game without rounds)."""
        off = self.rec.seats[seat].get(REACTIONS_OFF)
        if off is None or off is False:
            return False
        return off is True or off == self.state.reaction_round()

    def answering(self, seat: int | None) -> str | None:
        """:meth:`answer_for` while the table may act at all (not broken, abandoned,
        over, nor waiting for its seats to be taken)."""
        if seat is None or self.broken or self.expired or self.state.is_terminal() or self.waiting():
            return None
        return self.answer_for(seat)

    def seat_to_answer(self) -> int | None:
        """A person's seat whose decision the table takes now (:meth:`answer_for`)."""
        for p in self.state.players_to_act():
            if self.answering(p) is not None:
                return p
        return None

    def auto_to_act(self) -> int | None:
        """A seat that no person has to decide for now: a bot's, or one the table answers."""
        seat = self.bot_to_act()
        return seat if seat is not None else self.seat_to_answer()

    def bot_to_act(self) -> int | None:
        if self.broken or self.expired or self.state.is_terminal() or self.waiting():
            return None
        for p in self.state.players_to_act():
            if self.controller(p) is not None:
                return p
        return None

    def names(self) -> list[str]:
        return [s["name"] for s in self.rec.seats]

    def display_names(self, lang: str) -> list[str]:
        """Seat names in ``lang``: the names the server made up ("Greedy bot 2",
        "Player 3") are said in that language; names people chose stay."""
        texts = ui(lang)
        out = []
        for i, s in enumerate(self.rec.seats):
            name = s["name"]
            if s["kind"] == "bot" and s["bot"] and name == f"{s['bot'].title()} bot {i + 1}":
                label = bot_label(s["bot"], lang)
                name = texts["bot_name"].format(bot=label, Bot=label[:1].upper() + label[1:], n=i + 1)
            elif s["kind"] == "human" and name == f"Player {i + 1}":
                name = texts["player_n"].format(n=i + 1)
            out.append(name)
        return out

    def _advance(self, state: State, player: int, action: str) -> None:
        """Apply to ``state`` and update the has-chosen marks (simultaneous choices)."""
        before = state.players_to_act()
        secrets_before = len(state.secret_steps)
        state.apply_action(player, action)
        if len(state.secret_steps) > secrets_before:
            return  # a secret step: the others see nothing of it, the marks stay
        after = state.players_to_act()
        # Several players choosing at once: the one who chose leaves the list
        # of players to act while the others are still choosing.
        if len(before) > 1 and after and set(after) <= set(before) - {player}:
            self.chosen = sorted(set(self.chosen) | {player})
        else:
            self.chosen = []


class TableManager:
    """The tables of the server: those in play are kept in memory, any other
    is read from storage when someone opens it (``get``) and leaves memory
    again when idle (``unload``), so memory follows live tables, not history."""

    def __init__(self, storage: Storage, open_tables: int = 0, expire_after: float = float("inf"),
                 now: Callable[[], float] = time.time) -> None:
        self.storage = storage
        #: the time for clocks and stored moves (tests pass a fake clock)
        self.now = now
        self.tables: dict[str, LiveTable] = {}
        #: most tables not finished on the site (0: no limit)
        self.open_tables = open_tables
        #: seconds without a change after which a table not finished is abandoned
        self.expire_after = expire_after
        #: undos one seat may make in one game (0: no limit)
        self.undos_per_game = 0
        #: (game, bot) -> whether that bot reads only the legal actions (see :meth:`quick_bot`)
        self._quick_bots: dict[tuple[str, str], bool] = {}

    # -- loading -------------------------------------------------------------------
    def load_all(self, restart_clocks: bool = True) -> None:
        """Load the tables in play (not finished, not abandoned) at start.
        ``restart_clocks``: the running clocks go on from now, so the time the
        server was down is charged to nobody (off when other processes kept
        serving the tables meanwhile: their clocks ran on there)."""
        now = self.now()
        for table_id in self.storage.live_ids(time.time() - self.expire_after):
            table = self.load(table_id)
            if restart_clocks and table is not None and table.clock is not None:
                self._pause_clock(table, now)

    def _pause_clock(self, table: LiveTable, now: float) -> None:
        """The server was down since the table's last change: nobody is charged
        for it (the pause is stored with the timing, so a later restart agrees)."""
        assert table.clock is not None
        pause = table.clock.restart(now)
        if pause is None:
            return
        pauses = list((table.rec.timing or {}).get("pauses") or [])[-(MAX_PAUSES - 1):]
        table.rec.timing = {**(table.rec.timing or {}), "pauses": [*pauses, list(pause)]}
        try:
            self.storage.set_timing(table.id, table.rec.timing)
        except Exception:  # noqa: BLE001 - the clock here is right; a later restart charges the pause
            log.exception("could not store the pause of table %s", table.id)

    def load(self, table_id: str) -> LiveTable | None:
        """Read one table from storage and replay its actions (None: no such table)."""
        table = self.read(table_id)
        if table is not None:
            self.tables[table.id] = table
        return table

    def read(self, table_id: str) -> LiveTable | None:
        """:meth:`load` without keeping the table in memory (safe in a worker thread)."""
        found = self.storage.load_table(table_id)
        if found is None:
            return None
        rec, digests, actions = found
        try:
            game = load_game(rec.game)
            state = game.new_game(rec.num_players, rec.seed, rec.options, rng=rec.rng)
        except Exception as exc:  # noqa: BLE001 - the game is gone or broken
            log.warning("table %s cannot be loaded: %s", rec.id, exc)
            return None
        table = LiveTable(rec, game, state, digests)
        times = table.clock_from_start(state, lambda: self.storage.action_times(rec.id))
        deciders = self.storage.deciders(rec.id)
        for i, (player, action) in enumerate(actions):
            try:
                state = table.step(state, int(player), action, times[i] if i < len(times) else None,
                                   deciders.get(i))
            except ThievesError as exc:
                # the public message never names the move nor the engine's
                # reason: either may be a secret choice; the log has both
                table.broken = (f"stored move {i + 1} no longer replays with this version "
                                f"of the game")
                log.error("table %s: stored action %d (%r by seat %s) no longer replays: %s",
                          rec.id, i + 1, action, player, exc)
                break
        table.state = state
        table.rows = len(actions)
        table.note_public()   # loaded: whatever changes next, everybody sees the table anew
        table.touched = self.storage.touched(rec.id) or rec.created
        mark = self.storage.mark(rec.id)
        table.seen = mark if mark is not None and mark[0] == table.rows else None
        table.expired = not state.is_terminal() and time.time() - table.touched > self.expire_after
        status = table.stored_status(state)
        try:  # rows of older versions learn their status here
            self.storage.set_status(rec.id, status, table.rows)
        except Exception:  # noqa: BLE001 - only a cache for the lobby
            log.exception("could not store the status of table %s", rec.id)
        return table

    def unload(self, table_id: str) -> None:
        self.tables.pop(table_id, None)

    def refresh(self, table: LiveTable) -> bool:
        """Catch up with what other processes stored (seats taken, actions);
        True when something changed. Storage is the truth."""
        return self.apply_changes(table, self.fetch_changes(table))

    async def refresh_async(self, table: LiveTable) -> bool:
        """:meth:`refresh` with the database reads in a worker thread, under the
        table's lock: a change of this process being stored meanwhile (its rows
        would be read back too) or another catch-up never interleaves with it."""
        async with table.lock:
            return self.apply_changes(table, await asyncio.to_thread(self.fetch_changes, table))

    def fetch_changes(self, table: LiveTable) -> tuple[Any, Any, Any, int] | None:
        """What another process stored since this one last looked (None: nothing);
        one indexed read when nothing changed. Safe in a worker thread."""
        mark = self.storage.mark(table.id)
        if mark is None or mark == table.seen:
            return None
        since = table.rows
        return mark, self.storage.changes_since(table.id, since), \
            (self.storage.deciders(table.id, since),
             self.storage.action_times(table.id, since) if table.clock is not None else [],
             self.storage.timing(table.id) if table.clock is not None else None), since

    def apply_changes(self, table: LiveTable, fetched: tuple[Any, Any, Any, int] | None) -> bool:
        if fetched is None or fetched[1] is None:
            return False
        mark, (seats, digests, actions), (deciders, times, timing), since = fetched
        if since != table.rows:  # the table moved while this was read: the next look catches up
            return False
        if table.clock is not None and timing and timing.get("started") and table.started_at() is None:
            table.rec.timing = timing  # another process started the game
            table.clock.start(table.state.players_to_act(), float(timing["started"]))
        changed = False
        if digests != table.digests or seats != table.rec.seats:
            table.digests = digests
            table.rec.seats = seats
            table.note_public()
            changed = True
        if actions and not table.broken:
            state = table.state.clone()
            try:
                for i, (player, action) in enumerate(actions):
                    state = table.step(state, int(player), action, times[i] if i < len(times) else None,
                                       deciders.get(table.rows + i))
            except ThievesError:
                log.warning("table %s: another process stored moves this one cannot follow", table.id)
                self._resync(table)
                return True
            table.state = state
            table.rows += len(actions)
            changed = True
        if table.rows == mark[0]:
            table.seen = mark
        if changed:
            table.version += 1
            table.touched = time.time()
        return changed

    # -- lookups ---------------------------------------------------------------------
    def get(self, table_id: str) -> LiveTable:
        table = self.tables.get(table_id) if isinstance(table_id, str) else None
        if table is None and isinstance(table_id, str) and 0 < len(table_id) <= 32:
            table = self.load(table_id)
        if table is None:
            raise NotFound("unknown_table", f"there is no table {table_id!r}")
        return table

    async def get_async(self, table_id: str) -> LiveTable:
        """:meth:`get` for the event loop: a table not in memory is read and
        replayed in a worker thread, so the other tables go on meanwhile (when
        two read it at once, the first one kept is the table)."""
        table = self.tables.get(table_id) if isinstance(table_id, str) else None
        if table is None and isinstance(table_id, str) and 0 < len(table_id) <= 32:
            read = await asyncio.to_thread(self.read, table_id)
            if read is not None:
                table = self.tables.setdefault(read.id, read)
        if table is None:
            raise NotFound("unknown_table", f"there is no table {table_id!r}")
        return table

    # -- creating and joining --------------------------------------------------------
    def create(self, slug: Any, num_players: Any, seats: Any, options: Any = None,
               lang: str = "en", seed: int | None = None,
               clock: Any = None, rematch_of: str | None = None) -> tuple[LiveTable, dict[int, str]]:
        """Create a table. ``seats``: one dict per seat, ``{"kind": "human"|"open"|"bot",
        "bot": name, "name": str}``; "human" seats are claimed now and their tokens returned."""
        if slug not in playable_games():
            raise NotFound("unknown_game", f"there is no game {slug!r} on this server")
        game = load_game(slug)
        if not isinstance(num_players, int) or isinstance(num_players, bool):
            raise BadRequest("bad_request", "the number of players must be an integer")
        if not isinstance(seats, list) or len(seats) != num_players:
            raise BadRequest("bad_request", f"give exactly one seat description per player ({num_players})")
        options = {} if options is None else dict(options) if isinstance(options, dict) else None
        if options is None:
            raise BadRequest("bad_request", "options must be a mapping of name to value")
        if "data_dir" in options:
            # a path on the server's disk is not for web users to choose
            raise BadRequest("bad_request", "the data_dir option cannot be set from the web")
        if self.open_tables > 0:
            live = stored("the tables could not be counted", self.storage.count_live,
                           time.time() - self.expire_after)
            if live >= self.open_tables:
                raise TooMany("rate_limited", f"this server already has {live} tables in play; "
                              "try again later", retry_after=60)
        try:
            control = TimeControl.parse(clock)
        except ValueError as exc:
            raise BadRequest("bad_request", f"clock: {exc}") from None
        if seed is None:
            # 128 bits from the operating system's secure source, and a keyed
            # generator: what people see of a table cannot be searched back
            # to its seed, so hidden cards stay hidden (docs/server.md)
            seed = secrets.randbits(SEED_BITS)
        try:
            state = game.new_game(num_players, seed, options, rng="keyed")
        except ThievesError as exc:
            raise BadRequest("bad_setup", str(exc)) from None
        bots = bot_names(slug)
        specs: list[dict[str, Any]] = []
        claim: list[int] = []
        for i, s in enumerate(seats):
            if not isinstance(s, dict) or s.get("kind") not in ("human", "open", "bot"):
                raise BadRequest("bad_request", f"seat {i + 1}: kind must be human, open or bot")
            if s["kind"] == "bot":
                bot = s.get("bot") or "random"
                if bot not in bots:
                    raise BadRequest("bad_request", f"seat {i + 1}: no bot {bot!r}; bots are {', '.join(bots)}")
                specs.append({"kind": "bot", "bot": bot, "name": f"{bot.title()} bot {i + 1}"})
            else:
                specs.append({"kind": "human", "bot": None,
                              "name": clean_name(s.get("name"), f"Player {i + 1}")})
                if s["kind"] == "human":
                    claim.append(i)
                    specs[-1]["host"] = True  # the creator's seat: may fill open seats with bots
                elif rematch_of is not None:
                    # a rematch keeps this seat for its player of the finished game
                    specs[-1]["reserved"] = rematch_of
        lang = lang if lang in LANGS else "en"
        table_id = secrets.token_urlsafe(9)  # 72 bits: tables cannot be found by guessing
        rec = TableRecord(table_id, slug, num_players, seed,
                          {k: v for k, v in state.options.items() if v is not None}, specs, lang,
                          time.time(), "keyed", control.to_json() if control.active else None)
        # the table and its creator's seats are stored in one transaction:
        # a failed write leaves neither a table nor a half-claimed one
        tokens = {i: secrets.token_urlsafe(24) for i in claim}  # 192 random bits each
        table = LiveTable(rec, game, state, {i: token_digest(t) for i, t in tokens.items()})
        table.make_clock()
        if table.clock is not None and not table.waiting():
            self._start_clock(table, store=False)
        claims = [(i, tokens[i], specs[i]["name"]) for i in claim]
        if rematch_of is not None:
            try:
                self.storage.add_table(rec, claims, table.stored_status(state), rematch_of)
            except RematchExists:
                raise
            except Exception as exc:  # noqa: BLE001 - any database failure
                log.exception("the rematch could not be stored")
                raise StorageError(f"the table could not be stored, try again "
                                   f"({type(exc).__name__})") from None
        else:
            stored("the table could not be stored", self.storage.add_table, rec, claims,
                    table.stored_status(state))
        table.seen = (0, rec.created)  # what storage holds (its time of last change is the creation's)
        self.tables[table_id] = table
        return table, tokens

    def claim(self, table_id: str, seat: Any, name: Any = None,
              reserved: str | None = None) -> tuple[LiveTable, str]:
        """Take an open seat; returns its new secret token. A seat a rematch keeps
        for its former player is taken only through the rematch (``reserved``)."""
        table = self.get(table_id)
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < table.rec.num_players:
            raise BadRequest("bad_seat", f"there is no seat {seat!r} at this table")
        spec = table.rec.seats[seat]
        if spec["kind"] != "human":
            raise Conflict("seat_taken", f"seat {seat + 1} is played by a bot")
        if seat in table.digests:
            raise Conflict("seat_taken", f"seat {seat + 1} is already taken")
        if table.state.is_terminal():
            raise PositionConflict("game_over", "the game is over")
        if spec.get("reserved") and spec["reserved"] != reserved:
            raise Conflict("reserved", f"seat {seat + 1} is kept for its player of the previous game")
        seats = [dict(x) for x in table.rec.seats]
        seats[seat]["name"] = clean_name(name, spec["name"])
        token = secrets.token_urlsafe(24)  # 192 random bits
        # stored first (one transaction); only then does the seat change here
        status = table.stored_status(table.state, {**table.digests, seat: token_digest(token)})
        now = time.time()
        stored("the seat could not be stored", self.storage.claim_seat, table.id, seat, token,
                seats[seat]["name"], seats, status, now)
        if table.seen is not None and table.seen[0] == table.rows:
            table.seen = (table.rows, now)
        table.rec.seats = seats
        table.digests[seat] = token_digest(token)
        table.version += 1
        table.touched = time.time()
        if table.clock is not None and not table.waiting():
            self._start_clock(table)
        return table, token

    def _start_clock(self, table: LiveTable, store: bool = True) -> None:
        """The game starts (every seat taken): the clocks of those to act run."""
        if table.clock is None or table.started_at() is not None:
            return
        now = self.now()
        table.rec.timing = {**(table.rec.timing or {}), "started": now}
        table.clock.start(table.state.players_to_act(), now)
        if store:
            try:
                self.storage.set_timing(table.id, table.rec.timing)
            except Exception:  # noqa: BLE001 - the clock runs; a restart would start it later
                log.exception("could not store when table %s started", table.id)

    def fill_with_bots(self, table: LiveTable, seat: int | None, bot: Any = None) -> list[int]:
        """The creator (``seat`` holds a seat taken at creation) gives every open
        seat to a bot, so the game can start; returns the seats filled."""
        if seat is None or not table.is_host(seat):
            raise Forbidden("not_host", "only the table's creator can fill its open seats with bots")
        bot = bot or "random"
        bots = bot_names(table.rec.game)
        if bot not in bots:
            raise BadRequest("bad_request", f"no bot {bot!r}; bots are {', '.join(bots)}")
        if table.state.is_terminal():
            raise PositionConflict("game_over", "the game is over")
        filled = table.open_seats()
        if not filled:
            raise Conflict("seat_taken", "there is no open seat at this table")
        seats = [dict(x) for x in table.rec.seats]
        for i in filled:
            seats[i] = {"kind": "bot", "bot": bot, "name": f"{bot.title()} bot {i + 1}"}
        now = time.time()
        stored("the seats could not be stored", self.storage.set_seats, table.id, seats, "playing", now)
        if table.seen is not None and table.seen[0] == table.rows:
            table.seen = (table.rows, now)
        table.rec.seats = seats
        table.version += 1
        table.touched = now
        self._start_clock(table)
        return filled

    def undo(self, table: LiveTable, seat: int | None) -> int:
        """Take ``seat``'s decisions back to the start of its turn, when the engine
        allows it (``core.undo.undo_point``). Stored as its own row (an undo
        record), so a restart and other processes replay it exactly. Returns
        the move number gone back to."""
        if seat is None:
            raise Forbidden("not_a_player", "spectators cannot undo")
        if table.broken:
            raise Conflict("broken", f"this table cannot continue: {table.broken}")
        if table.state.is_terminal():
            raise PositionConflict("game_over", "the game is over")
        self._check_present(table, seat)
        if 0 < self.undos_per_game <= table.undos.get(seat, 0):
            raise Conflict("no_undo", f"you have taken back decisions {self.undos_per_game} times "
                           "in this game: no more undo here")
        target = table.may_undo(seat)
        if target is None:
            raise Conflict("no_undo", "these decisions cannot be taken back (another seat "
                           "acted since, or something random or hidden was revealed)")
        now = self.now()
        record = f"{UNDO}{target}"
        back = table.run_start.clone() if table.run_start is not None else state_at(table.state, target)
        self._store(table, table.rows, seat, record, table.stored_status(back), now)
        table.state = table.step(table.state, seat, record, now, None)
        table.version += 1
        table.touched = now
        table.rows += 1
        if table.seen is not None and table.seen[0] == table.rows - 1:
            table.seen = (table.rows, now)
        return target

    def rematch(self, table: LiveTable, seat: int | None) -> tuple[LiveTable, int, str]:
        """One click on the end screen: a new table with the same game, seats,
        options and time control. The first player to ask creates it (their seat
        taken, bots where bots were, the other people's seats kept for them);
        each other player's click takes their kept seat. Returns the new table,
        the seat and its new token."""
        if seat is None:
            raise Forbidden("not_a_player", "only the players can start a rematch")
        if not table.state.is_terminal():
            raise Conflict("not_finished", "a rematch starts once the game is over")
        existing = table.rec.rematch or stored("the rematch could not be read",
                                                self.storage.rematch_of, table.id)
        name = table.rec.seats[seat]["name"]
        if existing is None:
            seats = [{"kind": "bot", "bot": s["bot"]} if s["kind"] == "bot"
                     else {"kind": "human" if i == seat else "open", "name": s["name"]}
                     for i, s in enumerate(table.rec.seats)]
            timing = {k: v for k, v in (table.rec.timing or {}).items() if k not in TIMING_MARKS} or None
            try:
                new, tokens = self.create(table.rec.game, table.rec.num_players, seats,
                                          dict(table.rec.options), table.rec.lang, clock=timing,
                                          rematch_of=table.id)
            except RematchExists:
                existing = self.storage.rematch_of(table.id)
            else:
                table.rec.rematch = new.id
                table.version += 1
                return new, seat, tokens[seat]
        assert existing is not None
        table.rec.rematch = existing
        new, token = self.claim(existing, seat, name, reserved=table.id)
        return new, seat, token

    def check_clocks(self, table: LiveTable) -> list[int]:
        """Hand the seats whose time ran out to a bot (the game goes on); returns them.
        Only a person can run out of time: bots and substitutes answer by themselves."""
        if table.clock is None or table.broken or table.expired or table.state.is_terminal():
            return []
        out = []
        for seat in table.clock.expired(self.now()):
            if table.controller(seat) is None:
                self.leave(table, seat, timed_out=True)
                out.append(seat)
        return out

    def leave(self, table: LiveTable, seat: int | None, bot: Any = None, concede: bool = False,
              timed_out: bool = False) -> None:
        """A player leaves (or concedes): a bot of the chosen level plays the seat
        from now on (Board Game Arena's "zombie"). Leaving can be undone with the
        seat's link (:meth:`take_back`); conceding cannot."""
        if seat is None:
            raise Forbidden("not_a_player", "spectators cannot leave a seat")
        if table.state.is_terminal():
            raise PositionConflict("game_over", "the game is over")
        bots = bot_names(table.rec.game)
        if not bot:
            bot = "greedy" if "greedy" in bots else "random"
        if bot not in bots:
            raise BadRequest("bad_request", f"no bot {bot!r}; bots are {', '.join(bots)}")
        spec = table.rec.seats[seat]
        if spec.get("conceded"):
            raise Conflict("conceded", "you conceded this seat")
        changes: dict[str, Any] = {"sub": bot, "timed_out": True if timed_out else None}
        if concede:
            changes["conceded"] = True
        self._set_seat(table, seat, changes)

    def take_back(self, table: LiveTable, seat: int | None) -> None:
        """A player who left plays their seat again (the game went on meanwhile)."""
        if seat is None:
            raise Forbidden("not_a_player", "spectators have no seat to take back")
        spec = table.rec.seats[seat]
        if spec.get("conceded"):
            raise Conflict("conceded", "you conceded this seat; a bot plays it to the end")
        if not spec.get("sub"):
            raise BadRequest("bad_request", "you are playing this seat already")
        if (table.clock is not None and table.clock.control.kind == "realtime"
                and table.clock.remaining(seat, self.now()) <= 0):
            # real time: a player whose time ran out cannot come back to it
            raise Conflict("out_of_time", "your time has run out: a bot plays your seat to the end")
        if table.state.is_terminal():
            raise PositionConflict("game_over", "the game is over")
        self._set_seat(table, seat, {"sub": None, "timed_out": None})

    def note_hint(self, table: LiveTable, seat: int) -> None:
        """Keep that ``seat`` asked the search for a hint: the table then never counts in
        the ratings (ratings.unrated_reason, "hints"). Nothing any viewer is sent changes."""
        if not table.rec.seats[seat].get("hinted"):
            self._set_seat(table, seat, {"hinted": True}, public=False)

    def _set_seat(self, table: LiveTable, seat: int, changes: dict[str, Any], public: bool = True) -> None:
        """Store a change of one seat. ``public`` false: a setting only that seat
        sees, so the table's version (what every viewer is sent) stays."""
        seats = [dict(x) for x in table.rec.seats]
        seats[seat].update(changes)
        seats[seat] = {k: v for k, v in seats[seat].items() if v is not None or k == "bot"}
        now = time.time()
        stored("the seat could not be stored", self.storage.set_seats, table.id, seats,
                table.stored_status(table.state), now)
        if table.seen is not None and table.seen[0] == table.rows:
            table.seen = (table.rows, now)
        table.rec.seats = seats
        if public:
            table.version += 1
        table.touched = now

    # -- playing ---------------------------------------------------------------------
    def act(self, table: LiveTable, seat: int | None, action: Any, ply: Any = None,
            then: Any = None) -> int:
        """Apply a person's action for ``seat``; it is stored before it counts.

        ``ply`` (optional) is the move number the client saw when it chose:
        if this seat has made a decision since then, the action is refused
        (``stale``), so a message sent twice (a double click, a resend after
        a lost answer) is never applied twice. Other seats' decisions in the
        meantime do not make it stale: during simultaneous secret choices
        everyone chooses from the same position.

        ``then`` (optional): the further steps of one gesture (a route's next
        moves, docs/engine.md "Gestures"), applied after ``action`` as
        ordinary decisions while :meth:`_step_open`; the first that is not
        ends them quietly. Returns how many further steps were applied.
        (The rule is :meth:`_gesture`; here each decision is stored on the
        calling thread.)
        """
        steps = self._check_request(seat, action, ply, then)
        assert seat is not None
        return commit_each(self._gesture(table, seat, action, ply, steps),
                           lambda decision: self._commit(table, seat, decision))

    async def act_async(self, table: LiveTable, seat: int | None, action: Any, ply: Any = None,
                        then: Any = None) -> int:
        """:meth:`act` for the event loop: each write happens in a worker thread
        under the table's lock, so other tables go on meanwhile (and nothing
        comes between the steps of one gesture)."""
        steps = self._check_request(seat, action, ply, then)
        assert seat is not None
        async with table.lock:
            return await commit_each_async(self._gesture(table, seat, action, ply, steps),
                                           lambda decision: self.commit_async(table, seat, decision))

    def _gesture(self, table: LiveTable, seat: int, action: str, ply: int | None,
                 steps: list[str]) -> Plan[int]:
        """The rule of a person's decision and its gesture's further steps (see
        :meth:`act`), as the decisions to commit one after the other: the driver
        (:func:`commit_each`) commits each one yielded and throws a refusal
        back in here. Returns how many further steps were applied."""
        for attempt in range(3):
            self._check_present(table, seat)  # again after catching up: the seat may be a bot's now
            self._check_stale(table, seat, ply)
            try:
                yield action
                break
            except StorageConflict:
                # another process stored a decision at this move first (e.g. two
                # players choosing at once): the table caught up; try on it again
                if attempt == 2:
                    raise
        done = 0
        for step in steps:
            if not self._step_open(table, seat, step):
                break
            try:
                yield step
            except ServerError as exc:  # stored nothing: the steps before it stand
                log.info("a further step %r at table %s stopped: %s", step, table.id, exc)
                break
            done += 1
        return done

    @staticmethod
    def _check_request(seat: int | None, action: Any, ply: Any, then: Any) -> list[str]:
        """Refuse a malformed action request before anything changes; the further steps."""
        if seat is None:
            raise Forbidden("not_a_player", "spectators cannot act; open your seat link to play")
        if not isinstance(action, str) or not action or len(action) > MAX_ACTION:
            raise BadRequest("malformed", "an action must be a non-empty notation string")
        if ply is not None and (not isinstance(ply, int) or isinstance(ply, bool)):
            raise BadRequest("malformed", "ply must be the move number the action was chosen at")
        if then is None:
            return []
        if (not isinstance(then, list) or len(then) > MAX_THEN
                or not all(isinstance(s, str) and s and len(s) <= MAX_ACTION for s in then)):
            raise BadRequest("malformed", f"then must be a list of at most {MAX_THEN} further actions, "
                             f"each a non-empty notation string of at most {MAX_ACTION} characters")
        return list(then)

    @staticmethod
    def _step_open(table: LiveTable, seat: int, step: str) -> bool:
        """Whether a further step of a gesture is taken now: the game goes on,
        the same seat, still the person's own, is to act, and ``step`` is among
        its legal actions. Only what the seat's own view shows decides (the
        legal actions it would be offered, whose turn it is), so whether a step
        was applied tells nothing about anyone's hidden things; a step where
        another seat must act first (a reaction window, the next turn) stops."""
        state = table.state
        if (table.broken or table.expired or state.is_terminal() or table.waiting()
                or table.controller(seat) is not None or table.rec.seats[seat].get("sub")):
            return False
        return seat in state.players_to_act() and step in state.legal_actions(seat)

    @staticmethod
    def _check_present(table: LiveTable, seat: int) -> None:
        if table.rec.seats[seat].get("sub"):
            raise PositionConflict("substituted", "a bot plays your seat since you left; take it back "
                                   "first")

    @staticmethod
    def _check_stale(table: LiveTable, seat: int, ply: int | None) -> None:
        """``ply`` is the move number of the seat's view (``State.shown_ply``): the
        decisions the seat knows of, its own secret steps included."""
        if ply is None:
            return
        state = table.state
        history = state.history
        seen = history if not state.secret_steps else \
            [h for i, h in enumerate(history) if h[0] == seat or not state.is_secret_step(i)]
        if not 0 <= ply <= len(seen) or any(p == seat for p, _ in seen[ply:]):
            raise PositionConflict("stale", f"you have already decided since move {ply} (the table is at "
                                   f"move {len(seen)}); this action was not applied")

    def _commit(self, table: LiveTable, seat: int, action: str, decider: str | None = None) -> None:
        """Check, store, then apply one decision (all on the calling thread)."""
        decision = self._decide(table, seat, action, decider)
        self._settle(table, decision, self._write(table, decision))

    async def commit_async(self, table: LiveTable, seat: int, action: str,
                           decider: str | None = None) -> None:
        """:meth:`_commit` with the database write in a worker thread, so the event
        loop serves other tables while the commit reaches the disk or the
        database server (a quick write, ``Storage.writes_inline``, is made
        here). The table's lock (held by the caller) keeps every other change
        to it out meanwhile.

        The write is stored only if the table's row in storage is still what
        this process last saw of it (:attr:`LiveTable.seen`), so no read of it
        comes first: when another process changed the table meanwhile, nothing
        is stored, the table catches up and :class:`StorageConflict` is raised
        (the caller may decide again on the new position)."""
        decision = self._decide(table, seat, action, decider)
        written = (self._write(table, decision) if self.storage.writes_inline
                   else await asyncio.to_thread(self._write, table, decision))
        self._settle(table, decision, written)

    def _decide(self, table: LiveTable, seat: int, action: str, decider: str | None) -> "_Decision":
        """One decision checked (:meth:`_prepare`) and ready to store: what the
        write needs is read from the table here, on the event loop's thread."""
        trial, chosen = self._prepare(table, seat, action)
        return _Decision(seat, action, decider, trial, chosen, self.now(), table.rows,
                         table.stored_status(trial), table.seen)

    def _write(self, table: LiveTable, d: "_Decision") -> "_Written":
        """Store the decision (safe in a worker thread): None when stored, else the
        refusal, and what storage holds when the table fell behind it."""
        try:
            self._store(table, d.rows, d.seat, d.action, d.status, d.now, d.decider, d.seen)
        except StorageBehind as exc:
            return exc, self.fetch_changes(table)
        except StorageError as exc:
            return exc, None
        return None

    def _settle(self, table: LiveTable, d: "_Decision", written: "_Written") -> None:
        """After the write: the decision counts (the table changes now), or the
        refusal is raised once the table has caught up with storage."""
        if written is None:
            self._install(table, d.trial, d.chosen, d.now, d.decider)
            return
        exc, fetched = written
        if isinstance(exc, StorageBehind):
            self._caught_up(table, fetched)
        elif isinstance(exc, StorageConflict):
            self._resync(table)
        raise exc

    def _caught_up(self, table: LiveTable, fetched: tuple[Any, Any, Any, int] | None) -> None:
        """After a write refused because the table's row was not the one seen:
        apply what storage holds. When the row still does not match the stored
        decisions (e.g. a row written by an older version), the next write is
        made without that condition, as before it existed (the primary key
        still refuses a second decision at one move), and sets the row right."""
        self.apply_changes(table, fetched)
        if fetched is None or table.seen != fetched[0]:
            table.seen = None

    def _prepare(self, table: LiveTable, seat: int, action: str) -> tuple[State, list[int]]:
        """The table's state after the decision (a copy) and the has-chosen marks
        after it; the table itself does not change. Raises for a refused decision."""
        if table.broken:
            raise Conflict("broken", f"this table cannot continue: {table.broken}")
        if not table.expired and time.time() - table.touched > self.expire_after:
            table.expired = not table.state.is_terminal()
        if table.expired:
            raise Gone("expired", "this table was abandoned (nothing happened for too long)")
        state = table.state
        if state.is_terminal():
            raise PositionConflict("game_over", "the game is over")
        if table.waiting():
            raise PositionConflict("waiting", f"the game starts when every seat is taken "
                                   f"({len(table.open_seats())} still open)")
        if seat not in state.players_to_act():
            raise PositionConflict("not_your_turn", f"it is not your turn (seat {seat + 1})")
        trial = state.clone()
        before = table.chosen
        try:
            table._advance(trial, seat, action)
        except ThievesError as exc:
            raise PositionConflict("illegal", str(exc)) from None
        except Exception as exc:  # a bug in the game's code: refuse, keep the table as it was
            log.exception("the game failed on action %r at table %s", action, table.id)
            raise GameFailure("engine_error", f"the game could not apply {action!r} "
                              f"({type(exc).__name__}); nothing changed") from None
        finally:
            after, table.chosen = table.chosen, before
        return trial, after

    def _store(self, table: LiveTable, ply: int, seat: int, action: str, status: str, now: float,
               decider: str | None = None, seen: tuple[int, float] | None = None) -> None:
        """Commit one decision; raises :class:`StorageError` when it is not stored
        (:class:`StorageConflict` when another decision is stored at that move,
        :class:`StorageBehind` when the table's row is no longer ``seen``:
        another process changed it)."""
        try:
            stored = self.storage.add_action(table.id, ply, seat, action, status, now, decider, now, seen)
        except Exception as exc:  # a database failure: was the action stored or not?
            log.exception("storing an action failed")
            # The commit may have reached the database even though the call
            # failed (e.g. the connection broke while the commit was being
            # acknowledged). The stored rows are the truth: if this action is
            # there, it counts; otherwise nothing changed.
            try:
                found = self.storage.action_at(table.id, ply)
            except Exception:  # noqa: BLE001 - still unreachable: refuse
                found = None
            if found != [seat, action]:
                # another decision stored at this move (a conflict): another
                # process's (several servers on one database), or an earlier
                # commit whose answer was lost while the database was
                # unreachable. Storage is the truth: the caller catches up with it.
                kind = StorageError if found is None else StorageConflict
                raise kind(f"the action could not be stored, try again ({type(exc).__name__})") from None
            return
        if stored is False:  # the table changed in storage since this process last saw it
            raise StorageBehind("the table changed meanwhile; nothing was stored, try again")

    def _install(self, table: LiveTable, trial: State, chosen: list[int], now: float,
                 decider: str | None = None) -> None:
        if decider is not None:
            table.deciders[trial.ply - 1] = decider
        secret = len(trial.secret_steps) > len(table.state.secret_steps)
        table.note_step(trial.history[-1][0], secret)
        if not secret:  # a secret step is timed with the public step that ends it
            table.clock_step(trial, trial.history[-1][0], now)
        table.note_run(table.state, trial.history[-1][0])
        table.state = trial
        table.chosen = chosen
        table.version += 1
        table.touched = now
        table.rows += 1
        before = table.seen
        table.news = None
        if before is not None and before[0] == table.rows - 1:
            table.seen = (table.rows, now)  # what storage holds now, unless another process wrote too
            table.news = {"row": table.rows - 1, "player": trial.history[-1][0], "action": trial.history[-1][1],
                          "decider": decider, "before": list(before), "after": [table.rows, now],
                          "version": table.version}

    def apply_news(self, table: LiveTable, news: Any) -> bool:
        """Apply one decision another process stored and announced (its
        :attr:`LiveTable.news`) without reading storage. Only when it is the very
        next row after exactly what this process last saw of the table (same
        move number and time of last change, so nothing else was stored
        between), and the table has no clock (its times come from storage);
        False otherwise, and then the caller reads storage (:meth:`refresh_async`)."""
        if (not isinstance(news, dict) or table.broken or table.clock is not None or table.lock.locked()
                or table.seen is None or news.get("row") != table.rows
                or news.get("before") != list(table.seen)):
            return False
        player, action, decider, after = news.get("player"), news.get("action"), news.get("decider"), news.get("after")
        if (not isinstance(player, int) or not isinstance(action, str) or action.startswith(UNDO)
                or not (decider is None or isinstance(decider, str))
                or not (isinstance(after, list) and len(after) == 2 and after[0] == table.rows + 1
                        and isinstance(after[1], (int, float)))):
            return False
        try:
            state = table.step(table.state.clone(), player, action, None, decider)
        except ThievesError:
            return False  # storage decides (the caller reads it)
        table.state = state
        table.rows += 1
        table.seen = (int(after[0]), float(after[1]))
        table.news = None
        table.version += 1
        table.touched = time.time()
        return True

    def _resync(self, table: LiveTable) -> None:
        """Rebuild a table from its stored actions (when memory fell behind storage)."""
        log.warning("table %s was behind its storage: rebuilding it from the stored actions", table.id)
        state = table.game.new_game(table.rec.num_players, table.rec.seed, table.rec.options,
                                    rng=table.rec.rng)
        table.chosen = []
        table.deciders = {}
        table.undos = {}
        deciders = self.storage.deciders(table.id)
        times = table.clock_from_start(state, lambda: self.storage.action_times(table.id))
        rows = self.storage.load_actions(table.id)
        for i, (player, action) in enumerate(rows):
            state = table.step(state, int(player), action, times[i] if i < len(times) else None,
                               deciders.get(i))
        table.state = state
        table.rows = len(rows)
        table.version += 1
        mark = self.storage.mark(table.id)
        table.seen = mark if mark is not None and mark[0] == table.rows else None

    def quick_bot(self, table: LiveTable, seat: int) -> bool:
        """Whether the bot deciding for ``seat`` now reads only the legal actions
        (``reads_only_legal_actions``, the random bot): its choice is about as
        dear as listing them."""
        key = (table.rec.game, table.controller(seat) or "random")
        quick = self._quick_bots.get(key)
        if quick is None:
            try:
                quick = bool(getattr(make_bot(key[1], key[0], 0), "reads_only_legal_actions", False))
            except Exception:  # noqa: BLE001 - bot_choice logs it and plays the random bot
                quick = False
            self._quick_bots[key] = quick
        return quick

    def bot_choice(self, table: LiveTable, seat: int) -> tuple[int, str]:
        """The bot's decision, on a copy of the position for a bot that reads it
        (safe to run in a worker thread).

        A bot that crashes or answers something illegal is replaced for this
        one decision by the random bot (logged), so a bug in a bot never
        freezes a table where people are waiting.
        """
        # a bot that reads only the legal actions never sees the state: no copy
        # (it decides on the event loop, where nothing changes the table meanwhile)
        state = table.state if self.quick_bot(table, seat) else table.state.clone()
        ply = state.ply
        moment = table.rows  # the bot's choice counts only if no row was stored meanwhile
        seed = bot_seed(table.rec.seed, ply, seat)
        name = table.controller(seat) or "random"
        legal = state.legal_actions(seat)
        # A bot plays a seat like a person: it decides on a fair view (others'
        # secrets re-dealt, another future, no seed, only its own log lines).
        try:
            action = choose_fairly(make_bot(name, table.rec.game, seed), state, seat, seed, legal)
        except Exception:  # noqa: BLE001 - any bug in the bot
            log.exception("bot %s at table %s crashed; the random bot plays this move", name, table.id)
            action = None
        if action not in legal:
            if action is not None:
                log.error("bot %s at table %s chose %r, which is not legal; the random bot plays "
                          "this move", name, table.id, action)
            # the stand-in decides on a fair view too, never on the real position
            action = choose_fairly(make_bot("random", table.rec.game, seed), state, seat, seed)
        return moment, action

    def bot_commit(self, table: LiveTable, seat: int, ply: int, action: str) -> bool:
        """Apply a bot's decision if the table did not move meanwhile (and the seat
        is still a bot's: a player who took their seat back decides again).
        False when it was not applied: the bot decides again."""
        if not self._bot_may_commit(table, seat, ply):
            return False
        decider = _decider(table, seat)
        return commit_each(_unless_conflict(action), lambda a: self._commit(table, seat, a, decider))

    @staticmethod
    def _bot_may_commit(table: LiveTable, seat: int, ply: int) -> bool:
        return (table.rows == ply and table.bot_to_act() is not None
                and table.controller(seat) is not None and seat in table.state.players_to_act())

    async def bot_commit_async(self, table: LiveTable, seat: int, ply: int, action: str) -> bool:
        """:meth:`bot_commit` for the event loop (the write in a worker thread, under the table's lock)."""
        async with table.lock:
            if not self._bot_may_commit(table, seat, ply):
                return False
            decider = _decider(table, seat)
            return await commit_each_async(_unless_conflict(action),
                                           lambda a: self.commit_async(table, seat, a, decider))

    def answer_commit(self, table: LiveTable, seat: int, rows: int) -> bool:
        """Give the table's answer for ``seat`` (:meth:`LiveTable.answer_for`) if the
        table did not move since ``rows`` (the position the answer was waited for). It
        is stored as the seat's own decision: the others see what a person's same answer
        shows them, and the seat may take it back with its turn."""
        action = self._answer_now(table, seat, rows)
        if action is None:
            return False
        return commit_each(_unless_conflict(action), lambda a: self._commit(table, seat, a))

    async def answer_commit_async(self, table: LiveTable, seat: int, rows: int) -> bool:
        """:meth:`answer_commit` for the event loop (under the table's lock)."""
        async with table.lock:
            action = self._answer_now(table, seat, rows)
            if action is None:
                return False
            return await commit_each_async(_unless_conflict(action), lambda a: self.commit_async(table, seat, a))

    @staticmethod
    def _answer_now(table: LiveTable, seat: int, rows: int) -> str | None:
        if table.rows != rows:
            return None
        return table.answering(seat)

    def set_reactions(self, table: LiveTable, seat: int | None, off: Any) -> bool:
        """A player switches reactions to "not this round" (``off`` true) or back. Kept
        with the table's seat; no other seat's view changes (nothing is announced).
        Returns the setting now."""
        if seat is None:
            raise Forbidden("not_a_player", "spectators have no reactions to switch")
        if not isinstance(off, bool):
            raise BadRequest("bad_request", "off must be true or false")
        if not has_reactions(table.state):
            raise Conflict("no_reactions", "this game has no reactions to switch off")
        if table.state.is_terminal():
            raise PositionConflict("game_over", "the game is over")
        round_ = table.state.reaction_round()
        value: Any = (True if round_ is None else round_) if off else None
        self._set_seat(table, seat, {REACTIONS_OFF: value}, public=False)
        return off

    def play_bots_now(self, table: LiveTable, limit: int = 100_000) -> int:
        """Let bots play, and the table give its answers, synchronously until a
        person must act (no delay)."""
        n = missed = 0
        while n < limit and missed < 3:
            seat = table.bot_to_act()
            if seat is None:
                answered = table.seat_to_answer()
                if answered is None:
                    break
                missed = 0 if self.answer_commit(table, answered, table.rows) else missed + 1
                n += 1
                continue
            try:
                ply, action = self.bot_choice(table, seat)
                missed = 0 if self.bot_commit(table, seat, ply, action) else missed + 1
            except Exception:  # noqa: BLE001 - a bot's failure is never a person's error
                log.exception("bot at table %s failed", table.id)
                break
            n += 1
        return n


T = TypeVar("T")
#: a rule over several decisions (:meth:`TableManager._gesture`): it yields each
#: decision to commit, is thrown a refusal back in, and returns its result
Plan = Generator[str, None, T]


def commit_each(plan: Plan[T], commit: Callable[[str], None]) -> T:
    """Run a plan: commit each decision it yields (on this thread), throw a
    refusal back into it; returns what the plan returns."""
    try:
        decision = next(plan)
        while True:
            try:
                commit(decision)
            except ServerError as exc:
                decision = plan.throw(exc)
            else:
                decision = plan.send(None)
    except StopIteration as end:
        return end.value  # type: ignore[no-any-return]


async def commit_each_async(plan: Plan[T], commit: Callable[[str], Awaitable[None]]) -> T:
    """:func:`commit_each` with each commit awaited (the write in a worker thread)."""
    try:
        decision = next(plan)
        while True:
            try:
                await commit(decision)
            except ServerError as exc:
                decision = plan.throw(exc)
            else:
                decision = plan.send(None)
    except StopIteration as end:
        return end.value  # type: ignore[no-any-return]


def _unless_conflict(action: str) -> Plan[bool]:
    """One decision of the table's own (a bot's, an answer): True when stored,
    False when another process's decision came first (the table caught up
    with storage: it is decided again)."""
    try:
        yield action
    except StorageConflict:
        return False
    return True


class _Decision(NamedTuple):
    """A checked decision, and what its write needs (:meth:`TableManager._decide`)."""

    seat: int
    action: str
    decider: str | None
    trial: State
    chosen: list[int]
    now: float
    rows: int
    status: str
    seen: tuple[int, float] | None


#: the outcome of a write (:meth:`TableManager._write`): None when stored, else
#: the refusal and what storage holds when the table fell behind it
_Written: TypeAlias = "tuple[StorageError, tuple[Any, Any, Any, int] | None] | None"


def has_reactions(state: State) -> bool:
    """Whether the game has reaction windows (it names the answer that lets one go by)."""
    return type(state).reaction_pass is not State.reaction_pass


def _decider(table: LiveTable, seat: int) -> str | None:
    """What is stored beside a bot's decision: "sub:<bot>" when it stands in for a person."""
    s = table.rec.seats[seat]
    return f"sub:{s['sub']}" if s["kind"] == "human" and s.get("sub") else None


def bot_seed(table_seed: int, ply: int, seat: int) -> int:
    """A bot's seed for one decision: a keyed hash of the table's seed, so
    whatever a bot's play may reveal of its own seed says nothing of the table's."""
    digest = hashlib.blake2b(f"{ply}:{seat}".encode("ascii"), digest_size=8,
                             key=hashlib.blake2b(str(table_seed).encode("ascii"), digest_size=32).digest())
    return int.from_bytes(digest.digest(), "little") & _MASK63
