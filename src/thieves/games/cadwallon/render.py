"""SVG drawing of the district from an observation (never from the state).

Each zone is a square of the 9x9 grid: streets grey, rooms sand, roofed
buildings dark and hatched. Between two zones the shared edge shows how they
connect: a white line (street to street), a green arrow mark (a door into a
room) or a red wall. Deployment zones carry a blue triangle; portcullises a
black grid. Figures are circles in their gang's colour (militiamen black,
heroines grey); chests are small squares with the treasure's first letter.
Below the district: the adventure, the 3 face-up missions and the viewer's own
arcana cards, named in the viewer's language.
"""
from __future__ import annotations

from functools import lru_cache
from html import escape
from typing import Any

from . import components

CELL = 80
PAD = 20
_I18N: dict[str, Any] | None = None


def _texts(lang: str) -> dict[str, str]:
    global _I18N
    if _I18N is None:
        from ...core.data import read_yaml
        _I18N, _ = read_yaml(components.PKG, "i18n.yaml")
    table = _I18N.get(lang) or _I18N["en"]
    return {**_I18N["en"], **table}


@lru_cache(maxsize=1)
def _data() -> components.CadwallonData:
    return components.load()


def render_svg(observation: dict[str, Any], lang: str = "en") -> str:
    """The board as an SVG string; zones and figures carry ``data-action`` for clicks."""
    data = _data()
    t = _texts(lang)
    b = data.board
    w, h = b.columns * CELL + 2 * PAD, b.rows * CELL + 2 * PAD + 150
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}" '
           f'font-family="sans-serif">',
           '<defs><pattern id="roof" width="8" height="8" patternUnits="userSpaceOnUse">'
           '<rect width="8" height="8" fill="#5d4037"/><path d="M0 8L8 0" stroke="#3e2723"/></pattern></defs>',
           f'<rect width="{w}" height="{h}" fill="#263238"/>']

    def xy(z: str) -> tuple[int, int]:
        c, r = data.zone[z].cell
        return PAD + c * CELL, PAD + r * CELL

    for r in b.roofed:
        col, row = "abcdefghijklmnopqrstuvwxyz".index(r[0]), int(r[1:]) - 1
        out.append(f'<rect x="{PAD + col * CELL}" y="{PAD + row * CELL}" width="{CELL}" height="{CELL}" '
                   f'fill="url(#roof)"><title>{escape(t["roofed"])}</title></rect>')
    portcullis = set(observation.get("portcullis", []))
    to_act = observation.get("to_act") or []
    zone_verb, own_verb, enemy_verb = _verbs(observation, data)
    viewer = observation.get("viewer")
    gangs = observation.get("gangs") or []
    own_gang = gangs[viewer] if viewer is not None and viewer < len(gangs) else None
    for z in b.zones:
        x, y = xy(z.id)
        fill = "#b0bec5" if z.kind == "street" else "#e6c99a"
        room = t.get("room_" + z.id, z.name or "") if z.name else ""
        label = z.id + (f" {room}" if room else "")
        out.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" '
                   f'stroke="#90a4ae" stroke-width="0.5" data-zone="{z.id}"{_click(zone_verb, z.id)}>'
                   f'<title>{escape(label)}</title></rect>')
        out.append(f'<text x="{x + 3}" y="{y + 11}" font-size="10" fill="#37474f">{z.id}</text>')
        if room:
            # the whole name, on two lines when it is long (never cut off)
            words, rows = room.split(), [""]
            for wd in words:
                rows[-1:] = [rows[-1] + " " + wd] if len(rows[-1]) + len(wd) < 17 or not rows[-1] else [rows[-1], wd]
            rows = [r.strip() for r in rows][-2:] if len(rows) <= 2 else [rows[0].strip(), " ".join(rows[1:]).strip()]
            for i, row in enumerate(rows):
                out.append(f'<text x="{x + CELL / 2}" y="{y + CELL - 4 - 9 * (len(rows) - 1 - i)}" font-size="8" '
                           f'text-anchor="middle" fill="#4e342e">{escape(row)}</text>')
        if z.deployment:
            out.append(f'<path d="M{x + CELL - 14} {y + 3}l10 0l-5 9z" fill="#1565c0">'
                       f'<title>{escape(t["deployment"])}</title></path>')
        if z.id in portcullis:
            for i in range(1, 4):
                out.append(f'<line x1="{x + i * CELL / 4}" y1="{y}" x2="{x + i * CELL / 4}" y2="{y + CELL}" '
                           f'stroke="#000" stroke-width="3"/>')
    # edges: white lines, green doors, red walls
    for c in b.connections:
        out.append(_edge(xy(c.a), xy(c.b), "#ffffff" if c.kind == "line" else "#2e7d32",
                         4 if c.kind == "line" else 6))
    for a, z in b.walls:
        out.append(_edge(xy(a), xy(z), "#d32f2f", 5))
    # chests and loose ducats
    for z, chest in (observation.get("chests") or {}).items():
        x, y = xy(z)
        kind = chest["t"].rstrip("0123456789")
        fill = "#6d4c41" if chest["sealed"] else "#fdd835"
        out.append(f'<rect x="{x + 6}" y="{y + 16}" width="18" height="18" fill="{fill}" stroke="#000">'
                   f'<title>{escape(t.get("treasure_" + kind, kind))}</title></rect>'
                   f'<text x="{x + 15}" y="{y + 29}" font-size="11" text-anchor="middle">{kind[0].upper()}</text>')
    for z, n in (observation.get("room_ducats") or {}).items():
        x, y = xy(z)
        out.append(f'<circle cx="{x + 62}" cy="{y + 25}" r="9" fill="#ffb300"/>'
                   f'<text x="{x + 62}" y="{y + 29}" font-size="10" text-anchor="middle">{n}</text>')
    for z, kind in (observation.get("tokens") or {}).items():
        x, y = xy(z)
        out.append(f'<rect x="{x + 50}" y="{y + 45}" width="22" height="14" fill="#81c784">'
                   f'<title>{escape(t.get("token_" + kind, kind))}</title></rect>')
    # figures
    colors = {g.id: g.color for g in data.characters.gangs}
    slots: dict[str, int] = {}
    active = observation.get("active")
    for ch, z in sorted((observation.get("positions") or {}).items()):
        x, y = xy(z)
        k = slots.get(z, 0)
        slots[z] = k + 1
        cx, cy = x + 40 + 14 * k, y + 48
        if ch in data.militia:
            fill, name = "#000000", data.militia[ch].name
        elif ch in data.heroine:
            fill, name = "#9e9e9e", data.heroine[ch].name
        else:
            fill, name = colors[data.gang_of[ch]], data.char[ch].name
        loot = len((observation.get("carried") or {}).get(ch, []))
        ring = ' stroke="#ffeb3b" stroke-width="3"' if ch == active else ' stroke="#fff"'
        verb = own_verb if data.gang_of.get(ch) == own_gang else enemy_verb
        out.append(f'<circle cx="{cx}" cy="{cy}" r="13" fill="{fill}"{ring}{_click(verb, ch)} '
                   f'data-char="{ch}"><title>{escape(name)} ({loot})</title></circle>'
                   f'<text x="{cx}" y="{cy + 4}" font-size="10" fill="#fff" text-anchor="middle">'
                   f'{escape(ch[:2].upper())}</text>')
    # the adventure, the face-up missions and the viewer's own hand, in the viewer's language
    from .i18n_text import mission_name
    colon = " :" if lang == "fr" else ":"
    info_y = b.rows * CELL + 2 * PAD + 4
    adv = observation.get("adventure")
    adv_name = t.get("adv_" + str(adv)) or (data.adventure[adv].name if adv in data.adventure else str(adv))
    out.append(f'<text x="{PAD}" y="{info_y}" font-size="12" fill="#fff">'
               f'{escape(t["adventure"])}{colon} {escape(adv_name)}</text>')
    shown = []
    for i, m in enumerate(observation.get("missions") or []):
        if m is None or m not in data.mission:
            continue
        mm = data.mission[m]
        needs = ", ".join(f"{n} {t.get('treasure_' + k, k)}" for k, n in mm.needs.items())
        shown.append(f'<tspan data-mission="{escape(m)}">{i + 1}. {escape(mission_name(m, lang))} '
                     f'({mm.reward})<title>{escape(needs)}</title></tspan>')
    out.append(f'<text x="{PAD}" y="{info_y + 16}" font-size="11" fill="#ffe082">'
               f'{escape(t["missions"])}{colon} {" · ".join(shown)}</text>')
    hand = observation.get("hand")
    if hand is not None:
        cards = ", ".join(t.get("arcana_" + k, k) for k in hand)
        out.append(f'<text x="{PAD}" y="{info_y + 32}" font-size="11" fill="#b3e5fc">'
                   f'{escape(t["hand"])}{colon} {escape(cards)}</text>')
    # characters still to deploy: click one, then click a deployment zone
    to_deploy = observation.get("to_deploy") or []
    reserve_y = h - 76
    if observation.get("phase") == "deploy" and viewer is not None and viewer < len(to_deploy):
        selected = observation.get("deploy_selected")
        label = t.get("deploy_reserve", "To deploy")
        if selected:
            label += f" ({t.get('choose_zone', 'choose a deployment zone')})"
        out.append(f'<text x="{PAD}" y="{reserve_y}" font-size="12" fill="#fff">{escape(label)}:</text>')
        for k, ch in enumerate(to_deploy[viewer]):
            cx, cy = PAD + 150 + 34 * k, reserve_y - 4
            ring = ' stroke="#ffeb3b" stroke-width="3"' if ch == selected else ' stroke="#fff"'
            act = "" if selected else _click("deploy", ch)
            name = data.char[ch].name if ch in data.char else ch
            out.append(f'<circle cx="{cx}" cy="{cy}" r="13" fill="{colors.get(data.gang_of.get(ch), "#777")}"'
                       f'{ring}{act} data-char="{ch}"><title>{escape(name)}</title></circle>'
                       f'<text x="{cx}" y="{cy + 4}" font-size="10" fill="#fff" text-anchor="middle">'
                       f'{escape(ch[:2].upper())}</text>')
    # status line; seats are drawn as "Player N", which the server replaces by the seat's name
    status = " · ".join([f'{escape(t["round"])} {observation.get("round")}/{observation.get("track")}']
                        + ([escape(t["alarm"])] if observation.get("alarm") else [])
                        + [f'Player {p + 1}: {d} {escape(t["ducats"])}'
                           for p, d in enumerate(observation.get("ducats", []))])
    out.append(f'<text x="{PAD}" y="{h - 30}" font-size="16" fill="#fff">{status}</text>')
    if to_act:
        out.append(f'<text x="{PAD}" y="{h - 10}" font-size="12" fill="#b0bec5">'
                   f'{escape(t["to_act"])}: {", ".join("Player " + str(p + 1) for p in to_act)}</text>')
    out.append("</svg>")
    return "\n".join(out)


def _verbs(obs: dict[str, Any], data: Any) -> tuple[str | None, str | None, str | None]:
    """Which notation a click on a zone, an own figure or another figure stands for now."""
    pending = obs.get("pending")
    if pending:
        kind = pending.get("kind")
        return ({"flee": "flee", "replot": "move"}.get(kind), None, None)
    phase = obs.get("phase")
    if phase == "deploy":
        return ("at" if obs.get("deploy_selected") else None), "deploy", None
    if phase == "militia_move":
        return "mm", None, None
    if phase == "main":
        return ("move" if obs.get("active") else None), "act", "attack"
    return None, None, None


def _click(verb: str | None, target: str) -> str:
    return f' data-action="{verb} {target}"' if verb else ""


def _edge(a: tuple[int, int], b: tuple[int, int], color: str, width: int) -> str:
    """The shared side of two grid squares."""
    (ax, ay), (bx, by) = a, b
    if ay == by:  # side by side: a vertical edge
        x = max(ax, bx)
        return (f'<line x1="{x}" y1="{ay + 12}" x2="{x}" y2="{ay + CELL - 12}" stroke="{color}" '
                f'stroke-width="{width}"/>')
    y = max(ay, by)
    return (f'<line x1="{ax + 12}" y1="{y}" x2="{ax + CELL - 12}" y2="{y}" stroke="{color}" '
            f'stroke-width="{width}"/>')


def describe_action(action: str, observation: dict[str, Any], lang: str = "en") -> str:
    """Button text for an action in ``lang`` (en, fr, de)."""
    from .i18n_text import describe
    return describe(action, observation, lang)


def translate_event(text: str, lang: str) -> str:
    """A log line in ``lang``; lines no pattern knows stay in English."""
    from .i18n_text import translate
    return translate(text, lang)
