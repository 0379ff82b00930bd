"""SVG drawing of the assembled city from an observation (never from the state)."""
from __future__ import annotations

from html import escape
from typing import Any

from .i18n import term

CELL = 22
FILL = {".": "#1f2d4d", "L": "#3b4f80", "T": "#8c8c8c", "G": "#6f9a63", "F": "#8a6d5a", "S": "#a89060",
        "C": "#c9c3b5", "M": "#e0892b", "D": "#d9772a", "V": "#e3a13a", "J": "#b5652a", "X": "#cf7f3b"}
COLOURS = ("#f2d024", "#8e4fc9", "#f4f4f4", "#3a7be0")
TYPE_KEY = {"T": "tower", "G": "garden", "F": "forge", "S": "stable", "C": "church", "M": "market",
            "D": "dealer", "V": "tavern", "J": "dungeon", "X": "smuggler"}


def render_svg(observation: dict[str, Any], lang: str = "en") -> str:
    city = observation["city"]
    w, h = city["w"], city["h"]
    top = 2 * CELL
    width, height = w * CELL + 2 * CELL, h * CELL + 4 * CELL + 20
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
           f'width="{width}" height="{height}" font-family="sans-serif" font-size="10">',
           f'<rect width="{width}" height="{height}" fill="#10131c"/>']
    ox = CELL
    # squares
    for r, row in enumerate(city["rows"]):
        for c, ch in enumerate(row):
            x, y = ox + c * CELL, top + r * CELL
            title = escape(term("lantern" if ch == "L" else "alley" if ch == "." else TYPE_KEY[ch], lang))
            out.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{FILL[ch]}" '
                       f'stroke="#0b0e15" stroke-width="0.5"><title>{title}</title></rect>')
            if ch == "L":
                out.append(f'<circle cx="{x + CELL / 2}" cy="{y + CELL / 2}" r="3" fill="#ffd36b"/>')
    # walls
    for a, b in city["walls"]:
        ra, ca = divmod(a, w)
        rb, cb = divmod(b, w)
        if ra == rb:
            x = ox + max(ca, cb) * CELL
            out.append(f'<line x1="{x}" y1="{top + ra * CELL}" x2="{x}" y2="{top + (ra + 1) * CELL}" '
                       'stroke="#000" stroke-width="3"/>')
        else:
            y = top + max(ra, rb) * CELL
            out.append(f'<line x1="{ox + ca * CELL}" y1="{y}" x2="{ox + (ca + 1) * CELL}" y2="{y}" '
                       'stroke="#000" stroke-width="3"/>')
    # section borders
    for k in range(1, w // 7):
        x = ox + k * 7 * CELL
        out.append(f'<line x1="{x}" y1="{top}" x2="{x}" y2="{top + h * CELL}" stroke="#555" stroke-dasharray="4"/>')
    out.append(f'<line x1="{ox}" y1="{top + 7 * CELL}" x2="{ox + w * CELL}" y2="{top + 7 * CELL}" '
               'stroke="#555" stroke-dasharray="4"/>')
    # river east
    out.append(f'<rect x="{ox + w * CELL}" y="{top}" width="{CELL - 4}" height="{h * CELL}" fill="#2b6ca3">'
               f'<title>{escape(term("river", lang))}</title></rect>')
    # villas and catacombs outside the north/south entrances
    for s, v in observation["villas"].items():
        cells = observation["bcells"].get(f"villa{s}", [])
        if cells:
            r, c = divmod(cells[0], w)
            y = top - CELL if r == 0 else top + h * CELL
            label = escape(term("villa", lang))
            out.append(f'<rect x="{ox + c * CELL - 4}" y="{y}" width="{CELL + 8}" height="{CELL}" fill="#e3b04b" '
                       f'data-building="villa{s}"><title>{label} {s}{" - art" if v["art"] else ""}</title></rect>')
    def pos_xy(pos, k=0):
        if isinstance(pos, int):
            r, c = divmod(pos, w)
            return ox + c * CELL + CELL / 2, top + r * CELL + CELL / 2
        cells = observation["bcells"].get(pos, [])
        if not cells:
            return ox, top
        r, c = divmod(cells[0], w)
        y = top + r * CELL + CELL / 2
        if pos.startswith("villa"):
            y = top - CELL / 2 if r == 0 else top + h * CELL + CELL / 2
        return ox + c * CELL + 5 + 6 * (k % 3), y + 6 * (k // 3) - 4
    # hideouts
    for p, b in enumerate(observation["hideouts"]):
        if b:
            x, y = pos_xy(b)
            out.append(f'<rect x="{x - 6}" y="{y - 6}" width="12" height="12" fill="none" stroke="{COLOURS[p]}" '
                       f'stroke-width="2"><title>{escape(term("hideout", lang))} {p + 1}</title></rect>')
    # townsfolk
    for fig, f in observation["townsfolk"].items():
        x, y = pos_xy(f["cell"])
        if fig[0] == "g":
            out.append(f'<circle cx="{x}" cy="{y}" r="8" fill="#c0392b"><title>{escape(term("guard", lang))} '
                       f'{fig[1]}</title></circle>')
            dx, dy = ((0, -1), (1, 0), (0, 1), (-1, 0))[f["face"]]
            out.append(f'<line x1="{x}" y1="{y}" x2="{x + dx * 11}" y2="{y + dy * 11}" stroke="#fff" stroke-width="2"/>')
            out.append(f'<text x="{x - 3}" y="{y + 3}" fill="#fff">{fig[1]}</text>')
        elif fig[0] == "n":
            out.append(f'<rect x="{x - 7}" y="{y - 7}" width="14" height="14" fill="#2e8b57"><title>'
                       f'{escape(term("noble", lang))} {fig[1]}</title></rect>')
            out.append(f'<text x="{x - 3}" y="{y + 3}" fill="#fff">{fig[1]}</text>')
        else:
            out.append(f'<rect x="{x - 9}" y="{y - 6}" width="18" height="12" rx="3" fill="#5b3a1a"><title>'
                       f'{escape(term("carriage", lang))}</title></rect>')
    # thieves
    counts: dict = {}
    for p, ts in enumerate(observation["thieves"]):
        for t, th in enumerate(ts):
            pos = th["pos"]
            if pos is None:
                continue
            k = counts.get(str(pos), 0)
            counts[str(pos)] = k + 1
            x, y = pos_xy(pos, k)
            out.append(f'<circle cx="{x}" cy="{y}" r="5" fill="{COLOURS[p]}" stroke="#000"><title>'
                       f'{escape(term("thief", lang))} {p + 1}.{t + 1}</title></circle>')
    # clickable moves for the acting thief
    turn = observation.get("turn")
    if turn and observation.get("viewer") == turn["p"] and turn.get("moving"):
        th = observation["thieves"][turn["p"]][turn["t"]]
        if isinstance(th["pos"], int):
            x, y = pos_xy(th["pos"])
            for d, (dx, dy) in zip("nesw", ((0, -1), (1, 0), (0, 1), (-1, 0))):
                if d not in observation.get("steps", []):
                    continue
                out.append(f'<rect x="{x + dx * CELL - 5}" y="{y + dy * CELL - 5}" width="10" height="10" '
                           f'fill="#fff" opacity="0.4" data-action="{d}"/>')
    # the mover's direction choices for a townsfolk in transit
    tm = observation.get("tmove")
    if tm and tm.get("opts") and observation.get("viewer") == tm["mover"]:
        x, y = pos_xy(tm["cell"])
        for d in tm["opts"]:
            dx, dy = ((0, -1), (1, 0), (0, 1), (-1, 0))[d]
            out.append(f'<circle cx="{x + dx * CELL}" cy="{y + dy * CELL}" r="6" fill="#ffd36b" opacity="0.7" '
                       f'data-action="go {"nesw"[d]}"/>')
    # choosing a hideout: click a free house
    if observation.get("phase") == "hideout" and observation.get("viewer") in observation.get("to_act", []):
        taken = set(observation["hideouts"])
        for bid, cells in observation.get("houses", {}).items():
            if bid in taken:
                continue
            for cell in cells:
                r, c = divmod(cell, w)
                out.append(f'<rect x="{ox + c * CELL + 3}" y="{top + r * CELL + 3}" width="{CELL - 6}" '
                           f'height="{CELL - 6}" fill="none" stroke="#fff" stroke-dasharray="2" '
                           f'data-action="hideout {bid}"/>')
    vp = ", ".join(f"{p + 1}: {v}" for p, v in enumerate(observation["vp"]))
    out.append(f'<text x="{ox}" y="{top - 1.2 * CELL}" fill="#ddd">{escape(term("night", lang))} '
               f'{observation["round"]}/6 - VP {escape(vp)}</text>')
    out.append("</svg>")
    return "\n".join(out)


def describe_action(action: str, observation: dict, lang: str = "en") -> str:
    """Button text for an action in ``lang`` (server hook)."""
    w = action.split()
    if not w:
        return action
    if len(w) == 1 and w[0] in "nesw":
        return term(f"dir.{w[0]}", lang)
    verb = term(f"act.{w[0]}", lang)
    if verb == f"act.{w[0]}":
        return action
    def word(x: str) -> str:
        if x in ("n", "e", "s", "w"):
            return term(f"dir.{x}", lang)
        for key in (f"equipment.{x}", x):
            t = term(key, lang)
            if t != key:
                return t
        return x
    rest = [word(x) for x in w[1:]]
    return " ".join([verb] + rest)


def prompt(observation: dict, lang: str = "en") -> str:
    """Why the viewer must act now (server hook)."""
    return term(f"phase.{observation.get('phase')}", lang)
