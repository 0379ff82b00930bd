"""What the lobby shows and reads: the games with their options in words,
the tables (live or stored) as summaries, the time controls, and the
lobby form turned into seats and options.
"""
from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from ..bots import bot_names
from ..core.game import Option
from ..core.registry import load_game
from .errors import BadRequest
from .i18n import bot_label, game_text, ui
from .tables import LiveTable, playable_games
from .views import game_name

if TYPE_CHECKING:
    from .platform import Platform


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


def stored_summary(platform: Platform, row: dict[str, Any], lang: str) -> dict[str, Any]:
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


def lobby_tables(platform: Platform, lang: str, status: str | None = None,
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


def form_setup(slug: str, players: int, form: dict[str, str]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
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
