"""SVG board of Hadria drawn from an observation (never from the state)."""
from __future__ import annotations

from html import escape
from typing import Any

from ...core.registry import load_game

CELL, PAD = 40, 40
DISTRICT_FILL = {"palace": "#e9d8a6", "golden_domes": "#f4e3b1", "empty_pot": "#d8e2dc",
                 "salty_docks": "#cde3f0", "hammerblow": "#e8d5d0"}
KIND_MARK = {"start": ("#ffffff", "S"), "dungeon": ("#333333", "D"), "imperial": ("#7a3fa0", "I"),
             "sword": ("#2b4c9b", "⚔"), "guardhouse": ("#6f86c4", "H"), "green": ("#2e9d4f", "G"),
             "hideout": ("#555555", "h"), "guard_alarm": ("#999999", "a"), "captain_alarm": ("#b08d57", "A"),
             "sewer_in": ("#2e9d4f", "↓"), "sewer_out": ("#c0392b", "↑"), "treasury": ("#c0392b", "★")}
GEM_COLOUR = {"emperor": "#d62828", "green": "#2a9d8f", "yellow": "#f4c430"}
THIEF_COLOUR = ["#444444", "#8e44ad", "#d35400", "#16a085"]


def _texts(lang: str) -> dict[str, str]:
    try:
        from ...server.i18n import game_texts
        t = game_texts("age-of-thieves")
        return {**t.get("en", {}), **t.get(lang, {})}
    except Exception:  # pragma: no cover - the server package is optional here
        return {}


def _xy(space: Any) -> tuple[int, int]:
    return PAD + space.x * CELL, PAD + space.y * CELL


def render_svg(observation: dict[str, Any], lang: str = "en") -> str:
    data = load_game("age-of-thieves").data()
    tr = _texts(lang)
    o = observation
    size = 2 * PAD + 14 * CELL
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="-20 -20 {size + 40} {size + 110}" '
           f'class="aot-board" font-family="sans-serif">']
    out.append(f'<rect x="-20" y="-20" width="{size + 40}" height="{size + 110}" fill="#fbf7ef"/>')
    for a, b in data.board.paths:
        (x1, y1), (x2, y2) = _xy(data.space[a]), _xy(data.space[b])
        border = data.district[a] != data.district[b]
        dash = ' stroke-dasharray="5,3"' if border else ""
        out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{"#a33" if border else "#8a7f70"}" '
                   f'stroke-width="3"{dash}/>')
    for e in data.board.exits:
        x, y = _xy(data.space[e.space])
        dx = -1 if data.space[e.space].x == 0 else 1 if data.space[e.space].x == 14 else 0
        dy = -1 if data.space[e.space].y == 0 else 1 if data.space[e.space].y == 14 else 0
        ex, ey = x + dx * 28, y + dy * 28
        open_ = o.get("escape_district") == e.district
        out.append(f'<g data-action="leave {e.id}"><title>{escape(tr.get("exit." + e.kind, e.kind))} '
                   f'{e.id}</title><rect x="{ex - 9}" y="{ey - 9}" width="18" height="18" '
                   f'fill="{"#2e9d4f" if open_ else "#bbbbbb"}" stroke="#333"/></g>')
    fire, smoke = set(o.get("fire", [])), set(o.get("smoke", []))
    tokens = set(o.get("face_down_tokens", []))
    features = o.get("features", {})
    for s in data.board.spaces:
        x, y = _xy(s)
        title = f"{s.id} — {tr.get('district.' + s.district, s.district)}"
        if s.kind:
            title += f" — {tr.get('kind.' + s.kind, s.kind)}"
        out.append(f'<g data-action="to {s.id}" data-space="{s.id}"><title>{escape(title)}</title>')
        if s.id in smoke:
            out.append(f'<circle cx="{x}" cy="{y}" r="17" fill="#9e9e9e" opacity="0.5"/>')
        out.append(f'<circle cx="{x}" cy="{y}" r="11" fill="{DISTRICT_FILL[s.district]}" '
                   f'stroke="{"#d62828" if s.id in fire else "#5c5346"}" stroke-width="{4 if s.id in fire else 1.5}"/>')
        if s.kind:
            colour, mark = KIND_MARK[s.kind]
            out.append(f'<text x="{x}" y="{y + 4}" font-size="11" text-anchor="middle" fill="{colour}">'
                       f'{escape(mark)}</text>')
        if s.id in tokens:
            out.append(f'<rect x="{x + 5}" y="{y - 14}" width="9" height="9" fill="#8d6e63" stroke="#333"/>')
        if s.id in features:
            out.append(f'<text x="{x - 14}" y="{y - 8}" font-size="9">{escape(features[s.id][0].upper())}</text>')
        out.append('</g>')
    for s, gems in o.get("gems", {}).items():
        x, y = _xy(data.space[s])
        for i, g in enumerate(gems):
            cx, cy = x - 8 + 8 * i, y + 13
            out.append(f'<polygon points="{cx},{cy - 5} {cx + 4},{cy} {cx},{cy + 5} {cx - 4},{cy}" '
                       f'fill="{GEM_COLOUR[g]}" stroke="#222"><title>{escape(tr.get("gem." + g, g))}</title></polygon>')
    for g, s in sorted(o.get("guards", {}).items()):
        x, y = _xy(data.space[s])
        if g[0] == "c":
            out.append(f'<rect x="{x - 7}" y="{y - 7}" width="14" height="14" fill="#1d3557" stroke="#fff">'
                       f'<title>{escape(tr.get("captain", "captain"))} {g}</title></rect>')
        else:
            out.append(f'<circle cx="{x}" cy="{y}" r="7" fill="#1d3557" stroke="#fff">'
                       f'<title>{escape(tr.get("guard", "guard"))} {g}</title></circle>')
    for p, t in enumerate(o.get("thieves", [])):
        if not t.get("pos"):
            continue
        x, y = _xy(data.space[t["pos"]])
        x += 6 * p - 9
        name = tr.get("thief." + t["thief"], t["name"])
        out.append(f'<circle cx="{x}" cy="{y - 4}" r="6" fill="{THIEF_COLOUR[p % 4]}" stroke="#fff" '
                   f'opacity="{0.6 if t.get("hidden") else 1}"><title>P{p + 1} {escape(name)}</title></circle>')
    # status line
    status = f"{tr.get('round', 'Round')} {o.get('round')} · " + (
        tr.get("alarm", "ALARM") if o.get("alarm") else tr.get("calm", "calm"))
    ev = o.get("event")
    if ev:
        status += f" · {tr.get('event.' + ev['id'], ev['name'])}"
    out.append(f'<text x="0" y="{size + 20}" font-size="16">{escape(status)}</text>')
    for p, t in enumerate(o.get("thieves", [])):
        name = tr.get("thief." + t["thief"], t["name"])
        line = (f"P{p + 1} {name}: {t['vp']} {tr.get('vp', 'VP')}" + (" ★" if t.get("emperor") else "")
                + (f" · {tr.get('left', 'left')}" if t.get("left") else ""))
        out.append(f'<text x="{(p % 2) * 300}" y="{size + 42 + 20 * (p // 2)}" font-size="14" '
                   f'fill="{THIEF_COLOUR[p % 4]}">{escape(line)}</text>')
    out.append("</svg>")
    return "".join(out)


def describe_action(action: str, observation: dict[str, Any], lang: str = "en") -> str:
    """Button text for an action in ``lang`` (en, fr, de), never the bare notation."""
    from .i18n_text import describe
    return describe(action, observation, lang)


def translate_event(text: str, lang: str) -> str:
    """A log line in ``lang``; lines no pattern knows stay in English."""
    from .i18n_text import translate
    return translate(text, lang)
