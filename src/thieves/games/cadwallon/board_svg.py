"""The Cadwallon table as one SVG, drawn with the shared kit from an observation only.

From top to bottom: the adventure and its turn track; the district (9x9 zones); a legend;
the fight (current or last); the gangs (one panel per seat in its seat colour); the three
face-up missions; the viewer's hand of arcana. Whatever the viewer may decide now is
clickable where it is drawn (a zone, a figure, a chest, a card, a mission).
"""
from __future__ import annotations

import marshal
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

from ...core.svg import INK, MUTED, NARROW_WIDTH, PAPER, SEAT_INK, Svg, memo, seat_color, wrap
from .notation import Action

if TYPE_CHECKING:
    from .presentation import CadwallonPresentation

W = 940
PAD = 20
CELL = 100
F = 13          # the smallest font drawn (the board is shown about 920 px wide at 1280)
COLS = "abcdefghijklmnopqrstuvwxyz"
STREET, ROOM, ROOF = "#cfd8dc", "#ecd9b0", "#5d4037"
DOOR, LINE, WALL, DEPLOY = "#2e7d32", "#ffffff", "#d32f2f", "#1565c0"
TREASURE_LOOK = {"red": ("#c62828", "#fff", "◆"), "green": ("#2e7d32", "#fff", "◆"),
                 "key": ("#6d4c41", "#fff", "⚷"), "scroll": ("#f3e3b5", INK, "≡"),
                 "bracelet": ("#b0bec5", INK, "○"), "purse": ("#8d6e63", "#fff", "$")}
SEALED = ("#4e342e", "#ffd54f", "▣")
MILITIA_FILL, HEROINE_FILL = "#212121", "#757575"
#: the verbs whose argument is a zone a click on it stands for (``Table.zone_action``)
ZONE_VERBS = frozenset({"move", "at", "mm", "flee", "talent"})
#: the parts of the district that never change, kept per board, place and language
_LAYERS = memo(256)
#: a character's card, by everything on it
_CARDS = memo(2048)


def _tt(tid: str) -> str:
    return tid.rstrip("0123456789")


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

    def __init__(self, pres: "CadwallonPresentation", obs: dict[str, Any], width: float = W) -> None:
        self.W = width
        #: the phone layout draws the viewer's gang at full size, apart from the scaled table
        self.own_gang_apart = False
        self.p, self.obs, self.d = pres, obs, pres.data
        self.legal: list[str] = list(obs.get("legal") or [])
        self.legal_set = frozenset(self.legal)
        self.parsed = [Action.parse(a) for a in self.legal]
        self.s = Svg(self.W, 100, legal=self.legal, recent=obs.get("recent") or [],
                     title=pres.texts.get(pres.lang, "name"))
        self.pos: dict[str, str] = obs.get("positions") or {}
        self.at: dict[str, list[str]] = {}  # zone -> the figures in it
        for c, z in sorted(self.pos.items()):
            self.at.setdefault(z, []).append(c)

    # -- which legal action a click on a part stands for ---------------------------------
    def first(self, *candidates: str) -> str | None:
        legal = self.legal_set
        return next((a for a in candidates if a in legal), None)

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
        return (self.first("open", "force") if here else None) or self.first(f"play reinforced_lock {z}")

    def card_action(self, kind: str) -> str | None:
        return self.first(f"play {kind}", f"card {kind}", f"talent {kind}")

    # -- the whole table -----------------------------------------------------------------
    def draw(self) -> str:
        if self.W < W:
            # the phone layout: the table drawn whole and scaled to the width, the
            # hand below it at full size (two cards a row)
            table = Table(self.p, self.obs)
            table.own_gang_apart = True
            table.s.height = table.table(10)
            y = self.s.inset(table.s, 0, 0, self.W)
            viewer = self.obs.get("viewer")
            gangs = self.obs.get("gangs") or []
            if self.obs.get("phase") != "gang" and viewer is not None and viewer < len(gangs) and gangs[viewer]:
                y = self.gang(viewer, gangs[viewer], y + 8)
        else:
            y = self.table(10)
        y = self.hand(y + 6)
        s = self.s
        s.height = y + 12
        s.parts.insert(0, f'<rect width="{self.W}" height="{s.height:g}" fill="#f4efe4"/>')
        return s.done()

    def table(self, y: float) -> float:
        """Everything but the hand: the turn, the district, the fight, gangs and missions."""
        y = self.header(y)
        y = self.answers(y)
        y = self.district(y + 6)
        y = self.legend(y + 8)
        y = self.fight(y + 6)
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
    def answers(self, y: float) -> float:
        shown = {"nocard": "ui.pass", "no": "act.no", "leave": "ui.leave", "stay": "ui.stay"}
        if "open" in self.legal:
            shown["force"] = "ui.force"     # the chest itself opens; forcing is the other choice
        x: float = PAD
        for action, key in shown.items():
            if action in self.legal:
                x = self.s.badge(x, y, self.t(key), "#fff59d", action=action, size=F) + 8
        return y + 30 if x > PAD else y

    # -- the district ---------------------------------------------------------------------
    def xy(self, z: str) -> tuple[float, float]:
        c, r = self.d.zone[z].cell
        return PAD + c * CELL, self.top + r * CELL

    def district(self, y: float) -> float:
        s, d, obs = self.s, self.d, self.obs
        self.top = y
        b = d.board
        # the district's ground, its empty zones and its doors and walls never
        # change: drawn once per board, place and language
        p = self.p
        s.piece(_LAYERS, ("roofs", d, y), self.roofs)
        port = set(obs.get("portcullis") or [])
        plain = _LAYERS.get(("zones", d, y, p.texts, p.lang))
        if plain is None:
            plain = _LAYERS.put(("zones", d, y, p.texts, p.lang), self.plain_zones())
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
            step = f"talent {z.id}"
            step = step if step in self.legal_set and act != step else ""
            key = ("zone", d, y, p.texts, p.lang, z.id, act, act and self.p.action_text(obs, act), z.id in s.recent,
                   z.id in port, step, step and self.p.action_text(obs, step))
            s.piece(_CARDS, key, lambda sv: self.zone(z, z.id in port, sv))
        s.piece(_LAYERS, ("edges", d, y), self.edges)
        for z, chest in (obs.get("chests") or {}).items():
            self.chest(z, chest)
        for z, n in (obs.get("room_ducats") or {}).items():
            x, yy = self.xy(z)
            s.token(x + CELL - 19, yy + CELL - 19, 17, "#ffb300", str(n), INK, ref=z, pid=f"ducats-{z}")
        for z, kind in (obs.get("tokens") or {}).items():
            x, yy = self.xy(z)
            s.badge(x + 4, yy + 40, self.p.term("token", kind), "#a5d6a7", size=F, pid=f"token-{z}")
        for z, chars in self.at.items():
            for k, c in enumerate(chars):
                self.figure(c, z, k, len(chars))
        return y + b.rows * CELL

    def roofs(self, s: Svg) -> None:
        """The district's frame and its roofed zones."""
        b, y = self.d.board, self.top
        s.add('<defs><pattern id="cad-roof" width="10" height="10" patternUnits="userSpaceOnUse">'
              f'<rect width="10" height="10" fill="{ROOF}"/><path d="M0 10L10 0" stroke="#3e2723" '
              'stroke-width="2"/></pattern></defs>')
        s.rect(PAD - 2, y - 2, b.columns * CELL + 4, b.rows * CELL + 4, fill="#37474f", rx=4)
        for r in b.roofed:
            col, row = COLS.index(r[0]), int(r[1:]) - 1
            s.add(f'<rect x="{PAD + col * CELL}" y="{y + row * CELL}" width="{CELL}" height="{CELL}" '
                  f'fill="url(#cad-roof)"/>')

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
        b = self.d.board
        for c in b.connections:
            self.edge(c.a, c.b, LINE if c.kind == "line" else DOOR, 4 if c.kind == "line" else 8, s)
        for a, z in b.walls:
            self.edge(a, z, WALL, 6, s)

    def zone(self, z: Any, closed: bool, s: Svg | None = None, plain: bool = False) -> None:
        s = self.s if s is None else s
        x, y = self.xy(z.id)
        act = None if plain else self.zone_action(z.id)
        s.open(act, ref=z.id, label=self.p.action_text(self.obs, act) if act else None, cls="zone")
        s.rect(x, y, CELL, CELL, fill=ROOM if z.kind == "room" else STREET, stroke="#78909c",
               rx=0, width=0.6)
        if act:
            s.rect(x + 3, y + 3, CELL - 6, CELL - 6, fill="#fff59d", stroke="#e8a317", rx=4, width=2,
                   extra=' fill-opacity="0.55"')
        s.close()
        if z.name:  # a room: its name on top (two lines at most); a street: its coordinates
            for i, line in enumerate(room_lines(self.p.term("room", z.id))[:2]):
                s.text(x + CELL / 2, y + 16 + i * 15, line, F, "normal", "#4e342e", "middle")
        else:
            s.text(x + 4, y + 16, z.id, F, "normal", "#455a64")
        step = f"talent {z.id}"
        if not plain and step in self.legal and act != step:  # a shadow step to a zone the move reaches too
            s.token(x + CELL - 20, y + CELL - 20, 17, "#4a148c", "✦", "#fff", action=step,
                    title=self.p.action_text(self.obs, step))
        if z.deployment:
            s.add(f'<path d="M{x + CELL - 22} {y + 4}h18l-9 14z" fill="{DEPLOY}"/>')
        if closed:
            for i in range(1, 5):
                s.add(f'<line x1="{x + i * CELL / 5:g}" y1="{y:g}" x2="{x + i * CELL / 5:g}" y2="{y + CELL:g}" '
                      'stroke="#000" stroke-width="4"/>')
            s.add(f'<line x1="{x:g}" y1="{y + CELL / 2:g}" x2="{x + CELL:g}" y2="{y + CELL / 2:g}" '
                  'stroke="#000" stroke-width="4"/>')

    def edge(self, a: str, b: str, color: str, width: float, s: Svg) -> None:
        (ax, ay), (bx, by) = self.xy(a), self.xy(b)
        if ay == by:
            x = max(ax, bx)
            s.add(f'<line x1="{x:g}" y1="{ay + 22:g}" x2="{x:g}" y2="{ay + CELL - 22:g}" '
                  f'stroke="{color}" stroke-width="{width:g}"/>')
        else:
            yy = max(ay, by)
            s.add(f'<line x1="{ax + 22:g}" y1="{yy:g}" x2="{ax + CELL - 22:g}" y2="{yy:g}" '
                  f'stroke="{color}" stroke-width="{width:g}"/>')

    def chest(self, z: str, chest: dict) -> None:
        s = self.s
        kind = _tt(chest["t"])
        act = self.chest_action(z)
        label = self.p.term("treasure", kind) + (" — " + self.t("ui.chest_face") if chest["sealed"] else "")
        words = self.p.action_text(self.obs, act) if act else label
        key = ("chest", self.d, self.top, z, kind, bool(chest["sealed"]), act, label, words, z in s.recent)
        with s.moving(f"chest-{z}"):   # a sealed chest is named by its zone only
            s.piece(_CARDS, key, lambda sv: self.draw_chest(sv, z, kind, bool(chest["sealed"]), act, label, words))

    def draw_chest(self, s: Svg, z: str, kind: str, sealed: bool, act: str | None, label: str, words: str) -> None:
        x, y = self.xy(z)
        fill, ink, mark = SEALED if sealed else TREASURE_LOOK.get(kind, ("#999", "#fff", "?"))
        s.open(act, ref=z, label=words, cls="chest")
        if not act:
            s.add(f"<title>{escape(label)}</title>")
        s.rect(x + CELL - 36, y + 40, 30, 26, fill=fill, stroke="#e8a317" if act else INK,
               rx=4, width=3 if act else 1.2)
        s.text(x + CELL - 21, y + 59, mark, 16, "bold", ink, "middle")
        s.close()

    def figure(self, c: str, z: str, k: int, n: int) -> None:
        s, obs = self.s, self.obs
        act = self.figure_action(c)
        title = self.p.action_text(obs, act) if act else self.d.name_of[c]
        key = ("figure", self.d, self.top, c, z, k, n, act, title, c == obs.get("active"), c in s.recent,
               self.p.fill_of(obs, c), self.p.ink_of(obs, c), tuple((obs.get("carried") or {}).get(c) or []),
               self.lifted(c))
        fx, fy = self.figure_xy(z, k, n)
        with s.moving(f"figure-{c}", at=(fx, fy - self.figure_lift(c))):
            s.piece(_CARDS, key, lambda sv: self.draw_figure(sv, c, z, k, n, act, title))

    def figure_xy(self, z: str, k: int, n: int) -> tuple[float, float]:
        """Where the ``k``-th of ``n`` figures in zone ``z`` stands."""
        x, y = self.xy(z)
        return x + (32 if n == 1 else 26 + k * 40), y + (58 if self.d.is_room[z] else 50)

    def figure_lift(self, c: str) -> float:
        """How far up a figure is drawn: a picked-up one stands raised."""
        return 7.0 if self.lifted(c) else 0.0

    def draw_figure(self, s: Svg, c: str, z: str, k: int, n: int, act: str | None, title: str) -> None:
        d = self.d
        cx, cy = self.figure_xy(z, k, n)
        name = d.name_of[c]
        lift = self.figure_lift(c)
        if lift:   # its shadow where it stands
            s.add(f'<ellipse cx="{cx:g}" cy="{cy + 15:g}" rx="16" ry="5" fill="#000" opacity="0.25"/>')
        active = c == self.obs.get("active")
        if active:
            s.circle(cx, cy, 24, "none", "#ffd600", 5)
        s.token(cx, cy - lift, 19, self.p.fill_of(self.obs, c), labels(d)[c], self.p.ink_of(self.obs, c), action=act,
                ref=c, title=title)
        short = name if len(name) <= 9 else name.split()[-1][:9]
        if n == 1 or k == 0:
            s.text(cx, cy + 34 - (0 if n == 1 else 0), short, F, "bold", INK, "middle")
        loot = (self.obs.get("carried") or {}).get(c) or []
        for i, tid in enumerate(loot[:4]):
            fill, ink, mark = TREASURE_LOOK.get(_tt(tid), ("#999", "#fff", "?"))
            s.rect(cx + 14 + i * 3, cy - 26 - i * 3, 14, 14, fill=fill, rx=3)

    # -- legend --------------------------------------------------------------------------
    def legend(self, y: float) -> float:
        t, p = self.t, self.p
        items = [(STREET, t("ui.street")), (ROOM, t("ui.room")), (ROOF, t("ui.roofed")),
                 (DOOR, t("ui.door")), (WALL, t("ui.wall")), (DEPLOY, t("ui.deployment")),
                 ("#000000", t("ui.portcullis")), (SEALED[0], t("ui.chest_face")),
                 ("#ffb300", t("ui.loose")), (MILITIA_FILL, t("ui.militia"))]
        if any(c in self.d.heroine for c in self.pos):
            items.append((HEROINE_FILL, t("ui.heroine")))
        if any(a.verb == "talent" and a.arg in self.d.zone for a in self.parsed):
            items.append(("✦", p.term("talent", "shadow_step")))
        kinds = self.d.treasures.mixes.get("twelve_red", {})
        present = {_tt(v["t"]) for v in (self.obs.get("chests") or {}).values()} | set(kinds)
        for k in [x.id for x in self.d.treasures.types if x.id in present]:
            items.append((TREASURE_LOOK[k][0], p.term("treasure", k) + " " + TREASURE_LOOK[k][2]))
        title = t("ui.legend")
        end: float = self.s.piece(_LAYERS, ("legend", self.W, y, title, tuple(items)),
                                  lambda sv: sv.legend(PAD, y, items, self.W - 2 * PAD, title, F))
        return end

    # -- the fight ---------------------------------------------------------------------------
    def fight(self, y: float) -> float:
        obs = self.obs
        f = obs.get("combat") or obs.get("fight")
        if not f:
            return y
        s = self.s
        live = obs.get("combat") is not None
        s.rect(PAD, y, self.W - 2 * PAD, 104, fill="#fff8e1", stroke="#8d6e63")
        zone = self.p.term("zone", f.get("zone"))
        s.text(PAD + 10, y + 20, f"{self.t('ui.fight' if live else 'ui.last_fight')} — {zone}", 15, "bold")
        for i, side in enumerate(("att", "def")):
            c = f[side]
            x0 = PAD + 10 + i * ((self.W - 2 * PAD) / 2)
            s.token(x0 + 22, y + 58, 20, self.p.fill_of(obs, c), labels(self.d)[c], self.p.ink_of(obs, c), ref=c)
            won = f.get("winner")
            verdict = "" if won is None else (" — " + self.t("ui.wins" if won == c else "ui.loses"))
            s.text(x0 + 50, y + 46, self.d.name_of[c] + verdict, 14, "bold")
            card = f.get(side + "_card")
            s.text(x0 + 50, y + 64, self.p.term("card", card) if card else self.t("ui.no_card"), F, "normal", MUTED)
            dice = f.get("r" + side) or []
            best = max(dice) if dice else None
            for k, v in enumerate(dice):
                s.die(x0 + 50 + k * 34, y + 70, 30, "#fff" if v == best else "#e0e0e0", INK, str(v),
                      dim=v != best, pid=f"die-{side}-{k + 1}")
            # the loser's treasures, clickable when the winner chooses one
            pending = obs.get("pending") or {}
            if pending.get("kind") == "take" and pending.get("from") == c:
                kinds = sorted({_tt(t) for t in (obs.get("carried") or {}).get(c, [])})
                bx = x0 + 200
                for kind in kinds:
                    act = self.first(f"take {kind}")
                    bx = s.badge(bx, y + 72, self.p.term("treasure", kind), TREASURE_LOOK[kind][0],
                                 TREASURE_LOOK[kind][1], action=act, size=F) + 6
        return y + 110

    # -- the gangs -------------------------------------------------------------------------------
    def gangs(self, y: float) -> float:
        obs = self.obs
        n = obs.get("num_players", 0)
        gangs = obs.get("gangs") or [None] * n
        if obs.get("phase") == "gang":
            return self.gang_choice(y)
        viewer = obs.get("viewer")
        for p in range(n):
            if gangs[p] is None or (p == viewer and self.own_gang_apart):
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
        band = 48 if narrow else 28
        s.open(self.first(f"play pickpocket P{p + 1}"), ref=f"seat:{p}", cls="seat")
        s.rect(PAD, y, self.W - 2 * PAD, band, fill=color, stroke=INK, rx=6)
        counts = (f"{obs['ducats'][p]} {self.t('ui.ducats')} · {obs['ap'][p]} {self.t('ui.ap')} · "
                  f"{self.t('ui.cards', n=(obs.get('hand_counts') or [0] * n)[p])}")
        ink = SEAT_INK[p % len(SEAT_INK)]
        if narrow:
            s.text(PAD + 10, y + 19, f"{self._seat(p)} — {self.p.term('gang', g)}", 14, "bold", ink)
            s.text(PAD + 10, y + 39, counts, F, "bold", ink)
        else:
            s.text(PAD + 10, y + 19, f"{self._seat(p)} — {self.p.term('gang', g)} · {counts}", 14, "bold", ink)
        s.close()
        top, y = y, y + band + 4
        if p == obs.get("viewer") and "end" in self.legal:
            if narrow:   # the phone: "end the turn" under the band, at full size
                s.badge(PAD, y, self.t("ui.end"), "#fff59d", action="end", size=F)
                y += 28
            else:
                s.badge(self.W - PAD - 120, top + 3, self.t("ui.end"), "#fff59d", action="end", size=F)
        per_row = 2 if narrow else 4
        cw = (self.W - 2 * PAD) / per_row
        row_h = 96 + (18 if narrow else 0)    # room for the wrapped stats of a narrow card
        chars = d.gang_chars[g]
        for i, c in enumerate(chars):
            self.char_card(PAD + (i % per_row) * cw, y + (i // per_row) * row_h, cw - 6, c, p)
        return y + ((len(chars) + per_row - 1) // per_row) * row_h

    def talents(self, y: float) -> float:
        """What each talent in play does (named on the character cards above)."""
        gangs = [g for g in self.obs.get("gangs") or [] if g]
        key = ("talents", self.d, self.p.texts, self.p.lang, self.W, y, tuple(gangs))
        end: float = self.s.piece(_LAYERS, key, lambda sv: self.draw_talents(sv, y, gangs))
        return end

    def draw_talents(self, s: Svg, y: float, gangs: list[str]) -> float:
        seen: list[str] = []
        for g in gangs:
            for c in self.d.gang_chars[g]:
                tal = self.d.talent_of[c]
                if tal not in seen:
                    seen.append(tal)
        for tal in seen:
            line = self.t("ui.term_def", name=self.p.term("talent", tal), text=self.p.term("talent", tal + ".effect"))
            y = s.para(PAD, y + 15, line, self.W - 2 * PAD, F, "#4e342e") - 13
        return y + (6 if seen else 0)

    def _seat(self, p: int) -> str:
        return self.p.texts.fill(self.p.lang, "{p:player}", {"p": p}, self.p.names)

    def char_card(self, x: float, y: float, w: float, c: str, p: int) -> None:
        d, obs = self.d, self.obs
        where = self.pos.get(c)
        escaped = c in (obs.get("escaped") or [])
        waiting = c in ((obs.get("to_deploy") or [[]] * (p + 1))[p])
        act = self.figure_action(c)
        active = c == obs.get("active")
        done = c in (obs.get("activated") or []) and not active
        label = self.p.action_text(obs, act) if act else None
        loot = tuple((obs.get("carried") or {}).get(c) or [])
        # the card is kept by everything drawn on it
        key = (d, self.p.texts, self.p.lang, self.W, x, y, w, c, p, where, escaped, waiting, act, label,
               c in self.s.recent, active, done, loot, self.lifted(c))
        with self.s.moving(f"char-{c}"):
            self.s.piece(_CARDS, key, lambda s: self.draw_char_card(s, x, y, w, c, p, where, escaped, waiting, act,
                                                                      label, active, done, loot))

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
                pid=f"figure-{c}" if waiting else None)
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

    def gang_choice(self, y: float) -> float:
        s, d = self.s, self.d
        s.text(PAD, y + 16, self.t("ui.choose_gang"), 15, "bold")
        gangs = self.obs.get("gangs") or []
        bx: float = PAD
        for q in range(len(gangs)):   # the seats in their colours (the gang each has taken)
            label = self._seat(q) + (" — " + self.p.term("gang", gangs[q]) if gangs[q] else "")
            bx = s.badge(bx, y + 26, label, seat_color(q), SEAT_INK[q % len(SEAT_INK)], ref=f"seat:{q}", size=F) + 8
        y += 60
        cw = (self.W - 2 * PAD) / 2
        for i, g in enumerate(d.characters.gangs):
            x = PAD + (i % 2) * cw
            yy = y + (i // 2) * 130
            taken = g.id in gangs
            body = "\n".join(self.t("ui.term_def", name=c.name, text=self.p.term("talent", c.talent))
                              for c in g.characters)
            footer = self._seat(gangs.index(g.id)) if taken else None
            s.card(x, yy, cw - 8, 122, self.p.term("gang", g.id), body, action=self.first(f"gang {g.id}"),
                   ref=g.id, used=taken, size=14,
                   band=seat_color(gangs.index(g.id)) if taken else "#6b4f2a")
            if footer:
                s.text(x + 6, yy + 116, footer, F, "bold", MUTED)
        return y + 2 * 130

    # -- missions and hand --------------------------------------------------------------------
    def missions(self, y: float) -> float:
        s, d, obs = self.s, self.d, self.obs
        s.text(PAD, y + 16, self.t("ui.missions") + " · " + self.t("ui.mission_deck", n=obs.get("mission_deck_count", 0)),
               15, "bold")
        y += 24
        adv = d.adventure.get(obs.get("adventure"))
        bonus = adv.special.mission_bonus if adv else 0
        cw = (self.W - 2 * PAD) / 3
        for i, mid in enumerate(obs.get("missions") or []):
            if mid is None:
                continue
            m = d.mission[mid]
            needs = ", ".join(f"{n} × {self.p.term('treasure', k)}" for k, n in m.needs.items())
            footer = self.t("ui.spirit_test") if m.spirit_test else None
            s.card(PAD + i * cw, y, cw - 8, 96, self.p.term("mission", mid), needs,
                   action=self.first(f"mission {i + 1}"), ref=mid, band="#37474f", size=14, pid=f"mission-{mid}")
            s.text(PAD + (i + 1) * cw - 14, y + 90, self.t("ui.reward", n=m.reward + bonus), 14, "bold",
                   "#8d6e00", "end")
            if footer:
                s.text(PAD + i * cw + 6, y + 90, footer, F, "bold", MUTED)
        return y + 100

    def discard(self, y: float) -> float:
        """The arcana discard pile (public): its count and its top card, where
        a card played from a hand is seen to go."""
        pile = self.obs.get("discard") or []
        s = self.s
        s.text(PAD, y + 16, self.t("ui.discard_pile", n=len(pile)), 15, "bold")
        if not pile:
            return y + 26
        top = pile[-1]
        w = min(300, self.W - 2 * PAD)
        with s.moving(f"discard-{len(pile)}", f"card-{top}"):
            s.card(PAD, y + 24, w, 96, self.p.term("card", top), self.p.term("card", f"{top}.effect"),
                   band="#6a4c93", size=14)
        return y + 126

    def lifted(self, c: str) -> bool:
        """A figure picked up: chosen to deploy, to move (the militia) or acting now."""
        obs = self.obs
        return c in (obs.get("deploy_selected"), obs.get("militia_selected"), obs.get("active"))

    def hand(self, y: float) -> float:
        obs, s = self.obs, self.s
        hand = obs.get("hand")
        if hand is None:
            return y
        pad = PAD if self.W >= W else 8
        s.text(pad, y + 16, self.t("ui.hand_is", n=len(hand)), 15, "bold")
        y += 24
        per_row = 4 if self.W >= W else 2
        cw = (self.W - 2 * pad) / per_row
        # every card tall enough for the longest effect in the hand (the whole text shows)
        longest = max((len(wrap(self.p.term("card", f"{k}.effect"), cw - 20, F)) for k in hand), default=3)
        ch = max(150, 60 + longest * 16)
        for i, kind in enumerate(hand):
            x = pad + (i % per_row) * cw
            yy = y + (i // per_row) * (ch + 8)
            act = self.card_action(kind)
            with s.moving(f"hand-{kind}-{hand[:i].count(kind) + 1}", f"card-{kind}"):   # the viewer's own cards
                s.card(x, yy, cw - 8, ch, self.p.term("card", kind), self.p.term("card", f"{kind}.effect"),
                       action=act, ref=kind, band="#4a148c", size=14)
            discard = f"talent {kind}"   # Sleight of hand, when the card itself would be played
            if discard in self.legal and act != discard:
                s.badge(x + 6, yy + ch - 32, self.t("ui.discard_ap"), "#e1bee7", action=discard, size=F)
        rows = (len(hand) + per_row - 1) // per_row
        return y + rows * (ch + 8)


def draw(pres: "CadwallonPresentation", obs: dict[str, Any]) -> str:
    return Table(pres, obs, NARROW_WIDTH if pres.narrow else W).draw()
