"""Thieves Den drawn as SVG from an observation (never from the state, so nothing hidden leaks).

Clickable elements carry ``data-action`` with the action notation (see docs/thieves_den.md).
"""
from __future__ import annotations

import textwrap
from functools import lru_cache
from html import escape
from typing import Any

from .components import TREASURES, I18n, load_data, load_i18n
from .i18n_text import ability_text, treasure, word

COLORS = {"book": "#8d6e63", "jewel": "#1e88e5", "artifact": "#fbc02d", "fossil": "#9e9e9e",
          "potion": "#8e24aa"}
TYPE_COLORS = {"village": "#aed581", "shadow_valley": "#7e57c2", "ruins": "#bcaaa4",
               "sanctuary": "#4dd0e1", "city": "#ffb74d"}


@lru_cache(maxsize=1)
def _i18n() -> I18n:
    return load_i18n()


@lru_cache(maxsize=1)
def _data():
    return load_data()


def _t(lang: str, key: str) -> str:
    tr = getattr(_i18n(), lang if lang in ("en", "fr", "de") else "en")
    return tr.terms.get(key) or tr.names.get(key) or key


def _text(x: float, y: float, s: str, size: int = 11, anchor: str = "start", weight: str = "normal") -> str:
    return (f'<text x="{x}" y="{y}" font-size="{size}" text-anchor="{anchor}" font-weight="{weight}" '
            f'font-family="sans-serif">{escape(s)}</text>')


def _wrap(lines: list[str], w: float, size: int) -> list[str]:
    """Lines cut at word boundaries to fit a card ``w`` wide (never cut off mid-text)."""
    per_line = max(8, int((w - 10) / (size * 0.55)))
    out: list[str] = []
    for line in lines:
        out.extend(textwrap.wrap(line, per_line, break_long_words=True) or [""])
    return out


def _card(x: float, y: float, w: float, h: float, fill: str, lines: list[str], action: str | None,
          thieves: int = 0, size: int = 10) -> str:
    """A card; its text is wrapped to its width (the card grows when the text needs it)."""
    act = f' data-action="{escape(action)}" style="cursor:pointer"' if action else ""
    lines = _wrap(lines, w, size)
    step = size + 2
    h = max(h, 8 + step * len(lines) + (12 if thieves else 0))
    out = [f'<g{act}><rect x="{x}" y="{y}" width="{w}" height="{h}" rx="6" fill="{fill}" stroke="#333"/>']
    for i, line in enumerate(lines):
        out.append(_text(x + 5, y + 4 + step * (i + 1), line, size, weight="bold" if i == 0 else "normal"))
    for k in range(thieves):
        out.append(f'<circle cx="{x + w - 10 - 12 * k}" cy="{y + h - 10}" r="5" fill="#212121"/>')
    out.append("</g>")
    return "".join(out)


def _tokens(x: float, y: float, d: dict[str, int], lang: str) -> str:
    out, i = [], 0
    for t in TREASURES:
        for _ in range(d.get(t, 0)):
            out.append(f'<circle cx="{x + 9 * i}" cy="{y}" r="4" fill="{COLORS[t]}"><title>{escape(_t(lang, t))}'
                       f'</title></circle>')
            i += 1
    return "".join(out)


def render_svg(observation: dict[str, Any], lang: str = "en") -> str:
    """The whole table as ``player`` sees it; clickable parts carry their action notation."""
    obs = observation
    data = _data()
    viewer = obs.get("viewer")
    acting = viewer is not None and viewer in obs.get("to_act", [])
    W, parts = 1000, []
    y = 20
    parts.append(_text(10, y, f"{_t(lang, 'game')} - {_t(lang, 'round')} {obs['round']} - "
                              f"{_t(lang, obs['phase'])} - {_t(lang, 'direction')}: {word(lang, obs['direction'])}", 14,
                       weight="bold"))
    # supply and board slots
    y += 20
    parts.append(_text(10, y, f"{_t(lang, 'city_supply')}: " + ", ".join(
        f"{_t(lang, t)} {obs['city'][t]}" for t in TREASURES) + f" | {_t(lang, 'forest')}: {obs['forest']}"))
    y += 18
    slots = data.board.witch.slots
    for j, s in enumerate(slots):
        used = obs["witch_used"][j]
        act = f"witch {s.treasure}" if acting and not used else None
        parts.append(_card(10 + 95 * j, y, 90, 34, "#eeeeee" if used else COLORS[s.treasure] + "55",
                           [f"{_t(lang, 'witch')} {s.prestige}", _t(lang, s.treasure)], act))
    parts.append(_card(500, y, 150, 34, "#e0e0e0", [_t(lang, "steal"), f"{obs['steal_slot']} {_t(lang, 'thieves')}"], None))
    parts.append(_card(660, y, 150, 34, "#e0e0e0", [_t(lang, "recruit"), ""], None))
    parts.append(_tokens(670, y + 28, obs["recruit_slot"], lang))
    if acting:
        parts.append(_card(830, y, 70, 34, "#ef9a9a", [_t(lang, "pass")], "pass"))
        parts.append(_card(910, y, 70, 34, "#c5e1a5", [_t(lang, "done")], "done"))
    # power tiles
    y += 46
    for i, pw in enumerate(obs["powers"]):
        if pw["tile"] is None:
            continue
        tile = data.powers[pw["tile"]]
        paid = pw["paid"]
        parts.append(_card(10 + 330 * i, y, 320, 36, "#fff3e0" if not paid else "#eeeeee",
                           [f"{i + 1}. {_t(lang, tile.id)} ({pw['left']})", _t(lang, "power_text." + tile.id)
                            if lang != "en" and _t(lang, "power_text." + tile.id) != "power_text." + tile.id
                            else tile.text], None, size=9))
        if paid:
            parts.append(_tokens(300 + 330 * i, y + 10, {paid: 1}, lang))
    # fence row
    y += 60
    parts.append(_text(10, y + 10, _t(lang, "fence"), 12, weight="bold"))
    for i, fid in enumerate(obs["row"]):
        if fid is None:
            continue
        f = data.fences[fid]
        parts.append(_card(70 + 150 * i, y, 144, 56, "#f5f5f5",
                           [f"{_t(lang, fid)} ({_t(lang, f.type)})", " + ".join(treasure(lang, w) for w in f.wants),
                            f"{f.prestige} {_t(lang, 'prestige')}"], f"sell {fid}" if acting else None))
    y += 84
    # neutral cards (2 players)
    if obs["neutral"]:
        for i, c in enumerate(obs["neutral"]):
            parts.append(_loc_card(10 + 160 * i, y, c, obs, lang, acting))
        y += 110
    # players
    for q, pl in enumerate(obs["players"]):
        me = q == viewer
        head = (f"{'> ' if me else ''}Player {q + 1}: {pl['prestige']} {_t(lang, 'prestige')}, "
                f"{pl['thieves']} {_t(lang, 'thieves')}, {pl['left_count']} {_t(lang, 'location')}, "
                f"{pl['right_count']} {_t(lang, 'fence')}" + (f" ({word(lang, 'passed')})" if pl["passed"] else ""))
        parts.append(_text(10, y + 12, head, 12, weight="bold" if me else "normal"))
        parts.append(_tokens(560, y + 8, pl["treasures"], lang))
        y += 18
        x = 10
        for c in pl["above"]:
            parts.append(_loc_card(x, y, c, obs, lang, acting))
            x += 160
        for fid in pl["fences_above"]:
            f = data.fences[fid]
            parts.append(_card(x, y, 120, 70, "#eeeeee", [_t(lang, fid), _t(lang, f.type)], None,
                               obs["fence_thieves"].get(fid, 0)))
            x += 126
        if "scheme" in pl:
            sc = data.schemes[pl["scheme"]]
            parts.append(_text(x + 10, y + 20, f"{_t(lang, 'scheme')}: {_t(lang, sc.types[0])} + {_t(lang, sc.types[1])}", 11))
        y += 110
    # the viewer's hand
    hand = obs.get("hand") or []
    if hand:
        parts.append(_text(10, y + 12, _t(lang, "hand"), 12, weight="bold"))
        y += 18
        for i, c in enumerate(hand):
            act = f"keep {c}" if acting and obs["phase"] == "draft" and not obs.get("decision") else None
            parts.append(_loc_card(10 + 160 * i, y, c, obs, lang, False, act, picked=obs.get("pick") == c))
        y += 110
    H = y + 10
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}">'
            f'<rect width="{W}" height="{H}" fill="#fafafa"/>' + "".join(parts) + "</svg>")


def _loc_card(x: float, y: float, c: str, obs: dict, lang: str, acting: bool, action: str | None = None,
              picked: bool = False) -> str:
    loc = _data().locations[c]
    if action is None and acting and not obs["loc_thieves"].get(c):
        action = f"loc {c}"
    lines = [_t(lang, c) + (" *" if picked else ""),
             _t(lang, loc.type) + (f" ({_t(lang, 'instant')})" if loc.instant else ""),
             ability_text(loc.ability, lang)]
    if loc.owner_bonus:
        lines.append(f"{_t(lang, 'owner_bonus')}: {ability_text(loc.owner_bonus, lang)}")
    return _card(x, y, 154, 74, TYPE_COLORS[loc.type], lines, action, obs["loc_thieves"].get(c, 0), size=9)


def describe_action(action: str, observation: dict[str, Any], lang: str = "en") -> str:
    """Button text for an action in ``lang`` (en, fr, de); "Player N" is left for the server."""
    from .i18n_text import describe
    return describe(action, observation, lang)


def translate_event(text: str, lang: str) -> str:
    """A log line in ``lang``; lines no pattern knows stay in English."""
    from .i18n_text import translate
    return translate(text, lang)


def prompt(observation: dict[str, Any], lang: str = "en") -> str:
    """Why the player must act now, in ``lang`` (the phase in words, never "draft")."""
    from .i18n_text import prompt as _prompt
    return _prompt(observation, lang)
