"""What one viewer of a table may see, built only from ``observation(viewer)``.

Everything sent to a browser comes from here. The board, the log, the
prompt and every other field are drawn from the observation of the viewer
(a seat, or ``None`` for spectators); the legal actions are the viewer's
own; final scores and winners only once the game is over.
"""
from __future__ import annotations

import html
import importlib
import logging
import re
from types import ModuleType
from typing import Any, Callable

from ..core.game import State
from ..core.registry import GAME_MODULES, load_game
from ..core.replay import Replay
from .i18n import bot_label, game_text
from .tables import LiveTable, ServerError

log = logging.getLogger("thieves.server")

_render_cache: dict[str, ModuleType | None] = {}


def render_module(slug: str) -> ModuleType | None:
    """The game's ``render`` module, or None when it has none yet."""
    if slug not in _render_cache:
        module = None
        base = GAME_MODULES.get(slug)
        if base:
            try:
                module = importlib.import_module(base + ".render")
            except ModuleNotFoundError as exc:
                if not (exc.name and (base + ".render").startswith(exc.name)):
                    log.exception("render module of %s failed to import", slug)
            except Exception:  # a broken render module must not take the server down
                log.exception("render module of %s failed to import", slug)
        _render_cache[slug] = module
    return _render_cache[slug]


def game_name(slug: str, lang: str) -> str:
    return game_text(slug, lang, "name") or load_game(slug).name


def _svg(slug: str, obs: dict[str, Any], lang: str) -> str | None:
    mod = render_module(slug)
    fn = getattr(mod, "render_svg", None) if mod else None
    if fn is None:
        return None
    try:
        svg: str | None = fn(obs, lang)
        return svg
    except Exception:
        log.exception("render_svg of %s failed; showing the generic view", slug)
        return None


def _hook(slug: str, name: str) -> Any:
    mod = render_module(slug)
    return getattr(mod, name, None) if mod else None


def _translate_log(slug: str, lines: list[str], lang: str) -> list[str]:
    fn = _hook(slug, "translate_event")
    if fn is None or lang == "en":
        return lines
    out = []
    for line in lines:
        try:
            out.append(fn(line, lang))
        except Exception:
            out.append(line)
    return out



def _literal(text: str) -> Callable[[re.Match[str]], str]:
    """A replacement that inserts ``text`` as it is (no backslash escapes)."""
    return lambda _m: text

def seat_names(table: LiveTable, state: State, lines: list[str], markup: bool = False,
               lang: str = "en") -> list[str]:
    """Put the table's seat names in place of the engine's "Player N"
    (``markup``: the lines are SVG, so the names are escaped). A game that
    names its players itself (e.g. by pawn colour) keeps its names: they
    match its board, and the player panels show them beside the seat names."""
    subs = []
    names = table.display_names(lang)
    for p in range(state.num_players - 1, -1, -1):  # "Player 10" before "Player 1"
        generic = state.player_name(p)
        name = names[p]
        if generic == f"Player {p + 1}" and generic != name:
            subs.append((re.compile(r"\b" + re.escape(generic) + r"\b"),
                         html.escape(name, quote=True) if markup else name))
    if not subs:
        return lines
    out = []
    for line in lines:
        for rx, name in subs:
            line = rx.sub(_literal(name), line)
        out.append(line)
    return out


def describe(state: State, obs: dict[str, Any], action: str, lang: str) -> str:
    fn = _hook(state.game.slug, "describe_action")
    if fn is not None:
        try:
            text: str = fn(action, obs, lang)
            return text
        except Exception:
            log.exception("describe_action hook failed")
    try:
        return state.describe_action(action)
    except Exception:
        return action


def prompt(slug: str, obs: dict[str, Any], lang: str) -> str | None:
    fn = _hook(slug, "prompt")
    if fn is not None:
        try:
            line: str | None = fn(obs, lang)
            return line
        except Exception:
            log.exception("prompt hook failed")
    for key in ("prompt", "phase_name", "phase", "step"):
        value = obs.get(key)
        if isinstance(value, str):
            return (game_text(slug, lang, f"phase.{value}")
                    or game_text(slug, lang, f"ui.{value}") or value)
    return None


def build_view(table: LiveTable, state: State, viewer: int | None, lang: str,
               legal: bool = True, log_from: int = 0) -> dict[str, Any]:
    """The whole picture for one viewer at one moment (plain JSON).

    ``log_from`` leaves out the first visible log lines (the client has them);
    ``log_start`` in the view says where its ``log`` begins."""
    slug = table.rec.game
    names = table.display_names(lang)
    pres = state.game.presentation(viewer, names, lang, state.options.get("data_dir"))
    obs = state.observation(viewer)
    terminal = state.is_terminal()
    board_obs = {k: v for k, v in obs.items() if k != "log"}
    scores = state.scores() if terminal else obs.get("scores")
    winners = state.winners() if terminal else []
    acts = state.legal_actions(viewer) if legal and viewer is not None and not table.broken else []
    extra: dict[str, Any] = {}
    if pres is not None:
        events = state.visible_events(viewer)
        log_from = max(0, min(log_from, len(events)))
        shown = events[log_from:]
        last = state.last_decision(viewer)
        log_lines = pres.log(shown)
        extra["log_refs"] = pres.log_refs(shown)
        extra["log_recent"] = [ev.get("ply", 0) > last for ev in shown]
        recent = {r for refs, ev in zip(pres.log_refs(events), events) if ev.get("ply", 0) > last for r in refs}
        board_obs["recent"] = sorted(recent)
        texts = [pres.action_text(board_obs, a) for a in acts]
        prompt_text = pres.prompt(board_obs)
        svg = pres.svg(board_obs)
        extra["score_table"] = pres.score_table(board_obs, scores, winners) if terminal else None
        extra["rules"] = pres.rules()
    else:
        lines = list(obs.get("log", []))
        log_from = max(0, min(log_from, len(lines)))
        log_lines = seat_names(table, state, _translate_log(slug, lines[log_from:], lang), lang=lang)
        texts = seat_names(table, state, [describe(state, obs, a, lang) for a in acts], lang=lang)
        prompt_text = prompt(slug, obs, lang)
        svg = _named_svg(table, state, _svg(slug, obs, lang), lang)
    return {
        "type": "state",
        "table": table.id,
        "game": slug,
        "game_name": game_name(slug, lang),
        "lang": lang,
        "viewer": viewer,
        "ply": state.ply,
        "terminal": terminal,
        "status": "finished" if terminal else table.status(),
        "broken": table.broken,
        "to_act": obs.get("to_act", []),
        "chosen": list(table.chosen) if state is table.state else [],
        "seats": [{"seat": i, "name": name, "kind": s["kind"], "bot": s["bot"],
                   "bot_label": bot_label(s["bot"], lang) if s["bot"] else None,
                   "alias": _alias(state, i),
                   "claimed": s["kind"] == "bot" or i in table.digests}
                  for i, (s, name) in enumerate(zip(table.rec.seats, names))],
        "prompt": prompt_text,
        "observation": board_obs,
        "log": log_lines,
        "log_start": log_from,
        "legal": [{"action": a, "text": t} for a, t in zip(acts, texts)],
        "svg": svg,
        "scores": scores,
        "winners": winners,
        **extra,
    }


def _alias(state: State, seat: int) -> str | None:
    """The game's own name for a seat (e.g. "Purple (P2)"), when it has one."""
    try:
        own = state.player_name(seat)
    except Exception:  # noqa: BLE001 - a game's bug never breaks a view
        return None
    return own if isinstance(own, str) and own != f"Player {seat + 1}" else None


def _named_svg(table: LiveTable, state: State, svg: str | None, lang: str) -> str | None:
    """The board with the seat names the panels show (the drawing only knows "Player N")."""
    if not svg:
        return svg
    return seat_names(table, state, [svg], markup=True, lang=lang)[0]


def replay_view(table: LiveTable, ply: Any, viewer: int | None, lang: str,
                token_seat: int | None) -> dict[str, Any]:
    """The position after ``ply`` decisions, as ``viewer`` saw it then.

    A seat's point of view is shown only to that seat's token holder, or to
    anyone once the game is over.
    """
    state_now = table.state
    total = state_now.ply
    if not isinstance(ply, int) or isinstance(ply, bool) or not 0 <= ply <= total:
        raise ServerError("bad_ply", f"the move number must be between 0 and {total}")
    if viewer is not None:
        if not isinstance(viewer, int) or isinstance(viewer, bool) or not 0 <= viewer < table.rec.num_players:
            raise ServerError("bad_seat", f"there is no seat {viewer!r} at this table")
        if viewer != token_seat and not state_now.is_terminal():
            raise ServerError("forbidden_view",
                              "a seat's point of view is only for its player until the game is over", 403)
    state = table.game.new_game(table.rec.num_players, table.rec.seed, table.rec.options,
                                rng=table.rec.rng)
    for player, action in state_now.history[:ply]:
        state.apply_action(player, action)
    view = build_view(table, state, viewer, lang, legal=False)
    view["type"] = "replay"
    view["total"] = total
    view["status"] = table.status()
    last = state_now.history[ply - 1] if ply > 0 else None
    # the decision itself may be a secret (a hidden choice): name it only to
    # its own player, or to everyone once the game is over
    if last is not None and (state_now.is_terminal() or last[0] == viewer):
        pres = state.game.presentation(viewer, table.display_names(lang), lang, state.options.get("data_dir"))
        text = (pres.action_text(view["observation"], last[1]) if pres is not None
                else describe(state, view["observation"], last[1], lang))
        view["last_action"] = {"seat": last[0], "action": last[1], "text": text}
    elif last is not None:
        view["last_action"] = {"seat": last[0], "action": None, "text": None}
    else:
        view["last_action"] = None
    return view


def replay_file(table: LiveTable) -> str:
    """The replay file; only once the game is over, as it holds every secret."""
    if not table.state.is_terminal():
        raise ServerError("not_finished",
                          "the replay file holds every secret choice and the seed, so it can be "
                          "downloaded only once the game is over", 409)
    return Replay.of(table.state, table.names()).to_json()
