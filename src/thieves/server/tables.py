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
import re
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from ..bots import bot_names, make_bot
from ..core.errors import ThievesError
from ..core.game import Game, State
from ..core.registry import GAME_MODULES, load_game
from .i18n import LANGS, bot_label, ui
from .storage import Storage, TableRecord, token_digest

log = logging.getLogger("thieves.server")

_MASK63 = (1 << 63) - 1
#: bits of a new table's seed (secrets.randbits)
SEED_BITS = 128
NAME_RE = re.compile(r"[^\w .'\-]", re.UNICODE)


_warned: set[str] = set()


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


class ServerError(ThievesError):
    """An error told to one client; ``code`` is stable, ``status`` the HTTP status."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.status = status
        #: seconds to wait before trying again (sent as Retry-After), for 429 and 503
        self.retry_after: int | None = None


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
    #: grows with every change anyone can see (an action, a seat taken)
    version: int = 0
    #: time.time() of the last stored change
    touched: float = field(default_factory=time.time)
    #: abandoned: nothing changed for longer than the server's expiry time
    expired: bool = False
    #: held while a change to this table is being stored (the write runs in a worker thread)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    #: (move number, time of last change) as last stored or read by this process
    seen: tuple[int, float] | None = None

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

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token opens; None for no token. Raises for a wrong token."""
        if token is None or token == "":
            return None
        if not isinstance(token, str) or len(token) > 200:
            raise ServerError("bad_token", "this seat link is not valid (unknown or expired)", 403)
        digest = token_digest(token)
        for seat, d in self.digests.items():
            if secrets.compare_digest(d, digest):
                return seat
        raise ServerError("bad_token", "this seat link is not valid (unknown or expired)", 403)

    def bot_to_act(self) -> int | None:
        if self.broken or self.expired or self.state.is_terminal():
            return None
        for p in self.state.players_to_act():
            if self.rec.seats[p]["kind"] == "bot":
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
        state.apply_action(player, action)
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

    def __init__(self, storage: Storage, open_tables: int = 0, expire_after: float = float("inf")) -> None:
        self.storage = storage
        self.tables: dict[str, LiveTable] = {}
        #: most tables not finished on the site (0: no limit)
        self.open_tables = open_tables
        #: seconds without a change after which a table not finished is abandoned
        self.expire_after = expire_after

    # -- loading -------------------------------------------------------------------
    def load_all(self) -> None:
        """Load the tables in play (not finished, not abandoned) at start."""
        for table_id in self.storage.live_ids(time.time() - self.expire_after):
            self.load(table_id)

    def load(self, table_id: str) -> LiveTable | None:
        """Read one table from storage and replay its actions (None: no such table)."""
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
        for i, (player, action) in enumerate(actions):
            try:
                table._advance(state, int(player), action)
            except ThievesError as exc:
                # the public message never names the move nor the engine's
                # reason: either may be a secret choice; the log has both
                table.broken = (f"stored move {i + 1} no longer replays with this version "
                                f"of the game")
                log.error("table %s: stored action %d (%r by seat %s) no longer replays: %s",
                          rec.id, i + 1, action, player, exc)
                break
        table.touched = self.storage.touched(rec.id) or rec.created
        mark = self.storage.mark(rec.id)
        table.seen = mark if mark is not None and mark[0] == state.ply else None
        table.expired = not state.is_terminal() and time.time() - table.touched > self.expire_after
        status = table.stored_status(state)
        try:  # rows of older versions learn their status here
            self.storage.set_status(rec.id, status, state.ply)
        except Exception:  # noqa: BLE001 - only a cache for the lobby
            log.exception("could not store the status of table %s", rec.id)
        self.tables[rec.id] = table
        return table

    def unload(self, table_id: str) -> None:
        self.tables.pop(table_id, None)

    def refresh(self, table: LiveTable) -> bool:
        """Catch up with what other processes stored (seats taken, actions);
        True when something changed. Storage is the truth."""
        return self.apply_changes(table, self.fetch_changes(table))

    async def refresh_async(self, table: LiveTable) -> bool:
        """:meth:`refresh` with the database reads in a worker thread."""
        return self.apply_changes(table, await asyncio.to_thread(self.fetch_changes, table))

    def fetch_changes(self, table: LiveTable) -> tuple[Any, Any] | None:
        """What another process stored since this one last looked (None: nothing);
        one indexed read when nothing changed. Safe in a worker thread."""
        mark = self.storage.mark(table.id)
        if mark is None or mark == table.seen:
            return None
        return mark, self.storage.changes_since(table.id, table.state.ply)

    def apply_changes(self, table: LiveTable, fetched: tuple[Any, Any] | None) -> bool:
        if fetched is None or fetched[1] is None:
            return False
        mark, (seats, digests, actions) = fetched
        changed = False
        if digests != table.digests or seats != table.rec.seats:
            table.digests = digests
            table.rec.seats = seats
            changed = True
        if actions and not table.broken:
            state = table.state.clone()
            try:
                for player, action in actions:
                    table._advance(state, int(player), action)
            except ThievesError:
                log.warning("table %s: another process stored moves this one cannot follow", table.id)
                self._resync(table)
                return True
            table.state = state
            changed = True
        if table.state.ply == mark[0]:
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
            raise ServerError("unknown_table", f"there is no table {table_id!r}", 404)
        return table

    # -- creating and joining --------------------------------------------------------
    def create(self, slug: Any, num_players: Any, seats: Any, options: Any = None,
               lang: str = "en", seed: int | None = None) -> tuple[LiveTable, dict[int, str]]:
        """Create a table. ``seats``: one dict per seat, ``{"kind": "human"|"open"|"bot",
        "bot": name, "name": str}``; "human" seats are claimed now and their tokens returned."""
        if slug not in playable_games():
            raise ServerError("unknown_game", f"there is no game {slug!r} on this server", 404)
        game = load_game(slug)
        if not isinstance(num_players, int) or isinstance(num_players, bool):
            raise ServerError("bad_request", "the number of players must be an integer")
        if not isinstance(seats, list) or len(seats) != num_players:
            raise ServerError("bad_request", f"give exactly one seat description per player ({num_players})")
        options = {} if options is None else dict(options) if isinstance(options, dict) else None
        if options is None:
            raise ServerError("bad_request", "options must be a mapping of name to value")
        if "data_dir" in options:
            # a path on the server's disk is not for web users to choose
            raise ServerError("bad_request", "the data_dir option cannot be set from the web")
        if self.open_tables > 0:
            live = _stored("the tables could not be counted", self.storage.count_live,
                           time.time() - self.expire_after)
            if live >= self.open_tables:
                exc = ServerError("rate_limited", f"this server already has {live} tables in play; "
                                  "try again later", 429)
                exc.retry_after = 60
                raise exc
        if seed is None:
            # 128 bits from the operating system's secure source, and a keyed
            # generator: what people see of a table cannot be searched back
            # to its seed, so hidden cards stay hidden (docs/server.md)
            seed = secrets.randbits(SEED_BITS)
        try:
            state = game.new_game(num_players, seed, options, rng="keyed")
        except ThievesError as exc:
            raise ServerError("bad_setup", str(exc)) from None
        bots = bot_names(slug)
        specs: list[dict[str, Any]] = []
        claim: list[int] = []
        for i, s in enumerate(seats):
            if not isinstance(s, dict) or s.get("kind") not in ("human", "open", "bot"):
                raise ServerError("bad_request", f"seat {i + 1}: kind must be human, open or bot")
            if s["kind"] == "bot":
                bot = s.get("bot") or "random"
                if bot not in bots:
                    raise ServerError("bad_request", f"seat {i + 1}: no bot {bot!r}; bots are {', '.join(bots)}")
                specs.append({"kind": "bot", "bot": bot, "name": f"{bot.title()} bot {i + 1}"})
            else:
                specs.append({"kind": "human", "bot": None,
                              "name": clean_name(s.get("name"), f"Player {i + 1}")})
                if s["kind"] == "human":
                    claim.append(i)
        lang = lang if lang in LANGS else "en"
        table_id = secrets.token_urlsafe(9)  # 72 bits: tables cannot be found by guessing
        rec = TableRecord(table_id, slug, num_players, seed,
                          {k: v for k, v in state.options.items() if v is not None}, specs, lang,
                          time.time(), "keyed")
        # the table and its creator's seats are stored in one transaction:
        # a failed write leaves neither a table nor a half-claimed one
        tokens = {i: secrets.token_urlsafe(24) for i in claim}  # 192 random bits each
        table = LiveTable(rec, game, state, {i: token_digest(t) for i, t in tokens.items()})
        _stored("the table could not be stored", self.storage.add_table, rec,
                [(i, tokens[i], specs[i]["name"]) for i in claim], table.stored_status(state))
        self.tables[table_id] = table
        return table, tokens

    def claim(self, table_id: str, seat: Any, name: Any = None) -> tuple[LiveTable, str]:
        """Take an open seat; returns its new secret token."""
        table = self.get(table_id)
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < table.rec.num_players:
            raise ServerError("bad_seat", f"there is no seat {seat!r} at this table")
        spec = table.rec.seats[seat]
        if spec["kind"] != "human":
            raise ServerError("seat_taken", f"seat {seat + 1} is played by a bot", 409)
        if seat in table.digests:
            raise ServerError("seat_taken", f"seat {seat + 1} is already taken", 409)
        if table.state.is_terminal():
            raise ServerError("game_over", "the game is over", 409)
        seats = [dict(x) for x in table.rec.seats]
        seats[seat]["name"] = clean_name(name, spec["name"])
        token = secrets.token_urlsafe(24)  # 192 random bits
        # stored first (one transaction); only then does the seat change here
        status = table.stored_status(table.state, {**table.digests, seat: token_digest(token)})
        now = time.time()
        _stored("the seat could not be stored", self.storage.claim_seat, table.id, seat, token,
                seats[seat]["name"], seats, status, now)
        if table.seen is not None and table.seen[0] == table.state.ply:
            table.seen = (table.state.ply, now)
        table.rec.seats = seats
        table.digests[seat] = token_digest(token)
        table.version += 1
        table.touched = time.time()
        return table, token

    # -- playing ---------------------------------------------------------------------
    def act(self, table: LiveTable, seat: int | None, action: Any, ply: Any = None) -> None:
        """Apply a person's action for ``seat``; it is stored before it counts.

        ``ply`` (optional) is the move number the client saw when it chose:
        if this seat has made a decision since then, the action is refused
        (``stale``), so a message sent twice (a double click, a resend after
        a lost answer) is never applied twice. Other seats' decisions in the
        meantime do not make it stale: during simultaneous secret choices
        everyone chooses from the same position.
        """
        if seat is None:
            raise ServerError("not_a_player", "spectators cannot act; open your seat link to play", 403)
        if not isinstance(action, str) or not action or len(action) > 200:
            raise ServerError("malformed", "an action must be a non-empty notation string")
        if ply is not None and (not isinstance(ply, int) or isinstance(ply, bool)):
            raise ServerError("malformed", "ply must be the move number the action was chosen at")
        for attempt in range(3):
            self._check_stale(table, seat, ply)
            try:
                self._commit(table, seat, action)
                return
            except ServerError as exc:
                # another process stored a decision at this move first (e.g. two
                # players choosing at once): the table caught up; try on it again
                if not getattr(exc, "conflict", False) or attempt == 2:
                    raise

    async def act_async(self, table: LiveTable, seat: int | None, action: Any, ply: Any = None) -> None:
        """:meth:`act` for the event loop: the write happens in a worker thread
        under the table's lock, so other tables go on meanwhile."""
        if seat is None:
            raise ServerError("not_a_player", "spectators cannot act; open your seat link to play", 403)
        if not isinstance(action, str) or not action or len(action) > 200:
            raise ServerError("malformed", "an action must be a non-empty notation string")
        if ply is not None and (not isinstance(ply, int) or isinstance(ply, bool)):
            raise ServerError("malformed", "ply must be the move number the action was chosen at")
        async with table.lock:
            for attempt in range(3):
                self._check_stale(table, seat, ply)
                try:
                    await self.commit_async(table, seat, action)
                    return
                except ServerError as exc:
                    if not getattr(exc, "conflict", False) or attempt == 2:
                        raise

    @staticmethod
    def _check_stale(table: LiveTable, seat: int, ply: int | None) -> None:
        if ply is None:
            return
        history = table.state.history
        if not 0 <= ply <= len(history) or any(p == seat for p, _ in history[ply:]):
            raise ServerError("stale", f"you have already decided since move {ply} (the table is at "
                              f"move {len(history)}); this action was not applied", 409)

    def _commit(self, table: LiveTable, seat: int, action: str) -> None:
        """Check, store, then apply one decision (all on the calling thread)."""
        trial, chosen = self._prepare(table, seat, action)
        now = time.time()
        try:
            self._store(table, table.state.ply, seat, action, table.stored_status(trial), now)
        except ServerError as exc:
            if getattr(exc, "conflict", False):
                self._resync(table)
            raise
        self._install(table, trial, chosen, now)

    async def commit_async(self, table: LiveTable, seat: int, action: str) -> None:
        """:meth:`_commit` with the database write in a worker thread, so the event
        loop serves other tables while the commit reaches the disk. The table's
        lock (held by the caller) keeps every other change to it out meanwhile."""
        trial, chosen = self._prepare(table, seat, action)
        now = time.time()
        try:
            await asyncio.to_thread(self._store, table, table.state.ply, seat, action,
                                    table.stored_status(trial), now)
        except ServerError as exc:
            if getattr(exc, "conflict", False):
                self._resync(table)
            raise
        self._install(table, trial, chosen, now)

    def _prepare(self, table: LiveTable, seat: int, action: str) -> tuple[State, list[int]]:
        """The table's state after the decision (a copy) and the has-chosen marks
        after it; the table itself does not change. Raises for a refused decision."""
        if table.broken:
            raise ServerError("broken", f"this table cannot continue: {table.broken}", 409)
        if not table.expired and time.time() - table.touched > self.expire_after:
            table.expired = not table.state.is_terminal()
        if table.expired:
            raise ServerError("expired", "this table was abandoned (nothing happened for too long)", 410)
        state = table.state
        if state.is_terminal():
            raise ServerError("game_over", "the game is over", 409)
        if seat not in state.players_to_act():
            raise ServerError("not_your_turn", f"it is not your turn (seat {seat + 1})", 409)
        trial = state.clone()
        before = table.chosen
        try:
            table._advance(trial, seat, action)
        except ThievesError as exc:
            raise ServerError("illegal", str(exc), 409) from None
        except Exception as exc:  # a bug in the game's code: refuse, keep the table as it was
            log.exception("the game failed on action %r at table %s", action, table.id)
            raise ServerError("engine_error", f"the game could not apply {action!r} "
                              f"({type(exc).__name__}); nothing changed", 500) from None
        finally:
            after, table.chosen = table.chosen, before
        return trial, after

    def _store(self, table: LiveTable, ply: int, seat: int, action: str, status: str, now: float) -> None:
        """Commit one decision; raises ``storage`` (``conflict`` set when another
        decision is stored at that move) when it is not stored."""
        try:
            self.storage.add_action(table.id, ply, seat, action, status, now)
        except Exception as exc:  # a database failure: was the action stored or not?
            log.exception("storing an action failed")
            # The commit may have reached the database even though the call
            # failed (e.g. the connection broke while the commit was being
            # acknowledged). The stored rows are the truth: if this action is
            # there, it counts; otherwise nothing changed.
            try:
                stored = self.storage.action_at(table.id, ply)
            except Exception:  # noqa: BLE001 - still unreachable: refuse
                stored = None
            if stored != [seat, action]:
                err = ServerError("storage", f"the action could not be stored, try again "
                                  f"({type(exc).__name__})", 503)
                # another decision stored at this move: another process's
                # (several servers on one database), or an earlier commit
                # whose answer was lost while the database was unreachable.
                # Storage is the truth: the caller catches up with it.
                err.conflict = stored is not None  # type: ignore[attr-defined]
                raise err from None

    def _install(self, table: LiveTable, trial: State, chosen: list[int], now: float) -> None:
        table.state = trial
        table.chosen = chosen
        table.version += 1
        table.touched = now
        if table.seen is not None and table.seen[0] == trial.ply - 1:
            table.seen = (trial.ply, now)  # what storage holds now, unless another process wrote too

    def _resync(self, table: LiveTable) -> None:
        """Rebuild a table from its stored actions (when memory fell behind storage)."""
        log.warning("table %s was behind its storage: rebuilding it from the stored actions", table.id)
        state = table.game.new_game(table.rec.num_players, table.rec.seed, table.rec.options,
                                    rng=table.rec.rng)
        table.chosen = []
        for player, action in self.storage.load_actions(table.id):
            table._advance(state, int(player), action)
        table.state = state
        table.version += 1

    def bot_choice(self, table: LiveTable, seat: int) -> tuple[int, str]:
        """The bot's decision on a copy (safe to run in a worker thread).

        A bot that crashes or answers something illegal is replaced for this
        one decision by the random bot (logged), so a bug in a bot never
        freezes a table where people are waiting.
        """
        state = table.state.clone()
        ply = state.ply
        seed = bot_seed(table.rec.seed, ply, seat)
        name = table.rec.seats[seat]["bot"]
        legal = state.legal_actions(seat)
        # A bot plays a seat like a person: it gets a copy in which what its
        # seat may not know is re-dealt (``determinize``), so it cannot read
        # the others' secrets. If the game's re-deal would change this
        # seat's own options, the plain copy is used instead.
        view = state.clone()
        try:
            dealt = state.determinize(seat, seed)
            if dealt.legal_actions(seat) == legal and dealt.observation(seat) == state.observation(seat):
                view = dealt
        except Exception:  # noqa: BLE001 - a game's bug: play on the plain copy
            log.exception("determinize of %s failed", table.rec.game)
        try:
            action = make_bot(name, table.rec.game, seed).choose(view, seat)
        except Exception:  # noqa: BLE001 - any bug in the bot
            log.exception("bot %s at table %s crashed; the random bot plays this move", name, table.id)
            action = None
        if action not in legal:
            if action is not None:
                log.error("bot %s at table %s chose %r, which is not legal; the random bot plays "
                          "this move", name, table.id, action)
            action = make_bot("random", table.rec.game, seed).choose(state, seat)
        return ply, action

    def bot_commit(self, table: LiveTable, seat: int, ply: int, action: str) -> bool:
        """Apply a bot's decision if the table did not move meanwhile."""
        if table.state.ply != ply or table.bot_to_act() is None or seat not in table.state.players_to_act():
            return False
        self._commit(table, seat, action)
        return True

    async def bot_commit_async(self, table: LiveTable, seat: int, ply: int, action: str) -> bool:
        """:meth:`bot_commit` for the event loop (the write in a worker thread, under the table's lock)."""
        async with table.lock:
            if table.state.ply != ply or table.bot_to_act() is None or seat not in table.state.players_to_act():
                return False
            await self.commit_async(table, seat, action)
            return True

    def play_bots_now(self, table: LiveTable, limit: int = 100_000) -> int:
        """Let bots play synchronously until a person must act (no delay)."""
        n = 0
        while n < limit:
            seat = table.bot_to_act()
            if seat is None:
                break
            try:
                ply, action = self.bot_choice(table, seat)
                self.bot_commit(table, seat, ply, action)
            except Exception:  # noqa: BLE001 - a bot's failure is never a person's error
                log.exception("bot at table %s failed", table.id)
                break
            n += 1
        return n


def bot_seed(table_seed: int, ply: int, seat: int) -> int:
    """A bot's seed for one decision: a keyed hash of the table's seed, so
    whatever a bot's play may reveal of its own seed says nothing of the table's."""
    digest = hashlib.blake2b(f"{ply}:{seat}".encode("ascii"), digest_size=8,
                             key=hashlib.blake2b(str(table_seed).encode("ascii"), digest_size=32).digest())
    return int.from_bytes(digest.digest(), "little") & _MASK63


def _stored(what: str, fn: Any, *args: Any) -> Any:
    """Run a storage call; a failure becomes a ``storage`` error (HTTP 503)."""
    try:
        return fn(*args)
    except Exception as exc:  # noqa: BLE001 - any database failure
        log.exception("%s", what)
        raise ServerError("storage", f"{what}, try again ({type(exc).__name__})", 503) from None
