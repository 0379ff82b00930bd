"""SVG drawing of the assembled city from an observation (never from the state),
and the web interface's hooks (button texts, log lines, prompt) in en/fr/de."""
from __future__ import annotations

from html import escape
from typing import Any

from . import i18n_text
from .i18n import term

CELL = 22
FILL = {".": "#1f2d4d", "L": "#3b4f80", "T": "#8c8c8c", "G": "#6f9a63", "F": "#8a6d5a", "S": "#a89060",
        "C": "#c9c3b5", "M": "#e0892b", "D": "#d9772a", "V": "#e3a13a", "J": "#b5652a", "X": "#cf7f3b"}
COLOURS = ("#f2d024", "#8e4fc9", "#f4f4f4", "#3a7be0")  # the game's pawns: yellow, purple, white, blue
# the dots the server draws in the player panels (server/static/common.js SEAT_COLORS):
# the legend shows both, so a player finds their pawns from their panel
SEAT_DOTS = ("#d9534f", "#3b7dd8", "#3c9d5d", "#e0a526", "#8e5cc4", "#2bb0b0")
LEGEND_ROW = 18
TYPE_KEY = {"T": "tower", "G": "garden", "F": "forge", "S": "stable", "C": "church", "M": "market",
            "D": "dealer", "V": "tavern", "J": "dungeon", "X": "smuggler"}


def render_svg(observation: dict[str, Any], lang: str = "en") -> str:
    city = observation["city"]
    w, h = city["w"], city["h"]
    top = 2 * CELL
    n = len(observation["vp"])
    width = w * CELL + 2 * CELL
    legend_top = top + h * CELL + CELL + 10
    height = legend_top + LEGEND_ROW * (n + 1) + 6
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
                       f'stroke-width="2"><title>{escape(term("hideout", lang))} - '
                       f'{escape(i18n_text.player_name(p, lang))}</title></rect>')
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
    turn = observation.get("turn")
    counts: dict = {}
    for p, ts in enumerate(observation["thieves"]):
        for t, th in enumerate(ts):
            pos = th["pos"]
            if pos is None:
                continue
            k = counts.get(str(pos), 0)
            counts[str(pos)] = k + 1
            x, y = pos_xy(pos, k)
            active = bool(turn) and turn["p"] == p and turn["t"] == t
            if active:  # whose turn it is, on the board too
                out.append(f'<circle cx="{x}" cy="{y}" r="9" fill="none" stroke="#fff" stroke-width="2" '
                           f'stroke-dasharray="3 2"/>')
            out.append(f'<circle cx="{x}" cy="{y}" r="5" fill="{COLOURS[p]}" stroke="#000"><title>'
                       f'{escape(i18n_text.thief_name(p, t, lang))}</title></circle>')
            out.append(f'<text x="{x - 2.5}" y="{y + 3}" font-size="7" fill="#000" '
                       f'pointer-events="none">{t + 1}</text>')
    # solo: the rival thieves stand in locations
    solo = observation.get("solo") or {}
    for r_id, bid in sorted((solo.get("rivals") or {}).items()):
        if isinstance(bid, str) and observation["bcells"].get(bid):
            x, y = pos_xy(bid, 3)
            out.append(f'<circle cx="{x}" cy="{y}" r="6" fill="#222" stroke="#fff"><title>'
                       f'{escape(i18n_text.t("name.rival", lang, n=r_id))}</title></circle>')
            out.append(f'<text x="{x - 3}" y="{y + 3}" font-size="7" fill="#fff" pointer-events="none">'
                       f'R{escape(str(r_id))}</text>')
    out.extend(_clickables(observation, w, top, ox, pos_xy, lang))
    # building ids (the buttons name them), in each building's first square, above what glows
    for bid, cells in observation["bcells"].items():
        if cells and not bid.startswith("villa"):
            r, c = divmod(cells[0], w)
            out.append(f'<text x="{ox + c * CELL + 1}" y="{top + r * CELL + 7}" font-size="6" fill="#000" '
                       f'fill-opacity="0.7" pointer-events="none">{escape(bid)}</text>')
        elif cells:
            r, c = divmod(cells[0], w)
            y = top - CELL + 7 if r == 0 else top + h * CELL + 7
            out.append(f'<text x="{ox + c * CELL - 3}" y="{y}" font-size="6" fill="#000" '
                       f'pointer-events="none">{escape(i18n_text.place_name("villa", bid, lang))}</text>')

    out.extend(_legend(observation, lang, ox, legend_top, width))
    night = i18n_text.t("prompt.night", lang, n=observation["round"])
    out.append(f'<text x="{ox}" y="{top - 1.3 * CELL}" fill="#ddd" font-size="11">{escape(night)} - '
               f'{escape(prompt(observation, lang))}</text>')
    out.append("</svg>")
    return "\n".join(out)


def _clickables(obs: dict[str, Any], w: int, top: float, ox: float, pos_xy,
                lang: str = "en") -> list[str]:
    """What the viewer may click: only actions that are surely legal now (the
    server makes a data-action clickable only when it is legal anyway)."""
    out: list[str] = []
    viewer = obs.get("viewer")
    if viewer is None or viewer not in obs.get("to_act", []) or obs.get("terminal"):
        return out
    rows = obs["city"]["rows"]

    def square(cell: int, action: str, colour: str = "#fff") -> str:
        r, c = divmod(cell, w)
        return (f'<rect x="{ox + c * CELL + 2}" y="{top + r * CELL + 2}" width="{CELL - 4}" height="{CELL - 4}" '
                f'rx="3" fill="{colour}" fill-opacity="0.25" stroke="{colour}" stroke-width="1.5" '
                f'data-action="{escape(action)}"/>')

    turn = obs.get("turn")
    tm = obs.get("tmove")
    phase = obs.get("phase")
    # the mover's direction choices for a townsfolk in transit
    if tm and tm.get("opts") and viewer == tm["mover"]:
        x, y = pos_xy(tm["cell"])
        out.append(f'<circle cx="{x}" cy="{y}" r="11" fill="none" stroke="#ffd36b" stroke-width="2" '
                   f'stroke-dasharray="3 2"/>')
        for d in tm["opts"]:
            dx, dy = ((0, -1), (1, 0), (0, 1), (-1, 0))[d]
            out.append(f'<circle cx="{x + dx * CELL}" cy="{y + dy * CELL}" r="7" fill="#ffd36b" opacity="0.8" '
                       f'stroke="#fff" data-action="go {"nesw"[d]}"/>')
        return out
    # choosing a hideout: click a free house
    if phase == "hideout":
        taken = set(obs["hideouts"])
        for bid, cells in obs.get("houses", {}).items():
            if bid not in taken:
                out.extend(square(cell, f"hideout {bid}") for cell in cells)
        return out
    if phase != "action" or not turn or turn["p"] != viewer or tm:
        return out
    th = obs["thieves"][turn["p"]][turn["t"]]
    pos = th["pos"]
    # (where, action): where is a square (int) or a building id; several actions aimed
    # at the same place share its squares side by side, so each stays clickable
    aims: list[tuple[Any, str]] = []
    # a step of the moving thief: the square it goes to
    if turn.get("moving") and isinstance(pos, int):
        for d in obs.get("steps", []):
            dx, dy = {"n": (0, -1), "e": (1, 0), "s": (0, 1), "w": (-1, 0)}[d]
            r, c = divmod(pos, w)
            r, c = r + dy, c + dx
            if 0 <= r < len(rows) and 0 <= c < w:
                aims.append((r * w + c, d))
    # the engine's own list of the viewer's legal actions aimed at a place or figure
    for action in obs.get("targets", []):
        where = _aim(action, obs, w)
        if where is not None:
            aims.append((where, action))
    out.extend(_draw_aims(aims, obs, w, top, ox, len(rows), lang))
    if turn.get("moving") or turn.get("sub") or turn.get("ap", 0) < 1:
        return out
    if isinstance(pos, str):
        # using the location the thief is in (once per thief per night; with no location
        # used yet this night, so that the one-location variant allows it too)
        kind = i18n_text._building_kind(pos, obs)
        if kind in ("market", "dealer", "tavern", "dungeon", "villa") and not th.get("used"):
            cells = obs["bcells"].get(pos, [])
            if cells:
                x, y = pos_xy(pos)
                out.append(f'<circle cx="{x}" cy="{y}" r="10" fill="#ffd36b" fill-opacity="0.25" '
                           f'stroke="#ffd36b" stroke-width="2" data-action="use"/>')
    return out


AIM_COLOUR = {"exit": "#7fe07f", "cata": "#b48cff", "jin": "#7fe07f", "tp": "#6fd3ff", "hook": "#ffa05b",
              "svenja": "#ff8fd8", "crossbow": "#ff6b6b", "stars": "#ff6b6b", "bernhard": "#c8a2ff",
              "rob": "#ffd36b", "gold": "#ffd36b", "gem": "#6fe3ff", "pay": "#ffffff"}


def _aim(action: str, obs: dict[str, Any], w: int):
    """Where a target action points on the board: a square or a building id (None: not drawn)."""
    parts = action.split()
    if len(parts) < 2:
        return None
    kind, arg = parts[0], parts[1]
    if kind == "cata":
        return obs["city"].get("catacombs", {}).get(arg)
    if kind in ("rob", "crossbow", "stars", "bernhard"):
        f = obs["townsfolk"].get(arg)
        return f["cell"] if f and isinstance(f.get("cell"), int) else None
    if "." in arg:  # a square r.c (exit, jin, Juma's quay)
        r, c = arg.split(".")
        return int(r) * w + int(c)
    return arg if obs["bcells"].get(arg) else None


def _draw_aims(aims: list, obs: dict[str, Any], w: int, top: float, ox: float, h: int,
               lang: str) -> list[str]:
    """One rectangle per target action over its square(s), side by side when several
    actions aim at the same place; each says what it does in its tooltip."""
    groups: dict = {}
    for where, action in aims:
        acts = groups.setdefault(where, [])
        if action not in acts:
            acts.append(action)
    out = []
    for where, acts in groups.items():
        if isinstance(where, int):
            boxes = [divmod(where, w)]
        else:
            boxes = [divmod(c, w) for c in obs["bcells"][where]]
        villa = isinstance(where, str) and where.startswith("villa")
        n = len(acts)
        for k, action in enumerate(acts):
            words = action.split()
            # a step is green; a robbery with a choice is coloured by what it takes
            key = words[2] if words[0] == "rob" and len(words) > 2 else words[0]
            colour = AIM_COLOUR.get(key, "#fff") if len(words) > 1 else "#7fe07f"
            title = escape(i18n_text.describe_action(action, obs, lang))
            for r, c in boxes:
                if villa:
                    x, y, bw = ox + c * CELL - 4, top - CELL if r == 0 else top + h * CELL, CELL + 8
                else:
                    x, y, bw = ox + c * CELL, top + r * CELL, CELL
                part = (bw - 4) / n
                out.append(f'<rect x="{x + 2 + k * part:.1f}" y="{y + 2}" width="{part:.1f}" '
                           f'height="{CELL - 4}" rx="3" fill="{colour}" fill-opacity="0.3" stroke="{colour}" '
                           f'stroke-width="1.5" data-action="{escape(action)}"><title>{title}</title></rect>')
    return out


def _legend(obs: dict[str, Any], lang: str, ox: float, y0: float, width: float) -> list[str]:
    """Each player's pawn colour, the dot of their panel, their game name and VP;
    the players who must act now are marked."""
    out = []
    to_act = obs.get("to_act", []) if not obs.get("terminal") else []
    viewer = obs.get("viewer")
    vp_word = term("vp", lang)
    for p, vp in enumerate(obs["vp"]):
        y = y0 + p * LEGEND_ROW
        acting = p in to_act
        if acting:
            out.append(f'<rect x="{ox - 4}" y="{y - 11}" width="{width - 2 * ox + 8}" height="{LEGEND_ROW - 2}" '
                       f'rx="3" fill="#3a3320" stroke="#e7b53c"/>')
            out.append(f'<text x="{ox - 2}" y="{y + 2}" fill="#e7b53c" font-size="11">&#9654;</text>')
        out.append(f'<circle cx="{ox + 14}" cy="{y - 2}" r="4" fill="{SEAT_DOTS[p % len(SEAT_DOTS)]}"/>')
        out.append(f'<circle cx="{ox + 28}" cy="{y - 2}" r="6" fill="{COLOURS[p]}" stroke="#000"/>')
        name = i18n_text.player_name(p, lang)
        you = f' ({term("legend.you", lang)})' if viewer == p else ""
        weight = ' font-weight="bold"' if acting else ""
        out.append(f'<text x="{ox + 40}" y="{y + 2}" fill="#eee" font-size="11"{weight}>'
                   f'{escape(name + you)}: {vp} {escape(vp_word)}</text>')
        hide = obs["hideouts"][p] if p < len(obs["hideouts"]) else None
        if hide:
            out.append(f'<text x="{ox + 230}" y="{y + 2}" fill="#aaa" font-size="10">'
                       f'{escape(term("hideout", lang))}: {escape(str(hide))}</text>')
    turn = obs.get("turn")
    y = y0 + len(obs["vp"]) * LEGEND_ROW
    if turn and not obs.get("terminal"):
        text = i18n_text.t("legend.turn", lang, thief=i18n_text.thief_name(turn["p"], turn["t"], lang))
        text += f' - {turn.get("ap", 0)} {term("ap", lang)}'
        if turn.get("moving"):
            text += " - " + i18n_text.t("legend.moves", lang, mp=turn.get("mp", 0))
        out.append(f'<text x="{ox}" y="{y + 2}" fill="#ffd36b" font-size="11">{escape(text)}</text>')
    elif obs.get("terminal") and obs.get("solo_stars") is not None:
        stars = obs["solo_stars"]
        out.append(f'<text x="{ox}" y="{y + 2}" fill="#ffd36b" font-size="11">'
                   f'{escape(i18n_text.t("legend.stars", lang, n=stars))} '
                   f'{"&#9733;" * int(stars)}</text>')
    elif viewer is not None and viewer in to_act:
        out.append(f'<text x="{ox}" y="{y + 2}" fill="#ffd36b" font-size="11">'
                   f'{escape(term("legend.click", lang))}</text>')
    return out


def describe_action(action: str, observation: dict, lang: str = "en") -> str:
    """Button text for an action in ``lang`` (server hook)."""
    return i18n_text.describe_action(action, observation, lang)


def translate_event(text: str, lang: str) -> str:
    """A log line in ``lang`` (server hook)."""
    return i18n_text.translate_event(text, lang)


def prompt(observation: dict, lang: str = "en") -> str:
    """Why the viewer must act now (server hook)."""
    return i18n_text.phase_prompt(observation, lang)
