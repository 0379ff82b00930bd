"""The Thiefdom table drawn in three layers (docs/engine.md, "Layers") with the
shared kit.

The unchanging layer (:func:`draw_static`) is the printed city: streets,
lanterns, walls, the buildings with their icons and names, the villas and
catacombs at the gates, the river, the margins naming rows (A-N) and columns
(1-28) as the log does. The public layer (:func:`draw_public`), the same for
every viewer, holds what changes: the guards' fields of view, the hideouts in
their guild's colour, the townsfolk and the thieves; below the city the night
track and the plans (its upper part), then every guild, the townsfolk's loot,
the smuggling missions, the dungeon, the dealer's display and the legend (its
lower part). The viewer's layer (:func:`draw_seat`) holds what only they see or
do: their targets on the city (routes, steps, buildings, figures), their own
planning tiles, and, between the public layer's two parts, the choices of the
moment, their hand and their guild with its cards. Everything clickable
carries the legal action it makes.
"""
from __future__ import annotations

import json
import marshal
from typing import TYPE_CHECKING, Any, Callable, Iterable

from thieves.core.svg import (INK, MAX_THEN, MUTED, NARROW_WIDTH, PAPER, Layer, Offer, Svg, escape, gesture_attrs, memo,
                              piece_head, seat_color, slot_pid, wrap)

from .city import square_label
from .palette import (ALLEY, DXY, GOOD_COLOR, GOODS, LANTERN, RIVER, SIGHT, TYPE_FILL, TYPE_ICON, WALL, WIDTH)
from .routes import Route, plan_routes, route_key

if TYPE_CHECKING:
    from .presentation import ThiefdomPresentation

#: the layers of a city kept once drawn (a layout's squares, walls and river;
#: its buildings as they stand); keyed by everything they are drawn from
_CITY = memo(128)
#: a city layout's square names (what may glow on the ground layer)
_SQUARE_REFS = memo(64)
#: one building's outline or name, by what it shows
_BUILDINGS = memo(4096)
#: panels below the city (the legend, the other guilds), by what they show
_PANELS = memo(2048)
#: a townsfolk figure, by what it shows
_PIECES = memo(4096)
#: the layer of route targets, by the position it is drawn from (routes.route_key)
_ROUTES = memo(256)
#: a route's opening tag, as two texts around its gesture, by its action, label and look
_ROUTE_TAGS = memo(8192)
#: a building's outline, by the geometry and its squares
_OUTLINES = memo(1024)
#: what a route's group holds, by its goal and look, and where a path into a
#: building ends (_GoalLooks), per city and geometry
_GOAL_MARKS = memo(64)
#: the unchanging layer, by the city, the layout and the language
_STATIC = memo(64)
#: a route's group (its tag, words and marks) by its first action, goal and costs,
#: per language, seat names, city and geometry (Board.route_kit)
_ROUTE_WORDS = memo(64)
#: the sections of the public layer and the viewer's own panels, by exactly the
#: slice of the observation each reads (and the drawing's context: Board.ctx); a
#: city's section holds some 36 kB, the townsfolk and thieves 8 together, the others 1.5 to 6
_SECTIONS = {"city": memo(64), "figures": memo(256), "thieves": memo(256), "guild": memo(1024)}
_OTHER_SECTIONS = memo(1024)
#: what a field of view must draw again over its band, per city and context
_OVER_SIGHT = memo(64)
#: a spectator's own layer (the places recently named), by all it is drawn from
_ONLOOKERS = memo(256)
#: a building's centre, by the city, the geometry and the building
_CENTERS = memo(4096)
#: a city's serialized geometry, by the identity of the shared objects it is read from
_CITY_IDS = memo(32)


def city_token(obs: dict[str, Any]) -> bytes:
    """The printed city of an observation, serialized: part of every key of a kept
    drawing. The observation shares its geometry with every other of the same city
    (view.py), so the text is made once per city and found again by identity (a
    fresh copy of the same city only costs making it again)."""
    c = obs["city"]
    objs = (c["w"], c["h"], c["rows"], c["walls"], c.get("catacombs"), obs["buildings"], obs["bcells"])
    ids = tuple(map(id, objs))
    hit = _CITY_IDS.get(ids)
    if hit is not None and all(a is b for a, b in zip(hit[0], objs)):
        found: bytes = hit[1]
        return found
    token = marshal.dumps(objs, 2)
    _CITY_IDS.put(ids, (objs, token))
    return token


def _k(*slices: Any) -> bytes:
    """Slices of an observation as one key (every value with its type: True and 1
    differ; only a different order of the same entries may miss)."""
    return marshal.dumps(slices, 2)

FONT = 13
#: the phone's turned city: the margin of the column numbers, the river's band
NUMBERS, RIVER_BAND = 14, 16
CARD_FONT = 14  # the kit writes a card's effect one size smaller: 13
GLOW = "#e8a317"
STEP_COLOR = "#2f9e44"
#: the fields of an observation that only its viewer may read, or that say what
#: its viewer may do: the public layer is drawn with them emptied
_OWN_FIELDS: dict[str, Any] = {"viewer": None, "legal": [], "recent": [], "steps": [], "targets": [], "planning": ""}


class Board:
    """One layer of the board being drawn: ``mode`` is "static" (the printed
    city), "public" (from an observation with the viewer's own fields emptied:
    :func:`public_view`) or "seat" (the viewer's own)."""

    def __init__(self, pres: "ThiefdomPresentation", obs: dict[str, Any], width: float = WIDTH,
                 mode: str = "seat") -> None:
        #: the phone layout draws the viewer's panels in a column ``NARROW_WIDTH`` wide
        self.W = width
        self.narrow = width < WIDTH
        self.p = pres
        self.obs = obs
        self.mode = mode
        city = obs["city"]
        self.w: int = city["w"]
        self.h: int = city["h"]
        #: the phone draws the city turned a quarter to the left (north on the left, the
        #: river on top): 14 squares across instead of 28, each twice as big under a finger
        self.turned = self.narrow
        self.cell: float
        self.ox: float
        self.oy: float
        if self.turned:
            # the column numbers, the north gates, 14 squares, the south gates (to the edge)
            self.cell = (self.W - NUMBERS) / (self.h + 2)
            self.ox = NUMBERS + self.cell
            self.oy = RIVER_BAND + 4   # the river along the top (the east)
        else:
            self.cell = min(42, (self.W - 40 - 36) // self.w)
            self.ox = 30
            self.oy = 22 + self.cell  # column numbers, then the row of gates (villas, catacombs)
        self._centers: dict[int, tuple[float, float]] = {}
        #: the buildings' places and owners, serialized (a key of the kept building layers)
        self.building_key = b""
        viewer = obs.get("viewer") if mode == "seat" else None
        self.viewer = viewer
        legal = self._legal()
        # the shared layers and the viewer's alike keep their clickable groups as
        # offers (decided when rendered for a viewer): what was placed is read from them
        self.svg = Svg(self.W, 100, offers=mode != "static", title=pres.t("name"))
        self.legal = legal
        #: the city (serialized) and what else every kept section is drawn with: the
        #: words (texts, language, seat names), the data, the layer and the geometry
        self.token = city_token(obs)
        self.ctx = (pres.texts, pres.lang, tuple(pres.names), pres.data, mode, self.geometry())
        #: the kept cards picked first in the opening purchase: (picker key, card)
        self.buy_picks: list[tuple[str, str]] = []
        #: where each seat's plan row is (the public layer's, for the viewer's own tiles)
        self.plan_rows: dict[int, float] = {}
        #: where each seat's compact guild panel is (top, bottom) in the public lower part
        self.guild_rows: dict[int, tuple[float, float]] = {}
        #: the first actions of the routes drawn (draw_routes: groups written as text)
        self.route_actions: frozenset[str] = frozenset()

    def section(self, name: str, key: Any, draw: Callable[[], Any]) -> Any:
        """Add what ``draw()`` draws on ``self.svg``, kept under ``key`` (exactly the
        slice of the observation it reads) with the city and the context; returns
        what ``draw`` returned (a kept section keeps its offers: Svg.piece)."""
        return self.svg.piece_of(self, _SECTIONS.get(name, _OTHER_SECTIONS), (name, self.ctx, self.token, key), draw)

    # -- which actions the viewer may click --------------------------------------------------
    def _legal(self) -> set[str]:
        """The viewer's legal actions (the observation lists them only while the
        viewer must act): only these are ever made clickable (none in a shared layer)."""
        obs = self.obs
        if self.viewer is None or obs.get("terminal"):
            return set()
        return set(obs.get("legal") or ())

    # -- geometry ----------------------------------------------------------------------------
    def pt(self, col: float, row: float) -> tuple[float, float]:
        """The drawing's point at city coordinates (``col`` from the west edge, ``row``
        from the north edge, in squares); turned on the phone."""
        if self.turned:
            return self.ox + row * self.cell, self.oy + (self.w - col) * self.cell
        return self.ox + col * self.cell, self.oy + row * self.cell

    def dvec(self, d: int) -> tuple[int, int]:
        """Direction ``d`` (0 north ... 3 west) as a step on the drawing."""
        dx, dy = DXY[d]
        return (dy, -dx) if self.turned else (dx, dy)

    def arrow(self, d: int) -> str:
        return {(0, -1): "↑", (1, 0): "→", (0, 1): "↓", (-1, 0): "←"}[self.dvec(d)]

    def xy(self, cell: int) -> tuple[float, float]:
        """The top left corner of square ``cell`` on the drawing."""
        r, c = divmod(cell, self.w)
        if self.turned:
            return self.pt(c + 1, r)
        return self.ox + c * self.cell, self.oy + r * self.cell

    def center(self, cell: int) -> tuple[float, float]:
        got = self._centers.get(cell)
        if got is None:   # kept per drawing: a route's path asks for the same squares again and again
            x, y = self.xy(cell)
            got = self._centers[cell] = (x + self.cell / 2, y + self.cell / 2)
        return got

    def gate_box(self, cell: int) -> tuple[float, float, float, float]:
        """The box of a villa or catacomb outside the gate square ``cell``."""
        r, c = divmod(cell, self.w)
        # five squares wide (gates are seven apart), so "Katakomben" fits at full size
        row = -1 if r == 0 else self.h
        (x1, y1), (x2, y2) = self.pt(c - 2, row), self.pt(c + 3, row + 1)
        x, y, bw, bh = min(x1, x2), min(y1, y2), abs(x2 - x1), abs(y2 - y1)
        if self.turned:
            return x + 2, y + 4, bw - 4, bh - 8
        return x + 4, y + 2, bw - 8, bh - 4

    def building_center(self, bid: str) -> tuple[float, float]:
        """Where a building's label and pieces sit (kept per city and geometry)."""
        key = (self.token, self.geometry(), bid)
        got: tuple[float, float] | None = _CENTERS.get(key)
        if got is None:
            got = _CENTERS.put(key, self._building_center(bid))
        return got

    def _building_center(self, bid: str) -> tuple[float, float]:
        if bid.startswith("villa"):
            cell = self.obs["bcells"].get(bid, [0])[0]
            x, y, bw, bh = self.gate_box(cell)
            return x + bw / 2, y + bh / 2
        cells = self.obs["buildings"][bid][1]
        xs = [self.center(c) for c in cells]
        # the square nearest the middle, so a label sits inside the building
        mx = sum(p[0] for p in xs) / len(xs)
        my = sum(p[1] for p in xs) / len(xs)
        return min(xs, key=lambda p: (p[0] - mx) ** 2 + (p[1] - my) ** 2)

    # -- the city: the printed, unchanging layer ------------------------------------------------
    def geometry(self) -> tuple[Any, ...]:
        """What places every square: part of the key of each kept layer."""
        return (self.W, self.w, self.h, self.cell, self.ox, self.oy, self.turned)

    def city_key(self) -> tuple[Any, ...]:
        """Everything the printed city is drawn from (its layout, its buildings, the
        geometry, the language)."""
        return (self.token, self.geometry(), self.p.texts, self.p.lang)

    def draw_ground(self) -> float:
        """The printed city: the ground and margins, the squares, the buildings with
        their names, the walls, the river and the gates (no owner, nothing clickable)."""
        s = self.svg
        self.draw_squares(s)
        hideouts: dict[str, int] = {}
        for bid, ty, cells in self._shown_buildings():
            self.building_outline(s, bid, ty, list(cells), None)
        self.draw_walls(s)
        for bid, ty, cells in self._shown_buildings():
            self.building_name(s, bid, ty, list(cells), hideouts.get(bid), self.p.place(bid))
        self.draw_gates()
        return self.city_bottom()

    def city_bottom(self) -> float:
        if self.turned:
            return self.oy + self.w * self.cell + 22   # the row letters under the city
        return self.oy + self.h * self.cell + self.cell + 8

    def draw_squares(self, s: Svg) -> None:
        """The ground, the margins and the squares (alleys and lanterns)."""
        obs, cs = self.obs, self.cell
        w, h, ox, oy = self.w, self.h, self.ox, self.oy
        s.add(f'<rect x="0" y="0" width="{self.W}" height="{self.city_bottom():g}" fill="#4a4238"/>')
        rows = obs["city"]["rows"]
        # margins: column numbers and row letters, as the log names squares
        for c in range(w):
            x, y = self.center(c)
            if self.turned:   # the numbers down the left edge (28 at the top), letters under the city
                s.text(NUMBERS / 2, y + 4.5, str(c + 1), 12, "bold", "#f3ead8", "middle")
            else:
                s.text(x, 16, str(c + 1), FONT, "bold", "#f3ead8", "middle")
        for r in range(h):
            x, y = self.center(r * w)
            if self.turned:
                s.text(x, oy + w * cs + 16, square_label(r, 0)[0], FONT, "bold", "#f3ead8", "middle")
            else:
                s.text(ox / 2 - 1, y + 5, square_label(r, 0)[0], FONT, "bold", "#f3ead8", "middle")
        # the squares: alleys and lanterns (buildings are drawn over them below)
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                if ch in ".L":
                    x, y = self.xy(r * w + c)
                    s.add(f'<rect x="{x}" y="{y}" width="{cs}" height="{cs}" fill="{LANTERN if ch == "L" else ALLEY}" '
                          f'stroke="#c9bfa9" stroke-width="0.6"/>')
                    if ch == "L":
                        s.circle(x + cs / 2, y + cs / 2, cs * 0.16, "#f4c430", "#8a6d1f", 1)

    def square_refs(self) -> frozenset[str]:
        """The names of the city's squares (alleys and lanterns), kept per city."""
        city = self.token
        squares = _SQUARE_REFS.get(city)
        if squares is None:
            squares = _SQUARE_REFS.put(city, frozenset(
                square_label(r, c) for r, row in enumerate(self.obs["city"]["rows"])
                for c, ch in enumerate(row) if ch in ".L"))
        found: frozenset[str] = squares
        return found

    def draw_square_names(self, s: Svg) -> None:
        """Each square's name on the public layer (the printed one may be an image):
        what the log's words point at."""
        cs, w = self.cell, self.w
        for r, row in enumerate(self.obs["city"]["rows"]):
            for c, ch in enumerate(row):
                if ch in ".L":
                    x, y = self.xy(r * w + c)
                    s.add(f'<rect x="{x:g}" y="{y:g}" width="{cs:g}" height="{cs:g}" fill="none" '
                          f'pointer-events="none" data-ref="{square_label(r, c)}"/>')

    def draw_walls(self, s: Svg) -> None:
        """The walls, the section borders and the river."""
        obs, cs = self.obs, self.cell
        w, h, ox, oy = self.w, self.h, self.ox, self.oy
        for a, b in obs["city"]["walls"]:
            self.wall(s, a, b)
        # section borders (7 x 7 squares each)
        lines = [(self.pt(k * 7, 0), self.pt(k * 7, h)) for k in range(1, w // 7)] + [(self.pt(0, 7), self.pt(w, 7))]
        for (x1, y1), (x2, y2) in lines:
            s.add(f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="#6d6253" stroke-dasharray="5 4" '
                  f'pointer-events="none"/>')
        river = _esc(self.p.t("river").upper())
        if self.turned:   # the river along the top: the city's east edge
            s.add(f'<rect x="{ox:g}" y="2" width="{h * cs:g}" height="{RIVER_BAND}" fill="{RIVER}" rx="4"/>')
            s.add(f'<text x="{ox + h * cs / 2:g}" y="{RIVER_BAND - 3}" font-size="12" font-weight="bold" fill="#fff" '
                  f'text-anchor="middle">{river}</text>')
            return
        # the river along the east edge
        rx = ox + w * cs + 3
        s.add(f'<rect x="{rx}" y="{oy}" width="28" height="{h * cs}" fill="{RIVER}" rx="4"/>')
        s.add(f'<text x="{rx + 19}" y="{oy + h * cs / 2}" font-size="{FONT}" font-weight="bold" fill="#fff" '
              f'text-anchor="middle" transform="rotate(-90 {rx + 19} {oy + h * cs / 2})">{river}</text>')

    def wall(self, s: Svg, a: int, b: int) -> None:
        """The wall between squares ``a`` and ``b``."""
        w = self.w
        ra, ca = divmod(a, w)
        rb, cb = divmod(b, w)
        if ra == rb:   # a wall between two squares of a row
            (x1, y1), (x2, y2) = self.pt(max(ca, cb), ra), self.pt(max(ca, cb), ra + 1)
        else:
            (x1, y1), (x2, y2) = self.pt(ca, max(ra, rb)), self.pt(ca + 1, max(ra, rb))
        s.add(f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="{WALL}" '
              f'stroke-width="4" stroke-linecap="round" pointer-events="none"/>')

    def _shown_buildings(self) -> list[tuple[str, str, tuple[int, ...]]]:
        """The buildings on the board (id, type, squares)."""
        return [(bid, ty, tuple(cells)) for bid, (ty, cells) in sorted(self.obs["buildings"].items()) if cells]

    def hideouts(self) -> dict[str, int]:
        """Each hideout's owner."""
        return {b: p for p, b in enumerate(self.obs["hideouts"]) if b}

    def building_outline(self, s: Svg, bid: str, ty: str, cells: list[int], owner: int | None) -> None:
        """A printed building: its squares and outline."""
        cs = self.cell
        fill = TYPE_FILL.get(ty, "#ccc")
        for cell in cells:
            x, y = self.xy(cell)
            s.add(f'<rect x="{x}" y="{y}" width="{cs}" height="{cs}" fill="{fill}"/>')
        # every outer edge a segment of one path (each with its own square caps, as
        # separate lines would have): a building's outline in one element
        edges = self.outline(cells)
        if edges:
            s.add(f'<path d="{edges}" fill="none" stroke="#5b4a3a" stroke-width="2" stroke-linecap="square"/>')

    def hit(self, cell: int, svg: Svg | None = None) -> None:
        """A see-through square over the whole of ``cell`` (on ``svg``, else this
        drawing): a finger's target is the whole square, whatever is drawn on it."""
        x, y = self.xy(cell)
        (svg or self.svg).add(f'<rect x="{x:g}" y="{y:g}" width="{self.cell:g}" height="{self.cell:g}" fill="#fff" '
                     f'fill-opacity="0.01"/>')

    def outline(self, cells: Iterable[int]) -> str:
        """A building's outline as path data: each cell edge with no square of the
        same building beyond it (kept per geometry: the buildings never change)."""
        key = (self.geometry(), tuple(cells))
        got: str | None = _OUTLINES.get(key)
        if got is None:
            got = _OUTLINES.put(key, self._outline(key[1]))
        return got

    def _outline(self, cells: Iterable[int]) -> str:
        cs, cellset = self.cell, set(cells)
        edges = []
        for cell in cellset:
            x, y = self.xy(cell)
            r, c = divmod(cell, self.w)
            for d, (ddx, ddy) in enumerate(DXY):
                rr, cc = r + ddy, c + ddx
                if 0 <= rr < self.h and 0 <= cc < self.w and rr * self.w + cc in cellset:
                    continue
                dx, dy = self.dvec(d)
                x1 = x + (cs if dx > 0 else 0)
                y1 = y + (cs if dy > 0 else 0)
                x2 = x1 + (cs if dy != 0 else 0)
                y2 = y1 + (cs if dx != 0 else 0)
                edges.append(f"M{x1} {y1}L{x2} {y2}")
        return "".join(edges)

    def name_label(self, bid: str, cells: list[int], name: str) -> tuple[str, float, float, float, int]:
        """Where a building's name goes: (the name shown, its centre x, the label's
        top, its width, the font size)."""
        cs = self.cell
        cx, cy = self.building_center(bid)
        # the whole name where the building is wide enough, else its number
        # (the icon says the type; the legend and the log say the rest)
        xs = [self.xy(c)[0] for c in cells]
        room = max(xs) - min(xs) + cs - 4
        size = 12 if self.turned else FONT   # the phone's smaller squares: the smallest readable size
        if len(name) * size * 0.64 + 8 > room:
            name = name.rsplit(" ", 1)[-1]
        else:  # a whole name is centred on the building's width
            cx = (min(xs) + max(xs) + cs) / 2
        return name, cx, cy + 5, len(name) * size * 0.64 + 8, size

    def building_name(self, s: Svg, bid: str, ty: str, cells: list[int], owner: int | None, name: str) -> None:
        cx, cy = self.building_center(bid)
        s.text(cx, cy + 1, TYPE_ICON.get(ty, "?"), 17, "bold", INK, "middle")
        name, cx, _, tw, size = self.name_label(bid, cells, name)
        s.add(f'<rect x="{cx - tw / 2:.1f}" y="{cy + 5}" width="{tw:.1f}" height="{size + 4}" rx="4" '
              f'fill="{seat_color(owner) if owner is not None else "#fffaf0"}" '
              f'fill-opacity="{1 if owner is not None else 0.9}" pointer-events="none"/>')
        s.text(cx, cy + 5 + size, name, size, "bold", "#fff" if owner is not None else INK, "middle")

    def draw_gates(self) -> None:
        """Villas and catacombs stand outside the city's north and south gates (the
        artwork a villa still holds is the public layer's: :meth:`draw_villas`)."""
        s, obs = self.svg, self.obs
        for sec in sorted(obs["villas"]):
            bid = f"villa{sec}"
            cell = obs["bcells"].get(bid, [None])[0]
            if cell is None:
                continue
            x, y, bw, bh = self.gate_box(cell)
            s.rect(x, y, bw, bh, TYPE_FILL["villa"], "#5b4a3a", 4, 1.5)
            if self.turned:   # a narrow upright box: the icon, the section, the artwork, one under another
                for k, word in enumerate((TYPE_ICON["villa"], str(sec))):
                    s.text(x + bw / 2, y + bh / 2 - 12 + 18 * k, word, FONT, "bold", INK, "middle")
            else:
                s.text(x + bw / 2, y + bh / 2 + 5, f"{TYPE_ICON['villa']} {self.p.place(bid)}", FONT, "bold",
                       INK, "middle")
        for sec, cell in sorted((obs["city"].get("catacombs") or {}).items()):
            x, y, bw, bh = self.gate_box(cell)
            s.rect(x, y, bw, bh, "#3b2f4a", "#1c1526", 4, 1.5)
            if self.turned:
                s.text(x + bw / 2, y + bh / 2 + 5, "∩", FONT + 2, "bold", "#efe6ff", "middle")
            else:
                s.text(x + bw / 2, y + bh / 2 + 5, "∩ " + self.p.t("catacombs"), FONT, "bold", "#efe6ff", "middle")

    # -- the city: what changes, the same for every viewer --------------------------------------
    def draw_city(self) -> None:
        """Over the printed city: the squares' names (for the log's words), the
        guards' fields of view, the hideouts, the buildings' and villas' names
        for the log, the artworks still in the villas (kept by what it shows)."""
        obs = self.obs
        self.section("city", _k(obs.get("sight"), obs["hideouts"], obs["villas"]), self._draw_city)

    def _draw_city(self) -> None:
        s, obs, cs = self.svg, self.obs, self.cell
        s.piece(_CITY, ("square names", self.token, self.geometry()), self.draw_square_names)
        # guards' fields of view (public): a red band on each square a guard sees
        seen: set[int] = set()
        for g, cells in (obs.get("sight") or {}).items():
            for cell in cells:
                seen.add(cell)
                x, y = self.xy(cell)
                s.add(f'<rect x="{x + 1}" y="{y + 1}" width="{cs - 2}" height="{cs - 2}" fill="{SIGHT}" '
                      f'fill-opacity="0.22" pointer-events="none"/>')
        if seen:
            self.draw_over_sight(s, seen)
        key = ("buildings", self.token, _k(obs["hideouts"]), self.geometry(), self.p.texts, self.p.lang)
        s.piece(_CITY, key, self.draw_building_refs)
        self.draw_villas()

    def draw_over_sight(self, s: Svg, seen: set[int]) -> None:
        """The printed walls and names a field of view reaches, again over its band
        (the printed city is under this layer; the band must not dim them)."""
        walls, names = self.over_sight()
        for a, b, markup in walls:
            if a in seen or b in seen:
                s.add(markup)
        hideouts = self.hideouts()   # their names are drawn over the bands anyway
        for bid, under, markup in names:
            if bid not in hideouts and not under.isdisjoint(seen):
                s.add(markup)

    def over_sight(self) -> tuple[list[tuple[int, int, str]], list[tuple[str, frozenset[int], str]]]:
        """Each wall (its squares, its markup) and each building's printed name (the
        squares its label lies over, its markup), worked out once per city."""
        key = (self.token, self.ctx)
        got = _OVER_SIGHT.get(key)
        if got is None:
            cs, scratch = self.cell, Svg(self.W, 100)
            walls = []
            for a, b in self.obs["city"]["walls"]:
                scratch.parts = []
                self.wall(scratch, a, b)
                walls.append((a, b, "".join(scratch.parts)))
            boxes = [(c, self.xy(c)) for c in range(self.w * self.h)]
            names = []
            for bid, ty, cells in self._shown_buildings():
                _, cx, top, tw, size = self.name_label(bid, list(cells), self.p.place(bid))
                under = frozenset(c for c, (x, y) in boxes if x < cx + tw / 2 and cx - tw / 2 < x + cs
                                  and y < top + size + 4 and top < y + cs)
                scratch.parts = []
                self.building_name(scratch, bid, ty, list(cells), None, self.p.place(bid))
                names.append((bid, under, "".join(scratch.parts)))
            got = _OVER_SIGHT.put(key, (walls, names))
        found: tuple[list[tuple[int, int, str]], list[tuple[str, frozenset[int], str]]] = got
        return found

    def draw_building_refs(self, s: Svg) -> None:
        """Each building as a group the log's words name (its outline in its guild's
        colour where it is a hideout, with its name; a recent event's mark is the
        viewer's layer's: :meth:`draw_city_targets`)."""
        hideouts = self.hideouts()
        for bid, ty, cells in self._shown_buildings():
            owner = hideouts.get(bid)
            s.add(f'<g class="building" data-ref="{bid}">')
            stroke = f'stroke="{seat_color(owner)}" stroke-width="5"' if owner is not None else 'stroke="none"'
            s.add(f'<path d="{self.outline(cells)}" fill="none" {stroke} stroke-linecap="square" '
                  f'pointer-events="none"/>')
            s.close()
        for bid, ty, cells in self._shown_buildings():
            if bid in hideouts:
                self.building_name(s, bid, ty, list(cells), hideouts[bid], self.p.place(bid))

    def draw_villas(self) -> None:
        """Each villa as a group the log names, with the artwork it still holds."""
        s, obs = self.svg, self.obs
        for sec, v in sorted(obs["villas"].items()):
            bid = f"villa{sec}"
            cell = obs["bcells"].get(bid, [None])[0]
            if cell is None:
                continue
            x, y, bw, bh = self.gate_box(cell)
            s.add(f'<g class="building" data-ref="{bid}">')
            s.rect(x, y, bw, bh, "none", "none", 4, 0, ' pointer-events="none"')
            if v.get("art"):
                if self.turned:
                    s.text(x + bw / 2, y + bh / 2 + 24, "▣", FONT, "bold", INK, "middle")
                else:
                    s.text(x + bw - 12, y + bh / 2 + 5, "▣", FONT, "bold", INK, "middle")
            if self.turned:
                s.add(f"<title>{_esc(self.p.place(bid))}</title>")
            s.close()

    # -- pieces -------------------------------------------------------------------------------
    def draw_pieces(self) -> None:
        """The townsfolk, then the thieves, each kept by what they show (a thief's
        step leaves the townsfolk as they were)."""
        obs = self.obs
        tu = obs.get("turn")
        solo = obs.get("solo") or {}
        key = _k(obs["townsfolk"], obs["badges"], obs["purses"], obs.get("sight"))
        self.section("figures", key, self.draw_figures)
        key = _k([[(th["pos"], th.get("wanted")) for th in ts] for ts in obs["thieves"]],
                 (tu["p"], tu["t"]) if tu else None, solo.get("rivals"))
        self.section("thieves", key, self.draw_thieves)

    def draw_figures(self) -> None:
        s, obs = self.svg, self.obs
        for fig, f in sorted(obs["townsfolk"].items()):
            sight = tuple((obs.get("sight") or {}).get(fig, [])) if fig[0] == "g" else ()
            # a figure is kept by everything it shows
            key = ("figure", self.p.texts, self.p.lang, self.geometry(), fig, f["cell"], f.get("face"),
                   bool(obs["badges"].get(fig)), bool(obs["purses"].get(fig)), sight)
            kind = {"g": "guard", "n": "noble"}.get(fig[0], "carriage")
            with s.moving(f"{kind}-{fig}", at=self.center(f["cell"])):
                s.piece(_PIECES, key, lambda sv: self.figure(sv, fig, f))

    def figure(self, s: Svg, fig: str, f: dict[str, Any]) -> None:
        """A guard (with its facing), a noble (with a purse) or the carriage."""
        obs, cs = self.obs, self.cell
        r = cs * 0.4
        cx, cy = self.center(f["cell"])
        label = self.p.fig(fig)
        s.open(None, fig, None, "figure")
        if fig[0] == "g":
            dx, dy = self.dvec(f["face"])
            tip = (cx + dx * cs * 0.62, cy + dy * cs * 0.62)
            left = (cx + dx * r * 0.6 - dy * r * 0.7, cy + dy * r * 0.6 + dx * r * 0.7)
            right = (cx + dx * r * 0.6 + dy * r * 0.7, cy + dy * r * 0.6 - dx * r * 0.7)
            s.add(f'<polygon points="{tip[0]:.1f},{tip[1]:.1f} {left[0]:.1f},{left[1]:.1f} '
                  f'{right[0]:.1f},{right[1]:.1f}" fill="#8b1a1a"/>')
            s.circle(cx, cy, r, "#b02a2a", "#fff", 1.5)
            s.text(cx, cy + 5, fig[1], FONT + 1, "bold", "#fff", "middle")
            if obs["badges"].get(fig):
                s.text(cx + r * 0.9, cy - r * 0.55, "★", FONT, "bold", "#f4f4f4", "middle")
        elif fig[0] == "n":
            s.circle(cx, cy, r, "#6a3d9a", "#fff", 1.5)
            s.text(cx, cy + 5, fig[1], FONT + 1, "bold", "#fff", "middle")
            if obs["purses"].get(fig):
                s.circle(cx + r * 0.85, cy - r * 0.7, r * 0.36, GOOD_COLOR["gold"], "#6b4f00", 1)
        else:
            s.rect(cx - r * 1.05, cy - r * 0.7, r * 2.1, r * 1.3, "#6b3f1d", "#fff", 3, 1.5)
            s.circle(cx - r * 0.55, cy + r * 0.65, r * 0.28, "#222", "#fff", 1)
            s.circle(cx + r * 0.55, cy + r * 0.65, r * 0.28, "#222", "#fff", 1)
            s.text(cx, cy + 4, "⛟", FONT, "bold", "#fff", "middle")
        if fig[0] == "g":  # pointing at a guard names the squares it sees
            seen = [square_label(*divmod(c, self.w)) for c in (obs.get("sight") or {}).get(fig, [])]
            label += f" ({p_dir(self.p, f['face'])}): " + (", ".join(seen) or "—")
        s.add(f"<title>{_esc(label)}</title>")
        s.close()

    def thief_places(self) -> dict[tuple[int, int], tuple[float, float]]:
        """Where each thief on the board is drawn: on its square, or side by side in
        its building."""
        obs, r = self.obs, self.cell * 0.4
        inside: dict[str, int] = {}
        places: dict[tuple[int, int], tuple[float, float]] = {}
        for p, ts in enumerate(obs["thieves"]):
            for t, th in enumerate(ts):
                pos = th["pos"]
                if pos is None:
                    continue
                if isinstance(pos, int):
                    places[p, t] = self.center(pos)
                    continue
                k = inside.get(pos, 0)
                inside[pos] = k + 1
                bx, by = self.building_center(pos)
                cx = bx + (k % 4 - 1.5) * r * 1.5
                cy = by - r * 1.5 - (k // 4) * r * 1.6
                # never outside the city (a building on its edge: the gates' row is beyond)
                (x0, y0), (x1, y1) = self.pt(0, 0), self.pt(self.w, self.h)
                places[p, t] = (min(max(cx, min(x0, x1) + r), max(x0, x1) - r),
                                min(max(cy, min(y0, y1) + r), max(y0, y1) - r))
        return places

    def draw_thieves(self) -> None:
        """The thieves: on a square, or side by side in a building (and the solo rivals)."""
        s, obs, cs = self.svg, self.obs, self.cell
        r = cs * 0.4
        tu = obs.get("turn")
        for (p, t), (cx, cy) in self.thief_places().items():
            active = bool(tu and tu["p"] == p and tu["t"] == t)
            wanted = bool(obs["thieves"][p][t].get("wanted"))
            # a thief is kept by everything it shows (most stand still from one move to the next)
            key = ("thief", self.ctx, p, t, cx, cy, active, wanted)
            s.piece(_PIECES, key, lambda sv: self.thief(sv, p, t, cx, cy, active, wanted))
        solo = obs.get("solo") or {}
        for rid, bid in sorted((solo.get("rivals") or {}).items()):
            if isinstance(bid, str) and bid in obs["buildings"]:
                bx, by = self.building_center(bid)
                s.circle(bx + r * 1.6, by + r * 1.4, r * 0.75, "#222", "#fff", 1.5)
                s.text(bx + r * 1.6, by + r * 1.4 + 5, f"R{rid}", FONT, "bold", "#fff", "middle")

    def thief(self, s: Svg, p: int, t: int, cx: float, cy: float, active: bool, wanted: bool) -> None:
        """Thief ``t`` of seat ``p`` at ``(cx, cy)``: a piece that moves, pointed at by its ref."""
        r = self.cell * 0.4
        label = f"{self.p.thief(p, t)} ({self.p.seat(p)})"
        s.add(piece_head(f"thief-{p + 1}-{t + 1}", None, None, (cx, cy)))
        s.open(None, f"p{p}t{t}", None, "thief")
        if active:
            s.circle(cx, cy, r * 1.25, "none", GLOW, 3)
        s.circle(cx, cy, r * 0.8, seat_color(p), "#fff" if not wanted else "#ff2d2d", 1.5 if not wanted else 3)
        s.text(cx, cy + 5, str(t + 1), FONT, "bold", "#fff", "middle")
        s.add(f"<title>{_esc(label)}</title>")
        s.close()
        s.close()

    # -- the city: the viewer's own targets -----------------------------------------------------
    def draw_city_targets(self) -> None:
        """Over the city, what this viewer may click: the buildings and villas it may
        go into or use, the figures it may rob or shoot, its acting thief; and the
        squares a recent event named."""
        s, obs, cs = self.svg, self.obs, self.cell
        recent = obs.get("recent") or ()
        if recent:
            self.draw_recent_places(set(recent))
        if not self.legal:
            return
        for bid, ty, cells in self._shown_buildings():
            action = self._building_action(bid)
            if action:
                self.building_target(s, list(cells), action)
        for sec in sorted(obs["villas"]):
            bid = f"villa{sec}"
            cell = obs["bcells"].get(bid, [None])[0]
            action = self._building_action(bid) if cell is not None else None
            if action:
                x, y, bw, bh = self.gate_box(cell)
                s.open(action, None, self.p.place(bid), "building")
                s.rect(x, y, bw, bh, "#fff", GLOW, 4, 4, ' fill-opacity="0.01"')
                s.close()
        for fig, f in sorted(obs["townsfolk"].items()):
            action = self._figure_action(fig)
            if action:
                cx, cy = self.center(f["cell"])
                s.open(action, None, self.p.action_text(obs, action), "figure")
                self.hit(f["cell"], s)
                s.circle(cx, cy, cs * 0.4, "none", GLOW, 3)
                s.close()
        tu = obs.get("turn")
        action = self.first_legal("move", "stop") if tu else None
        if tu and action:
            th = obs["thieves"][tu["p"]][tu["t"]]
            place = self.thief_places().get((tu["p"], tu["t"]))
            if place is not None:
                s.open(action, None, self.p.action_text(obs, "move"), "thief")
                if isinstance(th["pos"], int):
                    self.hit(th["pos"], s)
                s.add(f'<circle cx="{place[0]:g}" cy="{place[1]:g}" r="{cs * 0.32:g}" fill="#fff" '
                      f'fill-opacity="0.01"/>')
                s.close()

    def draw_recent_places(self, recent: set[str]) -> None:
        """The squares, buildings and villas a recent event named: marked for this
        viewer (what is recent is since its own last decision)."""
        s, obs, cs, w = self.svg, self.obs, self.cell, self.w
        for ref in sorted(recent & self.square_refs()):
            row, col = ord(ref[0]) - 65, int(ref[1:]) - 1
            x, y = self.xy(row * w + col)
            s.add(f'<rect x="{x:g}" y="{y:g}" width="{cs:g}" height="{cs:g}" fill="none" pointer-events="none" '
                  f'class="recent" data-ref="{ref}"/>')
        for bid in sorted(recent & obs["buildings"].keys()):
            cells = obs["buildings"][bid][1]
            if cells:
                s.add(f'<path d="{self.outline(cells)}" fill="none" stroke="none" pointer-events="none" '
                      f'class="recent" data-ref="{bid}"/>')
        for bid in sorted(recent & {f"villa{sec}" for sec in obs["villas"]}):
            cell = obs["bcells"].get(bid, [None])[0]
            if cell is not None:
                x, y, bw, bh = self.gate_box(cell)
                s.add(f'<rect x="{x:g}" y="{y:g}" width="{bw:g}" height="{bh:g}" fill="none" pointer-events="none" '
                      f'class="recent" data-ref="{bid}"/>')

    def building_target(self, s: Svg, cells: list[int], action: str) -> None:
        """A building the viewer may click: lit all round, one clickable square per
        cell, so a click anywhere on it counts."""
        cs = self.cell
        s.add(f'<path d="{self.outline(cells)}" fill="none" stroke="{GLOW}" stroke-width="5" '
              f'stroke-linecap="square" pointer-events="none"/>')
        label = self.p.action_text(self.obs, action)
        for cell in cells:
            x, y = self.xy(cell)
            s.open(action, None, label, "building-cell")
            s.add(f'<rect x="{x}" y="{y}" width="{cs}" height="{cs}" fill="#fff" fill-opacity="0.01"/>')
            s.close()

    def _building_action(self, bid: str) -> str | None:
        if not self.legal:   # every answer below is a legal action
            return None
        for a in (f"hideout {bid}", f"tp {bid}", f"hook {bid}", f"svenja {bid}"):
            if a in self.legal:
                return a
        tu = self.obs.get("turn")
        if tu and tu.get("p") == self.viewer:
            th = self.obs["thieves"][tu["p"]][tu["t"]]
            if th["pos"] == bid:
                # use the location the thief is in; clicking it again ends the visit
                return self.first_legal("use", "done" if tu.get("sub") else "")
        return None

    def _figure_action(self, fig: str) -> str | None:
        for a in (f"rob {fig}", f"crossbow {fig}", f"stars {fig}", f"bernhard {fig}"):
            if a in self.legal:
                return a
        return None

    def draw_building_badges(self) -> None:
        """A building aimed at by several actions (teleport, hook, Svenja) gets a badge per action."""
        if not self.legal:
            return
        for bid in self.obs["buildings"]:
            acts = [a for a in (f"tp {bid}", f"hook {bid}", f"svenja {bid}") if a in self.legal]
            if len(acts) < 2:
                continue
            cx, cy = self.building_center(bid)
            for k, a in enumerate(acts):
                label = self.p.t("do." + a.split()[0], place="", n="", fig="").strip(" :")
                self.svg.badge(cx - 30, cy - 30 - k * (FONT * 1.9), label, "#fff3c4", INK, a, None, FONT)

    def draw_routes(self) -> set[str]:
        """Every square and building the acting thief can reach this turn, one click
        each: the click's action is the route's first step, ``then`` the others, the
        path its preview; a costly route asks first (routes.py). Returns the single
        actions so placed (a step, an exit: no other target needed for them); every
        route's action is in ``route_actions`` (the tray offers none of them again)."""
        key = route_key(self.obs)
        if key is None:
            return set()
        # the layer is kept by what it is drawn from: the position (the routes' key),
        # the geometry and the language
        full = ("routes", key, self.geometry(), self.p.texts, self.p.lang)
        drawn: tuple[set[str], frozenset[str]] = self.svg.piece(_ROUTES, full, lambda sv: self.route_layer(sv, key))
        placed, self.route_actions = drawn
        return placed

    def route_layer(self, s: Svg, key: bytes) -> tuple[set[str], frozenset[str]]:
        """The routes' targets, drawn on ``s`` (see :meth:`draw_routes`); the single
        actions placed and every route's first action. Each route is clickable (its
        action is legal) for the one viewer this layer is drawn for, so its group is
        written as text, from kept parts: the words of a goal at a cost, the opening
        tag of an action with those words, the further steps, the goal's marks."""
        obs = self.obs
        routes = plan_routes(self.p.data, obs, key)
        placed: set[str] = set()
        if not routes:
            return placed, frozenset()
        tu = obs["turn"]
        here = obs["thieves"][tu["p"]][tu["t"]]["pos"]
        start = self.center(here) if isinstance(here, int) else self.building_center(here) if here else None
        # the path of each route as the page reads it: "x,y x,y ..." (Svg.open's data-path)
        start_text = _point(start) if start else ""
        cell_text = self.cell_points()
        # the squares reached with the points of the move under way (or of one move) glow;
        # those that need another action point are drawn lighter
        first_ap = 0 if tu.get("moving") else 1
        legal, building_action = self.legal, self._building_action
        looks = self.goal_looks()
        kit = self.route_kit(first_ap)
        out: list[str] = []
        actions: set[str] = set()
        for goal, route in sorted(routes.items(), key=lambda kv: str(kv[0])):
            acts = route.actions
            action = acts[0]
            if action not in legal or (isinstance(goal, str) and building_action(goal)):
                continue
            points = [start_text] if start_text else []
            points += [cell_text[c] for c in route.cells]
            if isinstance(goal, str):
                points.append(looks.point(goal))
            wkey = (action, goal, route.ap, route.vp, route.seen, route.watchers)
            got = kit.get(wkey)
            if got is None:
                got = kit[wkey] = self.route_parts(route, first_ap, looks)
            if len(acts) == 1:
                placed.add(action)
            actions.add(action)
            path = " ".join(points)
            out += [got[0], _then_attrs(acts[1:]), ' data-path="' + path + '"' if path else "", got[1]]
        s.add("".join(out))
        return placed, frozenset(actions)

    def route_kit(self, first_ap: int) -> dict[tuple[Any, ...], tuple[str, str]]:
        """The kept texts of this viewer's route groups (:meth:`route_parts`) by first
        action, goal and costs, per language, seat names, city and geometry, for
        routes whose move is under way (``first_ap`` 0) or not (1)."""
        p = self.p
        key = (p.texts, p.lang, tuple(p.names), self.token, self.geometry(), first_ap)
        got: dict[tuple[Any, ...], tuple[str, str]] | None = _ROUTE_WORDS.get(key)
        if got is None:
            got = _ROUTE_WORDS.put(key, {})
        return got

    def route_parts(self, route: Route, first_ap: int, looks: "_GoalLooks") -> tuple[str, str]:
        """A route's group as two texts around its gesture's steps and path: its
        opening tag up to them, then its question, its words and its goal's marks."""
        label, ask = self.route_words(route, first_ap)
        near = route.ap <= first_ap
        head, tail = _route_tag(route.actions[0], label, near)
        return head, (gesture_attrs(confirm=ask) if ask else "") + tail + looks.marks(route.goal, route.seen, near)

    def goal_looks(self) -> "_GoalLooks":
        """The kept marks and path ends of the goals of this city and geometry."""
        key = (self.token, self.geometry())
        got: _GoalLooks | None = _GOAL_MARKS.get(key)
        if got is None:
            # a board of the public view keeps them: the kept marks outlive this
            # viewer's drawing and must hold nothing but the printed city's
            got = _GOAL_MARKS.put(key, _GoalLooks(Board(self.p, public_view(self.obs), self.W, "public")))
        return got

    def goal_marks(self, goal: int | str, seen: bool, near: bool) -> str:
        """What a route's group holds, closed: its goal's square lit (red where a
        guard sees it; lighter when another action point is needed) or its
        building clickable all over."""
        cs = self.cell
        out: list[str] = []
        if isinstance(goal, int):
            x, y = self.xy(goal)
            out.append(f'<rect x="{x:g}" y="{y:g}" width="{cs:g}" height="{cs:g}" fill="#fff" fill-opacity="0.01"/>')
            colour = SIGHT if seen else STEP_COLOR
            out.append(f'<rect x="{x + 2}" y="{y + 2}" width="{cs - 4}" height="{cs - 4}" rx="4" fill="{colour}" '
                       f'fill-opacity="{0.42 if near else 0.16}" stroke="{colour}" '
                       f'stroke-width="{2.5 if near else 1.2}"'
                       + ('' if near else ' stroke-dasharray="3 2"') + "/>")
        else:
            # a building: clickable all over, its outline green (its name stays readable)
            for bx, by, bw, bh in self.goal_boxes(goal):
                out.append(f'<rect x="{bx}" y="{by}" width="{bw}" height="{bh}" fill="#fff" fill-opacity="0.01"/>')
            # (one reached with another action point shows its path on pointing only: the
            # squares around it already say how far the thief goes)
            if near and goal.startswith("villa"):
                bx, by, bw, bh = self.goal_boxes(goal)[0]
                out.append(f'<rect x="{bx}" y="{by}" width="{bw}" height="{bh}" rx="4" fill="none" '
                           f'stroke="{STEP_COLOR}" stroke-width="2.5"/>')
            elif near:
                edges = self.outline(self.obs["buildings"][goal][1])
                out.append(f'<path d="{edges}" fill="none" stroke="{STEP_COLOR}" stroke-width="2.5" '
                           f'pointer-events="none"/>')
        out.append("</g>")
        return "".join(out)

    def cell_points(self) -> dict[int, str]:
        """Each square's centre as a route's path writes it, kept per geometry."""
        key = ("points", self.geometry())
        got: dict[int, str] | None = _POINTS.get(key)
        if got is None:
            got = _POINTS.put(key, {c: _point(self.center(c)) for c in range(self.w * self.h)})
        return got

    def route_words(self, route: Route, first_ap: int) -> tuple[str, str | None]:
        """A route's label and the question it asks first."""
        return self.p.route_text(self.obs, route), self.p.route_question(self.obs, route, first_ap)

    def goal_boxes(self, bid: str) -> list[tuple[float, float, float, float]]:
        """Where a click means "go into building ``bid``": its squares, or a villa's box."""
        if bid.startswith("villa"):
            cell = self.obs["bcells"].get(bid, [0])[0]
            return [self.gate_box(cell)]
        cs = self.cell
        return [(*self.xy(c), cs, cs) for c in self.obs["buildings"][bid][1]]

    def draw_targets(self) -> None:
        """Squares the viewer may click: steps, exits, jumps, catacombs, quays, and
        badges beside a figure where one target has several actions."""
        s, obs, cs = self.svg, self.obs, self.cell
        tu = obs.get("turn")
        tm = obs.get("tmove")
        if tm and tm.get("opts") and tm.get("mover") == self.viewer:
            cx, cy = self.center(tm["cell"])
            s.circle(cx, cy, cs * 0.62, "none", GLOW, 3)
            # each way on is the whole square beyond the crossing, with its arrow
            for d in tm["opts"]:
                dx, dy = self.dvec(d)
                action = f"go {'nesw'[d]}"
                tx, ty = cx + dx * cs, cy + dy * cs
                s.open(action, None, self.p.action_text(obs, action), "target")
                s.rect(tx - cs / 2, ty - cs / 2, cs, cs, GLOW, "#fff", 5, 2,
                       ' fill-opacity="0.85"')
                s.text(tx, ty + 6, self.arrow(d), FONT + 4, "bold", INK, "middle")
                s.close()
            return
        if not tu or tu.get("p") != self.viewer:
            return
        routed = self.draw_routes()
        aims: dict[int, list[str]] = {}
        th = obs["thieves"][tu["p"]][tu["t"]]
        if isinstance(th["pos"], int):
            r, c = divmod(th["pos"], self.w)
            for d in obs.get("steps") or []:
                dx, dy = DXY["nesw".index(d)]
                if 0 <= r + dy < self.h and 0 <= c + dx < self.w and d not in routed:
                    aims.setdefault((r + dy) * self.w + c + dx, []).append(d)
        for a in obs.get("targets") or []:
            verb, _, arg = a.partition(" ")
            arg = arg.split(" ")[0]
            if a in routed:
                continue
            if verb in ("exit", "jin") or (verb == "tp" and "." in arg):
                aims.setdefault(_cell(arg, self.w), []).append(a)
            elif verb == "cata":
                cell = (obs["city"].get("catacombs") or {}).get(arg)
                if isinstance(cell, int):
                    aims.setdefault(cell, []).append(a)
        for cell, acts in aims.items():
            x, y = self.xy(cell)
            n = len(acts)
            for k, a in enumerate(acts):
                part = (cs - 4) / n
                s.open(a, None, self.p.action_text(obs, a), "target")
                if n == 1:
                    self.hit(cell)
                s.add(f'<rect x="{x + 2 + k * part:.1f}" y="{y + 2}" width="{part:.1f}" height="{cs - 4}" rx="4" '
                      f'fill="{STEP_COLOR}" fill-opacity="0.45" stroke="{STEP_COLOR}" stroke-width="3"/>')
                s.close()
        # figures with several actions (rob a noble: gold or gem...) get a badge per action
        multi: dict[str, list[str]] = {}
        for a in obs.get("targets") or []:
            parts = a.split()
            if parts[0] in ("rob", "crossbow", "stars", "bernhard") and len(parts) >= 2:
                multi.setdefault(parts[1], []).append(a)
        for fig, acts in multi.items():
            if len(acts) < 2 or fig not in obs["townsfolk"]:
                continue
            cx, cy = self.center(obs["townsfolk"][fig]["cell"])
            bx = cx + cs * 0.5
            for k, a in enumerate(acts):
                parts = a.split()
                label = self.p.good(parts[2]) if len(parts) > 2 and parts[2] in GOODS else \
                    self.p.action_text(obs, a).split("(")[0].strip()
                s.badge(bx, cy - cs * 0.5 + k * (FONT * 1.9), label, "#fff3c4", INK, a, None, FONT)

    # -- below the city ---------------------------------------------------------------------
    def draw_upper_panels(self, y: float) -> float:
        """The public panels right under the city: the night, whose turn, the plans
        (each kept by what it shows)."""
        obs = self.obs
        tu = obs.get("turn")
        turn = (tu.get("p"), tu.get("t"), tu.get("ap", 0), bool(tu.get("moving")), tu.get("mp", 0)) if tu else None
        key = _k(y, obs.get("nights", 6), obs.get("round"), turn, bool(obs.get("terminal")), obs.get("solo_stars"),
                 obs.get("solo"))
        y = self.section("status", key, lambda: self.draw_status(y))
        if obs.get("phase") not in ("plan", "action"):
            return y
        key = _k(y, obs.get("phase"), len(obs["vp"]), obs["plans"], turn and turn[:2], bool(obs.get("solo")))
        y, rows = self.section("plans", key, lambda: (self.draw_plans(y), dict(self.plan_rows)))
        self.plan_rows = dict(rows)
        return y

    def draw_lower_panels(self, y: float) -> float:
        """The public panels under the viewer's own: every guild, the townsfolk,
        the display, the legend (each kept by what it shows)."""
        obs = self.obs
        y = self.draw_others(y)
        key = _k(y, sorted(obs["townsfolk"]), obs["badges"], obs["purses"], obs["smugglers"], obs["dungeon"])
        y = self.section("townsfolk", key, lambda: self.draw_townsfolk(y))
        y = self.section("display", _k(y, obs["display"], obs["equip_deck"]), lambda: self.draw_display(y))
        return self.draw_legend(y)

    def draw_own_panels(self, y: float, placed: set[str]) -> float:
        """The viewer's panels between the public ones (``placed``: the actions the
        public layer offers): the choices of the moment, the planning tiles left,
        the cards to choose, the viewer's guild."""
        mark, top = len(self.svg.parts), y
        y = self.draw_tiles_left(y)
        y = self.draw_choice_cards(y)
        y = self.draw_guild(y)
        return self.add_tray(y, mark, top, placed)

    def add_tray(self, y: float, mark: int, top: float, placed: set[str]) -> float:
        """Whatever the drawing has no place for yet (a location's own choices: fill
        the purse, buy brandy, meet the clients...) is offered first, as labelled
        pieces of the board. ``placed``: the actions the public layer offers; the
        viewer's are read from the offers of its layer (the kit records them)."""
        if not self.legal:   # nothing to offer
            return y
        placed = placed | self.route_actions | {p.action for p in self.svg.parts if type(p) is Offer and p.action}
        rest = [a for a in self.obs.get("legal") or () if a in self.legal and a not in placed]
        if not rest:
            return y
        parts, self.svg.parts = self.svg.parts, []
        h = self.draw_tray(top, rest) - top
        tray, self.svg.parts = self.svg.parts, parts
        self.svg.parts[mark:] = tray + [f'<g transform="translate(0 {h:g})">'] + self.svg.parts[mark:] + ["</g>"]
        return y + h

    def draw_tray(self, y: float, acts: list[str]) -> float:
        s, obs, p = self.svg, self.obs, self.p
        tu = obs.get("turn") or {}
        sub = (tu.get("sub") or {}).get("kind")
        title = p.t(f"prompt.sub.{sub}") if sub else p.t("ui.more")
        s.text(12, y + 18, title[:1].upper() + title[1:] + ":", FONT + 1, "bold")
        x, y = 12 + len(title) * (FONT + 1) * 0.6 + 16, y + 2
        for a in acts:
            label = p.action_text(obs, a)
            w = badge_width(label)
            if x + w > self.W - 10:
                x, y = 12, y + 30
            s.badge(x, y, label, "#fff3c4", INK, a, None, FONT)
            x += w + 8
        return y + 34

    def draw_status(self, y: float) -> float:
        s, obs, p = self.svg, self.obs, self.p
        y += 8
        s.text(12, y + 18, p.t("ui.night"), FONT + 1, "bold")
        nights = obs.get("nights", 6)
        for k in range(1, nights + 1):
            cur = k == obs.get("round")
            s.circle(100 + (k - 1) * 34, y + 13, 13, "#1f2d4d" if cur else "#d8d0bf", INK, 1.5 if cur else 1)
            s.text(100 + (k - 1) * 34, y + 18, str(k), FONT, "bold", "#fff" if cur else INK, "middle")
        x = 100 + nights * 34 + 10
        if self.narrow:   # the phone: whose turn it is on a line of its own
            x, y = 12, y + 32
        tu = obs.get("turn")
        if tu and not obs.get("terminal"):
            text = p.t("ui.turn", thief=p.thief(tu["p"], tu["t"]), player=p.seat(tu["p"]), ap=tu.get("ap", 0))
            if tu.get("moving"):
                text += " · " + p.t("ui.moves", mp=tu.get("mp", 0))
            # bold letters are about 0.62 em wide: a line too long for the room takes two
            room = self.W - x - 12
            lines = wrap(text, room - 16, FONT * 1.11) if len(text) * FONT * 0.62 + 14 > room else [text]
            if len(lines) > 1:
                s.rect(x, y, room, 44, seat_color(tu["p"]), INK, 13)
                for k, line in enumerate(lines[:2]):
                    s.text(x + 8, y + 18 + 18 * k, line, FONT, "bold", "#fff")
                y += 18
            else:
                s.rect(x, y, 14 + len(text) * FONT * 0.62, 26, seat_color(tu["p"]), INK, 13)
                s.text(x + 6, y + 18, text, FONT, "bold", "#fff")
        elif obs.get("terminal") and obs.get("solo_stars") is not None:
            s.text(x, y + 18, p.t("ui.stars", n=obs["solo_stars"]) + " " + "★" * int(obs["solo_stars"]), FONT + 1,
                   "bold")
        y += 34
        solo = obs.get("solo")
        if solo:
            y = self.draw_solo(y, solo)
        return y

    def draw_solo(self, y: float, solo: dict[str, Any]) -> float:
        s, p = self.svg, self.p
        label = p.t("ui.solo") + ":"
        s.text(12, y + 18, label, FONT, "bold")
        side = solo.get("side", "first")
        s.text(24 + len(label) * FONT * 0.62, y + 18, p.t(f"ui.compass.{side}"), FONT)
        roll = solo.get("roll") or 0
        if roll:
            d = {1: "n", 2: "n", 3: "e", 4: "e", 5: "s", 6: "s", 7: "w", 8: "w"}[roll]
            s.die(self.W - 300, y, 30, "#fff", INK, str(roll), ref=solo.get("board"))
            s.text(self.W - 262, y + 20, p.t("ui.d8", roll=roll, dir=p.term("dir", d)), FONT, "normal")
        return y + 38

    def plan_slots(self) -> tuple[int, float, float]:
        """The plan rows' slots: how many, where the first begins, how wide each is."""
        slots = 3 if self.obs.get("solo") else 4
        # the phone: each seat's name above its slots, which take the whole width
        sx = 12 if self.narrow else 172
        return slots, sx, (self.W - sx - 12 - 8 * slots) / slots

    def draw_plans(self, y: float) -> float:
        """Every seat's plan row as everyone sees it (a plan laid face down shows
        "?"; the viewer's own tiles are its layer's: :meth:`draw_own_plan`)."""
        s, obs, p = self.svg, self.obs, self.p
        if obs.get("phase") not in ("plan", "action"):
            return y
        slots, sx, sw = self.plan_slots()
        s.text(12, y + 16, p.t("ui.plan"), FONT + 1, "bold")
        y += 24
        for q in range(len(obs["vp"])):
            if self.narrow:
                s.rect(12, y, self.W - 24, 22, seat_color(q), INK, 6)
                s.text(20, y + 16, p.seat(q)[:30], FONT, "bold", "#fff")
                y += 26
            else:
                s.rect(12, y, 150, 40, seat_color(q), INK, 6)
                s.text(20, y + 25, p.seat(q)[:18], FONT, "bold", "#fff")
            self.plan_rows[q] = y
            for k in range(slots):
                self.plan_slot(q, k, sx + k * (sw + 8), y, sw, obs["plans"][q])
            y += 46
        return y + 6

    def plan_slot(self, q: int, k: int, x: float, y: float, sw: float, laid: str | None) -> None:
        """Slot ``k`` of seat ``q``'s plan row (``laid``: its tiles, "placed" face down, or None)."""
        s, obs, p = self.svg, self.obs, self.p
        tu = obs.get("turn")
        tile = laid[k] if laid and laid != "placed" and k < len(laid) else None
        # the tile whose thief acts now is lit; its owner clicks it to end the turn (its layer)
        acting = bool(tu and obs.get("phase") == "action" and tu["p"] == q and tile == str(tu["t"] + 1))
        # a slot with a tile the viewer can read is that tile; a face-down one is its place only
        s.add(piece_head(f"plan-{q + 1}-tile-{k + 1}", f"tile-{tile}", None, None) if tile else
              piece_head(slot_pid(f"plan-{q + 1}", k + 1)))
        s.open(None, None, None, "tile")
        s.rect(x, y, sw, 40, "#f6e7a8" if acting else "#fffaf0" if tile else "#ece4d3",
               GLOW if acting else INK, 6, 3 if acting else 1.2,
               "" if tile or laid == "placed" else ' stroke-dasharray="4 3"')
        if tile:
            self.tile_label(x + sw / 2, y + 25, sw, p.term("tile", tile))
        elif laid == "placed":
            s.text(x + sw / 2, y + 25, "?", FONT + 2, "bold", MUTED, "middle")
        else:
            s.text(x + sw / 2, y + 25, p.t("ui.slot", n=k + 1), FONT, "normal", MUTED, "middle")
        s.close()
        s.close()

    def draw_own_plan(self, rows: dict[int, float]) -> None:
        """Over the viewer's plan row (``rows``: where the public layer drew each):
        its own tiles while the others' are face down; the tile of its acting
        thief, clicked to end the turn."""
        s, obs, v = self.svg, self.obs, self.viewer
        if v is None or v not in rows:
            return
        slots, sx, sw = self.plan_slots()
        y = rows[v]
        if obs.get("phase") == "plan":
            laid = obs["plans"][v] if obs["plans"][v] is not None else obs.get("planning")
            for k in range(len(laid or "")):
                self.plan_slot(v, k, sx + k * (sw + 8), y, sw, laid)
            return
        tu = obs.get("turn")
        plan = obs["plans"][v]
        if "end" in self.legal and tu and tu["p"] == v and plan and plan != "placed":
            for k, tile in enumerate(plan[:slots]):
                if tile == str(tu["t"] + 1):
                    s.open("end", None, self.p.action_text(obs, "end"), "tile")
                    s.rect(sx + k * (sw + 8), y, sw, 40, "#fff", GLOW, 6, 3, ' fill-opacity="0.01"')
                    s.close()

    def draw_tiles_left(self, y: float) -> float:
        """The planning tiles the viewer has not laid yet, to lay one."""
        s, obs, p = self.svg, self.obs, self.p
        if self.viewer is None or obs.get("phase") != "plan" or obs["plans"][self.viewer] is not None:
            return y
        _slots, sx, sw = self.plan_slots()
        tiles = "123" if obs.get("solo") else "123P"
        left = [x for x in tiles if x not in (obs.get("planning") or "")]
        s.text(12, y + 22, p.t("ui.tiles_left"), FONT, "bold")
        if self.narrow:
            y += 30
        for k, tile_id in enumerate(left):
            a = f"plan {tile_id}"
            bx = sx + k * (sw + 8)
            with s.moving(f"tiles-{self.viewer + 1}-{tile_id}", f"tile-{tile_id}"):
                s.open(a, None, p.action_text(obs, a), "tile")
                s.rect(bx, y, sw, 36, "#f6e7a8", GLOW if a in self.legal else INK, 6,
                       3 if a in self.legal else 1)
                self.tile_label(bx + sw / 2, y + 23, sw, p.term("tile", tile_id))
                s.close()
        if self.narrow:
            y += 44
            s.text(12, y + 14, p.t("ui.plan_secret"), FONT, "normal", MUTED)
            y -= 14
        else:
            s.text(sx + len(left) * (sw + 8) + 4, y + 23, p.t("ui.plan_secret"), FONT, "normal", MUTED)
        return y + 50

    def tile_label(self, cx: float, y: float, w: float, label: str) -> None:
        """A plan tile's name centred on baseline ``y``; on a narrow slot (a phone)
        a long name takes two lines."""
        lines = wrap(label, w - 6, 12 * 1.1) if self.narrow else [label]   # bold 12 px, as drawn
        if len(lines) == 1:
            self.svg.text(cx, y, label, FONT, "bold", INK, "middle")
            return
        for k, line in enumerate(lines[:2]):
            self.svg.text(cx, y - 7 + 14 * k, line, 12, "bold", INK, "middle")

    def draw_choice_cards(self, y: float) -> float:
        """Cards the viewer chooses among now: draft hand, kept cards to buy,
        clients, the artwork reward's two cards."""
        s, obs, p = self.svg, self.obs, self.p
        dr = obs.get("draft")
        tu = obs.get("turn")
        sub = (tu or {}).get("sub") or {}
        cw: float = 215
        ch: float = 128
        if self.narrow:   # the phone: two cards a row
            cw = (self.W - 24 - 10) / 2
        per = 2 if self.narrow else 99

        def at(k: int, y: float, step: float) -> tuple[float, float]:
            return 12 + (k % per) * (cw + 10), y + (k // per) * step

        if dr and self.viewer is not None and obs.get("phase") == "draft" and dr["hand"]:
            s.text(12, y + 16, p.t("ui.hand"), FONT + 1, "bold")
            y += 24
            chd = self.card_height(cw, [p.t(f"effect.{c.split('.')[0]}") for c in dr["hand"]], ch)
            for k, c in enumerate(dr["hand"]):
                e = c.split(".")[0]
                x, yy = at(k, y, chd + 10)
                self.equipment_card(x, yy, cw, chd, e, f"keep {e}", f"draft-{e}-{dr['hand'][:k].count(c) + 1}")
            y += ((len(dr["hand"]) + per - 1) // per) * (chd + 10)
        if dr and self.viewer is not None and obs.get("phase") == "buy" and dr["kept"]:
            # two clicks: pick a card here, then the thief who takes it in the guild panel
            s.text(12, y + 16, p.t("ui.pick_card"), FONT + 1, "bold")
            y += 24
            texts = [p.t(f"effect.{c.split('.')[0]}") for c in dr["kept"]]
            chk = self.card_height(cw, texts, ch)
            buyable = [k for k, c in enumerate(dr["kept"])
                       if any(f"buy {c.split('.')[0]} {t + 1}" in self.legal for t in range(3))]
            for k, c in enumerate(dr["kept"]):
                e = c.split(".")[0]
                x, yy = at(k, y, chk + 10)
                key = f"buy-{k + 1}"
                if k in buyable:
                    self.buy_picks.append((key, e))
                    s.picker(key, p.t("ui.pick_this", card=p.card_name(e)), default=len(buyable) == 1, ref=e)
                self.equipment_card(x, yy, cw, chk, e, None, f"kept-{e}-{dr['kept'][:k].count(c) + 1}",
                                    glow=k in buyable)
                if k in buyable:
                    s.close()
            y += ((len(dr["kept"]) + per - 1) // per) * (chk + 10)
        if tu and tu.get("p") == self.viewer and sub.get("kind") == "clients":
            s.text(12, y + 16, p.t("ui.clients"), FONT + 1, "bold")
            y += 24
            revealed = obs.get("revealed", [])
            ch = self.card_height(cw, [p.t(f"effect.{p.client_power(c)}") for c in revealed], ch)
            for k, c in enumerate(revealed):
                x, yy = at(k, y, ch + 40 + (30 if self.narrow else 0))
                with s.moving(f"client-{c}"):
                    self.client_card(x, yy, cw, ch, c)
                cost = self.p.data.clients[c].cost
                bx = s.badge(x, yy + ch + 4, p.t("ui.ally_btn", cost=cost), "#fff3c4", INK, f"ally {c}", None, FONT)
                if self.narrow:   # the two buttons one under the other
                    s.badge(x, yy + ch + 34, p.t("ui.brawl_btn"), "#f3d4d4", INK, f"brawl {c}", None, FONT)
                else:
                    s.badge(bx + 6, yy + ch + 4, p.t("ui.brawl_btn"), "#f3d4d4", INK, f"brawl {c}", None, FONT)
            y += max(1, (len(revealed) + per - 1) // per) * (ch + 40 + (30 if self.narrow else 0))
        if tu and tu.get("p") == self.viewer and sub.get("kind") == "artdraw" and isinstance(sub.get("cards"), list):
            s.text(12, y + 16, p.t("ui.artdraw"), FONT + 1, "bold")
            y += 24
            ch = self.card_height(cw, [p.t(f"effect.{c.split('.')[0]}") for c in sub["cards"]], ch)
            for k, c in enumerate(sub["cards"]):
                e = c.split(".")[0]
                x, yy = at(k, y, ch + 10)
                self.equipment_card(x, yy, cw, ch, e, f"keep {e}")
            y += max(1, (len(sub["cards"]) + per - 1) // per) * (ch + 10)
        return y

    @staticmethod
    def card_height(w: float, texts: list[str], least: float) -> float:
        """The height of a row of cards ``w`` wide that shows every effect text whole
        (the kit's card fits ``(h - 3.7 size) / 1.22 size`` lines of it; never cut)."""
        lines = max((len(wrap(t, w - 12, CARD_FONT - 1)) for t in texts), default=1)
        return max(least, round(CARD_FONT * (3.7 + 1.22 * lines)) + 2)

    def equipment_card(self, x: float, y: float, w: float, h: float, e: str, action: str | None,
                       pid: str | None = None, glow: bool = False) -> None:
        """An equipment card; ``pid`` its stable id (any card ``e`` is of the kind ``card-e``);
        ``glow``: lit as the first click of a two-click choice. Its effect is never cut:
        the card grows to hold it."""
        eq = self.p.data.equipment[e]
        body = self.p.t(f"effect.{e}")
        h = self.card_height(w, [body], h)
        name, size = self.p.card_name(e), CARD_FONT
        corner: str | None = f"{eq.cost}●"
        footer = self.p.t("ui.vp", vp=f"+{eq.vp}")
        # a name too long for a narrow card's band: the cost goes to the foot, then a size smaller
        if wrap(name, w - 12 - size * 2.2, size)[0] != name:
            corner, footer = None, f"{eq.cost}● · {footer}"
            if wrap(name, w - 12, size)[0] != name:
                size = CARD_FONT - 1
        with self.svg.moving(pid, f"card-{e}"):
            self.svg.card(x, y, w, h, name, body,
                          action=self.offered(action), ref=e, band="#5b4a3a",
                          corner=corner, footer=footer, size=size)
        if glow:
            self.svg.rect(x - 2, y - 2, w + 4, h + 4, "none", GLOW, 8, 3)

    def client_card(self, x: float, y: float, w: float, h: float, c: str, action: str | None = None) -> None:
        cl = self.p.data.clients[c]
        power = self.p.client_power(c)
        h = self.card_height(w, [self.p.t(f"effect.{power}")], h)
        self.svg.card(x, y, w, h, self.p.term("client", c), self.p.t(f"effect.{power}"),
                      action=self.offered(action), ref=c, band="#2e5e4e",
                      corner=f"{cl.cost}●", footer=self.p.t("ui.vp", vp=f"+{cl.vp}"), size=CARD_FONT)

    def inventory(self, x: float, y: float, inv: dict[str, Any], actions: Any = None,
                  drops: bool = False, where: str | None = None) -> float:
        """Goods as icons with counts; returns the x after them. ``actions(g)`` gives
        the legal action a click on good ``g`` makes (an artwork id for artworks);
        ``drops`` adds a small discard mark under each good."""
        s = self.svg
        items = [(g, inv.get(g, 0)) for g in GOODS if inv.get(g)]
        items += [(a, 1) for a in inv.get("art", [])]
        if not items:
            s.text(x, y + 14, self.p.t("ui.empty"), FONT, "normal", MUTED)
            return x + 50
        for g, n in items:
            action = actions(g) if actions else None
            label = self.p.action_text(self.obs, action) if action else None
            art = g.startswith("art")
            # goods: a pile per place ("good-dungeon-gem", ×n); an artwork is one piece
            with s.moving((g if art else f"good-{where}-{g}") if where else None,
                          None if art else f"good-{g}", None if art else n):
                s.open(action, None, label, "good")
                lit = action in self.legal
                s.rect(x, y - 2, 42, 24, "#fffaf0" if lit else "none", GLOW if lit else "none", 4,
                       2 if lit else 0)
                self.good_icon(x + 9, y + 9, "art" if art else g)
                s.text(x + 20, y + 15, f"×{n}" if not art else "", FONT, "bold")
                s.close()
            drop = f"drop {g}"
            if drops and drop in self.legal:
                s.open(drop, None, self.p.action_text(self.obs, drop), "drop")
                s.circle(x + 38, y + 1, 7, "#fff", "#a31515", 1.2)
                s.text(x + 38, y + 5.5, "×", FONT, "bold", "#a31515", "middle")
                s.close()
            x += 48
        return x

    def offered(self, action: str | None) -> str | None:
        """The action a piece offers: in the public layer to whoever may make it
        (decided per viewer when rendered), in the viewer's only if legal for them."""
        return action if self.mode == "public" or action in self.legal else None

    def first_legal(self, *acts: str) -> str | None:
        return next((a for a in acts if a in self.legal), None)

    def good_icon(self, cx: float, cy: float, g: str) -> None:
        s = self.svg
        col = GOOD_COLOR[g]
        if g == "gold":
            s.circle(cx, cy, 7, col, "#6b4f00", 1)
        elif g == "gem":
            s.add(f'<polygon points="{cx},{cy - 8} {cx + 7},{cy} {cx},{cy + 8} {cx - 7},{cy}" fill="{col}" '
                  f'stroke="#0d4f5e"/>')
        elif g in ("brandy", "wine"):
            s.add(f'<rect x="{cx - 4}" y="{cy - 5}" width="8" height="13" rx="2" fill="{col}" stroke="#222"/>'
                  f'<rect x="{cx - 1.5}" y="{cy - 9}" width="3" height="5" fill="{col}" stroke="#222"/>')
        elif g == "badge":
            s.text(cx, cy + 6, "★", 16, "bold", col, "middle")
        else:
            s.rect(cx - 8, cy - 7, 16, 14, "#f1d27a", col, 2, 2)

    def draw_guild(self, y: float) -> float:
        """The viewer's own guild, kept by the viewer's own slice of the observation,
        its legal actions and the card picked first (while it acts, by the whole
        position its action words read: the turn, every thief, its planning)."""
        obs, v = self.obs, self.viewer
        if v is None:
            return y
        tu = obs.get("turn") or {}
        acting = _k(obs.get("turn"), obs["thieves"], obs.get("planning")) if self.legal else None
        key = (y, v, frozenset(self.legal), tuple(self.buy_picks), acting,
               _k(obs["hideouts"][v], obs["vp"][v], obs["stash"][v], obs["stamina"][v], obs["thieves"][v],
                  tu.get("p"), tu.get("t")))
        end: float = self.section("guild", key, lambda: self._draw_guild(y))
        return end

    def _draw_guild(self, y: float) -> float:
        s, obs, p = self.svg, self.obs, self.p
        v = self.viewer
        assert v is not None
        # the phone: the thieves one under another, the hideout on a second line
        colw = self.W - 24 if self.narrow else (self.W - 24 - 20) / 3
        col = seat_color(v)
        hide = obs["hideouts"][v]
        head = p.t("ui.your_guild", player=p.seat(v)) + " · " + p.t("ui.vp", vp=obs["vp"][v])
        where = p.t("hideout") + ": " + p.place(hide) if hide else ""
        if self.narrow and where:
            s.rect(6, y, self.W - 12, 48, col, INK, 6)
            s.text(14, y + 20, head, FONT + 1, "bold", "#fff")
            s.text(14, y + 40, where, FONT, "bold", "#fff")
            y += 18
        else:
            if where:
                head += " · " + where
            s.rect(6, y, self.W - 12, 30, col, INK, 6)
            s.text(14, y + 20, head, FONT + 1, "bold", "#fff")
        y += 36
        # the hideout's inventory (click a good to take it) and the stamina marker
        s.text(14, y + 16, p.t("ui.hideout_stash"), FONT, "bold")
        xe = self.inventory(100, y + 2, obs["stash"][v], lambda g: self.first_legal(f"fetch {g}"),
                            where=f"stash{v + 1}")
        stamina = not obs["stamina"][v]
        s.open("stamina" if "stamina" in self.legal else None, "stamina", p.action_text(obs, "stamina"), "stamina")
        sx = max(xe + 30, 420)
        if self.narrow:   # the stamina marker on a line of its own
            sx, y = 26, y + 28
        s.circle(sx, y + 11, 12, "#f4c430" if stamina else "#ccc", INK, 1.5)
        s.text(sx, y + 16, "+1", FONT, "bold", INK, "middle")
        s.text(sx + 18, y + 16, p.t("do.stamina"), FONT, "normal", INK if stamina else MUTED)
        s.close()
        y += 28
        bottom = y
        for t, th in enumerate(obs["thieves"][v]):
            x = 12 + t * (colw + 10)
            if self.narrow:
                x, y = 12, bottom + (8 if t else 0)
            ref = f"p{v}t{t}"
            s.open(None, ref, None, "thiefcard")
            s.rect(x, y, colw, 26, "#fffaf0", col, 6, 2)
            s.circle(x + 14, y + 13, 10, col, "#fff", 1.5)
            s.text(x + 14, y + 18, str(t + 1), FONT, "bold", "#fff", "middle")
            where = p.t("ui.at", place=p.where(obs, th["pos"])) if th["pos"] is not None else ""
            s.text(x + 30, y + 18, f"{p.thief(v, t)} {where}"[:38], FONT, "bold")
            s.close()
            # the second click of a purchase: this thief takes the picked card
            # (each card's price at its own place: shown one at a time, they never overlap)
            for k, (key, e) in enumerate(self.buy_picks):
                a = f"buy {e} {t + 1}"
                cost = p.data.equipment[e].cost
                s.open(a, None, p.t("ui.buy_for", card=p.card_name(e), thief=p.thief(v, t), cost=cost),
                       "taker", needs=key)
                if a in self.legal:
                    s.rect(x - 2, y - 3, colw + 4, 32, "#fff3c4", GLOW, 8, 3, ' fill-opacity="0.01"')
                    s.badge(x + colw - 48 - 46 * k, y + 1, f"+{cost}●", "#fff3c4", INK, None, None, 12)
                s.close()
            yy = y + 30
            tu = obs.get("turn") or {}
            active = tu.get("p") == v and tu.get("t") == t
            if th.get("wanted"):
                burn = "burn poster" if active and "burn poster" in self.legal else None
                s.open(burn, None, p.action_text(obs, "burn poster") if burn else None, "wanted")
                s.rect(x + colw - 96, yy, 92, 22, "#ffdddd", GLOW if burn else "#c0392b", 4, 2)
                s.text(x + colw - 50, yy + 16, p.t("ui.wanted"), FONT, "bold", "#a31515", "middle")
                s.close()
            acts: Callable[[str], str | None]
            if active:
                acts = lambda g: self.first_legal(f"sell {g}", f"deliver {g}", f"stash {g}", f"give {g}")
            else:
                mate_no = t + 1  # read at once by inventory() below
                acts = lambda g: self.first_legal(f"get {g}", f"take {mate_no} {g}")
            self.inventory(x + 2, yy, th["inv"], acts, drops=active, where=f"thief{v + 1}-{t + 1}")
            yy += 28
            if not active:
                # a guildmate: Pigeon, Samuel, Lentz and handing goods at home aim at it
                xb = x + 2
                for a in (f"pigeon {t + 1}", f"samuel {t + 1}", f"lentz {t + 1}"):
                    if a in self.legal:
                        xb = s.badge(xb, yy, p.action_text(obs, a), "#fff3c4", INK, a, None, FONT) + 6
                for g in GOODS + tuple(tu and obs["thieves"][v][tu["t"]]["inv"].get("art", []) or ()):
                    a = f"hand {t + 1} {g}"
                    if a in self.legal:
                        xb = s.badge(xb, yy, "→ " + p.thing(g), "#e3f1de", INK, a, None, FONT) + 6
                if xb > x + 2:
                    yy += 30
            if th["equip"]:
                for e in th["equip"]:
                    use = self.first_legal(e if e in ("smoke",) else "fish" if e == "fishing" else "") \
                        if active else None
                    self.equipment_card(x, yy, colw, 112, e, use, f"equip-{v + 1}-{t + 1}-{e}")
                    yy += self.card_height(colw, [p.t(f"effect.{e}")], 112) + 6
            else:
                s.text(x + 2, yy + 14, p.t("ui.no_equipment"), FONT, "normal", MUTED)
                yy += 22
            if th.get("ally"):
                power = p.client_power(th["ally"])
                use = self.first_legal(power) if active else None
                with s.moving(f"client-{th['ally']}"):
                    self.client_card(x, yy, colw, 96, th["ally"], use)
                yy += self.card_height(colw, [p.t(f"effect.{power}")], 96) + 6
                if active and power == "ruth":
                    xb = x + 2
                    for g in ("gem", "brandy", "wine"):
                        if f"ruth {g}" in self.legal:
                            xb = s.badge(xb, yy, p.good(g), "#fff3c4", INK, f"ruth {g}", None, FONT) + 6
                    yy += 30 if xb > x + 2 else 0
            elif th.get("brawl"):
                s.text(x + 2, yy + 14, p.t("ui.brawl"), FONT, "normal", MUTED)
                yy += 22
            else:
                s.text(x + 2, yy + 14, p.t("ui.no_ally"), FONT, "normal", MUTED)
                yy += 22
            bottom = max(bottom, yy)
        return bottom + 8

    def draw_others(self, y: float) -> float:
        s, obs, p = self.svg, self.obs, self.p
        for q in range(len(obs["vp"])):
            if q == self.viewer:
                continue
            # kept by everything the guild's panel shows (where its thieves are is named
            # from their places, in the key, and the city's width)
            key = ("guild", p.texts, p.lang, self.W, y, q, p.seat(q), f"seat:{q}" in s.recent, self.w,
                   marshal.dumps((obs["hideouts"][q], obs["vp"][q], obs["thieves"][q]), 2))
            top = y
            y = s.piece(_PANELS, key, lambda sv: self.other_guild(sv, q, y))
            self.guild_rows[q] = (top, y)
        return y

    def other_guild(self, s: Svg, q: int, y: float) -> float:
        """Another player's guild: its hideout, points, thieves, goods and cards."""
        obs, p = self.obs, self.p
        kept, self.svg = self.svg, s   # inventory() draws on self.svg
        try:
            col = seat_color(q)
            hide = obs["hideouts"][q]
            head = p.t("ui.guild", player=p.seat(q)) + " · " + p.t("ui.vp", vp=obs["vp"][q])
            if hide:
                head += " · " + p.t("hideout") + ": " + p.place(hide)
            heads = wrap(head, self.W - 28, FONT * 1.15)
            s.open(None, f"seat:{q}", None, "guild")
            s.rect(6, y, self.W - 12, 8 + 18 * len(heads), col, INK, 6)
            for k, line in enumerate(heads):
                s.text(14, y + 18 + 18 * k, line, FONT, "bold", "#fff")
            s.close()
            y += 12 + 18 * len(heads)
            # the phone: one thief a row (goods beside the place, cards under them)
            per = 1 if self.narrow else 3
            colw = (self.W - 24 - 10 * (per - 1)) / per
            bottom = y
            for t, th in enumerate(obs["thieves"][q]):
                x = 12 + (t % per) * (colw + 10)
                if self.narrow:
                    y = bottom
                s.circle(x + 10, y + 10, 9, col, "#fff", 1.5)
                s.text(x + 10, y + 15, str(t + 1), FONT, "bold", "#fff", "middle")
                where = p.where(obs, th["pos"]) if th["pos"] is not None else "—"
                s.text(x + 24, y + 15, where[:30], FONT, "bold")
                if th.get("wanted"):
                    s.text(x + colw - 4, y + 15, p.t("ui.wanted"), FONT, "bold", "#a31515", "end")
                if self.narrow:
                    self.inventory(x + 130, y, th["inv"], where=f"thief{q + 1}-{t + 1}")
                    yy = y + 42
                else:
                    self.inventory(x, y + 20, th["inv"], where=f"thief{q + 1}-{t + 1}")
                    yy = y + 62
                names = [p.card_name(e) for e in th["equip"]]
                if th.get("ally"):
                    names.append(p.term("client", th["ally"]))
                yy = s.para(x, yy, ", ".join(names) or p.t("ui.no_equipment"), colw - 4, FONT, MUTED)
                bottom = max(bottom, yy + 8)
            y = max(bottom, y + 96) if not self.narrow else bottom
        finally:
            self.svg = kept
        return y

    def own_guild_cover(self, rows: dict[int, tuple[float, float]]) -> str:
        """Over the viewer's own entry in the public list of guilds (drawn after
        the public lower part, in its coordinates): a veil and a word saying the
        viewer's full guild panel is above, so it does not read as a second guild."""
        if self.viewer is None or self.viewer not in rows:
            return ""
        top, bottom = rows[self.viewer]
        note = _esc(self.p.t("ui.your_guild_above"))
        mid = (top + bottom) / 2
        tw = len(note) * FONT * 0.62 + 20
        return (f'<g pointer-events="none"><rect x="6" y="{top:g}" width="{self.W - 12:g}" height="{bottom - top - 4:g}" '
                f'rx="6" fill="{PAPER}" fill-opacity="0.72" stroke="{seat_color(self.viewer)}" stroke-width="3"/>'
                f'<rect x="{self.W / 2 - tw / 2:.1f}" y="{mid - 13:g}" width="{tw:.1f}" height="24" rx="12" '
                f'fill="{seat_color(self.viewer)}"/>'
                f'<text x="{self.W / 2:g}" y="{mid + 4:g}" font-size="{FONT}" font-weight="bold" fill="#fff" '
                f'text-anchor="middle">{note}</text></g>')

    def draw_townsfolk(self, y: float) -> float:
        s, obs, p = self.svg, self.obs, self.p
        s.text(12, y + 16, p.t("ui.townsfolk"), FONT + 1, "bold")
        y += 24
        x: float = 12
        for fig in sorted(obs["townsfolk"]):
            if fig[0] == "g":
                text = f"{p.fig(fig)}: " + (p.t("ui.badge") + " ★" if obs["badges"].get(fig) else p.t("ui.no_badge"))
            elif fig[0] == "n":
                text = f"{p.fig(fig)}: " + (p.t("ui.purse_full") + " ●" if obs["purses"].get(fig)
                                            else p.t("ui.purse_empty"))
            else:
                text = p.fig(fig)
            wdt = badge_width(text)
            if x + wdt > self.W - 10:
                x, y = 12, y + 30
            s.badge(x, y, text, "#efe6d2", INK, None, fig, FONT)
            x += wdt + 8
        y += 34
        # smuggling missions and the dungeon
        missions = [(sec, m) for sec, m in sorted(obs["smugglers"].items())]
        if missions:
            label = p.t("ui.missions") + ":"
            s.text(12, y + 16, label, FONT, "bold")
            x0 = x = max(200, 24 + len(label) * FONT * 0.64)   # past the label, however long in its language
            if x0 + 200 > self.W:   # the phone: the missions under their title
                x0 = x = 12
                y += 26
            for sec, m in missions:
                text = f"⚓ {sec}: " + (p.term("mission", m) if m else p.t("ui.no_mission"))
                wdt = badge_width(text)
                if x > x0 and x + wdt > self.W - 10:
                    x, y = x0, y + 30
                s.badge(x, y, text, "#f3e3c7", INK, None, m, FONT)
                x += wdt + 8
            y += 34
        s.text(12, y + 16, p.t("ui.dungeon"), FONT, "bold")
        dx = max(300, 24 + len(p.t("ui.dungeon")) * FONT * 0.64)
        if dx + 150 > self.W:   # the phone: the dungeon's goods under its title
            dx, y = 12, y + 24
        # the dungeon's goods: whoever the dungeon's choices are offered to takes one
        self.inventory(dx, y + 2, obs["dungeon"], lambda g: f"take {g}", where="dungeon")
        return y + 34

    def draw_display(self, y: float) -> float:
        s, obs, p = self.svg, self.obs, self.p
        s.text(12, y + 16, p.t("ui.display", n=obs["equip_deck"]), FONT + 1, "bold")
        y += 24
        per = 2 if self.narrow else 4   # the phone: two cards a row
        cw = (self.W - 24 - 10 * (per - 1)) / per
        ch = self.card_height(cw, [p.t(f"effect.{c.split('.')[0]}") for c in obs["display"]], 140)
        for k, c in enumerate(obs["display"]):
            e = c.split(".")[0]
            self.equipment_card(12 + (k % per) * (cw + 10), y + (k // per) * (ch + 10), cw, ch, e, f"buy {e}",
                                f"display-{e}-{obs['display'][:k].count(c) + 1}")
        return y + max(1, (len(obs["display"]) + per - 1) // per) * (ch + 10)

    def draw_legend(self, y: float) -> float:
        """The same in every position: kept per language, seat names, width and place."""
        p = self.p
        key = ("legend", p.texts, p.lang, self.W, y, tuple(p.seat(q) for q in range(len(self.obs["vp"]))))
        end: float = self.svg.piece(_PANELS, key, lambda sv: self.legend_into(sv, y))
        return end

    def legend_into(self, s: Svg, y: float) -> float:
        p = self.p
        items = [(ALLEY, p.t("ui.legend.alley")), (LANTERN, p.t("ui.legend.lantern")),
                 (WALL, p.t("ui.legend.wall")), ("#f4b3aa", p.t("ui.legend.sight")),
                 (RIVER, p.t("ui.legend.river")), ("#3b2f4a", p.t("ui.legend.catacombs")),
                 ("#b02a2a", p.t("ui.legend.guard")), ("#6a3d9a", p.t("ui.legend.noble")),
                 ("#6b3f1d", p.t("ui.legend.carriage")), ("#3b82f6", p.t("ui.legend.recent"))]
        items += [(seat_color(q), p.seat(q)) for q in range(len(self.obs["vp"]))]
        y = s.fold("legend", p.t("ui.legend_title"), 12, y, size=FONT)
        y = s.legend(12, y, items, self.W - 24, size=FONT)
        icons = " · ".join(f"{TYPE_ICON[t]} {p.t(t)}" for t in TYPE_ICON)
        y = s.para(12, y + 14, icons, self.W - 24, FONT)
        y = s.para(12, y + 4, p.t("ui.goods"), self.W - 24, FONT) + 6
        s.end_fold()
        return y


#: a route's step as JSON (data-then), by the step ("" where it needs an escape)
_STEP_JSON = memo(4096)
#: the squares' centres as a route's path writes them, per geometry
_POINTS = memo(16)


def _point(xy: tuple[float, float]) -> str:
    """A point of a route's path as :func:`gesture_attrs` writes it (``x,y``)."""
    return gesture_attrs(path=[xy])[12:-1]   # ' data-path="x,y"'


def _then_attrs(then: tuple[str, ...]) -> str:
    """``gesture_attrs(then)``: a route's further steps, from each step's JSON
    (kept: a board's routes are made of few steps, seldom twice the same list).
    ``quoteattr`` puts a JSON list, which holds ``"``, in single quotes as it is
    when nothing in it needs an escape; a step that would is left to the kit."""
    if not then or len(then) > MAX_THEN:
        return gesture_attrs(then)
    words = []
    for a in then:
        word: str | None = _STEP_JSON.get(a)
        if word is None:
            text = json.dumps(a, ensure_ascii=False)
            word = _STEP_JSON.put(a, "" if any(c in text for c in "&<>'\n\r\t") else text)
        if not word:
            return gesture_attrs(then)
        words.append(word)
    return " data-then='[" + ", ".join(words) + "]'"


def _route_tag(action: str, label: str, near: bool) -> tuple[str, str]:
    """The opening tag of a route's group as :meth:`Svg.open` writes it for the
    viewer who may click it, cut where its gesture's attributes go."""
    key = (action, label, near)
    got: tuple[str, str] | None = _ROUTE_TAGS.get(key)
    if got is None:
        tag = Offer(action, None, label, "route near" if near else "route", "\0").tag((action,), ())
        head, tail = tag.split("\0")
        got = _ROUTE_TAGS.put(key, (head, tail))
    return got


class _GoalLooks:
    """What a route's group holds once its tag is open (its goal's marks, closed)
    and where the path into a building ends, kept per city and geometry: drawn
    from the printed city only, by a board of the public view of the first
    observation that needed them (no viewer's own field is kept here)."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self._marks: dict[tuple[int | str, bool, bool], str] = {}
        self._points: dict[str, str] = {}

    def marks(self, goal: int | str, seen: bool, near: bool) -> str:
        key = (goal, seen, near)
        got = self._marks.get(key)
        if got is None:
            got = self._marks[key] = self.board.goal_marks(goal, seen, near)
        return got

    def point(self, bid: str) -> str:
        got = self._points.get(bid)
        if got is None:
            got = self._points[bid] = _point(self.board.building_center(bid))
        return got


def badge_width(label: str) -> float:
    """The width the kit gives a badge of ``label`` at the board's font (Svg.badge)."""
    return 16 + len(label) * FONT * 0.64


def p_dir(pres: "ThiefdomPresentation", face: int) -> str:
    return pres.term("dir", "nesw"[face])


def _cell(text: str, w: int) -> int:
    r, c = text.split(".")
    return int(r) * w + int(c)


def _esc(text: str) -> str:
    return escape(text)



def _layer(parts: Iterable["str | Offer"], width: float, height: float,
           anchors: dict[str, Any] | None = None) -> Layer:
    """A layer of these parts (the kit joins each run of texts once)."""
    return Layer(list(parts), width, height, anchors)


def _width(pres: "ThiefdomPresentation") -> float:
    """The board's width: the phone's column (the city turned a quarter, 14
    squares across) or the wide table's."""
    return NARROW_WIDTH if pres.narrow else WIDTH


def public_view(obs: dict[str, Any]) -> dict[str, Any]:
    """The observation as every viewer may see it: the viewer's own fields emptied,
    its hand and its secret plan left out, the cards only their owner knows
    hidden (each seat's observation and the spectator's give the same)."""
    pub = {**obs, **_OWN_FIELDS}
    if obs.get("phase") == "plan":
        pub["plans"] = [None if x is None else "placed" for x in obs["plans"]]
    draft = obs.get("draft")
    if draft is not None:
        pub["draft"] = {**draft, "hand": [], "kept": []}
    tu = obs.get("turn")
    sub = tu.get("sub") if tu else None
    if tu and sub and isinstance(sub.get("cards"), list):
        pub["turn"] = {**tu, "sub": {**sub, "cards": len(sub["cards"])}}
    if any(th.get("brawled") not in (None, "hidden") for ts in obs["thieves"] for th in ts):
        pub["thieves"] = [[{**th, "brawled": "hidden"} if th.get("brawled") is not None else th for th in ts]
                          for ts in obs["thieves"]]
    return pub


def draw_static(pres: "ThiefdomPresentation", obs: dict[str, Any]) -> Layer:
    """The printed city (kept per city, layout and language)."""
    b = Board(pres, obs, _width(pres), "static")
    key = b.city_key()
    layer = _STATIC.get(key)
    if layer is None:
        bottom = b.draw_ground()
        layer = _STATIC.put(key, _layer(b.svg.parts, b.W, bottom))
    found: Layer = layer
    return found


def draw_public(pres: "ThiefdomPresentation", obs: dict[str, Any]) -> Layer:
    """What every viewer sees alike. Its upper part (the city's pieces, the night,
    the plans) and its lower part (the guilds, the townsfolk, the display, the
    legend) are in ``anchors`` too: a viewer's own panels go between them
    (``anchors["seat_y"]``; ``ThiefdomPresentation.board``)."""
    b = Board(pres, public_view(obs), _width(pres), "public")
    b.draw_city()
    b.draw_pieces()
    y = b.draw_upper_panels(b.city_bottom())
    upper = _layer(b.svg.parts, b.W, y)
    b.svg.parts = []
    bottom = b.draw_lower_panels(y) + 8
    lower = _layer(b.svg.parts, b.W, bottom)
    # each part's actions and refs (its offers listed once: Layer.offers scans its parts)
    looks = {name: _looks(part.parts) for name, part in (("upper", upper), ("lower", lower))}
    anchors = {"upper": upper, "lower": lower, "seat_y": y, "plan_rows": dict(b.plan_rows),
               "guild_rows": dict(b.guild_rows),
               "actions": looks["upper"][0] | looks["lower"][0],
               # each part's actions and refs, and its texts as rendered per viewer (render_part)
               "looks": looks,
               "renders": {}}
    # the two parts are joined only where the first's last text meets the
    # second's first (what ``Layer((*upper.parts, *lower.parts))`` holds,
    # without going over every part again)
    top, low = upper.parts, lower.parts
    if top and low and type(top[-1]) is str and type(low[0]) is str:
        parts: tuple[str | Offer, ...] = (*top[:-1], top[-1] + low[0], *low[1:])
    else:
        parts = top + low
    return Layer.of_merged(parts, lower.width, lower.height, anchors)


def _looks(parts: "tuple[str | Offer, ...]") -> tuple[frozenset[str], frozenset[str]]:
    """The actions and the refs of the offers among these parts: what their looks depend on."""
    offers = [o for o in parts if type(o) is Offer]
    return (frozenset([o.action for o in offers if o.action]),
            frozenset([o.ref for o in offers if o.ref is not None]))


def render_part(public: Layer, name: str, legal: "set[str]", recent: "set[str]") -> str:
    """The public layer's ``name`` part ("upper" or "lower") for a viewer with these
    legal actions and recent refs: an offer's look depends only on whether its
    action is legal and its ref recent, so viewers alike in that share one text."""
    actions, refs = public.anchors["looks"][name]
    key = (name, frozenset(legal & actions), frozenset(recent & refs))
    renders: dict[Any, Any] = public.anchors["renders"]
    text: str | None = renders.get(key)
    if text is None:
        # every offer as it looks to no one (rendered once per part), the few this
        # viewer may click or has seen named put in again for it
        kept: tuple[list[str], list[tuple[int, Offer]]] | None = renders.get(name)
        if kept is None:
            parts = public.anchors[name].parts
            kept = renders[name] = ([p if isinstance(p, str) else p.tag((), ()) for p in parts],
                                    [(i, p) for i, p in enumerate(parts) if not isinstance(p, str)])
        plain, offers = kept
        on, lit = key[1], key[2]
        if on or lit:
            plain = plain.copy()
            for i, o in offers:
                if o.action in on or o.ref in lit:
                    plain[i] = o.tag(on, lit)
        text = renders[key] = "".join(plain)
    return text


def draw_seat(pres: "ThiefdomPresentation", obs: dict[str, Any], public: Layer) -> Layer | None:
    """The viewer's own: its targets on the city, its planning tiles, and its
    panels under the public upper part (their height: ``anchors["dy"]``)."""
    if obs.get("viewer") is None:
        return _onlooker_seat(pres, obs, public)
    b = Board(pres, obs, _width(pres), "seat")
    b.draw_city_targets()
    b.draw_targets()
    b.draw_building_badges()
    b.draw_own_plan(public.anchors["plan_rows"])
    top = public.anchors["seat_y"]
    y = b.draw_own_panels(top, public.anchors["actions"]) if b.viewer is not None else top
    return _layer(b.svg.parts, b.W, y, {"dy": y - top, "over_lower": b.own_guild_cover(public.anchors["guild_rows"])})


def _onlooker_seat(pres: "ThiefdomPresentation", obs: dict[str, Any], public: Layer) -> Layer | None:
    """A spectator's own layer: only the places a recent event named (nothing to
    click, no panels), kept by the city, the width, the recent refs and the villas."""
    recent = obs.get("recent")
    if not recent:
        return None
    top = public.anchors["seat_y"]
    key = (city_token(obs), _width(pres), top, _k(recent, obs["villas"]))
    layer: Layer | None = _ONLOOKERS.get(key)
    if layer is None:
        b = Board(pres, obs, _width(pres), "seat")
        b.draw_city_targets()
        layer = _ONLOOKERS.put(key, _layer(b.svg.parts, b.W, top, {"dy": 0, "over_lower": ""}))
    return layer
