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
from .i18n import LANGS
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
                    table.broken = f"stored action {i + 1} ({action!r}) no longer replays: {exc}"
                    log.error("table %s: %s", rec.id, table.broken)
                    break
            self.tables[rec.id] = table

    # -- lookups ---------------------------------------------------------------------
    def get(self, table_id: str) -> LiveTable:
        table = self.tables.get(table_id) if isinstance(table_id, str) else None
        if table is None:
            raise ServerError("unknown_table", f"there is no table {table_id!r}", 404)
        return table

    # -- creating and joining --------------------------------------------------------
    def create(self, slug: str, num_players: Any, seats: Any, options: Any = None,
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
        options = dict(options or {}) if isinstance(options, dict) else None
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
        self.storage.add_table(rec)
        table = LiveTable(rec, game, state)
        self.tables[table_id] = table
        tokens = {i: self._claim(table, i, specs[i]["name"]) for i in claim}
        return table, tokens

    def _claim(self, table: LiveTable, seat: int, name: str) -> str:
        token = secrets.token_urlsafe(24)  # 192 random bits
        self.storage.claim_seat(table.id, seat, token, name)
        table.digests[seat] = token_digest(token)
        return token

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
        spec["name"] = clean_name(name, spec["name"])
        self.storage.update_seats(table.id, table.rec.seats)
        return table, self._claim(table, seat, spec["name"])

    # -- playing ---------------------------------------------------------------------
    def act(self, table: LiveTable, seat: int | None, action: Any) -> None:
        """Apply a person's action for ``seat``; it is stored before it counts."""
        if seat is None:
            raise ServerError("not_a_player", "spectators cannot act; open your seat link to play", 403)
        if not isinstance(action, str) or not action or len(action) > 200:
            raise ServerError("malformed", "an action must be a non-empty notation string")
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
        except Exception as exc:  # a database failure: the action was not accepted
            table.chosen = chosen
            log.exception("storing an action failed")
            raise ServerError("storage", f"the action could not be stored, try again ({type(exc).__name__})",
                              503) from None
        table.state = trial

    def bot_choice(self, table: LiveTable, seat: int) -> tuple[int, str]:
        """The bot's decision on a copy (safe to run in a worker thread)."""
        state = table.state.clone()
        ply = state.ply
        seed = (table.rec.seed * 1_000_003 + ply * 7919 + seat) & _MASK63
        bot = make_bot(table.rec.seats[seat]["bot"], table.rec.game, seed)
        return ply, bot.choose(state, seat)

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
            ply, action = self.bot_choice(table, seat)
            self.bot_commit(table, seat, ply, action)
            n += 1
        return n
