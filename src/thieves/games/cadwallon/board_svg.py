"""The Cadwallon table in three layers (docs/engine.md, "Layers"), drawn with the shared kit
from an observation only.

Wide (a desktop): the unchanging layer is the district's ground (9x9 zones of 68 units,
roofs, doors, walls: :func:`static_layer`). The public layer (:func:`public_layer`, the same
for every viewer) holds the pieces on it and, beside it, the adventure and its turn track
and the fight being settled, then room for the viewer; below, every gang in seat order, the
last fight, a legend, the talents, the three face-up missions and the discard pile. The
viewer's layer (:func:`seat_layer`) fills that room (their answers, their gang a chip a
row, their hand) and marks what they may click on the public pieces (``Table.marks``).
Phone: the stacked table (zones of 100 units) scaled to the width, with the answers above
and the viewer's gang and hand at full size below (the viewer's layer).

Whatever the viewer may decide now is clickable where it is drawn (a zone, a figure, a
chest, a card, a mission), and one intention is one gesture (docs/engine.md, "Gestures"):
a move previews its path; a chest farther away is "go there and open it", an enemy farther
away "go next to it and attack it"; a character not
yet activated is picked first, then a zone it reaches activates it and moves it there; a
gesture that spends the last action points asks first.
"""
from __future__ import annotations

import marshal
from collections import deque
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

from ...core.presentation import Presentation
from ...core.svg import INK, MUTED, NARROW_WIDTH, PAPER, SEAT_INK, Layer, Offer, Svg, memo, seat_color, wrap
from .board import reach
from .constants import ATTACK_AP, FORCE_AP, MOVE_AP, OPEN_AP
from .look import (BACKGROUND, CELL, COLS, DEPLOY, DOCK_CELL, DOCK_PAD, DOOR, F, GOLD, HEROINE_FILL, HIGHLIGHT,
                   LINE, MILITIA_FILL, PAD, ROOF, ROOM, SEALED, STREET, TREASURE_LOOK, WALL, W, fill_of, ink_of,
                   labels)
from .look import owner as look_owner
from .notation import Action

#: the verbs whose argument is a zone a click on it stands for (``Table.zone_action``)
ZONE_VERBS = frozenset({"move", "at", "mm", "flee", "talent"})
#: the parts of the district that never change, kept per board, place and language
_LAYERS = memo(256)
#: a character's card, by everything on it
_CARDS = memo(2048)
#: the answers' row (a badge's height and its gap) at a font size
def _row(size: float) -> float:
    return size * 1.8 + 6


class ZoneRefs(Offer):
    """The zones' groups in the public layer, as one part: never clickable, a zone's
    ``recent`` when a recent event named it. Written once (the district's 81 zones in
    every viewer's rendering would otherwise be 81 tags to write each time)."""

    __slots__ = ("zones", "whole")

    def __init__(self, zones: list[tuple[str, str]]) -> None:
        """``zones``: each zone's id and what its group holds."""
        super().__init__(None, None)
        self.zones = [(z, Offer(None, z).tag((), ()), Offer(None, z).tag((), (z,)), inner) for z, inner in zones]
        self.whole = "".join(plain + inner + "</g>" for _, plain, _, inner in self.zones)

    def tag(self, legal: Any, recent: Any) -> str:
        if not recent or not any(z in recent for z, _, _, _ in self.zones):
            return self.whole
        return "".join((ringed if z in recent else plain) + inner + "</g>" for z, plain, ringed, inner in self.zones)


@dataclass(frozen=True)
class Gesture:
    """What a click stands for beyond its first action (docs/engine.md, "Gestures"): the
    further steps, the path previewed (drawing coordinates), a question asked first."""
    then: tuple[str, ...] = ()
    path: tuple[tuple[float, float], ...] = ()
    confirm: str | None = None


def route(d: Any, start: str, dest: str, blocked: set[str], walls: bool = False) -> list[str]:
    """The zones of a shortest way from ``start`` to ``dest`` (both included) through zones
    not in ``blocked`` (``walls``: red walls crossed too); [] when there is none."""
    back: dict[str, str | None] = {start: None}
    todo = deque([start])
    while todo:
        z = todo.popleft()
        if z == dest:
            out = []
            at: str | None = z
            while at is not None:
                out.append(at)
                at = back[at]
            return out[::-1]
        for n in (d.step_or_wall[z] if walls else d.adj[z]):
            if n not in back and (n == dest or n not in blocked):
                back[n] = z
                todo.append(n)
    return []


def _tt(tid: str) -> str:
    return tid.rstrip("0123456789")


def room_lines(name: str, per_line: int = 13) -> list[str]:
    """A room's name on at most three lines of a zone, overlong words hyphenated (at a soft
    hyphen or a hyphen of the text where there is one)."""
    words: list[str] = []
    for w in name.split():
        for mark, longest in (("\u00ad", per_line - 1), ("-", per_line)):
            if mark in w and len(w.replace("\u00ad", "")) > longest:
                head, _, w = w.partition(mark)
                words.append(head.replace("\u00ad", "") + "-")
        w = w.replace("\u00ad", "")
        while len(w) > per_line:
            words.append(w[:per_line - 1] + "-")
            w = w[per_line - 1:]
        words.append(w)
    lines: list[str] = []
    for w in words:
        if lines and not lines[-1].endswith("-") and len(lines[-1]) + 1 + len(w) <= per_line:
            lines[-1] += " " + w
        else:
            lines.append(w)
    if len(lines) > 3:
        lines = lines[:2] + [lines[2][:per_line - 1] + "…"]
    return lines


class Table:
    """One drawing of the table (the presentation, the observation and the kit)."""

    def __init__(self, pres: Presentation, obs: dict[str, Any], width: float = W,
                 cell: float = CELL, public: bool = False) -> None:
        self.W = width
        #: the side of a zone, and where the district's left edge is
        self.cell, self.left = cell, PAD
        #: small zones (the wide layout's docked district): figures without their names
        self.small = cell < CELL
        #: the phone: clickable figures and chests get a finger's room (a clear area)
        self.tap = False
        self._pickers: dict[str, dict[str, int]] | None = None
        self._assaults: dict[str, tuple[str, Gesture]] | None = None
        self.p, self.obs, self.d = pres, obs, pres.data
        #: the layer every viewer shares (docs/engine.md, "Layers"): drawn as no one may act,
        #: its clickable groups kept as offers (their look the page's), the viewer apart
        self.public = public
        self.legal: list[str] = [] if public else list(obs.get("legal") or [])
        #: where the public layer drew what the viewer's layer draws over or beside
        self.anchors: dict[str, Any] = {"chips": {}, "bands": {}}
        #: the viewer's layer draws their gang again where they act: its pieces keep no id
        #: there (the public layer's copy moves)
        self.copy = False
        if len(self.legal) == 1:
            # a decision with one answer (a reaction window with nothing to play, a forced
            # flight) is taken by the table itself after a short pause: nothing to click
            self.legal = []
        self.legal_set = frozenset(self.legal)
        self.parsed = [Action.parse(a) for a in self.legal]
        self.s = Svg(self.W, 100, legal=self.legal, recent=() if public else obs.get("recent") or [],
                     title=pres.texts.get(pres.lang, "name"), offers=public)
        self.pos: dict[str, str] = obs.get("positions") or {}
        self.at: dict[str, list[str]] = {}  # zone -> the figures in it
        for c, z in sorted(self.pos.items()):
            self.at.setdefault(z, []).append(c)

    # -- which legal action a click on a part stands for ---------------------------------
    def first(self, *candidates: str) -> str | None:
        legal = self.legal_set
        return next((a for a in candidates if a in legal), None)

    def offer(self, action: str) -> str | None:
        """An action whose part looks the same whether it may be clicked or not: always
        offered in the public layer (clickable there for whoever may take it), else when legal."""
        return action if self.public else self.first(action)

    def zone_action(self, z: str) -> str | None:
        return self.first(f"move {z}", f"at {z}", f"mm {z}", f"flee {z}", f"talent {z}")

    def figure_action(self, c: str) -> str | None:
        z = self.pos.get(c)
        pending = self.obs.get("pending") or {}
        cands = [f"deploy {c}", f"act {c}", f"attack {c}", f"militia {c}"]
        if c == self.obs.get("militia_selected"):
            cands.append("mm stay")
        if z is not None:
            cands.append(f"mm {z}")
        if pending.get("char") == c:
            cands.append("stay")
        return self.first(*cands)

    def chest_action(self, z: str) -> str | None:
        here = self.pos.get(self.obs.get("active") or "") == z
        return ((self.first("open", "force") if here else None) or self.first(f"play reinforced_lock {z}")
                or self.first(f"move {z}"))   # going there (and opening it: :meth:`chest_gesture`)

    def card_action(self, kind: str) -> str | None:
        return self.first(f"play {kind}", f"card {kind}", f"talent {kind}")

    # -- the whole table, in layers (docs/engine.md, "Layers") ---------------------------
    def finish(self, y: float) -> Layer:
        """The public layer: its background (around the district on a desktop, where the
        unchanging layer shows through) under what was drawn."""
        s = self.s
        s.height = y + 12
        if self.W < W:
            ground = f'<rect width="{self.W}" height="{s.height:g}" fill="{BACKGROUND}"/>'
        else:   # a hole where the district's ground lies (the unchanging layer)
            b = self.d.board
            x0, y0, w, h = self.left - 2, self.top - 2, b.columns * self.cell + 4, b.rows * self.cell + 4
            ground = (f'<path d="M0 0H{self.W}V{s.height:g}H0Z M{x0:g} {y0:g}h{w:g}v{h:g}h{-w:g}Z" '
                      f'fill="{BACKGROUND}" fill-rule="evenodd"/>')
        s.parts.insert(0, ground)
        return s.layer(self.anchors)

    def docked_public(self) -> float:
        """The wide layout's public layer: the district's pieces on the left and, beside
        it, the adventure and its turn track, the fight being settled (the gangs to choose
        from while they are chosen) and room for the viewer's answers and hand (their own
        layer); below, every gang in seat order, the last fight, the legend, the talents,
        the missions and the discard pile."""
        self.dock()
        y: float = DOCK_PAD
        bottom = self.district(y, ground=False)
        x = self.left + self.d.board.columns * self.cell + 16
        w = self.W - DOCK_PAD - x
        cy = self.round_box(x, y, w)
        cy = self.fight(x, cy, w, live_only=True)
        if self.obs.get("phase") == "gang":   # the choice beside the district, at the top
            cy = self.gang_choice(cy, x, w, 1) + 8
        hand_h = self.hand_card_height(w)
        self.anchors.update(top=self.top, seat=(x, cy, w), hand_h=hand_h)
        cy += self.seat_room(hand_h)
        y = max(bottom, cy) + 12
        full = self.W - 2 * DOCK_PAD
        gangs = self.obs.get("gangs") or []
        for p in range(self.obs.get("num_players", 0)):
            if p < len(gangs) and gangs[p]:
                y = self.gang_rows(p, gangs[p], DOCK_PAD, y, full, 4) + 6
        y = self.fight(DOCK_PAD, y, full, live_only=False, skip_live=True)
        y = self.legend(DOCK_PAD, y + 4, full)
        y = self.talents(y, DOCK_PAD, full)
        y = self.missions(y + 6, DOCK_PAD, full)
        return self.discard(y + 4, DOCK_PAD)

    def dock(self, top: float = DOCK_PAD) -> None:
        """The wide layout's district: small zones, docked at the top left."""
        self.cell, self.left, self.small, self.top = DOCK_CELL, DOCK_PAD, True, top

    def hand_card_height(self, w: float) -> float:
        """The height of every card of a hand in the column beside the district: as tall
        as the longest effect of the arcana (so the room the public layer keeps for a
        hand holds anyone's)."""
        key = ("hand_h", self.d, self.p.texts, self.p.lang, w)
        hit = _LAYERS.get(key)
        if hit is None:
            lines = max(len(wrap(self.p.term("card", f"{k}.effect"), w - 20, F)) for k in self.d.card)
            hit = _LAYERS.put(key, 40.0 + lines * 17)
        return float(hit)

    def seat_room(self, hand_h: float) -> float:
        """The room beside the district the viewer's layer draws in: two rows of answers,
        the viewer's gang (a chip a row) and the largest hand at the table."""
        most = max(self.obs.get("hand_counts") or [0])
        gang = 0.0
        if self.obs.get("phase") != "gang" and any(self.obs.get("gangs") or []):
            gang = 4 + 46 + 4 + max(len(c) for c in self.d.gang_chars.values()) * 45
        return 2 * _row(F) + gang + 4 + (24 + most * (hand_h + 8) if most else 0)

    def phone_public(self) -> float:
        """The phone layout's public layer: the stacked table (every gang in it) drawn
        whole and scaled to the width, then the fight being settled at full size; room
        above for the viewer's answers while a turn is played."""
        answers = self.obs.get("phase") == "main" and not self.obs.get("terminal")
        y = 8 + _row(14) if answers else 8
        table = Table(self.p, self.obs, public=True)
        table.tap = True
        table.s.height = table.table(10)
        scale = min(1.0, self.W / table.W)
        self.anchors.update(table.anchors)
        self.anchors.update(answers=answers, top=table.top, inset=(y, scale))
        y = self.s.inset(table.s, 0, y, self.W)
        y = self.fight(8, y + 6, self.W - 16, live_only=True)
        self.anchors["seat"] = y
        return y

    def table(self, y: float) -> float:
        """The stacked table the phone shows scaled (its answers and the fight being
        settled are drawn apart at full size): the turn, the district, the last fight,
        gangs and missions."""
        y = self.header(y)
        y = self.district(y + 6)
        y = self.legend(PAD, y + 8, self.W - 2 * PAD)
        y = self.fight(PAD, y + 6, self.W - 2 * PAD, live_only=False, skip_live=True)
        y = self.gangs(y + 6)
        y = self.talents(y)
        y = self.missions(y + 6)
        return self.discard(y + 4)

    def t(self, key: str, **args: Any) -> str:
        return self.p.t(key, **args)

    # -- header: adventure, track, alarm, bank ---------------------------------------------
    def header(self, y: float) -> float:
        obs, p = self.obs, self.p
        # kept by everything it reads
        key = ("header", self.d, p.texts, p.lang, tuple(p.names), self.W, y,
               marshal.dumps([obs.get(k) for k in ("adventure", "bank", "deck_count", "track", "round", "alarm",
                                                   "portcullis")], 2))
        end: float = self.s.piece(_LAYERS, key, lambda sv: self.draw_header(sv, y))
        return end

    def draw_header(self, s: Svg, y: float) -> float:
        obs, d = self.obs, self.d
        adv = d.adventure.get(obs.get("adventure"))
        s.text(PAD, y + 18, self.t("ui.adventure_is", adventure=obs.get("adventure")), 16, "bold")
        right = [self.t("ui.bank", n=obs.get("bank", 0)), self.t("ui.deck", n=obs.get("deck_count", 0))]
        s.text(self.W - PAD, y + 18, " · ".join(right), F, "normal", INK, "end")
        y += 30
        track = obs.get("track") or (adv.track if adv else 10)
        rnd = obs.get("round") or 1
        events = {e.round: e for e in adv.events} if adv else {}
        s.text(PAD, y + 20, self.t("ui.round_of", round=rnd, track=track), 15, "bold")
        bx, bw = PAD + 150, min(56, (self.W - PAD - 150 - PAD) / max(1, track))
        for r in range(1, track + 1):
            x = bx + (r - 1) * bw
            e = events.get(r)
            alarm = e is not None and e.effect == "alarm"
            fill = "#ffe082" if r == rnd else ("#ffcdd2" if alarm else PAPER)
            s.rect(x, y, bw - 4, 30, fill=fill, stroke=INK, width=2.5 if r == rnd else 1)
            mark = "!" if alarm else ("★" if e is not None else "")
            s.text(x + (bw - 4) / 2, y + 20, f"{r}{mark}", F, "bold" if r == rnd else "normal", INK, "middle")
        y += 38
        # the events still to come (and the one just fired), so the alarm is never a surprise
        lines = []
        for r in sorted(events):
            if r >= rnd and events[r].text:
                eid = f"{obs.get('adventure')}_{r}"
                lines.append(self.t("ui.term_def", name=r, text=self.p.term("event", eid)))
        if obs.get("alarm"):
            lines.insert(0, self.t("ui.alarm") + " — " + self.t("ui.gates", zones=", ".join(obs.get("portcullis") or [])))
        for line in lines[:3]:
            y = s.para(PAD, y + 14, line, self.W - 2 * PAD, F, "#b71c1c" if line.startswith(self.t("ui.alarm")) else INK) - 10
        return y + 12

    # -- answers that have no place on the board (no card, leave, force...) ----------------
    def answers(self, x0: float, y: float, width: float, size: float = F) -> float:
        """Badges for the answers that have no place on the board (``size`` 14 on a phone:
        a finger's 25 px)."""
        shown = {"nocard": "ui.pass", "no": "act.no", "leave": "ui.leave", "stay": "ui.stay"}
        if "open" in self.legal:
            shown["force"] = "ui.force"     # the chest itself opens; forcing is the other choice
        x, drawn = x0, False
        for action, key in shown.items():
            if action in self.legal:
                label = self.t(key)
                if drawn and x + 16 + len(label) * size * 0.64 > x0 + width:   # a row of its own
                    x, y = x0, y + size * 1.8 + 6
                x = self.s.badge(x, y, label, "#fff59d", action=action, size=size) + 8
                drawn = True
        return y + size * 1.8 + 6 if drawn else y

    def round_box(self, x: float, y: float, w: float) -> float:
        """The adventure and its turn track, compact (beside the district): the round,
        the events to come, the bank and the deck."""
        obs, p = self.obs, self.p
        key = ("round", self.d, p.texts, p.lang, tuple(p.names), x, y, w,
               marshal.dumps([obs.get(k) for k in ("adventure", "bank", "deck_count", "track", "round", "alarm",
                                                   "portcullis")], 2))
        end: float = self.s.piece(_LAYERS, key, lambda sv: self.draw_round_box(sv, x, y, w))
        return end

    def draw_round_box(self, s: Svg, x: float, y: float, w: float) -> float:
        obs, d = self.obs, self.d
        adv = d.adventure.get(obs.get("adventure"))
        track = obs.get("track") or (adv.track if adv else 10)
        rnd = obs.get("round") or 1
        events = {e.round: e for e in adv.events} if adv else {}
        title = self.t("ui.adventure_is", adventure=obs.get("adventure"))
        s.text(x, y + 15, wrap(title, w, 14)[0], 14, "bold")
        y += 22
        bw = min(34.0, w / max(1, track))
        for r in range(1, track + 1):
            bx = x + (r - 1) * bw
            e = events.get(r)
            alarm = e is not None and e.effect == "alarm"
            fill = "#ffe082" if r == rnd else ("#ffcdd2" if alarm else PAPER)
            s.add("<g>")
            if e is not None and e.text:
                event = self.p.term("event", f"{obs.get('adventure')}_{r}")
                s.add(f"<title>{escape(self.t('ui.term_def', name=r, text=event))}</title>")
            s.rect(bx, y, bw - 3, 24, fill=fill, stroke=INK, width=2.5 if r == rnd else 1)
            mark = "!" if alarm else ("★" if e is not None else "")
            s.text(bx + (bw - 3) / 2, y + 17, f"{r}{mark}", F, "bold" if r == rnd else "normal", INK, "middle")
            s.close()
        y += 28
        line = " · ".join([self.t("ui.round_of", round=rnd, track=track), self.t("ui.bank", n=obs.get("bank", 0)),
                           self.t("ui.deck", n=obs.get("deck_count", 0))])
        y = s.para(x, y + 13, line, w, F, INK) - 12
        # the next event (and the alarm once it has sounded), so it is never a surprise
        lines = []
        nxt = next((r for r in sorted(events) if r >= rnd and events[r].text), None)
        if nxt is not None:
            lines.append(self.t("ui.term_def", name=nxt, text=self.p.term("event", f"{obs.get('adventure')}_{nxt}")))
        if obs.get("alarm"):
            gates = self.t("ui.gates", zones=", ".join(obs.get("portcullis") or []))
            lines.insert(0, self.t("ui.alarm") + " — " + gates)
        for text in lines[:2]:
            red = text.startswith(self.t("ui.alarm"))
            y = s.para(x, y + 16, text, w, F, "#b71c1c" if red else INK, max_lines=3) - 12
        return y + 14

    # -- the district ---------------------------------------------------------------------
    def xy(self, z: str) -> tuple[float, float]:
        c, r = self.d.zone[z].cell
        return self.left + c * self.cell, self.top + r * self.cell

    def centre(self, z: str) -> tuple[float, float]:
        x, y = self.xy(z)
        return x + self.cell / 2, y + self.cell / 2

    def district(self, y: float, ground: bool = True) -> float:
        """The district and what stands in it; ``ground``: its streets and rooms too (else
        the unchanging layer holds them, and only the closed gates are drawn on them)."""
        s, d, obs = self.s, self.d, self.obs
        self.top = y
        b = d.board
        place = (self.left, y, self.cell, self.tap)
        port = set(obs.get("portcullis") or [])
        if ground:
            self.zones(s, port)
        else:
            for z in sorted(port):
                self.gates(z, s)
        if self.public:   # each zone a recent event may name (its ring is the page's)
            s.piece(_LAYERS, ("zone refs", d, place), self.zone_refs)
        self.routes()
        for z, chest in (obs.get("chests") or {}).items():
            self.chest(z, chest)
        for z, n in (obs.get("room_ducats") or {}).items():
            x, yy = self.xy(z)
            r = 17 if not self.small else 16.5
            s.token(x + self.cell - r - 2, yy + self.cell - r - 2, r, "#ffb300", str(n), INK, ref=z,
                    pid=f"ducats-{z}")
        for z, kind in (obs.get("tokens") or {}).items():
            x, yy = self.xy(z)
            s.badge(x + 4, yy + self.cell * 0.4, self.p.term("token", kind), "#a5d6a7", size=F, pid=f"token-{z}")
        for z, chars in self.at.items():
            for k, c in enumerate(chars):
                self.figure(c, z, k, len(chars))
        bottom: float = y + b.rows * self.cell
        return bottom

    def zones(self, s: Svg, port: set[str]) -> None:
        """The district's ground: its frame and roofs, its zones (those the viewer may
        click, or a recent event named, or with a closed gate drawn apart), its lines,
        doors and walls. The ground never changes: drawn once per board, place and language."""
        d, p, obs = self.d, self.p, self.obs
        b = d.board
        place = (self.left, self.top, self.cell, self.tap)
        s.piece(_LAYERS, ("roofs", d, place), self.roofs)
        plain = _LAYERS.get(("zones", d, place, p.texts, p.lang))
        if plain is None:
            plain = _LAYERS.put(("zones", d, place, p.texts, p.lang), self.plain_zones())
        busy = port | s.recent
        for a in self.legal:
            verb, _, arg = a.partition(" ")
            if verb in ZONE_VERBS:
                busy.add(arg)
        for z, markup in zip(b.zones, plain):
            if z.id not in busy:
                s.add(markup)
                continue
            act = self.zone_action(z.id)
            gesture = self.move_gesture(z.id) if act == f"move {z.id}" else Gesture()
            step = f"talent {z.id}"
            step = step if step in self.legal_set and act != step else ""
            key = ("zone", d, place, p.texts, p.lang, z.id, act, act and self.p.action_text(obs, act),
                   z.id in s.recent, z.id in port, step, step and self.p.action_text(obs, step), gesture)
            s.piece(_CARDS, key, lambda sv: self.zone(z, z.id in port, sv, gesture=gesture))
        s.piece(_LAYERS, ("edges", d, place), self.edges)

    def ground(self, s: Svg) -> None:
        """The unchanging layer's district: frame, roofs, zones with no gate closed, edges."""
        self.zones(s, set())

    def zone_refs(self, s: Svg) -> None:
        """An empty box per zone, named by its ref: a recent event ringing the zone."""
        boxes = []
        for z in self.d.board.zones:
            x, y = self.xy(z.id)
            boxes.append((z.id, f'<rect x="{x:g}" y="{y:g}" width="{self.cell:g}" height="{self.cell:g}" fill="none"/>'))
        s.parts.append(ZoneRefs(boxes))

    def roofs(self, s: Svg) -> None:
        """The district's frame and its roofed zones."""
        b, y, cell = self.d.board, self.top, self.cell
        s.add('<defs><pattern id="cad-roof" width="10" height="10" patternUnits="userSpaceOnUse">'
              f'<rect width="10" height="10" fill="{ROOF}"/><path d="M0 10L10 0" stroke="#3e2723" '
              'stroke-width="2"/></pattern></defs>')
        s.rect(self.left - 2, y - 2, b.columns * cell + 4, b.rows * cell + 4, fill="#37474f", rx=4)
        for r in b.roofed:
            col, row = COLS.index(r[0]), int(r[1:]) - 1
            s.add(f'<rect x="{self.left + col * cell:g}" y="{y + row * cell:g}" width="{cell:g}" '
                  f'height="{cell:g}" fill="url(#cad-roof)"/>')

    def plain_zones(self) -> tuple[str, ...]:
        """Each zone's markup as it is with no action, no glow and open gates (board order)."""
        out = []
        for z in self.d.board.zones:
            scratch = Svg(self.W, 100)
            self.zone(z, False, scratch, plain=True)
            out.append("".join(scratch.parts))
        return tuple(out)

    def edges(self, s: Svg) -> None:
        """The lines, doors and walls between zones."""
        b, k = self.d.board, self.cell / CELL
        for c in b.connections:
            self.edge(c.a, c.b, LINE if c.kind == "line" else DOOR, (4 if c.kind == "line" else 8) * k, s)
        for a, z in b.walls:
            self.edge(a, z, WALL, 6 * k, s)

    def zone(self, z: Any, closed: bool, s: Svg | None = None, plain: bool = False,
             gesture: "Gesture | None" = None) -> None:
        s = self.s if s is None else s
        cell = self.cell
        x, y = self.xy(z.id)
        act = None if plain else self.zone_action(z.id)
        g = gesture or Gesture()
        s.open(act, ref=z.id, label=self.p.action_text(self.obs, act) if act else None, cls="zone",
               then=g.then, path=g.path, confirm=g.confirm)
        s.rect(x, y, cell, cell, fill=ROOM if z.kind == "room" else STREET, stroke="#78909c",
               rx=0, width=0.6)
        if act:
            s.rect(x + 3, y + 3, cell - 6, cell - 6, fill="#fff59d", stroke="#e8a317", rx=4, width=2,
                   extra=' fill-opacity="0.55"')
        s.close()
        if z.name:  # a room: its name on top (two lines at most); a street: its coordinates
            name = self.p.term("room", z.id)
            lines = room_lines(name)
            if len(lines) > 2:
                lines = [lines[0], lines[1].rstrip("-")[:10] + "…"]
            for i, line in enumerate(lines):
                # a line a little too long for a small zone is set closer (same font size)
                squeeze = f' textLength="{cell - 5:g}" lengthAdjust="spacingAndGlyphs"' \
                    if len(line) * F * 0.6 > cell - 5 else ""
                s.add(f'<text x="{x + cell / 2:g}" y="{y + 15 + i * 14:g}" font-size="{F}" fill="#4e342e" '
                      f'text-anchor="middle"{squeeze}>{escape(line)}</text>')
        else:
            s.text(x + 4, y + 15, z.id, F, "normal", "#455a64")
        if not plain:
            self.shadow_step(z.id, act, s)
        if z.deployment:
            t = 18 * min(1.0, cell / CELL + 0.1)
            s.add(f'<path d="M{x + cell - t - 4:g} {y + 4:g}h{t:g}l{-t / 2:g} {t * 0.78:g}z" fill="{DEPLOY}"/>')
        if closed:
            self.gates(z.id, s)

    def shadow_step(self, z: str, act: str | None, s: Svg) -> None:
        """A shadow step to a zone the move reaches too: its own token in the zone's corner."""
        step = f"talent {z}"
        if step not in self.legal_set or act == step:
            return
        x, y = self.xy(z)
        cell = self.cell
        r = 17 if cell >= CELL else 16.5
        s.open(step, ref=None, label=self.p.action_text(self.obs, step), cls="token")
        if self.tap:   # a finger's room on a phone
            s.rect(x + cell - 62, y + cell - 62, 60, 60, fill="#fff", stroke="none", rx=4,
                   extra=' fill-opacity="0"')
        s.circle(x + cell - r - 3, y + cell - r - 3, r, "#4a148c", GOLD, 3)
        s.text(x + cell - r - 3, y + cell - r - 3 + 5, "✦", F, "bold", "#fff", "middle")
        s.close()

    def gates(self, z: str, s: Svg) -> None:
        """A zone closed by a portcullis: bars across it."""
        x, y = self.xy(z)
        cell = self.cell
        for i in range(1, 5):
            s.add(f'<line x1="{x + i * cell / 5:g}" y1="{y:g}" x2="{x + i * cell / 5:g}" y2="{y + cell:g}" '
                  'stroke="#000" stroke-width="4"/>')
        s.add(f'<line x1="{x:g}" y1="{y + cell / 2:g}" x2="{x + cell:g}" y2="{y + cell / 2:g}" '
              'stroke="#000" stroke-width="4"/>')

    def edge(self, a: str, b: str, color: str, width: float, s: Svg) -> None:
        (ax, ay), (bx, by) = self.xy(a), self.xy(b)
        cell, m = self.cell, self.cell * 0.22
        if ay == by:
            x = max(ax, bx)
            s.add(f'<line x1="{x:g}" y1="{ay + m:g}" x2="{x:g}" y2="{ay + cell - m:g}" '
                  f'stroke="{color}" stroke-width="{width:g}"/>')
        else:
            yy = max(ay, by)
            s.add(f'<line x1="{ax + m:g}" y1="{yy:g}" x2="{ax + cell - m:g}" y2="{yy:g}" '
                  f'stroke="{color}" stroke-width="{width:g}"/>')

    # -- gestures: a move with its path, activate-and-move in one click ---------------------
    def route(self, start: str, dest: str) -> list[tuple[float, float]]:
        """The path a move is previewed along: the fewest steps from ``start`` to ``dest``
        through empty zones (a figure's own zone and the destination apart), else through
        any zone (a secret passage, the rooftops)."""
        blocked = set(self.pos.values()) | set(self.obs.get("tokens") or {})
        zones = route(self.d, start, dest, blocked) or route(self.d, start, dest, set(), walls=True)
        return [self.centre(z) for z in zones] if zones else []

    def ap_left(self) -> int:
        viewer = self.obs.get("viewer")
        aps = self.obs.get("ap") or []
        return aps[viewer] if viewer is not None and viewer < len(aps) else 0

    def costly(self, cost: int) -> str | None:
        """The question a gesture asks first when it spends the viewer's last action points."""
        left = self.ap_left()
        return self.t("ui.confirm_last_ap", n=left) if cost >= left else None

    def move_gesture(self, z: str) -> "Gesture":
        """The active character's move to ``z``: its path drawn first, and a question
        when it spends the last AP."""
        c = self.obs.get("active")
        if not c or c not in self.pos:
            return Gesture()
        return Gesture(path=tuple(self.route(self.pos[c], z)), confirm=self.costly(MOVE_AP))

    def pickers(self) -> dict[str, dict[str, int]]:
        """The viewer's characters not yet activated that can move: each is picked on the
        district (the first click), then one of the zones it reaches activates it and moves
        it there (the second click: ``act X`` and then ``move z``). Worked out from the
        observation only (the same reach as the rules, :func:`.board.reach`)."""
        if self._pickers is None:
            out: dict[str, dict[str, int]] = {}
            if self.obs.get("phase") == "main" and not self.obs.get("pending") and self.ap_left() >= MOVE_AP:
                blocked = set(self.pos.values()) | set(self.obs.get("tokens") or {}) \
                    | set(self.obs.get("portcullis") or [])
                injured = self.obs.get("injured") or {}
                for a in self.parsed:
                    c = a.arg
                    if a.verb != "act" or c not in self.pos:
                        continue
                    mv = max(0, self.d.move_of[c] - injured.get(c, 0))
                    targets = reach(self.d, self.pos[c], mv, blocked)
                    if targets:
                        out[c] = targets
            self._pickers = out
        return self._pickers

    def routes(self) -> None:
        """The zones each picked character reaches (shown by the page while it is picked)."""
        s, obs = self.s, self.obs
        viewer = obs.get("viewer")
        color = seat_color(viewer) if viewer is not None else "#777"
        for c, targets in self.pickers().items():
            for z in sorted(targets):
                x, y = self.xy(z)
                label = self.t("ui.act_move", char=c, zone=z)
                s.open(f"act {c}", label=label, cls="zone route", then=[f"move {z}"],
                       path=self.route(self.pos[c], z), confirm=self.costly(MOVE_AP), needs=f"go-{c}")
                s.rect(x + 3, y + 3, self.cell - 6, self.cell - 6, fill=color, stroke=color, rx=4, width=2.5,
                       extra=' fill-opacity="0.22" stroke-dasharray="6 4"')
                s.close()

    def chest(self, z: str, chest: dict[str, Any]) -> None:
        s = self.s
        kind = _tt(chest["t"])
        act = self.chest_action(z)
        gesture = self.chest_gesture(z, act)
        label = self.p.term("treasure", kind) + (" — " + self.t("ui.chest_face") if chest["sealed"] else "")
        words = self.p.action_text(self.obs, act) if act else label
        if gesture.then:
            words = self.t("ui.go_open", zone=z, open=self.p.action_text(self.obs, gesture.then[0]))
        key = ("chest", self.d, self.top, self.left, self.cell, self.tap, z, kind, bool(chest["sealed"]), act,
               label, words, z in s.recent, gesture)
        with s.moving(f"chest-{z}"):   # a sealed chest is named by its zone only
            s.piece(_CARDS, key, lambda sv: self.draw_chest(sv, z, kind, bool(chest["sealed"]), act, label, words,
                                                             gesture))

    def chest_gesture(self, z: str, act: str | None) -> "Gesture":
        """A chest in a room the active character can reach: go there and open it (or
        force it, when only that is possible) in one click."""
        c = self.obs.get("active")
        if act != f"move {z}" or not c:
            return Gesture()
        state = self.obs.get("act") or {}
        chest = (self.obs.get("chests") or {}).get(z) or {}
        if state.get("acted"):
            return Gesture()
        step, cost = ("force", FORCE_AP) if chest.get("sealed") else ("open", OPEN_AP)
        if self.ap_left() < MOVE_AP + cost:
            return Gesture()
        return Gesture(then=(step,), path=tuple(self.route(self.pos[c], z)), confirm=self.costly(MOVE_AP + cost))

    def draw_chest(self, s: Svg, z: str, kind: str, sealed: bool, act: str | None, label: str, words: str,
                   gesture: "Gesture") -> None:
        x, y = self.xy(z)
        cell = self.cell
        fill, ink, mark = SEALED if sealed else TREASURE_LOOK.get(kind, ("#999", "#fff", "?"))
        s.open(act, ref=z, label=words, cls="chest", then=gesture.then, path=gesture.path, confirm=gesture.confirm)
        if not act:
            s.add(f"<title>{escape(label)}</title>")
        elif self.tap:   # a finger's room on a phone: the chest's half of the zone
            s.rect(x + cell * 0.38, y + cell * 0.3, cell * 0.6, cell * 0.62, fill="#fff", stroke="none", rx=4,
                   extra=' fill-opacity="0"')
        if self.small:
            w, h, top = 26.0, 22.0, y + 32
        else:
            w, h, top = 30.0, 26.0, y + 40
        s.rect(x + cell - w - 6, top, w, h, fill=fill, stroke="#e8a317" if act else INK,
               rx=4, width=3 if act else 1.2)
        s.text(x + cell - 6 - w / 2, top + h * 0.73, mark, 16 if not self.small else 14, "bold", ink, "middle")
        s.close()

    def figure_target(self, c: str) -> tuple[str | None, bool, "Gesture"]:
        """What a click on figure ``c`` does for this viewer: its action, whether it
        is picked first (its zones then activate and move it: ``routes``), and the
        gesture of an assault (go next to it and attack it)."""
        pick = c in self.pickers()
        act = None if pick else self.figure_action(c)
        if act is None and not pick and c in self.assaults():
            act, gesture = self.assaults()[c]
            return act, pick, gesture
        return act, pick, Gesture()

    def figure(self, c: str, z: str, k: int, n: int) -> None:
        s, obs = self.s, self.obs
        act, pick, gesture = self.figure_target(c)
        title = self.p.action_text(obs, act) if act else self.d.name_of[c]
        if pick:
            title = self.t("ui.pick_char", char=c)
        elif gesture.then:
            title = self.t("ui.go_attack", zone=act.split()[1] if act else "", target=c)
        key = ("figure", self.d, self.top, self.left, self.cell, self.tap, c, z, k, n, act, pick, title,
               c == obs.get("active"), c in s.recent,
               fill_of(self.d, obs, c), ink_of(self.d, obs, c), tuple((obs.get("carried") or {}).get(c) or []),
               self.lifted(c), gesture)
        fx, fy = self.figure_xy(z, k, n)
        with s.moving(f"figure-{c}", at=(fx, fy - self.figure_lift(c))):
            s.piece(_CARDS, key, lambda sv: self.draw_figure(sv, c, z, k, n, act, title, pick, gesture))

    def assaults(self) -> dict[str, tuple[str, "Gesture"]]:
        """Enemies the active character can reach and attack in one click: ``move z`` to
        the nearest zone next to the enemy, then ``attack``. Only where the rules allow
        both now: no move or action yet, the AP for both, and a Movement point left after
        the move for the step into the enemy's zone (§"Se déplacer"; the option
        ``attack_needs_movement``, on by default); not with a card that changes the way
        (Secret passage, Over the rooftops)."""
        if self._assaults is not None:
            return self._assaults
        self._assaults = {}
        obs, d = self.obs, self.d
        c = obs.get("active")
        state = obs.get("act") or {}
        cards = set(state.get("cards") or [])
        if (not c or c not in self.pos or state.get("moved") or state.get("acted") or obs.get("pending")
                or cards & {"secret_passage", "rooftops"} or self.ap_left() < MOVE_AP + ATTACK_AP):
            return self._assaults
        port = set(obs.get("portcullis") or [])
        blocked = set(self.pos.values()) | set(obs.get("tokens") or {}) | port
        mv = max(0, d.move_of[c] + (2 if "run" in cards else 0) - (obs.get("injured") or {}).get(c, 0))
        steps = reach(d, self.pos[c], mv, blocked)
        here = d.adj_set[self.pos[c]]
        for t in sorted(d.foes_of[d.gang_of[c]] & set(self.pos)):
            zt = self.pos[t]
            if zt in port or zt in here:
                continue
            near = [(n, z) for z, n in steps.items()
                    if zt in d.adj_set[z] and n <= mv - 1 and f"move {z}" in self.legal_set]
            if near:
                _, z = min(near)
                path = (*self.route(self.pos[c], z), self.centre(zt))
                self._assaults[t] = (f"move {z}", Gesture(then=(f"attack {t}",), path=path,
                                                          confirm=self.costly(MOVE_AP + ATTACK_AP)))
        return self._assaults

    def figure_xy(self, z: str, k: int, n: int) -> tuple[float, float]:
        """Where the ``k``-th of ``n`` figures in zone ``z`` stands."""
        x, y = self.xy(z)
        if self.small:
            return x + (21 if n == 1 else 17 + k * 34), y + (48 if self.d.is_room[z] else 44)
        return x + (32 if n == 1 else 26 + k * 40), y + (58 if self.d.is_room[z] else 50)

    def figure_lift(self, c: str) -> float:
        """How far up a figure is drawn: a picked-up one stands raised."""
        return (4.0 if self.small else 7.0) if self.lifted(c) else 0.0

    def draw_figure(self, s: Svg, c: str, z: str, k: int, n: int, act: str | None, title: str,
                    pick: bool = False, gesture: "Gesture | None" = None) -> None:
        d = self.d
        cx, cy = self.figure_xy(z, k, n)
        name = d.name_of[c]
        lift = self.figure_lift(c)
        r = 19.0 if not self.small else (17.0 if n == 1 else 16.5)
        if lift:   # its shadow where it stands
            s.add(f'<ellipse cx="{cx:g}" cy="{cy + r * 0.8:g}" rx="{r * 0.85:g}" ry="{r * 0.27:g}" fill="#000" '
                  'opacity="0.25"/>')
        active = c == self.obs.get("active")
        if active:
            s.circle(cx, cy, r + 5, "none", "#ffd600", 5)
        g = gesture or Gesture()
        wrapped = pick or (act is not None and (self.tap or bool(g.then)))
        if pick:
            s.picker(f"go-{c}", title, ref=c)
        elif wrapped:   # the click's group (its further steps; a finger's room on a phone)
            s.open(act, ref=c, label=title, cls="figure", then=g.then, path=g.path, confirm=g.confirm)
        if act and self.tap and not pick:   # a finger's room on a phone: the figure's part of its zone
            x, y = self.xy(z)
            w = self.cell / n
            s.rect(x + k * w + 2, y + 22, w - 4, self.cell - 24, fill="#fff", stroke="none", rx=4,
                   extra=' fill-opacity="0"')
        if pick and self.tap:
            x, y = self.xy(z)
            w = self.cell / n
            s.rect(x + k * w + 2, y + 22, w - 4, self.cell - 24, fill="#fff", stroke="none", rx=4,
                   extra=' fill-opacity="0"')
        if self.lifted(c):   # the figure acting: the phone's frame centres on it (data-focus)
            s.add('<g data-focus="1">')
        # inside the click's own group the token is not a second (plainer) click
        s.token(cx, cy - lift, r, fill_of(self.d, self.obs, c), labels(d)[c], ink_of(self.d, self.obs, c),
                action=None if wrapped else act, ref=c, title=None if wrapped else title)
        if self.lifted(c):
            s.close()
        if wrapped and act:   # the gold ring of a clickable token
            s.circle(cx, cy - lift, r, "none", "#e8a317", 3)
        if pick:   # a dashed ring: pick it to see where it can go
            s.add(f'<circle cx="{cx:g}" cy="{cy - lift:g}" r="{r + 3:g}" fill="none" stroke="#e8a317" '
                  'stroke-width="2.5" stroke-dasharray="5 3"/>')
        if wrapped:
            s.close()
        if not self.small:
            short = name if len(name) <= 9 else name.split()[-1][:9]
            if n == 1 or k == 0:
                s.text(cx, cy + 34, short, F, "bold", INK, "middle")
        loot = (self.obs.get("carried") or {}).get(c) or []
        sq = 14 if not self.small else 10
        for i, tid in enumerate(loot[:4]):
            fill, ink, mark = TREASURE_LOOK.get(_tt(tid), ("#999", "#fff", "?"))
            s.rect(cx + r * 0.7 + i * 3, cy - r - 7 - i * 3, sq, sq, fill=fill, rx=3)

    # -- legend --------------------------------------------------------------------------
    def legend(self, x: float, y: float, w: float) -> float:
        t, p = self.t, self.p
        items = [(STREET, t("ui.street")), (ROOM, t("ui.room")), (ROOF, t("ui.roofed")),
                 (DOOR, t("ui.door")), (WALL, t("ui.wall")), (DEPLOY, t("ui.deployment")),
                 ("#000000", t("ui.portcullis")), (SEALED[0], t("ui.chest_face")),
                 ("#ffb300", t("ui.loose")), (MILITIA_FILL, t("ui.militia"))]
        if any(c in self.d.heroine for c in self.pos):
            items.append((HEROINE_FILL, t("ui.heroine")))
        if any(self.d.talent_of.get(c) == "shadow_step" for c in self.pos):
            items.append(("✦", p.term("talent", "shadow_step")))
        kinds = self.d.treasures.mixes.get("twelve_red", {})
        present = {_tt(v["t"]) for v in (self.obs.get("chests") or {}).values()} | set(kinds)
        for k in [x.id for x in self.d.treasures.types if x.id in present]:
            items.append((TREASURE_LOOK[k][0], p.term("treasure", k) + " " + TREASURE_LOOK[k][2]))
        title = t("ui.legend")
        end: float = self.s.piece(_LAYERS, ("legend", x, w, y, title, tuple(items)),
                                  lambda sv: _folded_legend(sv, x, y, items, w, title))
        return end

    # -- the fight ---------------------------------------------------------------------------
    def fight(self, x: float, y: float, w: float, live_only: bool = False, skip_live: bool = False) -> float:
        """The fight being settled (``live_only``) or the last one (``skip_live``: not
        the one being settled): both sides with their card, their dice and who won;
        side by side when wide, one above the other in a narrow column."""
        obs = self.obs
        live = obs.get("combat") is not None
        f = obs.get("combat") or obs.get("fight")
        if not f or (live_only and not live) or (skip_live and live):
            return y
        s = self.s
        stacked = w < 520
        h = 26 + (2 * 62 if stacked else 78)
        under = len(s.parts)   # the panel goes under what is drawn on it, once its height is known
        zone = self.p.term("zone", f.get("zone"))
        s.text(x + 10, y + 19, wrap(f"{self.t('ui.fight' if live else 'ui.last_fight')} — {zone}", w - 20, 15)[0],
               15, "bold")
        for i, side in enumerate(("att", "def")):
            c = f[side]
            x0, y0 = (x + 8, y + 26 + i * 62) if stacked else (x + 10 + i * (w / 2), y + 26)
            s.token(x0 + 20, y0 + 26, 18, fill_of(self.d, obs, c), labels(self.d)[c], ink_of(self.d, obs, c), ref=c)
            won = f.get("winner")
            verdict = "" if won is None else (" — " + self.t("ui.wins" if won == c else "ui.loses"))
            s.text(x0 + 46, y0 + 16, wrap(self.d.name_of[c] + verdict, w - 60, 14)[0], 14, "bold")
            card = f.get(side + "_card")
            s.text(x0 + 46, y0 + 33, self.p.term("card", card) if card else self.t("ui.no_card"), F, "normal", MUTED)
            dice = f.get("r" + side) or []
            best = max(dice) if dice else None
            for k, v in enumerate(dice):
                s.die(x0 + 46 + k * 31, y0 + 36, 27, "#fff" if v == best else "#e0e0e0", INK, str(v),
                      dim=v != best, pid=f"die-{side}-{k + 1}")
            # the loser's treasures, clickable when the winner chooses one
            pending = obs.get("pending") or {}
            if pending.get("kind") == "take" and pending.get("from") == c:
                kinds = sorted({_tt(t) for t in (obs.get("carried") or {}).get(c, [])})
                bx = x0 + 46 + max(3, len(dice)) * 31 + 6
                for kind in kinds:
                    act = self.offer(f"take {kind}")
                    label = self.p.term("treasure", kind)
                    if bx + 16 + len(label) * F * 0.64 > x + w:
                        bx = x0 + 46
                        y0 += 26
                        h += 26
                    bx = s.badge(bx, y0 + 38, label, TREASURE_LOOK[kind][0], TREASURE_LOOK[kind][1],
                                 action=act, size=F) + 6
        panel = Svg(self.W, 100)
        panel.rect(x, y, w, h, fill="#fff8e1", stroke="#8d6e63")
        s.parts[under:under] = panel.parts
        return y + h + 6

    # -- the gangs -------------------------------------------------------------------------------
    def gangs(self, y: float) -> float:
        obs = self.obs
        n = obs.get("num_players", 0)
        gangs = obs.get("gangs") or [None] * n
        if obs.get("phase") == "gang":
            return self.gang_choice(y)
        for p in range(n):
            if gangs[p] is None:
                continue
            y = self.gang(p, gangs[p], y)
        return y

    def gang(self, p: int, g: str, y: float) -> float:
        """One gang: its seat band (ducats, action points, cards) and its characters
        (four a row; two a row, the counts on a second line, on a phone)."""
        obs, d, s = self.obs, self.d, self.s
        n = obs.get("num_players", 0)
        narrow = self.W < W
        color = seat_color(p)
        pick = self.first(f"play pickpocket P{p + 1}")
        # the phone's scaled table: a seat Pickpocket targets gets a finger's height
        band = 48 if narrow else (60 if self.tap and pick else 28)
        self.anchors["bands"][p] = (PAD, y, self.W - 2 * PAD, band)
        s.open(pick, ref=f"seat:{p}", cls="seat")
        s.rect(PAD, y, self.W - 2 * PAD, band, fill=color, stroke=INK, rx=6)
        counts = (f"{obs['ducats'][p]} {self.t('ui.ducats')} · {obs['ap'][p]} {self.t('ui.ap')} · "
                  f"{self.t('ui.cards', n=(obs.get('hand_counts') or [0] * n)[p])}")
        ink = SEAT_INK[p % len(SEAT_INK)]
        if narrow:
            s.text(PAD + 10, y + 19, f"{self._seat(p)} — {self.p.term('gang', g)}", 14, "bold", ink)
            s.text(PAD + 10, y + 39, counts, F, "bold", ink)
        else:
            s.text(PAD + 10, y + band / 2 + 5, f"{self._seat(p)} — {self.p.term('gang', g)} · {counts}", 14, "bold",
                   ink)
        s.close()
        top, y = y, y + band + 4
        if p == obs.get("viewer") and "end" in self.legal:
            if narrow:   # the phone: "end the turn" under the band, at full size (a finger's 25 px)
                s.badge(PAD, y, self.t("ui.end"), "#fff59d", action="end", size=14)
                y += 30
            else:
                s.badge(self.W - PAD - 120, top + 3, self.t("ui.end"), "#fff59d", action="end", size=F)
        per_row = 2 if narrow else 4
        cw = (self.W - 2 * PAD) / per_row
        row_h = 96 + (18 if narrow else 0)    # room for the wrapped stats of a narrow card
        chars = d.gang_chars[g]
        for i, c in enumerate(chars):
            self.char_card(PAD + (i % per_row) * cw, y + (i // per_row) * row_h, cw - 6, c, p)
        return y + ((len(chars) + per_row - 1) // per_row) * row_h

    def gang_rows(self, p: int, g: str, x: float, y: float, w: float, per_row: int) -> float:
        """One gang, compact: its seat band (ducats, action points, cards; "End turn" on
        the viewer's) and a row chip per character, ``per_row`` to a row."""
        obs, s = self.obs, self.s
        n = obs.get("num_players", 0)
        ink = SEAT_INK[p % len(SEAT_INK)]
        counts = (f"{obs['ducats'][p]} {self.t('ui.ducats')} · {obs['ap'][p]} {self.t('ui.ap')} · "
                  f"{self.t('ui.cards', n=(obs.get('hand_counts') or [0] * n)[p])}")
        head = f"{self._seat(p)} — {self.p.term('gang', g)}"
        end = p == obs.get("viewer") and "end" in self.legal
        end_w = 16 + len(self.t("ui.end")) * F * 0.64 if end else 0.0
        bold = 0.84   # wrap() measures plain text: a bold line runs wider
        one = len(wrap(f"{head} · {counts}", (w - 20 - end_w) * bold, 14)) == 1
        band = 28 if one else 46
        self.anchors["bands"][p] = (x, y, w, band)
        s.open(self.first(f"play pickpocket P{p + 1}"), ref=f"seat:{p}", cls="seat")
        s.rect(x, y, w, band, fill=seat_color(p), stroke=INK, rx=6)
        if one:
            s.text(x + 10, y + 19, f"{head} · {counts}", 14, "bold", ink)
        else:   # the gang, then the seat and its counts ("End turn" stays on the first line)
            s.text(x + 10, y + 19, wrap(self.p.term("gang", g), (w - 20 - end_w) * bold, 14)[0], 14, "bold", ink)
            s.text(x + 10, y + 38, wrap(f"{self._seat(p)} · {counts}", w - 20, F)[0], F, "bold", ink)
        s.close()
        if end:
            s.badge(x + w - end_w - 4, y + 3, self.t("ui.end"), "#fff59d", action="end", size=F)
        y += band + 4
        cw = (w - (per_row - 1) * 6) / per_row
        chars = self.d.gang_chars[g]
        for i, c in enumerate(chars):
            self.char_chip(x + (i % per_row) * (cw + 6), y + (i // per_row) * 45, cw, c, p)
        return y + ((len(chars) + per_row - 1) // per_row) * 45

    def char_chip(self, x: float, y: float, w: float, c: str, p: int) -> None:
        """A character in one chip: token, name and talent; its Combat, Movement and Spirit
        (the viewer's own) or where it is (a rival's); what it carries."""
        st = self._char_state(c, p)
        own = p == self.obs.get("viewer") and not self.public
        self.anchors["chips"][c] = (x, y, w, 41.0)
        key = ("chip", self.d, self.p.texts, self.p.lang, x, y, w, c, p, own, st, c in self.s.recent, self.lifted(c),
               self.copy)
        with self.s.moving(None if self.copy else f"char-{c}"):
            self.s.piece(_CARDS, key, lambda s: self.draw_char_chip(s, x, y, w, c, p, own, *st))

    def _char_state(self, c: str, p: int) -> tuple[str | None, bool, bool, str | None, str | None, bool, bool,
                                                    tuple[str, ...]]:
        """What a character's chip or card shows of it (part of the key it is kept by): where
        it is, escaped, waiting to be deployed, its action and that action's text, active,
        done this round, what it carries."""
        obs = self.obs
        where = self.pos.get(c)
        escaped = c in (obs.get("escaped") or [])
        waiting = c in ((obs.get("to_deploy") or [[]] * (p + 1))[p])
        act = self.figure_action(c)
        active = c == obs.get("active")
        done = c in (obs.get("activated") or []) and not active
        label = self.p.action_text(obs, act) if act else None
        loot = tuple((obs.get("carried") or {}).get(c) or [])
        return where, escaped, waiting, act, label, active, done, loot

    def draw_char_chip(self, s: Svg, x: float, y: float, w: float, c: str, p: int, own: bool, where: str | None,
                       escaped: bool, waiting: bool, act: str | None, label: str | None, active: bool,
                       done: bool, loot: tuple[str, ...]) -> None:
        d = self.d
        ch = d.char[c]
        mv = ch.movement + (1 if ch.talent == "nimble" else 0)
        stats = (f"{self.t('ui.combat')} {ch.combat} · {self.t('ui.movement')} {mv} · "
                 f"{self.t('ui.spirit')} {ch.spirit}")
        status = (self.t("ui.escaped") if escaped else self.t("ui.not_deployed") if waiting
                  else self.p.term("zone", where) if where else "")
        if active:
            status = self.t("ui.active") + " · " + status
        elif done:
            status = self.t("ui.used") + " · " + status
        s.open(act, ref=c, label=label, cls="character")
        if not act:
            s.add(f"<title>{escape(self.t('ui.term_def', name=ch.name, text=stats + ' · ' + status))}</title>")
        s.rect(x, y, w, 41, fill="#fffde7" if active else ("#eeeeee" if done or escaped else PAPER),
               stroke="#e8a317" if act else ("#e8a317" if active else INK), width=3 if act or active else 1)
        lift = 5.0 if waiting and self.lifted(c) else 0.0   # picked up to be deployed
        s.token(x + 21, y + 20.5 - lift, 16.5, seat_color(p), labels(d)[c], SEAT_INK[p % len(SEAT_INK)],
                pid=f"figure-{c}" if waiting and not self.copy else None)
        talent = self.p.term("talent", ch.talent)
        name_w = len(ch.name) * 14 * 0.68    # bold runs wider than wrap()'s estimate
        s.text(x + 44, y + 17, ch.name, 14, "bold")
        line = stats if own and not (waiting or escaped) else status
        if len(talent) * F * 0.68 <= w - 44 - name_w - 14:
            s.text(x + w - 6, y + 17, talent, F, "bold", "#5d4037", "end")
        else:   # no room beside the name: after what the second line says
            line = f"{line} · {talent}" if line else talent
        s.text(x + 44, y + 34, wrap(line, w - 50 - 16 * len(loot), F)[0], F, "normal", INK if own else MUTED)
        for i, tid in enumerate(loot):
            fill, ink, mark = TREASURE_LOOK.get(_tt(tid), ("#999", "#fff", "?"))
            s.rect(x + w - 20 - i * 16, y + 23, 14, 14, fill=fill, rx=3)
            s.text(x + w - 13 - i * 16, y + 34, mark, F, "bold", ink, "middle")
        s.close()

    def talents(self, y: float, x: float = PAD, w: float | None = None) -> float:
        """What each talent in play does (named on the character cards above)."""
        gangs = [g for g in self.obs.get("gangs") or [] if g]
        width = self.W - 2 * PAD if w is None else w
        key = ("talents", self.d, self.p.texts, self.p.lang, x, width, y, tuple(gangs))
        end: float = self.s.piece(_LAYERS, key, lambda sv: self.draw_talents(sv, y, gangs, x, width))
        return end

    def draw_talents(self, s: Svg, y: float, gangs: list[str], x: float, w: float) -> float:
        seen: list[str] = []
        for g in gangs:
            for c in self.d.gang_chars[g]:
                tal = self.d.talent_of[c]
                if tal not in seen:
                    seen.append(tal)
        for tal in seen:
            line = self.t("ui.term_def", name=self.p.term("talent", tal), text=self.p.term("talent", tal + ".effect"))
            y = s.para(x, y + 15, line, w, F, "#4e342e") - 13
        return y + (6 if seen else 0)

    def _seat(self, p: int) -> str:
        return self.p.texts.fill(self.p.lang, "{p:player}", {"p": p}, self.p.names)

    def char_card(self, x: float, y: float, w: float, c: str, p: int) -> None:
        st = self._char_state(c, p)
        self.anchors["chips"][c] = (x, y, w, 90.0)
        # the card is kept by everything drawn on it
        key = (self.d, self.p.texts, self.p.lang, self.W, x, y, w, c, p, st, c in self.s.recent, self.lifted(c),
               self.copy)
        with self.s.moving(None if self.copy else f"char-{c}"):
            self.s.piece(_CARDS, key, lambda s: self.draw_char_card(s, x, y, w, c, p, *st))

    def draw_char_card(self, s: Svg, x: float, y: float, w: float, c: str, p: int, where: str | None,
                       escaped: bool, waiting: bool, act: str | None, label: str | None, active: bool,
                       done: bool, loot: tuple[str, ...]) -> None:
        d = self.d
        ch = d.char[c]
        s.open(act, ref=c, label=label, cls="character")
        # the stats line wraps on a narrow card (a phone), which then grows taller
        mv = ch.movement + (1 if ch.talent == "nimble" else 0)
        stats_line = (f"{self.t('ui.combat')} {ch.combat} · {self.t('ui.movement')} {mv} · "
                      f"{self.t('ui.spirit')} {ch.spirit}")
        stats = wrap(stats_line, w - 16, F) if self.W < W else [stats_line]
        h = 90 + 18 * (len(stats) - 1)
        s.rect(x, y, w, h, fill="#fffde7" if active else ("#eeeeee" if done or escaped else PAPER),
               stroke="#e8a317" if act else INK, width=3 if act else 1)
        # a figure not yet deployed stands on its card: deployed, it is seen to go to its zone
        lift = 7.0 if waiting and self.lifted(c) else 0.0   # picked up to be deployed
        s.token(x + 22, y + 26 - lift, 18, seat_color(p), labels(d)[c], SEAT_INK[p % len(SEAT_INK)],
                pid=f"figure-{c}" if waiting and not self.copy else None)
        s.text(x + 46, y + 20, wrap(ch.name, w - 52, 14)[0], 14, "bold")
        s.text(x + 46, y + 38, wrap(self.p.term("talent", ch.talent), w - 52, F)[0], F, "bold", "#5d4037")
        for k, line in enumerate(stats):
            s.text(x + 8, y + 60 + 18 * k, line, F, "normal", INK)
        y += h - 90
        status = (self.t("ui.escaped") if escaped else self.t("ui.not_deployed") if waiting
                  else self.p.term("zone", where) if where else "")
        if active:
            status = self.t("ui.active") + " · " + status
        elif done:
            status = self.t("ui.used") + " · " + status
        s.text(x + 8, y + 81, wrap(status, w - 16 - 20 * len(loot), F)[0], F, "normal", MUTED)
        for i, tid in enumerate(loot):
            fill, ink, mark = TREASURE_LOOK.get(_tt(tid), ("#999", "#fff", "?"))
            s.rect(x + w - 22 - i * 20, y + 68, 18, 18, fill=fill, rx=3)
            s.text(x + w - 13 - i * 20, y + 82, mark, F, "bold", ink, "middle")
        s.close()

    def gang_choice(self, y: float, x0: float = PAD, w: float | None = None, per_row: int = 2) -> float:
        s, d = self.s, self.d
        width = self.W - 2 * PAD if w is None else w
        s.text(x0, y + 16, self.t("ui.choose_gang"), 15, "bold")
        gangs = self.obs.get("gangs") or []
        bx, by = x0, y + 26
        for q in range(len(gangs)):   # the seats in their colours (the gang each has taken)
            label = self._seat(q) + (" — " + self.p.term("gang", gangs[q]) if gangs[q] else "")
            if bx > x0 and bx + 16 + len(label) * F * 0.64 > x0 + width:
                bx, by = x0, by + 28
            bx = s.badge(bx, by, label, seat_color(q), SEAT_INK[q % len(SEAT_INK)], ref=f"seat:{q}", size=F) + 8
        y = by + 34
        cw = width / per_row
        for i, g in enumerate(d.characters.gangs):
            x = x0 + (i % per_row) * cw
            yy = y + (i // per_row) * 130
            taken = g.id in gangs
            body = "\n".join(self.t("ui.term_def", name=c.name, text=self.p.term("talent", c.talent))
                              for c in g.characters)
            footer = self._seat(gangs.index(g.id)) if taken else None
            s.card(x, yy, cw - 8, 122, self.p.term("gang", g.id), body, action=self.offer(f"gang {g.id}"),
                   ref=g.id, used=taken, size=14,
                   band=seat_color(gangs.index(g.id)) if taken else "#6b4f2a")
            if footer:
                s.text(x + 6, yy + 116, footer, F, "bold", MUTED)
        return y + ((len(d.characters.gangs) + per_row - 1) // per_row) * 130

    # -- missions and hand --------------------------------------------------------------------
    def missions(self, y: float, x0: float = PAD, w: float | None = None) -> float:
        s, d, obs = self.s, self.d, self.obs
        width = self.W - 2 * PAD if w is None else w
        s.text(x0, y + 16, self.t("ui.missions") + " · " + self.t("ui.mission_deck", n=obs.get("mission_deck_count", 0)),
               15, "bold")
        y += 24
        adv = d.adventure.get(obs.get("adventure"))
        bonus = adv.special.mission_bonus if adv else 0
        cw = width / 3
        for i, mid in enumerate(obs.get("missions") or []):
            if mid is None:
                continue
            m = d.mission[mid]
            needs = ", ".join(f"{n} × {self.p.term('treasure', k)}" for k, n in m.needs.items())
            footer = self.t("ui.spirit_test") if m.spirit_test else None
            s.card(x0 + i * cw, y, cw - 8, 96, self.p.term("mission", mid), needs,
                   action=self.offer(f"mission {i + 1}"), ref=mid, band="#37474f", size=14, pid=f"mission-{mid}")
            s.text(x0 + (i + 1) * cw - 14, y + 90, self.t("ui.reward", n=m.reward + bonus), 14, "bold",
                   "#8d6e00", "end")
            if footer:
                s.text(x0 + i * cw + 6, y + 90, footer, F, "bold", MUTED)
        return y + 100

    def discard(self, y: float, x0: float = PAD) -> float:
        """The arcana discard pile (public): its count and its top card, where
        a card played from a hand is seen to go."""
        pile = self.obs.get("discard") or []
        s = self.s
        s.text(x0, y + 16, self.t("ui.discard_pile", n=len(pile)), 15, "bold")
        if not pile:
            return y + 26
        top = pile[-1]
        w = min(300, self.W - 2 * x0)
        with s.moving(f"discard-{len(pile)}", f"card-{top}"):
            s.card(x0, y + 24, w, 96, self.p.term("card", top), self.p.term("card", f"{top}.effect"),
                   band="#6a4c93", size=14)
        return y + 126

    def lifted(self, c: str) -> bool:
        """A figure picked up: chosen to deploy, to move (the militia) or acting now."""
        obs = self.obs
        return c in (obs.get("deploy_selected"), obs.get("militia_selected"), obs.get("active"))

    def hand(self, x0: float, y: float, width: float, per_row: int, height: float | None = None) -> float:
        """The viewer's hand of arcana as cards with their whole effect, ``per_row`` to a
        row (one beside the district: each card as tall as its text, or ``height``)."""
        obs, s = self.obs, self.s
        hand = obs.get("hand")
        if hand is None:
            return y
        s.text(x0, y + 16, self.t("ui.hand_is", n=len(hand)), 15, "bold")
        y += 24
        cw = width / per_row
        # the effect's lines: a card is as tall as its text (a row as its longest)
        lines = [len(wrap(self.p.term("card", f"{k}.effect"), cw - 20, F)) for k in hand]
        heights = [height or (max(150, 60 + n * 16) if per_row > 1 else 40 + n * 17) for n in lines]
        rows = [max(heights[i:i + per_row]) for i in range(0, len(hand), per_row)]
        yy = y
        for i, kind in enumerate(hand):
            x = x0 + (i % per_row) * cw
            ch = rows[i // per_row]
            act = self.card_action(kind)
            with s.moving(f"hand-{kind}-{hand[:i].count(kind) + 1}", f"card-{kind}"):   # the viewer's own cards
                s.card(x, yy, cw - 8, ch, self.p.term("card", kind), self.p.term("card", f"{kind}.effect"),
                       action=act, ref=kind, band="#4a148c", size=14)
            discard = f"talent {kind}"   # Sleight of hand, when the card itself would be played
            if discard in self.legal and act != discard:
                label = self.t("ui.discard_ap")
                bw = 16 + len(label) * F * 0.64
                if per_row > 1:   # the phone: a finger's 25 px
                    s.badge(x + 6, yy + ch - 32, label, "#e1bee7", action=discard, size=14)
                else:   # on the card's band, right
                    s.badge(x + cw - 8 - bw - 3, yy + 2, label, "#e1bee7", action=discard, size=F)
            if i % per_row == per_row - 1 or i == len(hand) - 1:
                yy += ch + 8
        return yy

    # -- the viewer's marks over the public layer ------------------------------------------
    def marks(self, chips: bool = True) -> None:
        """What this viewer may click on the public layer's pieces, drawn over them at
        the places its anchors give: the zones (highlighted, a move with its path), the
        zones a picked character reaches, the chests, the figures, the gangs' chips
        (``chips``) and seat bands (Pickpocket)."""
        if not self.legal:
            return
        busy = {a.partition(" ")[2] for a in self.legal if a.partition(" ")[0] in ZONE_VERBS}
        for z in self.d.board.zones:
            if z.id in busy:
                self.zone_mark(z.id)
        self.routes()
        for z, chest in (self.obs.get("chests") or {}).items():
            self.chest_mark(z, chest)
        for z, chars in self.at.items():
            for k, c in enumerate(chars):
                self.figure_mark(c, z, k, len(chars))
        own: set[str] = set()
        if not chips:   # the viewer's own gang is drawn apart, where they act
            own = {c for c in self.anchors["chips"] if self.p.viewer is not None
                   and look_owner(self.d, self.obs, c) == self.p.viewer}
        for c, box in self.anchors["chips"].items():
            if c not in own:
                self.chip_mark(c, box)
        for p, box in self.anchors["bands"].items():
            self.band_mark(p, box)

    def zone_mark(self, z: str) -> None:
        s, cell = self.s, self.cell
        act = self.zone_action(z)
        x, y = self.xy(z)
        if act:
            g = self.move_gesture(z) if act == f"move {z}" else Gesture()
            s.open(act, label=self.p.action_text(self.obs, act), cls="zone", then=g.then, path=g.path,
                   confirm=g.confirm)
            s.add(f'<rect x="{x:g}" y="{y:g}" width="{cell:g}" height="{cell:g}" fill="#fff" fill-opacity="0"/>')
            # a highlighter's stroke: the zone's name and pieces show through
            s.rect(x + 3, y + 3, cell - 6, cell - 6, fill=HIGHLIGHT, stroke=GOLD, rx=4, width=2,
                   extra=' fill-opacity="0.55" style="mix-blend-mode:multiply"')
            s.close()
        self.shadow_step(z, act, s)

    def chest_mark(self, z: str, chest: dict[str, Any]) -> None:
        act = self.chest_action(z)
        if not act:
            return
        s, cell = self.s, self.cell
        gesture = self.chest_gesture(z, act)
        words = self.p.action_text(self.obs, act)
        if gesture.then:
            words = self.t("ui.go_open", zone=z, open=self.p.action_text(self.obs, gesture.then[0]))
        x, y = self.xy(z)
        s.open(act, label=words, cls="chest", then=gesture.then, path=gesture.path, confirm=gesture.confirm)
        if self.tap:   # a finger's room on a phone: the chest's half of the zone
            s.rect(x + cell * 0.38, y + cell * 0.3, cell * 0.6, cell * 0.62, fill="#fff", stroke="none", rx=4,
                   extra=' fill-opacity="0"')
        w, h, top = (26.0, 22.0, y + 32) if self.small else (30.0, 26.0, y + 40)
        s.rect(x + cell - w - 6, top, w, h, fill="none", stroke=GOLD, rx=4, width=3)
        s.close()

    def figure_mark(self, c: str, z: str, k: int, n: int) -> None:
        s = self.s
        act, pick, gesture = self.figure_target(c)
        if not act and not pick:
            return
        title = self.p.action_text(self.obs, act) if act else ""
        if pick:
            title = self.t("ui.pick_char", char=c)
            s.picker(f"go-{c}", title)
        else:
            if gesture.then:
                title = self.t("ui.go_attack", zone=act.split()[1] if act else "", target=c)
            s.open(act, label=title, cls="figure", then=gesture.then, path=gesture.path, confirm=gesture.confirm)
        cx, cy = self.figure_xy(z, k, n)
        cy -= self.figure_lift(c)
        r = 19.0 if not self.small else (17.0 if n == 1 else 16.5)
        if self.tap:   # a finger's room on a phone: the figure's part of its zone
            x, y = self.xy(z)
            w = self.cell / n
            s.rect(x + k * w + 2, y + 22, w - 4, self.cell - 24, fill="#fff", stroke="none", rx=4,
                   extra=' fill-opacity="0"')
        s.add(f'<circle cx="{cx:g}" cy="{cy:g}" r="{r:g}" fill="#fff" fill-opacity="0"/>')
        if pick:   # a dashed ring: pick it to see where it can go
            s.add(f'<circle cx="{cx:g}" cy="{cy:g}" r="{r + 3:g}" fill="none" stroke="{GOLD}" '
                  'stroke-width="2.5" stroke-dasharray="5 3"/>')
        else:   # the gold ring of a clickable token
            s.circle(cx, cy, r, "none", GOLD, 3)
        s.close()

    def chip_mark(self, c: str, box: tuple[float, float, float, float]) -> None:
        act = self.figure_action(c)
        if not act:
            return
        x, y, w, h = box
        self.s.open(act, label=self.p.action_text(self.obs, act), cls="character")
        self.s.rect(x, y, w, h, fill="none", stroke=GOLD, width=3)
        self.s.close()

    def band_mark(self, p: int, box: tuple[float, float, float, float]) -> None:
        act = self.first(f"play pickpocket P{p + 1}")
        if not act:
            return
        x, y, w, h = box
        self.s.open(act, label=self.p.action_text(self.obs, act), cls="seat")
        if self.tap:   # the phone's scaled table: a finger's height
            self.s.rect(x, y, w, max(h, 60), fill="#fff", stroke="none", rx=6, extra=' fill-opacity="0"')
        self.s.rect(x, y, w, h, fill="none", stroke=GOLD, rx=6, width=3)
        self.s.close()


def static_layer(pres: Presentation, obs: dict[str, Any]) -> Layer | None:
    """The district's ground on a desktop (its place never changes there); None on a
    phone, whose district moves with what is drawn above it."""
    if pres.narrow:
        return None
    t = Table(pres, obs, W, public=True)
    t.dock()
    t.s.piece(_LAYERS, ("ground", t.d, pres.texts, pres.lang), t.ground)
    return Layer(t.s.parts, W, DOCK_PAD + t.d.board.rows * DOCK_CELL + 2)


def public_layer(pres: Presentation, obs: dict[str, Any]) -> Layer:
    """What every viewer sees alike, drawn from the public fields of ``obs``."""
    if pres.narrow:
        t = Table(pres, obs, NARROW_WIDTH, public=True)
        return t.finish(t.phone_public())
    t = Table(pres, obs, W, public=True)
    return t.finish(t.docked_public())


def seat_layer(pres: Presentation, obs: dict[str, Any], public: Layer) -> Layer | None:
    """The viewer's own: their answers and hand where the public layer left room, and
    what they may click on its pieces."""
    a = public.anchors
    if pres.narrow:
        return _phone_seat(pres, obs, public)
    t = Table(pres, obs, W)
    t.dock(a["top"])
    t.anchors = {"chips": dict(a["chips"]), "bands": dict(a["bands"])}   # the public layer's stay as they are
    t.marks(chips=False)
    x, y, w = a["seat"]
    y = t.answers(x, y, w)
    viewer = obs.get("viewer")
    gangs = obs.get("gangs") or []
    if obs.get("phase") != "gang" and viewer is not None and viewer < len(gangs) and gangs[viewer]:
        t.copy = True
        y = t.gang_rows(viewer, gangs[viewer], x, y + 4, w, 1)   # where you act: your gang, a chip a row
    t.hand(x, y + 4, w, 1)
    return Layer(t.s.parts, W, public.height)


def _phone_seat(pres: Presentation, obs: dict[str, Any], public: Layer) -> Layer:
    """The phone: the answers above the table, the marks on the scaled table, and the
    viewer's gang and hand at full size below it."""
    a = public.anchors
    t = Table(pres, obs, NARROW_WIDTH)
    s = t.s
    if a.get("answers"):
        t.answers(8, 8, t.W - 16, 14)
    inner = Table(pres, obs)
    inner.top, inner.tap = a["top"], True
    inner.anchors = {"chips": dict(a["chips"]), "bands": dict(a["bands"])}
    inner.marks(chips=False)
    if inner.s.parts:
        y, scale = a["inset"]
        s.add(f'<g class="inset" transform="translate(0 {y:g}) scale({scale:.4g})">')
        s.parts.extend(inner.s.parts)
        s.add("</g>")
    y = a["seat"]
    viewer = obs.get("viewer")
    gangs = obs.get("gangs") or []
    if obs.get("phase") != "gang" and viewer is not None and viewer < len(gangs) and gangs[viewer]:
        t.copy = True
        y = t.gang(viewer, gangs[viewer], y + 8)
    y = t.hand(8, y + 6, t.W - 16, 2)
    height = max(public.height, y + 12)
    if height > public.height:   # the page's ground under what runs below the public layer
        s.parts.insert(0, f'<rect y="{public.height:g}" width="{t.W}" height="{height - public.height:g}" '
                          f'fill="{BACKGROUND}"/>')
    return Layer(s.parts, t.W, height)


def _folded_legend(s: Svg, x: float, y: float, items: list[tuple[str, str]], w: float, title: str) -> float:
    """The legend under a header that folds it away (the page remembers it)."""
    y = s.legend(x, s.fold("legend", title, x, y, size=F), items, w, None, F)
    s.end_fold()
    return y
