"""What one viewer of a table may see, built only from ``observation(viewer)``.

Everything sent to a browser comes from here. The board, the log, the
prompt and every other field are drawn from the observation of the viewer
(a seat, or ``None`` for spectators); the legal actions are the viewer's
own; final scores and winners only once the game is over.
"""
from __future__ import annotations

import json
import logging
import marshal
import operator
from typing import Any, NamedTuple

from ..bots import bot_names
from ..core.game import State, engine_observes
from ..core.presentation import Presentation
from ..core.registry import load_game
from ..core.replay import Replay
from .boards import board_svg, public_obs
from .errors import Conflict
from .i18n import bot_label, game_text, ui
from .tables import LiveTable, has_reactions

log = logging.getLogger("thieves.server")


def game_name(slug: str, lang: str) -> str:
    return game_text(slug, lang, "name") or load_game(slug).name


def presentation(state: State, viewer: int | None, names: list[str], lang: str,
                 layout: str = "wide") -> Presentation:
    """The game's presentation for ``viewer`` (the plain one for a game that has
    none: the log's words as the engine wrote them, actions in their notation)."""
    pres: Presentation | None = state.game.presentation(viewer, names, lang, state.options.get("data_dir"),
                                                        layout=layout)
    if pres is None:
        pres = Presentation(state.game, viewer, names, lang, state.options.get("data_dir"), layout=layout)
    return pres


def pick_layout(asked: Any) -> str:
    """The table layout a client asked for: "narrow" (a phone) or "wide" (anything else)."""
    return "narrow" if asked == "narrow" else "wide"


def build_view(table: LiveTable, state: State, viewer: int | None, lang: str,
               legal: bool = True, log_from: int = 0, layout: str = "wide") -> dict[str, Any]:
    """The whole picture for one viewer at one moment (plain JSON).

    ``log_from`` leaves out the first visible log lines (the client has them);
    ``log_start`` in the view says where its ``log`` begins. ``layout`` "narrow"
    draws the board for a phone (one tall SVG whose hand stays readable)."""
    slug = table.rec.game
    names = table.display_names(lang)
    pres = presentation(state, viewer, names, lang, layout)
    obs, board_obs = _observations(table, state, viewer)
    terminal = state.is_terminal()
    live = state is table.state
    before_start = live and table.waiting()  # before the start nobody plays, not even the host
    told = _log_part(table, state, obs, pres, viewer, lang, layout, names, log_from)
    board_obs["recent"] = told.lit
    asked = _decision_part(table, state, pres, board_obs, viewer, lang, legal, before_start)
    svg = board_svg(table, state, pres, board_obs, lang, layout, names)
    scores = state.scores() if terminal else obs.get("scores")
    winners = state.winners() if terminal else []
    to_act = [] if before_start else list(obs.get("to_act", []))
    return {
        "type": "state", "table": table.id, "game": slug, "game_name": game_name(slug, lang),
        "lang": lang, "layout": layout, "viewer": viewer,
        # the decisions this viewer knows of: the public ones and their own secret steps
        "ply": state.shown_ply(viewer),
        "terminal": terminal,
        "status": "finished" if terminal else table.status(),
        "broken": table.broken,
        # nobody acts before the start (every seat taken, or filled with bots)
        "to_act": to_act,
        # what the others are doing, for a viewer who waits (a spectator too)
        "doing": (None if terminal or before_start or (viewer is not None and viewer in to_act)
                  else doing_text(names, table, to_act, asked.prompt, lang, board_obs)),
        "chosen": list(table.chosen) if live else [],
        "seats": seat_list(table, state, names, lang),
        # who played which moves: per seat, the decisions its substitute bot made
        "substitute_moves": _substitute_moves(table, state, viewer),
        **_table_controls(table, state, viewer, lang, terminal),
        "prompt": asked.prompt,
        # the decision the table is taking for the viewer now (None: none)
        "answering": asked.answering,
        "observation": board_obs,
        "log": told.lines, "log_start": told.start,
        "legal": asked.legal,
        "svg": svg,
        "scores": scores, "winners": winners,
        "log_refs": told.refs, "log_recent": told.recent,
        "score_table": pres.score_table(board_obs, scores or [], winners) if terminal else None,
        "rules": pres.rules(),
    }


def _observations(table: LiveTable, state: State, viewer: int | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """The viewer's observation and what the board is drawn from (the same but its log).
    The engine's own observation comes without its log: the view reads the log
    from the entries not seen before (:func:`visible_events`); a spectator's is
    the one the public layer is drawn from (made once per change)."""
    if not engine_observes(state):
        obs = state.observation(viewer)
    else:
        obs = public_obs(table, state) if viewer is None else state.observation_without_log(viewer)
    return obs, {k: v for k, v in obs.items() if k != "log"}


class LogPart(NamedTuple):
    """What the view says of the log, from ``start`` on (the lines the client has
    not got yet), and ``lit``: the ids that the events since the viewer's last
    decision name (the board lights them)."""

    lines: list[str]
    refs: list[list[str]]
    recent: list[bool]
    start: int
    lit: list[str]


def _log_part(table: LiveTable, state: State, obs: dict[str, Any], pres: Presentation, viewer: int | None,
              lang: str, layout: str, names: list[str], log_from: int) -> LogPart:
    events = (visible_events(table, state, viewer) if engine_observes(state)
              else _visible_events(state, obs, viewer))
    start = max(0, min(log_from, len(events)))
    lines, refs = log_lines(table, pres, events, viewer, lang, layout, names)
    since = recent_from(events, state.last_decision(viewer))
    recent = [False] * max(0, since - start) + [True] * (len(events) - max(since, start))
    lit = sorted({r for ids in refs[since:] for r in ids})
    return LogPart(lines[start:], refs[start:], recent, start, lit)


class DecisionPart(NamedTuple):
    """The viewer's decision: the prompt, the legal actions offered (``{"action",
    "text", "ends_turn"?}``) and the answer the table gives for them (None: none)."""

    prompt: str | None
    legal: list[dict[str, Any]]
    answering: dict[str, Any] | None


def _decision_part(table: LiveTable, state: State, pres: Presentation, board_obs: dict[str, Any],
                   viewer: int | None, lang: str, legal: bool, before_start: bool) -> DecisionPart:
    live = state is table.state
    # a decision the table takes for the viewer (no empty questions): nothing to choose
    answer = table.answering(viewer) if legal and live else None
    acts = (state.legal_actions(viewer) if legal and viewer is not None and not table.broken
            and answer is None and not before_start else [])
    texts = [pres.action_text(board_obs, a) for a in acts]
    prompt = pres.prompt(board_obs)
    answering = None
    if answer is not None and viewer is not None:
        answer_text = pres.action_text(board_obs, answer)
        forced = len(state.legal_actions(viewer)) == 1
        prompt = ui(lang)["answer_only" if forced else "answer_reactions_off"].format(action=answer_text)
        answering = {"action": answer, "text": answer_text, "forced": forced}
    ends = _ends_turn(state, viewer, acts) if legal and live else []
    offered = [{"action": a, "text": t, **({"ends_turn": True} if a in ends else {})} for a, t in zip(acts, texts)]
    return DecisionPart(prompt, offered, answering)


def seat_list(table: LiveTable, state: State, names: list[str], lang: str) -> list[dict[str, Any]]:
    """Every seat: its name, who holds it (a person, a bot, the bot standing in)
    and how it left, if it did."""
    return [{"seat": i, "name": name, "kind": s["kind"], "bot": s["bot"],
             "bot_label": bot_label(s["bot"], lang) if s["bot"] else None,
             "alias": _alias(state, i),
             "claimed": s["kind"] == "bot" or i in table.digests,
             # a player who left (or conceded): the bot that plays for them
             "sub": s.get("sub"), "sub_label": bot_label(s["sub"], lang) if s.get("sub") else None,
             "conceded": bool(s.get("conceded")), "timed_out": bool(s.get("timed_out"))}
            for i, (s, name) in enumerate(zip(table.rec.seats, names))]


def _table_controls(table: LiveTable, state: State, viewer: int | None, lang: str,
                    terminal: bool) -> dict[str, Any]:
    """What the table around the game offers the viewer: open seats, host,
    clocks, rematch, undo, reactions and the bots that may fill or stand in."""
    live = state is table.state
    slug = table.rec.game
    return {
        # before the start: the seats still open, and for the creator the bots
        # that can fill them (the game starts once none is open)
        "waiting": table.open_seats() if live and table.waiting() else [],
        "host": table.is_host(viewer),
        # the clocks as of the last change (the browser counts down from there)
        "clock": (table.clock.snapshot(table.clock.since)
                  if table.clock is not None and live and table.started_at() is not None else None),
        # the rematch table started from this finished one (None: none yet)
        "rematch": table.rec.rematch,
        # the move number this viewer may take their decisions back to (None: no undo)
        "undo": table.may_undo(viewer) if live else None,
        # the viewer's own reactions setting, in a game that has reaction windows
        "reactions": ({"off": table.reactions_off(viewer)}
                      if viewer is not None and not terminal and live and has_reactions(state) else None),
        # for a seated player: the bots that can stand in if they leave
        "sub_bots": ([{"bot": b, "label": bot_label(b, lang)} for b in bot_names(slug)]
                     if viewer is not None and not terminal else []),
        "fill_bots": ([{"bot": b, "label": bot_label(b, lang)} for b in bot_names(slug)]
                      if live and table.waiting() and table.is_host(viewer) else []),
    }


#: the fields of an observation that may hold the decision being made, with its ``kind``
DECISION_FIELDS = ("deciding", "pending", "decision")


def doing_template(slug: str, obs: dict[str, Any], lang: str, many: bool) -> str | None:
    """The game's sentence for what the seats to act are doing ("{who} is
    choosing a card"), from its texts: ``doing.<kind>`` for the kind of the
    decision the viewer's observation shows, else ``doing.<phase>``; the
    ``.many`` form when several seats act at once."""
    keys = []
    for field in DECISION_FIELDS:
        dec = obs.get(field)
        if isinstance(dec, dict) and isinstance(dec.get("kind"), str):
            keys.append("doing." + dec["kind"])
    if isinstance(obs.get("phase"), str):
        keys.append("doing." + obs["phase"])
    for key in keys:
        text = game_text(slug, lang, key + ".many" if many else key)
        if text and "{who}" in text:
            return text
    return None


def doing_text(names: list[str], table: LiveTable, to_act: list[int], prompt_text: str | None,
               lang: str, obs: dict[str, Any] | None = None) -> str | None:
    """Who is doing what, said once, for a viewer who is not to act.

    In this order: the game's own sentence for the decision or phase
    (:func:`doing_template`, "Greedy bot 2 is choosing a card"); the game's
    prompt for that viewer when it names every seat to act ("Ann is
    deciding: buy"); else "Ann is playing" (a game's prompt that names
    nobody is often worded for the seat to act, "Choose your gang", and
    would mislead a spectator)."""
    if not to_act:
        return prompt_text
    texts = ui(lang)
    who = [names[p] if (table.rec.seats[p]["kind"] == "bot" or p in table.digests)
           else names[p] + " (" + texts["open_seat"] + ")" for p in to_act]
    joined = who[0] if len(who) == 1 else ", ".join(who[:-1]) + texts["and"] + who[-1]
    own = doing_template(table.rec.game, obs, lang, len(who) > 1) if obs is not None else None
    if own:
        return own.replace("{who}", joined)
    if prompt_text and all(names[p] in prompt_text for p in to_act):
        return prompt_text
    return texts["is_playing" if len(who) == 1 else "are_playing"].format(who=joined)


def recent_from(events: list[dict[str, Any]], last: int) -> int:
    """Where the events after move ``last`` begin (the viewer's last decision;
    -1: every event). A log is in the order of its moves: each entry holds the
    move number it was written at, so only the recent end is read."""
    if last < 0:
        return 0
    since = len(events)
    while since and events[since - 1].get("ply", 0) > last:
        since -= 1
    return since



def visible_events(table: LiveTable, state: State, viewer: int | None) -> list[dict[str, Any]]:
    """``state.visible_events(viewer)``, reading only the log entries that the
    last view built for ``viewer`` at this table did not have.

    Log entries are never changed once written, and a position's copies share
    them, so while the log still begins with the very entries of the last view
    (the same objects: the log grew since), their events are the ones kept; a
    log read back from storage, or one that an undo made shorter, is read
    whole. The list returned is shared: never change it."""
    log = state.log
    kept = table.events_cache.get(viewer)
    if kept is not None:
        entries, events = kept
        n = len(entries)
        # map stops at the shorter list: every kept entry is checked
        if n <= len(log) and all(map(operator.is_, entries, log)):
            if n == len(log):
                return events
            events = events + state.visible_events(viewer, n)
            table.events_cache[viewer] = (log.copy(), events)
            return events
    events = state.visible_events(viewer)
    table.events_cache[viewer] = (log.copy(), events)
    return events


def _visible_events(state: State, obs: dict[str, Any], viewer: int | None) -> list[dict[str, Any]]:
    """``state.visible_events(viewer)``, taken from the observation's log where
    that is the same list (the engine's observation)."""
    log_events = obs.get("log")
    if type(state).observation is State.observation and isinstance(log_events, list):
        return log_events
    return state.visible_events(viewer)


#: (viewer, language, layout) whose log lines one table keeps (the least recently used go)
LOG_CACHE_KEYS = 12


def log_lines(table: LiveTable, pres: Presentation, events: list[dict[str, Any]], viewer: int | None,
              lang: str, layout: str, names: list[str]) -> tuple[list[str], list[list[str]]]:
    """Every visible event's log line and the ids it names, for one viewer.

    A log only grows between two changes (an undo shortens it), and each
    event's line depends only on that event, the language and the seat
    names (``Presentation.log``), so the lines written for the previous view
    are kept with the events they came from and only the new events are
    written. A presentation that writes its own log gets no shortcut."""
    if type(pres).log is not Presentation.log or type(pres).log_refs is not Presentation.log_refs:
        return pres.log(events), pres.log_refs(events)
    key = (viewer, lang, layout)
    cached = table.log_cache.get(key)
    done, kept_lines, kept_refs = 0, [], []
    if cached is not None:
        old_names, old_events, old_lines, old_refs = cached
        n = len(old_lines)
        # the old events begin the new ones: the very same objects (kept by
        # ``visible_events``), else equal as exact bytes (types and order kept)
        if old_names == names and n <= len(events) and (
                all(map(operator.is_, old_events, events)) or _same_events(old_events, events[:n])):
            done, kept_lines, kept_refs = n, old_lines, old_refs
    lines = kept_lines + pres.log(events[done:])
    refs = kept_refs + pres.log_refs(events[done:])
    table.log_cache.pop(key, None)  # the newest last: the least recently used go first
    table.log_cache[key] = (list(names), events, lines, refs)
    while len(table.log_cache) > LOG_CACHE_KEYS:
        del table.log_cache[next(iter(table.log_cache))]
    return lines, refs


def _same_events(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> bool:
    """The two lists of events are the same data, types and order included."""
    key = _events_key(old)
    return key is not None and key == _events_key(new)


def _events_key(events: list[dict[str, Any]]) -> bytes | None:
    """The events as exact bytes (types and order kept), or None for events
    that are not plain data."""
    try:
        return marshal.dumps(events, 2)  # version 2: no back-references, the same bytes for equal data
    except ValueError:
        return None


#: the verbs of the games' notations that end a player's turn or pass for the
#: round ("end", "done", "pass" in every game): the browser asks before sending
#: them. A fixed public list, never a trial of the move: whether a move ends a
#: turn may depend on a hidden card or a die not rolled yet, and a view may not
#: reveal either.
TURN_ENDING_VERBS = frozenset({"end", "done", "pass"})


def _ends_turn(state: State, viewer: int | None, acts: list[str]) -> set[str]:
    """The viewer's actions that end their turn or pass (by their notation's verb)."""
    if viewer is None:
        return set()
    return {a for a in acts if a.split(" ", 1)[0].lower() in TURN_ENDING_VERBS}


def _substitute_moves(table: LiveTable, state: State, viewer: int | None) -> list[int]:
    """Per seat, how many of the decisions so far its substitute bot made (of
    another seat's, only the public ones: its secret steps are its own)."""
    out = [0] * table.rec.num_players
    history = state.history
    for ply in table.deciders:   # few: read them, not the whole history
        if 0 <= ply < len(history):
            seat = history[ply][0]
            if seat == viewer or not state.is_secret_step(ply):
                out[seat] += 1
    return out


def _alias(state: State, seat: int) -> str | None:
    """The game's own name for a seat (e.g. "Purple (P2)"), when it has one."""
    try:
        own = state.player_name(seat)
    except Exception:  # noqa: BLE001 - a game's bug never breaks a view
        return None
    return own if isinstance(own, str) and own != f"Player {seat + 1}" else None


def replay_file(table: LiveTable, chat: list[dict[str, Any]] | None = None) -> str:
    """The replay file; only once the game is over, as it holds every secret.
    ``chat``: the table's chat (public to the table), kept as ``"chat"`` (each
    message with the move it was written at); readers of replays ignore it."""
    if not table.state.is_terminal():
        raise Conflict("not_finished",
                       "the replay file holds every secret choice and the seed, so it can be "
                       "downloaded only once the game is over")
    text = Replay.of(table.state, table.names()).to_json()
    if not chat:
        return text
    data = json.loads(text)
    data["chat"] = [{k: m[k] for k in ("at", "ply", "seat", "spectator", "name", "text")} for m in chat]
    return json.dumps(data, indent=1)
