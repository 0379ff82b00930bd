"""Drawing Age of Thieves with the shared kit, in three layers (docs/engine.md,
"Layers"): Hadria's streets, which never change; what every viewer sees alike (the
turn, the event, the watch, the thieves, the jewels and tokens in the streets); and
what only the viewer sees or does (the targets of their move, their hand and secret
plan, their buttons).

Only the observation is read; the shared layer reads only what the spectator's
observation holds (:func:`public_view`), so a plan being made behind the screen
reaches nobody else. Every special field has an icon explained by the legend; each
seat keeps its panel colour (``seat_color``); the parts named by events since the
viewer's last decision carry ``ref`` so they glow.
"""
from __future__ import annotations

from collections import defaultdict
from typing import Any, Protocol

from ...core.svg import INK, MUTED, NARROW_WIDTH, SEAT_INK, Layer, Svg, escape, memo, quoteattr, seat_color
from ...core.texts import Texts
from .look import (BOARD_BOTTOM, CAPTAIN_FILL, CARD_GAP, CARD_H, CELL, DISTRICT_FILL, EXIT_ICON,
                   FEATURE_ICON, GEM_COLOUR, GUARD_FILL, KIND_ICON, PANEL_X, TARGET, W, X0, Y0, YOU_RING)
from .notation import AotAction, ctype, figure_kind
from .routes import Route, guard_routes, thief_routes

#: the parts of the city that never change, kept per board (and language):
#: the streets, the district names, each space with nothing on it
_LAYERS = memo(256)
#: a space with something on it, by what is on it
_SPACES = memo(4096)
#: a viewer's hand and plan, by what they hold and may do
_MINE = memo(512)


class Table(Protocol):
    """What the drawing reads of the presentation (``AotPresentation`` is one)."""

    data: Any
    names: list[str]
    texts: Texts
    lang: str

    @property
    def narrow(self) -> bool: ...
    def t(self, key: str, **args: Any) -> str: ...
    def term(self, kind: str, value: Any) -> str: ...
    def action_text(self, obs: dict[str, Any], action: str) -> str: ...
    def event_effect(self, ev: dict[str, Any] | None) -> str: ...
    def prompt(self, obs: dict[str, Any]) -> str | None: ...
    def _steps(self, me: dict[str, Any] | None, which: str) -> int: ...


def named(s: Svg, live: bool, label: str) -> bool:
    """After :meth:`Svg.open`: a part nobody may click says what it is all the same (a
    tap or a hover shows its ``<title>``; a clickable one has it already). Returns ``live``."""
    if not live:
        s.add(f"<title>{escape(label)}</title>")
    return live


def hit_area(s: Svg, x: float, y: float) -> None:
    """An invisible disc as wide as a lattice cell round a target: on a phone the city is
    drawn small, and a finger needs the whole cell."""
    s.add(f'<circle cx="{x:g}" cy="{y:g}" r="{CELL / 2:g}" fill="#fff" fill-opacity="0"/>')


def _xy(space: Any) -> tuple[float, float]:
    return X0 + space.x * CELL, Y0 + space.y * CELL


def public_view(obs: dict[str, Any]) -> dict[str, Any]:
    """The observation as a spectator has it, from any viewer's: the viewer's hand,
    action points, plan being made and unrevealed cards taken out (view.observe,
    seen by nobody). The shared layer is drawn from this only."""
    viewer = obs.get("viewer")
    if viewer is None:
        return obs
    planning = obs["phase"] == "plan"
    me = obs["thieves"][viewer]
    public = {k: v for k, v in me.items() if k not in ("hand", "ap", "ap_free", "tokens_free", "building")}
    if not planning and "ap" in me:
        public["ap"] = {k: v for k, v in me["ap"].items() if k != "violet_next"}
    if planning:
        # behind the screen every card counts as held (view.hand_count)
        slots = me.get("plan", [])
        public["hand_count"] = me["hand_count"] + sum(1 + bool(sl.get("under")) for sl in slots)
        b = me.get("building")
        if b:
            public["hand_count"] += 2 if b["card"] == "special" else 1
        public["plan"] = []
    else:
        public["plan"] = [_public_slot(sl) for sl in me.get("plan", [])]
    thieves = list(obs["thieves"])
    thieves[viewer] = public
    return {**obs, "thieves": thieves, "viewer": None, "legal": [], "recent": []}


def _public_slot(slot: dict[str, Any]) -> dict[str, Any]:
    """A planned card as the others see it once the screens are lifted: its AP, and
    what it is only once it is played (view.slot_view)."""
    out = {"ap": slot["ap"], "special": slot["special"], "done": slot["done"]}
    if slot["done"]:
        out.update({k: v for k, v in slot.items() if k in ("card", "under", "tokens")})
    return out


class Board:
    """One drawing of the table: the shared layer (``shared``: every viewer's alike,
    clickable parts kept as offers) or one viewer's own."""

    def __init__(self, pres: Table, obs: dict[str, Any], width: float = W, shared: bool = False) -> None:
        #: the phone layout draws a column NARROW_WIDTH wide (the city scaled into it)
        self.W = width
        self.narrow = width < W
        #: the size of a pill button's text: larger on a phone, for a finger
        self.bsize = 15 if self.narrow else 13
        self.shared = shared
        if shared:
            obs = public_view(obs)
        self.p, self.o, self.d = pres, obs, pres.data
        self.legal = [] if shared else list(obs.get("legal", []))
        self.viewer = None if shared else obs.get("viewer")
        self.me = obs["thieves"][self.viewer] if self.viewer is not None else None
        self.s = Svg(self.W, 10, legal=self.legal, recent=() if shared else obs.get("recent", ()),
                     title=pres.t("name"), offers=shared)
        #: where each thief stands drawn (its centre), by seat
        self.thief_at: dict[int, tuple[float, float]] = {}
        # legal actions by what they point at on the board
        self.by_space: dict[str, str] = {}
        self.by_figure: dict[str, str] = {}
        self.other: dict[str, str] = {}
        for text in self.legal:
            a = AotAction.parse(text)
            if a.space and a.space not in self.by_space:
                self.by_space[a.space] = text
            elif a.verb in ("guard", "first") or (a.verb == "take" and a.arg[:1] in "gc" and a.arg[1:].isdigit()):
                self.by_figure[a.arg] = text
            else:
                self.other[text] = text
        # the moving thief's targets: every space within reach, one click each
        self.routes: dict[str, Route] = {} if shared else {
            at: r for at, r in (thief_routes(self.d, obs) or guard_routes(self.d, obs)).items()
            if self.by_space.get(at, r.steps[0]) == r.steps[0]}

    def offer(self, action: str) -> str | None:
        """The action of a piece anyone may click (a jewel, a thief, a token on a sheet):
        kept as an offer in the shared layer, else drawn only when legal for the viewer."""
        return action if self.shared or action in self.other else None

    # ------------------------------------------------------------------ header
    def header(self) -> None:
        o, t = self.o, self.p.t
        state = t("ui.alarm_in", district=o["escape_district"]) if o["alarm"] else t("ui.calm")
        line = t("ui.status", round=o["round"], calm=o["calm_events_left"], alarm=o["alarm_events_left"])
        self.s.text(10, 24, f"{line} · {state}", 16, "bold", "#9b1c1c" if o["alarm"] else INK)
        phase = t("phase." + o["phase"]) if o["phase"] else ""
        extra = t("ui.initiative", n=o["guard_initiative"]) if o["guard_initiative"] else ""
        if o["escape_district"] and not o["alarm"]:
            extra += " · " + t("ui.exits_open", district=o["escape_district"])
        self.s.text(10, 46, " · ".join(x for x in (phase, extra) if x), 14, color=MUTED)

    # ------------------------------------------------------------------ the city
    def city(self) -> None:
        """The pieces in the streets (the shared layer: nothing here depends on the
        viewer; the streets themselves are the unchanging layer, :meth:`streets`)."""
        s, d, o = self.s, self.d, self.o
        dec = o.get("deciding") or {}
        route = dec.get("route") or []
        if len(route) > 1:  # the way walked in this movement
            pts = " ".join("%g,%g" % _xy(d.space[x]) for x in route)
            colour = seat_color(dec["player"]) if dec.get("kind") == "move" else GUARD_FILL
            s.add(f'<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="7" '
                  f'stroke-linecap="round" stroke-linejoin="round" opacity="0.55"/>')
        p = self.p
        s.piece(_LAYERS, ("exits", d, p.texts, p.lang, o.get("escape_district")), lambda sv: self.exits(sv))
        fire, smoke = tuple(o["fire"]), tuple(o["smoke"])
        tokens, features = tuple(o["face_down_tokens"]), tuple(sorted(o["features"].items()))
        # the spaces change only when fire, smoke or a street token does
        s.piece(_SPACES, ("spaces", d, p.texts, p.lang, fire, smoke, tokens, features),
                lambda sv: self.spaces(sv, set(fire), set(smoke), set(tokens), dict(features)))
        for sid, gems in o["gems"].items():
            x, y = _xy(d.space[sid])
            for i, g in enumerate(gems):
                cx, cy = x - 8 + 9 * i, y + 15
                with s.moving(f"gem-{sid}-{i + 1}", f"gem-{g}"):
                    # its space's ref written out (taking it is the viewer's: :meth:`targets`)
                    s.add(f'<g data-ref={quoteattr(sid)}><title>{escape(self.p.term("gem", g))}</title>')
                    self.gem(s, g, cx, cy)
                    s.close()
        self.figures()
        self.thieves()

    def spaces(self, s: Svg, fire: set[str], smoke: set[str], tokens: set[str], features: dict[str, str]) -> None:
        """Every space, with the fire, smoke and street tokens on it."""
        d, p = self.d, self.p
        # a space nothing is on is drawn the same in every position: kept per board and language
        plain = _LAYERS.get(("spaces", d, p.texts, p.lang))
        if plain is None:
            plain = _LAYERS.put(("spaces", d, p.texts, p.lang), self.plain_spaces())
        busy = fire | smoke | tokens | set(features)
        for sp, markup in zip(d.board.spaces, plain):
            if sp.id in busy:
                self.space(s, sp, fire, smoke, tokens, features)
            else:
                s.add(markup)

    @staticmethod
    def gem(s: Svg, g: str, cx: float, cy: float) -> None:
        s.add(f'<polygon points="{cx},{cy - 7} {cx + 6},{cy} {cx},{cy + 7} {cx - 6},{cy}" '
              f'fill="{GEM_COLOUR[g]}" stroke="{INK}" stroke-width="1.2"/>')

    def static(self, s: Svg) -> None:
        """What never changes in a game: the frame, the streets and the district names."""
        self.streets(s)
        self.district_names(s)

    def streets(self, s: Svg) -> None:
        """The board's frame and its streets (dashed across a district border)."""
        d = self.d
        s.rect(X0 - 30, Y0 - 22, 14 * CELL + 60, 14 * CELL + 44, fill="#fffaf0", stroke="#b9ab8f")
        # the streets in two paths, one segment per street (a dash pattern starts
        # again at each segment, as it would on separate lines): the plain ones,
        # then those across a district border; both run under the spaces
        plain: list[str] = []
        border: list[str] = []
        for a, b in d.board.paths:
            (x1, y1), (x2, y2) = _xy(d.space[a]), _xy(d.space[b])
            (border if d.district[a] != d.district[b] else plain).append(f"M{x1} {y1}L{x2} {y2}")
        if plain:
            s.add(f'<path d="{"".join(plain)}" fill="none" stroke="#9a8f7c" stroke-width="3"/>')
        if border:
            s.add(f'<path d="{"".join(border)}" fill="none" stroke="#b04a3a" stroke-width="3" '
                  f'stroke-dasharray="5,3"/>')

    # ------------------------------------------------------------------ routes
    def route_path(self, route: Route) -> list[tuple[float, float]]:
        """The route's preview: the centres of the spaces walked, the thief's first."""
        return [_xy(self.d.space[x]) for x in route.spaces]

    def route_label(self, route: Route, target: str) -> str:
        """What a tap on a route's target says: where to, and in how many steps."""
        walked = sum(1 for a in route.steps if a.startswith(("to ", "gstep ")))
        key = "ui.route_sewer" if any(a.startswith("sewer ") for a in route.steps) else "ui.route"
        return self.p.t(key, target=target, n=walked)

    def route_confirm(self, route: Route, target: str) -> str | None:
        """The question asked before a costly route: into a guard's arms, out of the city."""
        if route.leaves:
            return self.p.t("ui.confirm_leave", exit=target)
        if route.arrest and route.steps[0].startswith("gstep "):
            return self.p.t("ui.confirm_guard_on_you", target=target)
        if route.arrest:
            return self.p.t("ui.confirm_arrest", target=target)
        return None

    def plain_spaces(self) -> tuple[str, ...]:
        """Each space's markup with nothing on it (in the board's order)."""
        out = []
        for sp in self.d.board.spaces:
            scratch = Svg(self.W, 10)
            self.space(scratch, sp, set(), set(), set(), {})
            out.append("".join(scratch.parts))
        return tuple(out)

    def space(self, s: Svg, sp: Any, fire: set[str], smoke: set[str], tokens: set[str],
              features: dict[str, str]) -> None:
        """A space and what lies on it (fire, smoke, a street token), as everyone sees
        it: a target's ring and click are the viewer's (:meth:`targets`)."""
        x, y = _xy(sp)
        label = self.p.term("space", sp.id)
        # its ref written out, not an offer: a board has 225 spaces, and the glow of
        # one an event named is the viewer's layer's (:meth:`recent_marks`)
        s.add(f'<g class="space" data-ref={quoteattr(sp.id)}><title>{escape(label)}</title>')
        if sp.id in smoke:
            s.circle(x, y, 19, "#a7a7a7", "none", 0)
        s.circle(x, y, 14, DISTRICT_FILL[sp.district], "#d62828" if sp.id in fire else "#5c5346",
                 4 if sp.id in fire else 1.3)
        if sp.kind:
            s.text(x, y + 5, KIND_ICON[sp.kind], 13, "bold", "#3b2f1e", "middle")
        if sp.id in fire:
            s.text(x + 13, y - 9, "✹", 13, "bold", "#d62828", "middle")
        if sp.id in features:
            s.text(x - 15, y - 9, FEATURE_ICON[features[sp.id]], 13, "bold", "#4a3b8c", "middle")
        s.close()
        if sp.id in tokens:
            with s.moving(f"token-{sp.id}"):   # face down: named by its space only
                s.add(f'<g data-ref={quoteattr(sp.id)}><title>{escape(self.p.t("ui.face_down"))}</title>')
                s.rect(x + 5, y - 19, 13, 13, fill="#8d6e63", stroke=INK, rx=2)
                s.close()

    def face_down(self, s: Svg, x: float, y: float, action: str | None, ref: str | None) -> None:
        """A face-down street token by the space at ``(x, y)``."""
        named(s, s.open(action, ref=ref, label=self.p.t("ui.face_down")), self.p.t("ui.face_down"))
        s.rect(x + 5, y - 19, 13, 13, fill="#8d6e63", stroke=INK, rx=2)
        s.close()

    def district_names(self, s: Svg) -> None:
        d = self.d
        for dist, spaces in d.districts.items():
            xs = [d.space[x].x for x in spaces]
            ys = [d.space[x].y for x in spaces]
            cx, cy = sum(xs) / len(xs), sum(ys) / len(ys)
            tx = X0 + cx * CELL
            ty = Y0 + (int(cy) + 0.5) * CELL + 5
            if dist == "palace":
                ty = Y0 + (min(ys) - 0.5) * CELL + 5
            name = self.p.term("district", dist)
            w = len(name) * 8.2 + 12
            s.rect(tx - w / 2, ty - 14, w, 19, fill="#fffaf0", stroke="none", rx=4, extra=' opacity="0.9"')
            s.text(tx, ty, name, 14, "bold", "#6b4f2a", "middle")

    def exit_xy(self, e: Any) -> tuple[float, float]:
        """Where an exit is drawn: beside its space, off the board's edge."""
        sp = self.d.space[e.space]
        x, y = _xy(sp)
        dx = -1 if sp.x == 0 else 1 if sp.x == 14 else 0
        dy = -1 if sp.y == 0 else 1 if sp.y == 14 else 0
        return x + dx * 26, y + dy * 26

    def exits(self, s: Svg) -> None:
        d, o = self.d, self.o
        for e in d.board.exits:
            ex, ey = self.exit_xy(e)
            open_ = o.get("escape_district") == e.district
            label = self.p.term("gate", e.id)
            # only an open exit may be left (the district is public)
            action = self.offer(f"leave {e.id}") if open_ else None
            named(s, s.open(action, ref=e.id, label=label,
                            confirm=self.p.t("ui.confirm_leave", exit=label) if action else None), label)
            if action:
                hit_area(s, ex, ey)
            s.rect(ex - 11, ey - 11, 22, 22, fill="#2e9d4f" if open_ else "#c9c2b4", stroke=INK, rx=4)
            s.text(ex, ey + 5, EXIT_ICON[e.kind], 13, "bold", "#fff" if open_ else INK, "middle")
            s.close()

    def figures(self) -> None:
        s, d, o = self.s, self.d, self.o
        watch = o.get("watch", {})
        for g, sid in sorted(o["guards"].items()):
            x, y = _xy(d.space[sid])
            kind = figure_kind(g)
            vig = watch.get(kind, [0, 0])[0]
            s.piece(_SPACES, ("figure", self.p.texts, self.p.lang, g, sid, vig),
                    lambda sv: self.figure(sv, g, kind, sid, vig, x, y))

    def figure(self, s: Svg, g: str, kind: str, sid: str, vig: int, x: float, y: float) -> None:
        """A guard or captain on its space, with its vigilance."""
        label = self.p.t("ui.figure_on", figure=kind, space=sid, n=vig)
        # its ref written out: the glow when an event named it is the viewer's (:meth:`recent_marks`)
        s.add(f'<g data-pid="guard-{g}"><g class="figure" data-ref={quoteattr(g)}><title>{escape(label)}</title>')
        if kind == "captain":
            s.rect(x - 12, y - 12, 24, 24, fill=CAPTAIN_FILL, stroke="#fff", rx=4, width=2)
        else:
            s.circle(x, y, 12, GUARD_FILL, "#fff", 2)
        s.text(x, y + 5, str(vig), 13, "bold", "#fff", "middle")
        s.close()
        s.close()

    def thieves(self) -> None:
        s, d, o = self.s, self.d, self.o
        at: dict[str, list[int]] = defaultdict(list)
        for q, t in enumerate(o["thieves"]):
            if t["pos"] and not t["left"]:
                at[t["pos"]].append(q)
        for sid, qs in at.items():
            x, y = _xy(d.space[sid])
            for i, q in enumerate(qs):
                t = o["thieves"][q]
                cx = x + (i - (len(qs) - 1) / 2) * 15
                cy = y - 3
                self.thief_at[q] = (cx, cy)
                action = self.offer(f"thief {q + 1}")
                name = self.p.term("thief", t["thief"])
                s.add(f'<g data-pid="thief-{q + 1}">')
                named(s, s.open(action, ref=f"seat:{q}", label=name, cls="thief"), name)
                if action:
                    hit_area(s, cx, cy)
                s.circle(cx, cy, 12, seat_color(q), "#fff", 2)
                s.text(cx, cy + 5, name[0], 13, "bold", SEAT_INK[q % len(SEAT_INK)], "middle")
                if t["hidden"]:
                    s.add(f'<circle cx="{cx:g}" cy="{cy:g}" r="15" fill="none" stroke="{INK}" '
                          f'stroke-width="1.5" stroke-dasharray="3,3"/>')
                s.close()
                s.close()

    # ------------------------------------------------------------------ the viewer's targets in the city
    def targets(self, public: Layer) -> None:
        """Over the shared city, what this viewer may click there: the spaces and exits
        their move reaches (a route in one click), the figures they choose, the token
        they may pick up, and a ring round their own thief."""
        s, d = self.s, self.d
        self.recent_marks()
        for sid in {**self.by_space, **self.routes}:
            sp = d.space.get(sid)
            if sp is None:
                continue   # an exit's route: below
            route, action = self.routes.get(sid), self.by_space.get(sid)
            x, y = _xy(sp)
            label = self.p.term("space", sp.id)
            if route is not None:
                s.open(route.steps[0], label=self.route_label(route, label), cls="space", then=route.steps[1:],
                       path=self.route_path(route), confirm=self.route_confirm(route, label))
            else:
                s.open(action, label=label, cls="space")
            hit_area(s, x, y)
            if route is not None and len(route.steps) > 1:   # farther: a lighter ring
                s.add(f'<circle cx="{x:g}" cy="{y:g}" r="17" fill="none" stroke="{TARGET}" stroke-width="2" '
                      f'stroke-dasharray="4,3"/>')
            else:   # a legal target: a ring that shows without the table's glow too
                s.circle(x, y, 17, "none", TARGET, 3)
            s.close()
        for e in d.board.exits:
            route = self.routes.get(e.id)
            if route is None or f"leave {e.id}" in self.other:
                continue   # leaving from here is the exit's own click (the shared layer's)
            ex, ey = self.exit_xy(e)
            label = self.p.term("gate", e.id)
            s.open(route.steps[0], label=self.route_label(route, label), then=route.steps[1:],
                   path=self.route_path(route) + [(ex, ey)], confirm=self.route_confirm(route, label))
            hit_area(s, ex, ey)
            s.rect(ex - 14, ey - 14, 28, 28, fill="none", stroke=TARGET, rx=6, width=3)
            s.close()
        self.figure_targets()
        me = self.me
        here = me["pos"] if me is not None else None
        if here and "take token" in self.other and here in self.o["face_down_tokens"]:
            self.face_down(s, *_xy(d.space[here]), "take token", None)
        if here:   # the jewels on the thief's space it may pick up
            x, y = _xy(d.space[here])
            for i, g in enumerate(self.o["gems"].get(here, [])):
                if f"take {g}" in self.other:
                    s.open(f"take {g}", label=self.p.term("gem", g))
                    self.gem(s, g, x - 8 + 9 * i, y + 15)
                    s.close()
        at = public.anchors.get("thieves", {}).get(str(self.viewer))
        if at is not None:
            s.circle(at[0], at[1], 12, "none", YOU_RING, 3)

    def recent_marks(self) -> None:
        """The spaces a recent event named (since the viewer's last decision): the page
        rings what is ``recent`` (the shared layer writes a space's ref out)."""
        s, d, guards = self.s, self.d, self.o["guards"]
        for ref in sorted(s.recent):
            sp = d.space.get(ref)
            cls, r = "recent", 14
            if sp is None and ref in guards:   # a guard or captain
                sp, cls, r = d.space.get(guards[ref]), "figure recent", 12
            if sp is not None:
                x, y = _xy(sp)
                s.add(f'<g class="{cls}" data-ref={quoteattr(ref)}>'
                      f'<circle cx="{x:g}" cy="{y:g}" r="{r}" fill="none" stroke="none"/></g>')

    def figure_targets(self) -> None:
        """The figures this viewer may choose (to move, to go first, to take off), ringed."""
        s, o = self.s, self.o
        dec = o.get("deciding") or {}
        for g, sid in sorted(o["guards"].items()):
            action = self.by_figure.get(g)
            if action is None and dec.get("kind") == "gmove" and dec.get("figure") == g and "gstop" in self.other:
                action = "gstop"
            if action is None:
                continue
            x, y = _xy(self.d.space[sid])
            kind = figure_kind(g)
            vig = o.get("watch", {}).get(kind, [0, 0])[0]
            s.open(action, label=self.p.t("ui.figure_on", figure=kind, space=sid, n=vig), cls="figure")
            hit_area(s, x, y)
            s.circle(x, y, 16, "none", TARGET, 3)
            s.close()

    # ------------------------------------------------------------------ right column
    def column(self, x: float = PANEL_X, y: float = 72, w: float | None = None) -> float:
        """The event, the watch, the supply and each thief's row (right of the city)."""
        s, o, p = self.s, self.o, self.p
        w = self.W - PANEL_X - 10 if w is None else w
        ev = o.get("event")
        if ev:
            body = p.event_effect({**ev, "alarm": o["alarm"]})
            s.card(x, y, w, 128, p.term("event", ev["id"]), body, ref=ev["id"],
                   band="#9b1c1c" if o["alarm"] else "#375a7f",
                   corner=p.t("ui.event_short"), size=14, pid=f"event-{ev['id']}")
        else:
            s.card(x, y, w, 128, p.t("ui.no_event"), p.t("ui.no_event_text"), band="#375a7f", size=14)
        y += 140
        watch = o.get("watch", {})
        g, c = watch.get("guard", [0, 0]), watch.get("captain", [0, 0])
        s.text(x, y + 14, p.t("ui.watch"), 14, "bold")
        s.token(x + 16, y + 36, 16, GUARD_FILL, str(g[0]))
        y = s.para(x + 34, y + 40, p.t("ui.guard_sheet", n=g[0], m=g[1]), w - 36, 13)
        if o["alarm"]:
            s.rect(x + 2, y - 6, 24, 24, fill=CAPTAIN_FILL, stroke="#fff", rx=4)
            s.text(x + 14, y + 11, str(c[0]), 13, "bold", "#fff", "middle")
            y = s.para(x + 34, y + 12, p.t("ui.captain_sheet", n=c[0], m=c[1]), w - 36, 13)
        sup = o["supply"]
        y = s.para(x, y + 10, p.t("ui.supply", deck=o["action_deck"], discard=len(o["discard"]),
                                  yellow=sup["yellow"], guards=sup["guards"]), w, 13, MUTED)
        y += 4
        for q, t in enumerate(o["thieves"]):
            y = self.seat_row(q, t, x, y, w)
        return y

    def seat_row(self, q: int, t: dict[str, Any], x: float, y: float, w: float) -> float:
        s, p = self.s, self.p
        s.open(None, ref=f"seat:{q}")  # the colour bar glows when this thief was named lately
        s.rect(x, y, w, 6, fill=seat_color(q), stroke="none", rx=2)
        s.close()
        name = p.names[q] if q < len(p.names) else f"Player {q + 1}"
        title = f"{name} – {p.term('thief', t['thief'])}"
        s.text(x, y + 24, title, 14, "bold", seat_color(q))
        s.text(x + w, y + 24, p.t("ui.vp", n=t["vp"]), 14, "bold", INK, "end")
        if t["left"]:
            where = p.t("ui.left_nth", n=t["left"])
        elif t["dungeon"]:
            where = p.t("ui.dungeon")
        elif t["pos"] is None:
            where = p.t("ui.not_placed")
        else:
            where = p.term("space", t["pos"])
        flags = [p.t("ui.flag_" + f) for f in ("hidden", "theft_marker", "protected", "immobile", "robbed")
                 if t.get(f)]
        y = s.para(x, y + 42, " · ".join([where] + flags), w, 13, MUTED)
        # jewels and sheet tokens (clickable for a theft or the Mechanical Rats)
        cx = x
        gems = ["emperor"] * t["emperor"] + ["green"] * t["green"] + ["yellow"] * t["yellow"] + \
            ["trinket"] * t["sheet"].count("trinket")
        for k, g in enumerate(gems):
            act = f"steal {q + 1} {g}"
            with s.moving(f"gem-seat{q + 1}-{g}-{k - gems.index(g) + 1}", f"gem-{g}"):
                s.open(self.offer(act), ref=f"seat:{q}", label=p.term("gem", g))
                s.add(f'<polygon points="{cx + 9},{y - 6} {cx + 17},{y + 3} {cx + 9},{y + 12} {cx + 1},{y + 3}" '
                      f'fill="{GEM_COLOUR[g]}" stroke="{INK}"/>')
                s.close()
            cx += 20
        line = p.t("ui.cards", n=t["hand_count"])
        if t.get("best"):
            line += " · " + p.t("ui.best")
        s.text(cx + 4, y + 8, line, 13)
        y += 20
        bx = x
        for tok in sorted(set(t["sheet"]) - {"trinket"}):
            act = f"token {q + 1} {tok}"
            n = t["sheet"].count(tok)
            label = p.term("token", tok) + (f" ×{n}" if n > 1 else "")
            if bx + 16 + len(label) * self.bsize * 0.64 > x + w:
                bx, y = x, y + self.bsize * 1.8 + 3
            bx = s.badge(bx, y, label, action=self.offer(act), size=self.bsize) + 4
        if t["sheet"] and set(t["sheet"]) != {"trinket"}:
            y += self.bsize * 1.8 + 3
        if t.get("plan") and q != self.viewer:
            y = s.para(x, y + 12, p.t("ui.revealed_plan", plan=self.plan_words(t["plan"])), w, 13) - 6
        elif self.o["phase"] == "plan" and not t["left"]:
            y = s.para(x, y + 12, p.t("ui.planning_done" if t["planning_done"] else "ui.planning"), w, 13,
                       MUTED) - 6
        return y + 12

    def plan_words(self, plan: list[dict[str, Any]]) -> str:
        return plan_words(self.p, plan)

    # ------------------------------------------------------------------ your hand and plan
    def mine(self, y: float) -> float:
        """The viewer's hand, thief and plan at ``y``: drawn again only when they or the
        viewer's choices change (a rival's move changes nothing here), and moved into place."""
        me = self.me
        if me is None:
            return y
        p = self.p
        turn = (self.o.get("deciding") or {}).get("kind") == "turn"
        key = ("mine", p.texts, p.lang, tuple(p.names), self.W, self.viewer, me["thief"], tuple(me.get("hand", ())),
               repr(me.get("plan")), repr(me.get("building")), repr(me.get("ap")), me.get("ap_free"),
               tuple(self.legal), turn)
        kept = _MINE.get(key)
        if kept is None:
            main, self.s = self.s, Svg(self.W, 10, legal=self.legal)
            try:
                end = self.draw_mine(0.0)
            finally:
                scratch, self.s = self.s, main
            kept = _MINE.put(key, ("".join(scratch.parts), end))
        self.s.add(f'<g transform="translate(0 {y:g})">{kept[0]}</g>')
        return y + float(kept[1])

    def draw_mine(self, y: float) -> float:
        s, p, me, o = self.s, self.p, self.me, self.o
        assert me is not None
        q = self.viewer if self.viewer is not None else 0   # self.me is the viewer's thief
        s.rect(6, y, self.W - 12, 4, fill=seat_color(q), stroke="none", rx=2)
        ap = me.get("ap") or {}
        apline = p.t("ui.your_ap", blue=ap.get("blue", 0), red=ap.get("red", 0), violet=ap.get("violet", 0))
        if "ap_free" in me:
            apline += " · " + p.t("ui.ap_free", n=me["ap_free"])
        s.text(10, y + 26, p.t("ui.your_hand", thief=p.term("thief", me["thief"])), 15, "bold", seat_color(q))
        if self.narrow:   # the phone: the action points on lines of their own
            y = s.para(10, y + 48, apline, self.W - 50, 14, weight="bold") - 38
        else:
            s.text(self.W - 10, y + 26, apline, 14, "bold", INK, "end")
        y += 38
        thief = self.d.thieves[me["thief"]]
        cards: list[tuple[str, str, str, str | None, str]] = []  # (title, body, band, action, card)
        # Move, Ambush and the special card are in the hand until planned: a planned card
        # lies behind the screen, then on the table, until the clean-up (Rulebook §"3. Phase:
        # Planung", §"Aufräumen")
        planned = {sl.get("card") for sl in me.get("plan", [])}
        if me.get("building"):
            planned.add(me["building"]["card"])
        up, low = p._steps(me, "upper"), p._steps(me, "lower")
        if "move" not in planned:
            cards.append((p.term("card", "move"), p.t("cardtext.move", sneak=up, sprint=low), "#6b4f2a",
                          self._hand_action("move"), "move"))
        amb = self.d.cards.basic.ambush
        if "ambush" not in planned:
            cards.append((p.term("card", "ambush"), p.t("cardtext.ambush", a=amb["upper_draw"],
                                                         b=amb["lower_draw"], v=amb["lower_violet"]),
                          "#6b4f2a", self._hand_action("ambush"), "ambush"))
        if "special" not in planned:
            cards.append((p.term("card", "sp_" + me["thief"]), p.t("cardtext.sp_" + me["thief"]), "#7a3fa0",
                          None, "sp"))
        for c in me.get("hand", []):
            cards.append((p.term("card", c), p.t("cardtext." + c), "#375a7f", self._hand_action(c), c))
        x: float = 6
        per_row = 2 if self.narrow else max(1, len(cards))   # the phone: two cards a row
        cw = min(180, (self.W - 12) // per_row - CARD_GAP)  # up to 8 cards: Move, Ambush, special, 5 in hand
        ch = CARD_H if cw < 150 else CARD_H - 40
        seen: dict[str, int] = {}
        for i, (title, body, band, action, ref) in enumerate(cards):
            if i and i % per_row == 0:
                x, y = 6, y + ch + 36
            kind = ctype(ref)   # by the card's type: two copies of a card are alike
            seen[kind] = seen.get(kind, 0) + 1   # the same card twice in a hand: its first, its second
            with s.moving(f"hand-{kind}-{seen[kind]}", f"card-{kind}"):
                s.card(x, y, cw, ch, title, body, action=action, band=band, size=14)
            special = f"special {ref}"
            if special in self.other:
                s.badge(x + 4, y + ch + 4, p.t("ui.as_special"), action=special, size=self.bsize)
            x += cw + CARD_GAP
        y += ch + 36 if cards else 12
        s.para(10, y, p.t("ui.ability", text=p.t("ability." + me["thief"])), self.W - 20, 13, MUTED)
        y += 26
        return self.plan_area(y)

    def _hand_action(self, card: str) -> str | None:
        for verb in ("plan", "discard", "play", "decline"):
            act = f"{verb} {card}"
            if act in self.other and verb != "decline":
                return act
        return None

    def plan_area(self, y: float) -> float:
        s, p, me = self.s, self.p, self.me
        assert me is not None   # called from mine(), for a seated viewer
        s.text(10, y + 18, p.t("ui.your_plan"), 15, "bold")
        y += 30
        x: float = 10
        slots = list(me.get("plan", []))
        turn = (self.o.get("deciding") or {}).get("kind") == "turn"
        for i, sl in enumerate(slots):
            if x > self.W - 180:  # a long plan wraps
                x, y = 10, y + 86 + (36 if turn else 0)
            card = sl.get("card") or "?"
            with s.moving(f"plan-{i + 1}", f"card-{'sp' if card == 'special' else ctype(card)}"):
                x = self.slot(x, y, sl, turn, i + 1) + 8
        b = me.get("building")
        if b:
            card = b["card"] if b["card"] in ("move", "ambush") else \
                ("sp_" + me["thief"] if b["card"] == "special" else ctype(b["card"]))
            ap = b["m"] + sum(self.d.ap_value.get(t_) or 0 for t_ in b["tok"])
            if self.narrow and x + 150 > self.W:   # the phone: the card being planned wraps too
                x, y = 10, y + 86 + (36 if turn else 0)
            # the card being planned becomes the plan's next slot: it comes out of the hand
            raw = "sp" if b["card"] == "special" else ctype(b["card"])
            with s.moving(f"plan-{len(slots) + 1}", f"card-{raw}", origin=f"hand-{raw}-1"):
                s.rect(x, y, 150, 74, fill="#fff6d6", stroke="#e8a317", width=2.5,
                       extra=' stroke-dasharray="6,4"')
                s.text(x + 8, y + 22, p.term("card", card), 14, "bold")
                s.text(x + 8, y + 44, p.t("ui.slot_ap", n=ap), 13)
                s.text(x + 8, y + 64, p.t("ui.building"), 13, color=MUTED)
            x += 158
        if not slots and not b:
            s.text(x, y + 40, p.t("ui.plan_empty"), 13, color=MUTED)
        y += 86 + (36 if turn else 0)
        # AP to put on the card being planned: click how many
        aps = sorted(AotAction.parse(a).named_count for a in self.legal if a.startswith("ap "))
        adds = [a for a in self.legal if a.startswith("add ")]
        finish = [a for a in ("next", "done") if a in self.other]
        if aps or adds or finish:
            head = "ui.ap_tokens" if aps else "ui.tokens_or_finish" if adds else "ui.finish_when_ready"
            s.text(10, y + 16, p.t(head), 14, "bold")
            y += 26
            x = 10
            for n in aps:
                if x > self.W - 40:
                    x, y = 10, y + 40
                with s.moving(f"ap-choice-{n}", "ap"):   # the points put on the card
                    s.token(x + 16, y + 16, 17, "#2e6fce" if n else "#8d8d8d", str(n), action=f"ap {n}",
                            title=p.t("act.ap", n=n))
                x += 40
            for a in adds:
                tok = AotAction.parse(a).arg
                x = s.badge(x + 6, y + 3, p.term("token", tok) + f" +{self.d.ap_value.get(tok) or 0}",
                            fill="#e3d7ff", action=a, size=self.bsize) + 4
            for a in finish:
                x = s.badge(x + 12, y + 3, p.t("ui.finish_" + a), fill="#d7f0d0", action=a,
                            size=self.bsize) + 4
            y += 42
        return y

    def slot(self, x: float, y: float, sl: dict[str, Any], turn: bool, index: int = 0) -> float:
        s, p = self.s, self.p
        card = sl.get("card") or "?"
        action = None
        if turn and not sl["done"]:
            action = {"move": "sneak", "ambush": "cleverness", "special": "special"}.get(card, f"play {card}")
            action = action if action in self.other else None
        me = self.me
        assert me is not None   # the viewer's own plan
        title = p.term("card", "sp_" + me["thief"]) if card == "special" else p.term("card", card)
        under = p.t("ui.on_card", card=sl["under"]) if card == "special" and sl.get("under") else ""
        w = max(150, 24 + len(title) * 8.4, 20 + len(under) * 7.4)
        s.open(action, label=title)   # no ref: a rival's card of the same name must not light mine
        s.rect(x, y, w, 74, fill="#e6e1d8" if sl["done"] else "#fffaf0", stroke="#e8a317" if action else INK,
               width=3 if action else 1.2)
        s.text(x + 8, y + 22, title, 14, "bold", MUTED if sl["done"] else INK)
        with s.moving(f"plan-{index}-ap" if index else None, "ap"):   # the action points on it
            s.text(x + 8, y + 44, p.t("ui.slot_ap", n=sl["ap"]), 13)
        if sl.get("tokens"):
            s.text(x + w - 8, y + 44, " + ".join(p.term("token", k) for k in sl["tokens"]), 13, color=MUTED,
                   anchor="end")
        if under:
            s.text(x + 8, y + 64, under, 13, color=MUTED)
        elif sl["done"]:
            s.text(x + 8, y + 64, p.t("ui.slot_done"), 13, color=MUTED)
        s.close()
        # the second effect of a basic card, the card under a special, and declining
        extra = {"move": "sprint", "ambush": "cunning"}.get(card)
        if card == "special" and sl.get("under"):
            extra = f"play {sl['under']}"
        bx = x + w + 2
        if turn and not sl["done"]:
            if extra and extra in self.other:
                # the card under the special is named itself: a click on it plays it
                label = ("▶ " + p.term("card", sl["under"]) if extra.startswith("play ")
                         else p.action_text(self.o, extra).split(":")[0])
                s.badge(x, y + 80, label, fill="#fde2c4", action=extra, size=self.bsize)
            key = "special" if card == "special" else card
            if f"decline {key}" in self.other:
                s.badge(x + w - 24, y - 12, "✕", fill="#f3d0d0", action=f"decline {key}", size=self.bsize)
        return bx

    # ------------------------------------------------------------------ buttons on the board
    def extras(self, y: float) -> float:
        """Choices that point at no space or card: drawn as labelled badges."""
        s, p = self.s, self.p
        shown = {"take token", "next", "done", "gstop", "sneak", "sprint", "cleverness", "cunning", "special"}
        shown |= {a for a in self.other if a.startswith(
            ("take ", "leave ", "steal ", "token ", "thief ", "special ", "plan ", "discard ", "play ",
             "decline ", "add ", "ap "))}
        rest = [a for a in self.other if a not in shown or (a.startswith("take ") and a not in self._drawn_takes())]
        if "gstop" in self.other:
            rest.append("gstop")
        if not rest:
            return y
        x: float = 10
        for a in rest:
            label = p.action_text(self.o, a)
            if x + 16 + len(label) * self.bsize * 0.64 > self.W - 10:
                x, y = 10, y + self.bsize * 1.8 + 6
            x = s.badge(x, y, label, fill="#d7f0d0", action=a, size=self.bsize) + 6
        return y + self.bsize * 1.8 + 12

    def _drawn_takes(self) -> set[str]:
        me = self.me
        if me is None or not me["pos"]:
            return set()
        out = {f"take {g}" for g in self.o["gems"].get(me["pos"], [])}
        if me["pos"] in self.o["face_down_tokens"]:
            out.add("take token")
        return out

    def legend(self, y: float) -> float:
        """The legend at ``y``: the same in every position, drawn once per language and
        width and moved into place."""
        p = self.p
        key = ("legend", p.texts, p.lang, self.W)
        kept = _LAYERS.get(key)
        if kept is None:
            scratch = Svg(self.W, 10)
            end = self.draw_legend(scratch, 0)
            kept = _LAYERS.put(key, ("".join(scratch.parts), end))
        self.s.add(f'<g transform="translate(0 {y:g})">{kept[0]}</g>')
        return y + float(kept[1])

    def draw_legend(self, s: Svg, y: float) -> float:
        """The legend in three groups (the spaces, what lies in the streets, the figures
        and jewels); a tap on a space says what it is, and the glossary has the rest."""
        p = self.p
        groups = [
            ("ui.legend_spaces", [(KIND_ICON[k], p.term("kind", k)) for k in KIND_ICON]),
            ("ui.legend_streets", [(FEATURE_ICON[f], p.term("token", f)) for f in FEATURE_ICON]
             + [("✹", p.t("ui.fire")), ("#a7a7a7", p.t("ui.smoke")), ("#8d6e63", p.t("ui.face_down")),
                (EXIT_ICON["gate"], p.t("ui.gate")), (EXIT_ICON["ship"], p.t("ui.ship"))]),
            ("ui.legend_pieces", [(GUARD_FILL, p.t("ui.legend_guard")), (CAPTAIN_FILL, p.t("ui.legend_captain")),
                                  (GEM_COLOUR["yellow"], p.term("gem", "yellow")),
                                  (GEM_COLOUR["green"], p.term("gem", "green")),
                                  (GEM_COLOUR["emperor"], p.term("gem", "emperor")),
                                  ("◉", p.t("ui.legend_you")), ("◌", p.t("ui.legend_hidden")),
                                  ("#e8a317", p.t("ui.legend_target"))]),
        ]
        # foldable (folded at first on the phone, where it is long)
        y = s.fold("legend", p.t("ui.legend"), 10, y, folded=self.narrow, size=15)
        for title, items in groups:
            y = s.legend(10, y, items, self.W - 20, title=p.t(title), size=13) + 6
        y = s.para(10, y + 12, p.t("ui.legend_more"), self.W - 20, 13, MUTED)
        s.end_fold()
        return y

    # ------------------------------------------------------------------ the layers
    def city_scale(self) -> float:
        """How much the city is scaled down (the phone layout draws it inset, whole)."""
        return min(1.0, self.W / (PANEL_X - 6)) if self.narrow else 1.0

    def static_layer(self) -> Layer:
        """The unchanging layer: the frame, the streets and the district names."""
        p, d, scale = self.p, self.d, self.city_scale()
        text = _LAYERS.get(("static", d, p.texts, p.lang, self.W))
        if text is None:
            scratch = Svg(self.W, 10)
            self.static(scratch)
            body = "".join(scratch.parts)
            if self.narrow:
                body = f'<g class="inset" transform="translate(0 0) scale({scale:.4g})">{body}</g>'
            text = _LAYERS.put(("static", d, p.texts, p.lang, self.W), body)
        return Layer([text], self.W, BOARD_BOTTOM * scale)

    def public_layer(self) -> Layer:
        """The shared layer (drawn with ``shared``): the turn, the pieces in the city, the
        event, the watch and every thief's row in seat order. Its anchors: where the
        viewer's part begins (``bottom``) and where each thief stands (``thieves``)."""
        assert self.shared
        if self.narrow:
            # the phone layout: the city scaled to the width; the event, the watch, the
            # thieves, the choices, the hand, the plan and the legend below at full size
            city = Board(self.p, self.o, shared=True)
            city.header()
            city.city()
            city.s.width, city.s.height = PANEL_X - 6, BOARD_BOTTOM
            y = self.s.inset(city.s, 0, 0, self.W) + 6
            y = self.column(10, y, self.W - 20) + 10
            thief_at = city.thief_at
        else:
            self.header()
            self.city()
            y = max(BOARD_BOTTOM, self.column()) + 10
            thief_at = self.thief_at
        self.s.height = y
        # plain JSON (a server may keep it anywhere): the seats as text
        return _layer(self.s, {"bottom": y, "thieves": {str(q): list(xy) for q, xy in thief_at.items()}})

    def seat_layer(self, public: Layer) -> Layer:
        """This viewer's layer over the shared one: their targets in the city, their
        other choices, their hand and plan, and the legend below."""
        s = self.s
        mark = len(s.parts)
        scale = self.city_scale()
        s.add(f'<g class="inset" transform="translate(0 0) scale({scale:.4g})">' if self.narrow else "<g>")
        self.targets(public)
        if len(s.parts) == mark + 1:
            del s.parts[mark:]   # nothing to click in the city
        else:
            s.add("</g>")
        y = self.extras(float(public.anchors.get("bottom", BOARD_BOTTOM)))
        y = self.mine(y)
        y = self.legend(y + 6)
        s.height = y + 10
        return _layer(s)


def _layer(s: Svg, anchors: dict[str, Any] | None = None) -> Layer:
    """What ``s`` drew, as a layer (the kit joins its neighbouring texts once)."""
    return s.layer(anchors)


def layer_width(pres: Table) -> float:
    """The board's width in the presentation's layout."""
    return NARROW_WIDTH if pres.narrow else W


def text_view(pres: Table, obs: dict[str, Any]) -> str:
    """The position as plain text: every token the observation has, in words."""
    p, o = pres, obs
    t = p.t
    lines = [t("ui.status", round=o["round"], calm=o["calm_events_left"], alarm=o["alarm_events_left"])
             + " · " + (t("ui.alarm_in", district=o["escape_district"]) if o["alarm"] else t("ui.calm"))
             + (" · " + t("ui.initiative", n=o["guard_initiative"]) if o["guard_initiative"] else "")]
    if o.get("event"):
        lines.append(f"{t('ui.event_short')}: {p.term('event', o['event']['id'])} – "
                     f"{p.event_effect({**o['event'], 'alarm': o['alarm']})}")
    g, c = o["watch"]["guard"], o["watch"]["captain"]
    lines.append(t("ui.guard_sheet", n=g[0], m=g[1]) + (" · " + t("ui.captain_sheet", n=c[0], m=c[1])
                                                        if o["alarm"] else ""))
    for q, th in enumerate(o["thieves"]):
        name = p.names[q] if q < len(p.names) else f"Player {q + 1}"
        where = (t("ui.left_nth", n=th["left"]) if th["left"] else t("ui.dungeon") if th["dungeon"]
                 else t("ui.not_placed") if th["pos"] is None else p.term("space", th["pos"]))
        flags = [t("ui.flag_" + f) for f in ("hidden", "theft_marker", "protected", "immobile", "robbed")
                 if th.get(f)]
        gems = [f"{p.term('gem', k)} ×{th[k]}" for k in ("green", "yellow") if th[k]]
        if th["emperor"]:
            gems.insert(0, p.term("gem", "emperor"))
        sheet = [p.term("token", x) for x in th["sheet"]]
        lines.append(f"{name} – {p.term('thief', th['thief'])}: {where}; {t('ui.vp', n=th['vp'])}; "
                     + "; ".join(x for x in (", ".join(gems), ", ".join(sheet), t("ui.cards", n=th["hand_count"]),
                                             " ".join(flags)) if x))
        if th.get("plan"):
            lines.append("   " + t("ui.revealed_plan", plan=plan_words(p, th["plan"])))
        if "hand" in th:
            lines.append("   " + t("ui.your_hand", thief=p.term("thief", th["thief"])) + ": "
                         + (", ".join(p.term("card", x) for x in th["hand"]) or "–"))
    lines.append(f"{t('ui.watch')}: " + ", ".join(
        f"{p.term('figure', figure_kind(gid))} {p.term('space', s)}" for gid, s in sorted(o["guards"].items())))
    lines.append(t("ui.jewels_on_board") + ": " + ", ".join(
        f"{p.term('space', s)}: {', '.join(p.term('gem', x) for x in v)}" for s, v in sorted(o["gems"].items())))
    lines.append(t("ui.face_down") + ": " + ", ".join(p.term("space", s) for s in o["face_down_tokens"]))
    if o["features"]:
        lines.append(", ".join(f"{p.term('token', f)}: {p.term('space', s)}" for s, f in sorted(o["features"].items())))
    if o["fire"] or o["smoke"]:
        lines.append(f"{t('ui.fire')}: {', '.join(p.term('space', s) for s in o['fire']) or '–'}; "
                     f"{t('ui.smoke')}: {', '.join(p.term('space', s) for s in o['smoke']) or '–'}")
    prompt = p.prompt(o)
    if prompt:
        lines.append(prompt)
    return "\n".join(lines)


def plan_words(pres: Table, plan: list[dict[str, Any]]) -> str:
    """A revealed plan in words: each card with its AP, ticked once done."""
    out = []
    for sl in plan:
        name = pres.term("card", sl["card"]) if sl.get("card") else "?"
        out.append(f"{name} {sl['ap']}" + (" ✓" if sl["done"] else ""))
    return ", ".join(out)
