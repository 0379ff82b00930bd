"""Live tables: game states in memory, every accepted action stored first.

All changes happen on the event-loop thread with no ``await`` between the
legality check, the database commit and the state change, so two clients
can never interleave inside one action. An action is checked on a clone,
stored (committed), and only then does the clone become the table's state:
if storing fails, nothing changed.
"""
from __future__ import annotations

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

    @property
    def id(self) -> str:
        return self.rec.id

    def status(self) -> str:
        if self.state.is_terminal():
            return "finished"
        if any(s["kind"] == "human" and i not in self.digests for i, s in enumerate(self.rec.seats)):
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
        if self.broken or self.state.is_terminal():
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
    """Every table of the server, rebuilt from storage at start."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.tables: dict[str, LiveTable] = {}

    # -- loading -------------------------------------------------------------------
    def load_all(self) -> None:
        digests = self.storage.all_seat_digests()
        actions = self.storage.all_actions()
        for rec in self.storage.load_tables():
            try:
                game = load_game(rec.game)
                state = game.new_game(rec.num_players, rec.seed, rec.options)
            except Exception as exc:  # noqa: BLE001 - the game is gone or broken
                log.warning("table %s cannot be loaded: %s", rec.id, exc)
                continue
            table = LiveTable(rec, game, state, digests.get(rec.id, {}))
            for i, (player, action) in enumerate(actions.get(rec.id, [])):
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
            self.tables[rec.id] = table

    # -- lookups ---------------------------------------------------------------------
    def get(self, table_id: str) -> LiveTable:
        table = self.tables.get(table_id) if isinstance(table_id, str) else None
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
        if seed is None:
            seed = secrets.randbelow(1 << 31)
        try:
            state = game.new_game(num_players, seed, options)
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
        table_id = secrets.token_urlsafe(6)
        while table_id in self.tables:
            table_id = secrets.token_urlsafe(6)
        rec = TableRecord(table_id, slug, num_players, seed,
                          {k: v for k, v in state.options.items() if v is not None}, specs, lang,
                          time.time())
        # the table and its creator's seats are stored in one transaction:
        # a failed write leaves neither a table nor a half-claimed one
        tokens = {i: secrets.token_urlsafe(24) for i in claim}  # 192 random bits each
        _stored("the table could not be stored", self.storage.add_table, rec,
                [(i, tokens[i], specs[i]["name"]) for i in claim])
        table = LiveTable(rec, game, state, {i: token_digest(t) for i, t in tokens.items()})
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
        _stored("the seat could not be stored", self.storage.claim_seat, table.id, seat, token,
                seats[seat]["name"], seats)
        table.rec.seats = seats
        table.digests[seat] = token_digest(token)
        table.version += 1
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
        if ply is not None:
            if not isinstance(ply, int) or isinstance(ply, bool):
                raise ServerError("malformed", "ply must be the move number the action was chosen at")
            history = table.state.history
            if not 0 <= ply <= len(history) or any(p == seat for p, _ in history[ply:]):
                raise ServerError("stale", f"you have already decided since move {ply} (the table is at "
                                  f"move {len(history)}); this action was not applied", 409)
        self._commit(table, seat, action)

    def _commit(self, table: LiveTable, seat: int, action: str) -> None:
        if table.broken:
            raise ServerError("broken", f"this table cannot continue: {table.broken}", 409)
        state = table.state
        if state.is_terminal():
            raise ServerError("game_over", "the game is over", 409)
        if seat not in state.players_to_act():
            raise ServerError("not_your_turn", f"it is not your turn (seat {seat + 1})", 409)
        trial = state.clone()
        chosen = list(table.chosen)
        try:
            table._advance(trial, seat, action)
        except ThievesError as exc:
            table.chosen = chosen
            raise ServerError("illegal", str(exc), 409) from None
        except Exception as exc:  # a bug in the game's code: refuse, keep the table as it was
            table.chosen = chosen
            log.exception("the game failed on action %r at table %s", action, table.id)
            raise ServerError("engine_error", f"the game could not apply {action!r} "
                              f"({type(exc).__name__}); nothing changed", 500) from None
        try:
            self.storage.add_action(table.id, state.ply, seat, action)
        except Exception as exc:  # a database failure: was the action stored or not?
            log.exception("storing an action failed")
            # The commit may have reached the database even though the call
            # failed (e.g. the connection broke while the commit was being
            # acknowledged). The stored rows are the truth: if this action is
            # there, it counts; otherwise nothing changed.
            try:
                stored = self.storage.action_at(table.id, state.ply)
            except Exception:  # noqa: BLE001 - still unreachable: refuse
                stored = None
            if stored != [seat, action]:
                table.chosen = chosen
                if stored is not None:
                    # another decision is stored at this move: an earlier
                    # commit whose answer was lost while the database was
                    # unreachable. Storage is the truth: catch up with it.
                    self._resync(table)
                raise ServerError("storage", f"the action could not be stored, try again "
                                  f"({type(exc).__name__})", 503) from None
        table.state = trial
        table.version += 1

    def _resync(self, table: LiveTable) -> None:
        """Rebuild a table from its stored actions (when memory fell behind storage)."""
        log.warning("table %s was behind its storage: rebuilding it from the stored actions", table.id)
        state = table.game.new_game(table.rec.num_players, table.rec.seed, table.rec.options)
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
        seed = (table.rec.seed * 1_000_003 + ply * 7919 + seat) & _MASK63
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


def _stored(what: str, fn: Any, *args: Any) -> None:
    """Run a storage call; a failure becomes a ``storage`` error (HTTP 503)."""
    try:
        fn(*args)
    except Exception as exc:  # noqa: BLE001 - any database failure
        log.exception("%s", what)
        raise ServerError("storage", f"{what}, try again ({type(exc).__name__})", 503) from None
