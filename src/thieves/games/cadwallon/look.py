"""How Cadwallon's pieces look on the board: sizes, colours and the marks of figures and
treasures, in one place (read by the board's drawing, the presentation and the text map)."""
from __future__ import annotations

from typing import Any

from ...core.svg import INK, SEAT_INK, seat_color

W = 940
PAD = 20
CELL = 100      # a zone's side in the stacked district (the phone's inset)
DOCK_CELL = 68  # a zone's side in the wide layout, where the gang and the hand stand beside it
DOCK_PAD = 12   # the wide layout's margins
F = 13          # the smallest font drawn (the board is shown about 920 px wide at 1280)
COLS = "abcdefghijklmnopqrstuvwxyz"
BACKGROUND = "#f4efe4"
STREET, ROOM, ROOF = "#cfd8dc", "#ecd9b0", "#5d4037"
DOOR, LINE, WALL, DEPLOY = "#2e7d32", "#ffffff", "#d32f2f", "#1565c0"
TREASURE_LOOK = {"red": ("#c62828", "#fff", "◆"), "green": ("#2e7d32", "#fff", "◆"),
                 "key": ("#6d4c41", "#fff", "⚷"), "scroll": ("#f3e3b5", INK, "≡"),
                 "bracelet": ("#b0bec5", INK, "○"), "purse": ("#8d6e63", "#fff", "$")}
SEALED = ("#4e342e", "#ffd54f", "▣")
MILITIA_FILL, HEROINE_FILL = "#212121", "#757575"
#: the gold of what may be clicked, and a zone's highlight under it
GOLD, HIGHLIGHT = "#e8a317", "#fff59d"


def initials(name: str) -> str:
    words = name.split()
    return (words[0][0] + words[-1][0]) if len(words) > 1 else name[:2]


_LABELS: dict[int, dict[str, str]] = {}


def labels(d: Any) -> dict[str, str]:
    """A two-letter mark for every figure, unique on the board (thieves first, so Valdur
    keeps "Va" and the militiaman Valrut reads "Vl")."""
    if id(d) not in _LABELS:
        out: dict[str, str] = {}
        for fid in [*d.char, *d.militia, *d.heroine]:
            name = d.name_of[fid]
            cands = [initials(name)] + [name[0] + ch for ch in name[1:] if ch.isalpha()]
            out[fid] = next((c for c in cands if c not in out.values()), fid[:2])
        _LABELS[id(d)] = out
    return _LABELS[id(d)]


def owner(d: Any, obs: dict[str, Any], c: str) -> int | None:
    """The seat whose gang ``c`` belongs to (None: a militiaman, the heroine, a gang no one took)."""
    g = d.gang_of.get(c)
    gangs = obs.get("gangs") or []
    return gangs.index(g) if g is not None and g in gangs else None


def fill_of(d: Any, obs: dict[str, Any], c: str) -> str:
    """A figure's colour: its seat's, black for the militia, grey for the heroine."""
    if c in d.militia:
        return MILITIA_FILL
    if c in d.heroine:
        return HEROINE_FILL
    p = owner(d, obs, c)
    return seat_color(p) if p is not None else "#777"


def ink_of(d: Any, obs: dict[str, Any], c: str) -> str:
    """Text colour on a figure's token (dark on the light seat colours)."""
    p = owner(d, obs, c)
    return SEAT_INK[p % len(SEAT_INK)] if p is not None else "#fff"
