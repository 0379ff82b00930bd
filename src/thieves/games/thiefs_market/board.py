"""Thief's Market's board, drawn in layers (docs/engine.md, "Layers").

The public layer (:class:`PublicBoard`) is everything but one number: the
round, the center's dice and the token (take), the payment under way, the
market (buy, with its payment as one gesture), and the seats in turn order
from the one who acts, whose area is drawn large (their pile's dice: put
back, reroll, pay; their pile: stop, keep; their cards in full: use, the
dice a card may turn one to), the others compact (their pile: steal; their
cards named, each card's text on hover). Who acts is public, so every viewer
and the spectator get the same layer, and it is drawn once per change; each
part that may be clicked is an offer, clickable for whoever may do it.

The viewer's layer (:func:`seat_layer`) holds what only they see or do: their
own infamy, "(you)" on their seat, and the gold coin and "one gem less" of a
payment when it is theirs to choose. Nothing of the board never changes (it
has no printed part; the dice legend can be folded away), so there is no
unchanging layer.
"""
from __future__ import annotations

import marshal
from html import escape
from typing import Any, Callable, Sequence

from thieves.core.svg import INK, MUTED, BoundedMemo, Layer, Offer, Svg, gesture_attrs, memo, seat_color, wrap

from .faces import FACES, GEMS
from .observation import MarketObservation
from .palette import (CARD_GAP, CARD_W, CHIP_H, CHIP_W, COLORS, DECK_BAND, DIE, FONT, GOLD_FILL, ICON_INK,
                      NARROW_W, PAD, SMALL_DIE, TOKEN_FILL, W)
from .words import MarketWords

#: pieces of the board already drawn (dice faces, dice, cards, the legend), by what they show
_KEPT = memo(16384)
#: the seats' panels (larger pieces: fewer kept)
_PANELS = memo(1024)
#: whole sections (the market, the center): larger pieces, fewer kept
_SECTIONS = memo(1024)
#: a purchase's gesture (:meth:`PublicBoard.paid_offer`), by the card and what it reads of the buyer
_PAYMENTS = memo(4096)
#: the viewers' layers
_SEATS = memo(1024)
#: where the seats' panels, the market and the legend are drawn from (:meth:`PublicBoard.placed`)
ORIGIN = 100.0


# ------------------------------------------------------------------ drawing helpers
#: the opening tags of the parts :meth:`PublicBoard.placed` moves, by how far
_TRANSLATES = memo(1024)


def _translate(off: float) -> str:
    """The opening tag of a part moved down by ``off``."""
    tag: str | None = _TRANSLATES.get(off)
    if tag is None:
        tag = _TRANSLATES.put(off, f'<g transform="translate(0 {off:g})">')
    return tag


def _joined(parts: list[Any]) -> tuple[Any, ...]:
    """``parts`` with each run of neighbouring texts joined into one and empty
    texts left out (as :class:`Layer` keeps them): fewer parts to copy and join later."""
    cuts = [i for i, part in enumerate(parts) if type(part) is not str]
    if not cuts:
        text = "".join(parts)
        return (text,) if text else ()
    out: list[Any] = []
    start = 0
    for i in cuts:
        if i > start:
            text = "".join(parts[start:i])
            if text:
                out.append(text)
        out.append(parts[i])
        start = i + 1
    text = "".join(parts[start:])
    if text:
        out.append(text)
    return tuple(out)


def _gem(svg: Svg, cx: float, cy: float, s: float, ink: str) -> None:
    """A cut gem: a flat top and a point below."""
    pts = [(cx - .30 * s, cy - .08 * s), (cx - .15 * s, cy - .27 * s), (cx + .15 * s, cy - .27 * s),
           (cx + .30 * s, cy - .08 * s), (cx, cy + .30 * s)]
    svg.add('<polygon points="' + " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
            + f'" fill="none" stroke="{ink}" stroke-width="{max(1.2, s * .06):.1f}" stroke-linejoin="round"/>')
    svg.add(f'<line x1="{cx - .30 * s:.1f}" y1="{cy - .08 * s:.1f}" x2="{cx + .30 * s:.1f}" y2="{cy - .08 * s:.1f}" '
            f'stroke="{ink}" stroke-width="{max(1, s * .04):.1f}"/>')


def _bag(svg: Svg, cx: float, cy: float, s: float, ink: str) -> None:
    """A money bag: a round sack with a tied neck."""
    svg.add(f'<circle cx="{cx:.1f}" cy="{cy + .08 * s:.1f}" r="{.22 * s:.1f}" fill="{ink}"/>')
    pts = [(cx - .09 * s, cy - .12 * s), (cx + .09 * s, cy - .12 * s), (cx + .17 * s, cy - .30 * s),
           (cx - .17 * s, cy - .30 * s)]
    svg.add('<polygon points="' + " ".join(f"{x:.1f},{y:.1f}" for x, y in pts) + f'" fill="{ink}"/>')


def _skull(svg: Svg, cx: float, cy: float, s: float, ink: str, back: str) -> None:
    """The infamy face: a small skull."""
    svg.add(f'<circle cx="{cx:.1f}" cy="{cy - .05 * s:.1f}" r="{.22 * s:.1f}" fill="{ink}"/>')
    svg.add(f'<rect x="{cx - .12 * s:.1f}" y="{cy + .08 * s:.1f}" width="{.24 * s:.1f}" height="{.16 * s:.1f}" '
            f'rx="{.03 * s:.1f}" fill="{ink}"/>')
    for dx in (-.08, .08):
        svg.add(f'<circle cx="{cx + dx * s:.1f}" cy="{cy - .05 * s:.1f}" r="{.055 * s:.1f}" fill="{back}"/>')


def _star(svg: Svg, cx: float, cy: float, r: float, fill: str) -> None:
    if cx and cy:   # kept by its arguments (zero is never a key)
        svg.piece(_KEPT, ("star", cx, cy, r, fill), lambda s: _draw_star(s, cx, cy, r, fill))
    else:
        _draw_star(svg, cx, cy, r, fill)


def _draw_star(svg: Svg, cx: float, cy: float, r: float, fill: str) -> None:
    import math
    pts = []
    for k in range(10):
        rr = r if k % 2 == 0 else r * .45
        a = -math.pi / 2 + k * math.pi / 5
        pts.append(f"{cx + rr * math.cos(a):.1f},{cy + rr * math.sin(a):.1f}")
    svg.add(f'<polygon points="{" ".join(pts)}" fill="{fill}"/>')


def draw_face(svg: Svg, x: float, y: float, size: float, face: str, dim: bool = False,
              outline: bool = False) -> None:
    """A die (no group): its colour and the icon of its face; ``outline``: an empty slot."""
    if x and y:   # kept by its arguments (zero is never a key: 0 and -0.0 print differently)
        svg.piece(_KEPT, ("face", x, y, size, face, dim, outline),
                  lambda s: _draw_face(s, x, y, size, face, dim, outline))
    else:
        _draw_face(svg, x, y, size, face, dim, outline)


def _draw_face(svg: Svg, x: float, y: float, size: float, face: str, dim: bool, outline: bool) -> None:
    fill = "#ffffff00" if outline else COLORS[face]
    dash = ' stroke-dasharray="4 3"' if outline else ""
    if dim:   # else the die's square is the first of its group (the page outlines a clickable one)
        svg.add('<g opacity="0.5">')
    svg.rect(x, y, size, size, fill=fill, stroke=COLORS[face] if outline else INK, rx=size * .18,
             width=2 if outline else 1.3, extra=dash)
    ink = COLORS[face] if outline else ICON_INK[face]
    cx, cy = x + size / 2, y + size / 2
    if face in GEMS:
        _gem(svg, cx, cy, size, "#555" if outline and face == "W" else ink)
    elif face == "Y":
        _bag(svg, cx, cy, size, ink)
    else:
        _skull(svg, cx, cy, size, ink, "#ffffff00" if outline else COLORS[face])
    if dim:
        svg.add("</g>")



def board_width(pres: MarketWords) -> float:
    """The board's width in this layout (the phone board: as wide as the window)."""
    return NARROW_W if pres.narrow else W


def acting(obs: MarketObservation) -> int | None:
    """The seat whose area the board draws large: the one who acts (None at the end)."""
    cur = obs.get("current", -1)
    return cur if obs["phase"] != "over" and cur is not None and cur >= 0 else None


class PublicBoard:
    """The public layer: one drawing for every viewer (nothing read but public
    fields; ``Svg(..., offers=True)`` keeps each clickable group as an offer)."""

    def __init__(self, pres: MarketWords, obs: MarketObservation) -> None:
        self.p = pres
        self.obs = obs
        self.t = pres.data
        narrow = pres.narrow
        # the phone board: one column as wide as the window, cards two by two
        self.W = board_width(pres)
        self.per_row = 2 if narrow else 5
        self.card_w = (self.W - 2 * PAD - CARD_GAP) / 2 if narrow else CARD_W
        self.die_size = 32 if narrow else DIE
        self.actor = acting(obs)
        #: what every kept piece depends on: the data, the texts and the language
        self.prefix: tuple[Any, ...] = (self.t, pres.texts, pres.lang)
        self.svg = Svg(self.W, 100, title=pres.t("name"), offers=True)
        self.y = 0.0
        #: how far :meth:`placed` moved the last part
        self.offset = 0.0
        #: where the viewer's layer draws: each seat's band, the payment's slots
        self.anchors: dict[str, Any] = {"bands": {}}
        self.names = tuple(pres.names)
        #: the cards used this round, as a rival's panel shows them (none at the end)
        self.used: tuple[str, ...] = tuple(obs.get("used", ())) if obs["phase"] != "over" else ()

    def kept(self, key: tuple[Any, ...], draw: Callable[[], Any], store: BoundedMemo | None = None) -> Any:
        """What ``draw()`` adds to the drawing, drawn once and kept under ``key``
        (with the data, texts and language it reads); ``key`` names everything
        else it depends on."""
        # :meth:`Svg.piece_of` made lean (a board draws some 50 kept pieces per position):
        # no closures, and the drawing kept as its parts already joined (no :class:`Layer`)
        hit = self.lookup(key, draw, _KEPT if store is None else store)
        self.svg.parts.extend(hit[0])
        return hit[1]

    def lookup(self, key: tuple[Any, ...], draw: Callable[[], Any], store: BoundedMemo) -> tuple[tuple[Any, ...], Any]:
        """What :meth:`kept` adds and returns, as ``(parts, value)``, without adding it."""
        full = self.prefix + key
        hit: tuple[tuple[Any, ...], Any] | None = store.get(full)
        if hit is None:   # drawn at the end of the drawing, then taken off it
            parts = self.svg.parts
            mark = len(parts)
            value = draw()
            hit = store.put(full, (_joined(parts[mark:]), value))
            del parts[mark:]
        return hit

    def placed(self, draw: Callable[[], Any]) -> Any:
        """What ``draw()`` adds, drawn from the height :data:`ORIGIN` and moved to
        the current one: a part keeps its drawing (and its kept pieces their
        keys) when what is above it grows or shrinks. Returns ``draw()``'s value;
        ``self.y`` ends below the part."""
        off = self.y - ORIGIN
        self.svg.add(_translate(off))
        self.y = ORIGIN
        value = draw()
        self.svg.add("</g>")
        self.y += off
        self.offset = off
        return value

    # ---- pieces
    def die(self, x: float, y: float, face: str, action: str | None = None, size: float | None = None,
            dim: bool = False, pid: str | None = None) -> None:
        size = self.die_size if size is None else size
        if x and y:   # one lookup for the whole piece (its words never read the step)
            self.kept(("piece", x, y, face, action, size, dim, pid),
                      lambda: self._moving_die(x, y, face, action, size, dim, pid))
        else:
            self._moving_die(x, y, face, action, size, dim, pid)

    def row_die(self, x: float, y: float, face: str, verb: str | None, size: float, dim: bool, where: str | None,
                k: int) -> None:
        """:meth:`die` of a row or lines of dice (the ``k``-th of its face, clicked
        with ``verb``), kept by these: its action and id are written only when drawn."""
        if not (x and y):
            self.die(x, y, face, f"{verb} {face}" if verb else None, size, dim,
                     f"die-{where}-{face}-{k + 1}" if where else None)
            return
        key = ("row-die", x, y, face, verb, size, dim, where, k)
        hit = _KEPT.get(self.prefix + key)
        if hit is None:
            hit = self.lookup(key, lambda: self._moving_die(x, y, face, f"{verb} {face}" if verb else None, size, dim,
                                                            f"die-{where}-{face}-{k + 1}" if where else None), _KEPT)
        self.svg.parts.extend(hit[0])

    def _moving_die(self, x: float, y: float, face: str, action: str | None, size: float | None, dim: bool,
                    pid: str | None) -> None:
        with self.svg.moving(pid, f"die-{face}"):
            self._die(x, y, face, action, size, dim)

    def _die(self, x: float, y: float, face: str, action: str | None, size: float | None, dim: bool) -> None:
        size = self.die_size if size is None else size
        label = self.p.action_words(self.obs, action) if action else None
        if x and y:
            self.kept(("die", x, y, face, action, label, size, dim),
                      lambda: self.draw_die(x, y, face, action, label, size, dim))
        else:
            self.draw_die(x, y, face, action, label, size, dim)

    def draw_die(self, x: float, y: float, face: str, action: str | None, label: str | None, size: float,
                 dim: bool) -> None:
        self.svg.open(action, None, label, "die")
        if action is not None:   # a margin to tap, outlined in gold when it may be clicked (the page's style)
            self.svg.rect(x - 3, y - 3, size + 6, size + 6, fill="#ffffff00", stroke="none", rx=size * .25, width=2)
        draw_face(self.svg, x, y, size, face, dim=dim)
        self.svg.close()

    def token(self, cx: float, cy: float, r: float = 18, action: str | None = None, pid: str | None = None) -> None:
        with self.svg.moving(pid):
            self.svg.open(action, None, self.p.action_words(self.obs, action) if action else None, "token")
            self.svg.circle(cx, cy, r, TOKEN_FILL, INK, 1.2)
            _star(self.svg, cx, cy, r * .7, "#f5c542")
            self.svg.close()

    def coin(self, cx: float, cy: float, r: float, label: str) -> None:
        draw_coin(self.svg, cx, cy, r, label)

    def dice_row(self, x: float, y: float, counts: dict[str, int], verb: str | None = None,
                 size: float | None = None, dim: bool = False, where: str | None = None, gap: float = 6) -> float:
        """The dice of ``counts`` in a row; ``where`` names the place in their
        stable ids (``die-center-R-2``: the second red die in the centre)."""
        size = self.die_size if size is None else size
        for f in FACES:
            for k in range(counts.get(f, 0)):
                self.row_die(x, y, f, verb, size, dim, where, k)
                x += size + gap
        return x

    # ---- cards
    def card_layout(self, cid: str, w: float, show_cost: bool) -> tuple[list[str], list[str], float]:
        key = ("layout", self.t, self.p.texts, self.p.lang, cid, w, show_cost)
        out: tuple[list[str], list[str], float] | None = _KEPT.get(key)
        if out is None:
            out = _KEPT.put(key, self._card_layout(cid, w, show_cost))
        return out

    def _card_layout(self, cid: str, w: float, show_cost: bool) -> tuple[list[str], list[str], float]:
        name = wrap(self.p.card_name(cid), w - 14, (FONT + 1) * 1.12)[:2]   # bold runs wider
        body = wrap(self.p.effect(cid), w - 12, FONT)
        h = 8 + len(name) * 17 + 6 + (24 if show_cost else 0) + 18 + len(body) * 16 + 6
        return name, body, h

    def card(self, x: float, y: float, w: float, h: float, cid: str, action: str | None,
             show_cost: bool, used: bool = False, targets: Sequence[tuple[str, str]] = ()) -> None:
        """A card with its offer (and the dice it may turn one to), kept whole by these:
        its offer never carries a payment here (:meth:`market` adds a buyer's)."""
        key = ("card-offer", x, y, w, h, cid, action, show_cost, used, tuple(targets))
        hit = _KEPT.get(self.prefix + key)
        if hit is None:
            hit = self.lookup(key, lambda: self.draw_card(x, y, w, h, cid, action, show_cost, used, targets), _KEPT)
        self.svg.parts.extend(hit[0])

    def draw_card(self, x: float, y: float, w: float, h: float, cid: str, action: str | None,
                  show_cost: bool, used: bool, targets: Sequence[tuple[str, str]]) -> None:
        """:meth:`card`, drawn."""
        label = self.p.action_words(self.obs, action) if action else self.p.card_name(cid)
        with self.svg.moving(f"card-{cid}"):
            # the offer apart from the card as printed (a buyer's payment: :meth:`paid_offer`)
            self.svg.open(action, cid, label, "card")
            self.kept(("card", x, y, w, h, cid, show_cost, used),
                      lambda: self.card_face(x, y, w, h, cid, show_cost, used))
            self.svg.close()
        # a turn-die ability: one die per face it may turn to, drawn on the card
        if targets:
            tx = x + w - 6 - len(targets) * (SMALL_DIE + 10)
            for action, face in targets:
                self.die(tx, y + h - SMALL_DIE - 8, face, action, SMALL_DIE + 4)
                tx += SMALL_DIE + 10

    def purchase(self, action: str | None, cid: str) -> tuple[list[str], str | None]:
        """A ``buy`` carries the payment of the one who acts (one gesture:
        :meth:`MarketWords.purchase`), kept in the offer for when it is legal."""
        o = self.obs
        if action is None or not action.startswith("buy ") or self.actor is None or o["phase"] != "buy" \
                or o.get("paying"):
            return [], None
        return self.p.purchase(o, cid, self.actor)

    def card_face(self, x: float, y: float, w: float, h: float, cid: str, show_cost: bool, used: bool) -> None:
        """A card as printed (inside its offer's group): name, cost, points or "used",
        icons and effect."""
        svg, t = self.svg, self.t
        c = t.cards[t.index[cid]]
        name, body, _ = self.card_layout(cid, w, show_cost)
        svg.rect(x, y, w, h, fill="#e3ddd2" if used else "#fffaf0", stroke="#8a7d6a", width=1.2)
        band_h = 8 + len(name) * 17
        svg.add(f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{band_h:g}" rx="6" '
                f'fill="{DECK_BAND[c.deck]}"/>')
        for i, line in enumerate(name):
            svg.text(x + 7, y + 18 + i * 17, line, FONT + 1, "bold", "#fff")
        yy = y + band_h + 4
        if show_cost:
            cx = x + 6
            for g in c.cost:
                draw_face(svg, cx, yy, SMALL_DIE, g)
                cx += SMALL_DIE + 3
            yy += 24
        if used:
            svg.rect(x + w - 10 - len(self.p.t("ui.used")) * FONT * .6, yy, len(self.p.t("ui.used")) * FONT * .6 + 6,
                     18, fill="#fbe3e3", stroke="#8b0000", rx=4, width=1.2)
            svg.text(x + w - 7, yy + 13, self.p.t("ui.used"), FONT, "bold", "#8b0000", "end")
        elif c.points:
            svg.text(x + w - 7, yy + 13, f"{c.points} {self.p.t('ui.points')}", FONT + 1, "bold", "#8b0000", "end")
        icons = self.p.icons(cid) or "—"
        if used:   # the mark takes the right of the line: keep the icons short
            icons = wrap(icons, w - 24 - len(self.p.t("ui.used")) * FONT * .6, FONT)[0]
        svg.text(x + 7, yy + 13, icons, FONT, "normal", MUTED)
        yy += 18
        for i, line in enumerate(body):
            svg.text(x + 6, yy + 13 + i * 16, line, FONT, "normal", MUTED if used else INK)

    def card_grid(self, x0: float, y: float, cards: list[str], action_of: Any, show_cost: bool,
                  used: Sequence[str] = (), targets: Callable[[str], list[tuple[str, str]]] | None = None) -> float:
        """Cards in rows; returns the y below them."""
        per_row = self.per_row
        CARD_W = self.card_w
        for start in range(0, len(cards), per_row):
            row = cards[start:start + per_row]
            extra = {cid: targets(cid) if targets else [] for cid in row}
            h = max(self.card_layout(cid, CARD_W, show_cost)[2] + (SMALL_DIE + 10 if extra[cid] else 0)
                    for cid in row)
            for k, cid in enumerate(row):
                self.card(x0 + k * (CARD_W + CARD_GAP), y, CARD_W, h, cid, action_of(cid), show_cost,
                          cid in used, extra[cid])
            y += h + CARD_GAP
        return y

    def targets(self, q: int, cid: str) -> list[tuple[str, str]]:
        """``(action, face)`` for each "turn a die to" use of seat ``q``'s card
        that the rules offer now (rulebook: once per round, with a die of the
        face it turns; ``MarketState._buy_actions``), read from public fields."""
        o, t = self.obs, self.t
        c = t.index[cid]
        eff = t.cards[c].effect
        if eff.kind != "turn_die" or eff.face is None or o["phase"] != "buy" or o.get("paying") \
                or cid in o.get("used", ()) or not o["piles"][q].get(eff.face):
            return []
        return [(notation, FACES[face]) for notation, face in t.use_actions[c]]

    # ---- sections
    def header(self) -> None:
        """The round, the phase and who acts: kept by these."""
        o = self.obs
        self.y = self.kept(("header", self.names, self.W, self.p.narrow, o["round"], o["phase"], self.actor),
                           self.draw_header)

    def draw_header(self) -> float:
        """:meth:`header`, drawn; returns the y below it."""
        o, p = self.obs, self.p
        self.y = 26
        head = f"{p.t('ui.round')} {o['round']} · {p.term('phase', o['phase'])}"
        self.svg.text(PAD, self.y, head, 18, "bold")
        cur = self.actor
        if cur is not None:
            if self.p.narrow:   # the phone board: who acts goes on a line of its own
                self.y += 22
                self.svg.text(PAD, self.y, f"{p.term('player', cur)} {p.t('ui.to_act')}", 16, "bold",
                              seat_color(cur))
            else:
                self.svg.text(self.W - PAD, self.y, f"{p.term('player', cur)} {p.t('ui.to_act')}", 16, "bold",
                              seat_color(cur), "end")
        return self.y + 12

    def legend(self) -> None:
        """The same in every position: kept per width and place."""
        self.placed(lambda: setattr(self, "y", self.kept(("legend", self.W), self.draw_legend)))

    def draw_legend(self) -> float:
        svg, x, y = self.svg, float(PAD), float(self.y)
        y = svg.fold("legend", self.p.t("ui.legend"), x, y, size=FONT) + 2
        for f in [*FACES, "T"]:
            words = self.p.t(f"legend.{f}")
            w = 26 + len(words) * FONT * .56 + 14
            if x + w > self.W - PAD:
                x, y = PAD, y + 26
            if f == "T":
                self.token(x + 10, y + 10, 10)
            else:
                draw_face(svg, x, y, 20, f)
            svg.text(x + 25, y + 15, words, FONT)
            x += w
        svg.end_fold()
        return y + 34

    def center(self) -> None:
        """The center, kept whole by what it shows (:meth:`draw_center`)."""
        o = self.obs
        returning = o.get("returning", {})
        key = ("center", self.W, self.die_size, self.y, o["phase"], o.get("step"), o["token"],
               tuple(o["center"].items()), tuple(returning.items()))
        self.y = self.kept(key, self.draw_center, _SECTIONS)

    def draw_center(self) -> float:
        """The center: while splitting, the dice (and the token) to take, in as many
        lines as the width needs (a phone keeps its dice big enough for a finger), and
        those being put back; in the purchase phase, one line of the dice spent.
        Returns the y below it."""
        o, svg, p = self.obs, self.svg, self.p
        split = o["phase"] == "split"
        y = self.y
        count = sum(o["center"].values()) + (o["token"] == -1)
        returning = sum(o.get("returning", {}).values()) + (o["token"] == -2)
        if not split and not count:
            return y
        size = self.die_size if split else 24
        title = p.t("ui.center") if split else p.t("ui.spent")
        right = self.W - PAD - 10
        x0: float = PAD + 12
        if split:
            top = y + 28
        else:   # the spent dice beside their title when they fit there
            x0 = PAD + 20 + len(title) * (FONT + 1) * .6
            top = y + 6
            if x0 + count * (size + 6) > right:
                x0, top = PAD + 12, y + 26
        label_w = 12 + len(p.t("ui.being_returned")) * FONT * .6
        mark = len(svg.parts)            # the dice first, to know the lines they take
        at: tuple[float, float] = (x0, top)
        at = self.dice_flow(at, x0, right, o["center"], "take" if split else None, size, not split, "center")
        if o["token"] == -1:
            at = self.flow_place(at, x0, right, size, size)
            self.token(at[0] + size / 2, at[1] + size / 2, size / 2, "take T", pid="token-T")
            at = (at[0] + size + 6, at[1])
        if returning:
            at = self.flow_place(at, x0, right, label_w, size)
            svg.text(at[0] + 4, at[1] + size * .6, p.t("ui.being_returned"), FONT, "bold", MUTED)
            at = (at[0] + label_w, at[1])
            at = self.dice_flow(at, x0, right, o["returning"], None, size, False, "returning")
            if o["token"] == -2:
                at = self.flow_place(at, x0, right, size, size)
                self.token(at[0] + size / 2, at[1] + size / 2, size / 2, pid="token-T")
        pieces = svg.parts[mark:]
        del svg.parts[mark:]
        h = at[1] - y + size + 10 if count or returning else top - y + size + 4
        # "take all" is only ever the last one's without a pile: offered while splitting
        svg.open("take all" if split else None, "center", p.action_words(o, "take all"), "zone")
        svg.rect(PAD, y, self.W - 2 * PAD, h, fill="#efe4cc", stroke="#8a7d6a", rx=10)
        svg.text(PAD + 10, y + 20 if split else y + 6 + size * .7, title, FONT + 1, "bold")
        svg.close()
        svg.parts.extend(pieces)
        if not count and split:
            svg.text(PAD + 12, top + size * .6, "—", FONT, "normal", MUTED)
        return y + h + 10

    @staticmethod
    def flow_place(at: tuple[float, float], x0: float, right: float, w: float, size: float) -> tuple[float, float]:
        """Where a piece ``w`` wide goes in lines of dice of ``size``: at ``at``, or at
        the start of the next line."""
        x, y = at
        if x + w > right and x > x0:
            return x0, y + size + 6
        return at

    def dice_flow(self, at: tuple[float, float], x0: float, right: float, counts: dict[str, int],
                  verb: str | None, size: float, dim: bool, where: str) -> tuple[float, float]:
        """:meth:`dice_row` in lines from ``x0`` to ``right``; returns where the next piece goes."""
        for f in FACES:
            for k in range(counts.get(f, 0)):
                x, y = self.flow_place(at, x0, right, size, size)
                self.row_die(x, y, f, verb, size, dim, where, k)
                at = (x + size + 6, y)
        return at

    def paying(self) -> None:
        """The card being paid and a slot per gem still to pay; the gold coin and
        "one gem less" under the first slot are the payer's (:func:`seat_layer`)."""
        o, svg, p = self.obs, self.svg, self.p
        pay = o.get("paying")
        if not pay:
            return
        y = self.y
        h = 104
        svg.rect(PAD, y, self.W - 2 * PAD, h, fill="#fff3cf", stroke="#c98a0b", rx=10, width=2)
        svg.text(PAD + 10, y + 20, p.t("ui.paying_for", card=pay["card"]), FONT + 2, "bold")
        x = PAD + 12
        slots = []
        for i, g in enumerate(pay["remaining"]):
            draw_face(svg, x, y + 30, 34, g, outline=True)
            slots.append(x)
            x += 48 if i else 48 + 30
        self.anchors["paying"] = {"y": y, "slots": slots, "end": x}
        self.y = y + h + 10

    def market(self) -> None:
        """The market, kept whole by what it shows (:meth:`draw_market`): its rows, and
        what a purchase reads of the one who may buy (the payment in each offer)."""
        o = self.obs
        m = o["market"]
        actor = self.actor
        buyer = None   # all that a purchase's payment reads (:meth:`MarketWords.purchase`), when it is read
        if actor is not None and o["phase"] == "buy" and not o.get("paying"):
            pile, t = o["piles"][actor], self.t
            waiver = t.holdings([t.index[cid] for cid in o["tableau"][actor]]).waiver
            buyer = (waiver, tuple([pile.get(g, 0) for g in GEMS]), o["gold"][actor])
        # its words are those of "buy" (never of the step) and its offers' payments (``buyer``)
        key = ("market", self.W, self.p.narrow, self.names, self.y, o["active_row"], tuple(m["A"]),
               tuple(m["B"]), tuple(m["C"]), tuple(o["deck_sizes"].items()))
        if buyer is None:   # no offer carries a payment: the market as printed
            self.y = self.kept(key + (None,), self.draw_market, _SECTIONS)
            return
        full = self.prefix + key + (buyer,)
        hit: tuple[tuple[Any, ...], float] | None = _SECTIONS.get(full)
        if hit is None:   # the market as printed, each "buy" offer given this buyer's payment
            printed, y = self.lookup(key + (None,), self.draw_market, _SECTIONS)
            hit = _SECTIONS.put(full, (tuple([self.paid_offer(part, buyer) if type(part) is Offer else part
                                              for part in printed]), y))
        self.svg.parts.extend(hit[0])
        self.y = hit[1]

    def paid_offer(self, offer: Offer, buyer: tuple[Any, ...]) -> Offer:
        """A market card's offer as printed, with the payment of ``buyer`` (what
        :meth:`market` keys a buyer by) when it carries one: :meth:`card`'s offer."""
        action = offer.action
        if action is None or not action.startswith("buy "):
            return offer
        # a payment reads of the pile only the gems of the card's cost (:func:`cheapest_payment`)
        cid = action[4:]
        cost = self.t.cards[self.t.index[cid]].cost if cid in self.t.index else ()
        key = self.prefix + (action, buyer[0], buyer[2], tuple([n for g, n in zip(GEMS, buyer[1]) if g in cost]))
        paid: tuple[list[str], str | None] | None = _PAYMENTS.get(key)
        if paid is None:
            paid = _PAYMENTS.put(key, self.purchase(action, cid))
        then, confirm = paid
        if not then and confirm is None:
            return offer
        return Offer(action, offer.ref, offer.label, offer.cls, gesture_attrs(then, (), confirm))

    def draw_market(self) -> float:
        """The market rows, each under its title; an older row that is empty (its deck
        is used up: rulebook "Fin du tour", older rows are never refilled) is left out,
        and rows short enough share a line. Returns the y below them."""
        o, svg, p = self.obs, self.svg, self.p
        rows = [r for r in "ABC" if o["market"][r] or r == o["active_row"]]
        lines: list[list[str]] = []
        for row in rows:
            if lines and sum(len(o["market"][r]) or 1 for r in lines[-1]) + len(o["market"][row]) <= self.per_row:
                lines[-1].append(row)
            else:
                lines.append([row])
        for line in lines:
            x = float(PAD)
            y = self.y + 24
            bottom = y + 22
            for row in line:
                cards = o["market"][row]
                width = max(1, len(cards)) * (self.card_w + CARD_GAP) - CARD_GAP
                title = f"{p.t('ui.market')} {row} — {p.t('ui.deck')} {row}: {o['deck_sizes'][row]} {p.t('ui.left')}"
                if len(title) * (FONT + 1) * .6 > width:
                    title = f"{p.t('ui.market')} {row}"
                svg.text(x, self.y + 16, title, FONT + 1, "bold")
                if cards:
                    bottom = max(bottom, self.card_grid(x, y, cards, lambda cid: f"buy {cid}", True) + 4)
                else:
                    svg.text(x + 10, y + 14, "—", FONT, "normal", MUTED)
                x += width + CARD_GAP
            self.y = bottom
        return self.y

    def player(self, q: int) -> None:
        """A seat's panel, :meth:`placed`: a rival's kept by everything it shows; the
        one who acts (large, and changing with nearly every decision) from its kept parts."""
        o = self.obs
        off = self.y - ORIGIN
        parts = self.svg.parts
        parts.append(_translate(off))
        self.y = ORIGIN
        band: dict[str, Any]
        if q == self.actor:
            y, band = self.draw_player(q)
        else:
            owned = o["tableau"][q]
            phase = o["phase"]
            # only the seat's own cards are drawn used or not; of the phase, a rival's panel
            # reads only whether the loot is split, or the game over
            used = self.used
            if used and owned:
                used = tuple([c for c in used if c in owned])
            key = ("rival", self.names, self.W, self.p.narrow, q, phase if phase in ("split", "over") else "",
                   o["token"] == q, o["infamy"][q] if phase == "over" else None, o["gold"][q], o["henchmen"][q],
                   o["has_pile"][q], marshal.dumps(o["piles"][q], 2), tuple(owned), used if owned else ())
            hit = _PANELS.get(self.prefix + key)
            if hit is None:
                hit = self.lookup(key, lambda: self.draw_rival(q), _PANELS)
            parts.extend(hit[0])
            y, band = hit[1]
        parts.append("</g>")
        self.y = y + off
        self.offset = off
        self.anchors["bands"][q] = {**band, "y": band["y"] + off, "text_y": band["text_y"] + off}

    def seat_band(self, q: int, y0: float) -> tuple[float, dict[str, Any]]:
        """A seat's coloured band: its name, room for "(you)", the start player token
        it holds, then gold and henchmen, and infamy (hidden until the end: the
        viewer's own is their layer's); returns the y below it and where the band's
        words go (the anchors of the viewer's layer)."""
        o = self.obs
        key = ("band", self.names, self.W, self.p.narrow, q, y0, o["token"] == q,
               o["infamy"][q] if o["phase"] == "over" else None, o["gold"][q], o["henchmen"][q])
        out: tuple[float, dict[str, Any]] = self.kept(key, lambda: self.draw_band(q, y0))
        return out

    def draw_band(self, q: int, y0: float) -> tuple[float, dict[str, Any]]:
        """:meth:`seat_band`, drawn."""
        o, svg, p = self.obs, self.svg, self.p
        phase = o["phase"]
        band = 52 if p.narrow else 30     # the phone board: the counts on a second line
        svg.add(f'<rect x="{PAD:g}" y="{y0:g}" width="{self.W - 2 * PAD:g}" height="{band}" rx="8" '
                f'fill="{seat_color(q)}"/>')
        name = p.term("player", q)
        svg.text(PAD + 10, y0 + 21, name, FONT + 3, "bold", "#fff")
        you_x = PAD + 10 + len(name) * (FONT + 3) * .6
        x = you_x + 12 + len(f" ({p.t('ui.you')})") * (FONT + 3) * .6
        if o["token"] == q:
            self.token(x + 12, y0 + 15, 12, pid="token-T-mark")
            svg.text(x + 28, y0 + 20, p.t("ui.holds_token"), FONT, "bold", "#fff")
        inf = o["infamy"][q] if phase == "over" else None
        stats = [f"{p.t('ui.gold')} {o['gold'][q]}", f"{p.t('ui.henchmen')} {o['henchmen'][q]}"]
        sep = " · " if p.narrow else "  ·  "
        words = sep.join([*stats, p.t("ui.infamy_hidden") if inf is None else f"{p.t('ui.infamy')} {inf}"])
        sx: float
        cover: tuple[float, float]
        if p.narrow:
            sx, sy, anchor = PAD + 10, y0 + 43, "start"
            cover = (PAD + 6, self.W - 2 * PAD - 12)
        else:
            sx, sy, anchor = self.W - PAD - 10, y0 + 20, "end"
            # room for the longer of these words and the viewer's own (their infamy)
            wide = max(len(words), len(sep.join([*stats, p.t("ui.your_infamy")])) + 3) * (FONT + 1) * .62 + 8
            cover = (sx - wide, wide + 6)
        svg.text(sx, sy, words, FONT + 1, "bold", "#fff", anchor)
        return y0 + band, {"y": y0, "name": name, "you_x": you_x, "stats": stats, "sep": sep, "x": sx, "text_y": sy,
                           "anchor": anchor, "cover": cover}

    def draw_rival(self, q: int) -> tuple[float, dict[str, Any]]:
        """A seat at a glance: its band, its pile (the steal target) and its cards
        as named chips, each with its full text on hover (``<title>``)."""
        o, svg, p = self.obs, self.svg, self.p
        phase = o["phase"]
        svg.open(None, f"seat:{q}", None, "seat")
        y, band = self.seat_band(q, self.y)
        y += 5
        has = o["has_pile"][q] or phase != "split"
        frame = f"steal {q + 1}" if phase == "split" and has else None
        size = 26 if p.narrow else 24
        objects = sum(o["piles"][q].values()) + (o["token"] == q)
        label_w = len(p.t("ui.pile")) * FONT * .62
        inner = max(objects, 1) * (size + 5) if has else len(p.t("ui.no_pile")) * FONT * .6
        ph = size + 10
        pw = self.W - 2 * PAD - 8 if p.narrow else min(self.W - 2 * PAD - 8, 24 + label_w + inner + 8)
        svg.open(frame, None, p.action_words(o, frame) if frame else None, "pile")
        svg.rect(PAD + 4, y, pw, ph, fill="#f6f1e6", stroke="#b9ad98", rx=8, width=1,
                 extra=' stroke-dasharray="5 3"' if not has else "")
        svg.text(PAD + 12, y + ph / 2 + 5, p.t("ui.pile"), FONT, "bold", MUTED)
        svg.close()
        x = PAD + 18 + label_w
        if has:
            x = self.dice_row(x, y + 5, o["piles"][q], None, size, where=f"pile{q + 1}", gap=5)
            if o["token"] == q:
                self.token(x + size / 2, y + 5 + size / 2, size / 2 - 1, pid="token-T")
        else:
            svg.text(x, y + ph / 2 + 5, p.t("ui.no_pile"), FONT, "normal", MUTED)
        owned = o["tableau"][q]
        if p.narrow and not owned:    # the phone board: "no cards yet" inside the pile's line
            svg.text(self.W - PAD - 12, y + ph / 2 + 5, p.t("ui.no_cards"), FONT, "normal", MUTED, "end")
            y += ph
        elif p.narrow:
            y = self.chips(PAD, y + ph + 5, q, owned, o.get("used", ()) if phase != "over" else (), 0)
        else:
            y = self.chips(PAD + 4 + pw + 8, y, q, owned, o.get("used", ()) if phase != "over" else (), ph)
        svg.close()
        return y + 8, band

    def chips(self, x0: float, y: float, q: int, cards: list[str], used: Sequence[str], min_h: float) -> float:
        """Cards as named chips in lines from ``x0`` (the card's full text in its title;
        an ability its owner may use: ``use``); returns the y below them (at least
        ``min_h`` below ``y``)."""
        key = ("chips", self.W, self.p.narrow, x0, y, tuple(cards), tuple(c for c in used if c in cards), min_h)
        out: float = self.kept(key, lambda: self.draw_chips(x0, y, cards, used, min_h))
        return out

    def draw_chips(self, x0: float, y: float, cards: list[str], used: Sequence[str], min_h: float) -> float:
        """:meth:`chips`, drawn."""
        svg, p, t = self.svg, self.p, self.t
        if not cards:
            svg.text(x0 + 6, y + 20, p.t("ui.no_cards"), FONT, "normal", MUTED)
            return y + min_h
        area = self.W - PAD - x0 + CARD_GAP
        per_line = max(1, int(area // ((self.W - 2 * PAD) / 2 if p.narrow else CHIP_W + CARD_GAP)))
        # the chips share the width (longer names fit), a few of them up to a card's width
        w = min(area / min(per_line, len(cards)) - CARD_GAP, CARD_W + 60)
        parts = svg.parts
        for k, cid in enumerate(cards):
            cx = x0 + (k % per_line) * (w + CARD_GAP)
            cy = y + (k // per_line) * (CHIP_H + 4)
            off = cid in used
            # kept by where it stands and what it shows (a rival's chips move with their pile's width)
            key = ("chip", cid, cx, cy, w, off)
            hit = _KEPT.get(self.prefix + key)
            if hit is None:
                hit = self.lookup(key, lambda: self.draw_chip(cid, cx, cy, w, off), _KEPT)
            parts.extend(hit[0])
        lines = (len(cards) + per_line - 1) // per_line
        return y + max(min_h, lines * (CHIP_H + 4) - 4)

    def draw_chip(self, cid: str, cx: float, cy: float, w: float, off: bool) -> None:
        """One of :meth:`draw_chips`: a card's name (cut to fit), its points, its full text on hover."""
        svg, p, t = self.svg, self.p, self.t
        c = t.cards[t.index[cid]]
        pts = f"{c.points}" if c.points else ""
        name = p.card_name(cid)
        room = w - 14 - (len(pts) * FONT * .7 + 8 if pts else 0)
        fits = max(4, int(room / (FONT * .68)))   # characters of bold text that fit
        line = name if len(name) <= fits else name[:fits - 1].rstrip(" ,") + "…"
        title = f"{name} ({p.icons(cid) or '—'}{', ' + str(c.points) + ' ' + p.t('ui.points') if pts else ''}): " \
                f"{p.effect(cid)}" + (f" — {p.t('ui.used')}" if off else "")
        with svg.moving(f"card-{cid}"):
            svg.open(None, cid, None, "chip")
            svg.add(f"<title>{escape(title)}</title>")
            svg.rect(cx, cy, w, CHIP_H, fill="#e3ddd2" if off else DECK_BAND[c.deck], stroke="#8a7d6a",
                     rx=6, width=1)
            svg.text(cx + 7, cy + CHIP_H - 7, line, FONT, "bold", MUTED if off else "#fff")
            if pts:
                svg.text(cx + w - 6, cy + CHIP_H - 7, pts, FONT, "bold", "#8b0000" if off else "#ffe08a", "end")
            svg.close()

    def draw_player(self, q: int) -> tuple[float, dict[str, Any]]:
        """The area of the one who acts: their pile in big dice (put back, reroll or
        pay one; the pile itself: stop, keep), their gold, their cards in full (use)."""
        o, svg, p = self.obs, self.svg, self.p
        y0 = self.y
        phase, step = o["phase"], o.get("step")
        svg.open(None, f"seat:{q}", None, "seat")
        y, band = self.seat_band(q, y0)
        y += 6
        # the pile: kept by what it shows (the step is read only while splitting: its verbs, "done")
        key = ("pile", self.W, self.die_size, q, y, phase, step if phase == "split" else None,
               bool(o.get("paying")), o["has_pile"][q], o["token"] == q, o["gold"][q],
               marshal.dumps(o["piles"][q], 2))
        y1 = y
        y = self.kept(key, lambda: self.draw_pile(q, y1))
        owned = o["tableau"][q]
        if owned:
            used = o.get("used", ()) if phase != "over" else ()
            # an ability used with one click (spend a die, gold for infamy); one that turns a
            # die is used with the dice drawn on the card (:meth:`targets`)
            # kept by what it shows: the cards stay while the pile above them changes (a card
            # shows dice to turn to only while buying, outside a payment: :meth:`targets`)
            shown = tuple(tuple(self.targets(q, cid)) for cid in owned) \
                if phase == "buy" and not o.get("paying") else None
            grid = ("grid", self.W, p.narrow, y, tuple(owned), tuple(c for c in used if c in owned), shown)
            y0 = y
            y = self.kept(grid, lambda: self.draw_grid(q, y0, owned, used))
        else:
            svg.text(PAD + 14, y + 14, p.t("ui.no_cards"), FONT, "normal", MUTED)
            y += 24
        svg.close()
        return y + 10, band

    def draw_grid(self, q: int, y: float, owned: list[str], used: Sequence[str]) -> float:
        """The cards of the one who acts in full: :meth:`card_grid`, with their uses."""
        uses = {cid: f"use {cid}" for cid in owned
                if (f"use {cid}", -1) in self.t.use_actions[self.t.index[cid]]}
        return self.card_grid(PAD, y, owned, uses.get, False, used, lambda cid: self.targets(q, cid))

    def draw_pile(self, q: int, y: float) -> float:
        """The pile of the one who acts in big dice (put back, reroll or pay one; the
        pile itself: stop, keep) and their gold beside it; returns the y below it."""
        o, svg, p = self.obs, self.svg, self.p
        phase, step = o["phase"], o.get("step")
        color = seat_color(q)
        has = o["has_pile"][q] or phase != "split"
        # your own pile: keep it as it is (Lucky Animal Appendage), or stop taking / putting back
        frame = "keep" if phase == "lucky" else "done" if phase == "split" and step in ("take", "return") else None
        DIE = self.die_size
        ph = DIE + 16
        svg.open(frame, None, p.action_words(o, frame) if frame else None, "pile")
        svg.rect(PAD + 4, y, self.W - 2 * PAD - 8, ph, fill="#fffdf8", stroke=color, rx=8, width=2.5,
                 extra=' stroke-dasharray="5 3"' if not has else "")
        svg.text(PAD + 14, y + ph / 2 + 5, p.t("ui.pile"), FONT + 1, "bold", MUTED)
        svg.close()
        verb = None
        if phase == "split" and step == "return":
            verb = "return"
        elif phase == "lucky":
            verb = "reroll"
        elif o.get("paying"):
            verb = "pay"
        x = PAD + 24 + len(p.t("ui.pile")) * (FONT + 1) * .62
        if has:
            x = self.dice_row(x, y + 8, o["piles"][q], verb, where=f"pile{q + 1}")
            if o["token"] == q:
                self.token(x + DIE / 2, y + 8 + DIE / 2, DIE / 2 - 2, "return T" if verb == "return" else None,
                           pid="token-T")
                x += DIE + 6
        else:
            svg.text(x, y + ph / 2 + 5, p.t("ui.no_pile"), FONT, "normal", MUTED)
        # gold coins beside the pile
        self.coin(self.W - PAD - 30, y + ph / 2, 16, str(o["gold"][q]))
        return y + ph + 6

    def draw(self) -> Layer:
        """What a player looks at first comes first. Splitting the loot (and rerolling):
        the center, the area of the one who acts, the others' piles (to steal), then the
        market; purchases: the spent dice, the payment, the market, then the seats; at
        the end, the seats' cards before what is left of the market. The seats come in
        turn order from the one who acts (their area large); the others take one
        compact band each (their cards named, each card's text on hover); the dice
        legend, the same all game, closes the board."""
        o = self.obs
        self.header()
        if o["phase"] in ("split", "lucky", "buy"):
            self.center()
        self.paying()
        seats_first = o["phase"] in ("split", "lucky", "over")
        if not seats_first:
            self.placed(self.market)
        n = o["num_players"]
        first = self.actor or 0
        for q in [(first + i) % n for i in range(n)]:
            self.player(q)
        if seats_first:
            self.placed(self.market)
        self.legend()
        self.svg.height = self.y + 6
        return self.svg.layer(self.anchors)


def draw_coin(svg: Svg, cx: float, cy: float, r: float, label: str) -> None:
    """A gold coin with a number on it."""
    svg.circle(cx, cy, r, GOLD_FILL, "#8a6410", 1.5)
    svg.text(cx, cy + FONT * .36, label, FONT, "bold", "#3b2a05", "middle")


def seat_layer(pres: MarketWords, obs: MarketObservation, public: Layer) -> Layer | None:
    """What only this viewer sees or does, over the public layer (at its
    anchors): "(you)" and their own infamy on their seat's band; while they pay,
    the gold coin and "one gem less" for the gem asked now (drawn only when
    the rules offer them). A spectator: nothing."""
    me = pres.viewer
    if me is None:
        return None
    band = public.anchors["bands"].get(me)
    pay, paying = obs.get("paying"), public.anchors.get("paying")
    choice = None   # the payment's choices, when they are this viewer's
    if pay and paying and obs.get("current") == me and pay["remaining"]:
        gem, legal = pay["remaining"][0], obs.get("legal", ())
        choice = (gem, f"gold {gem}" in legal, f"free {gem}" in legal, obs.get("step"), paying["slots"][0],
                  paying["y"], paying["end"])
    # kept by all it shows (a small layer, drawn for each viewer of each position)
    key = (pres.data, pres.texts, pres.lang, tuple(pres.names), me, public.width, public.height,
           None if band is None else (band["y"], band["name"], band["you_x"], tuple(band["stats"]), band["sep"],
                                      band["x"], band["text_y"], band["anchor"], band["cover"]),
           obs["phase"] == "over", obs["infamy"][me], choice)
    kept: tuple[Layer | None] | None = _SEATS.get(key)
    if kept is None:
        kept = _SEATS.put(key, (draw_seat_layer(pres, obs, public),))
    return kept[0]


def draw_seat_layer(pres: MarketWords, obs: MarketObservation, public: Layer) -> Layer | None:
    """:func:`seat_layer`, drawn."""
    me = pres.viewer
    assert me is not None
    band = public.anchors["bands"].get(me)
    svg = Svg(public.width, public.height, legal=obs.get("legal", ()), recent=obs.get("recent", ()))
    if band is not None:
        you = pres.t("ui.you")
        if you.lower() not in band["name"].lower():   # over the name, in the room left after it
            svg.add(f'<rect x="{PAD + 6:g}" y="{band["y"] + 4:g}" width="{band["you_x"] - PAD:g}" height="22" '
                    f'fill="{seat_color(me)}"/>')
            svg.text(PAD + 10, band["y"] + 21, f"{band['name']} ({you})", FONT + 3, "bold", "#fff")
        inf = obs["infamy"][me]
        if obs["phase"] != "over" and inf is not None:   # the counts again, with their own infamy
            x, w = band["cover"]
            y = band["text_y"]
            svg.add(f'<rect x="{x:g}" y="{y - FONT - 3:g}" width="{w:g}" height="{FONT + 9:g}" '
                    f'fill="{seat_color(me)}"/>')
            words = band["sep"].join([*band["stats"], f"{pres.t('ui.your_infamy')} {inf}"])
            svg.text(band["x"], y, words, FONT + 1, "bold", "#fff", band["anchor"])
    pay, paying = obs.get("paying"), public.anchors.get("paying")
    if pay and paying and obs.get("current") == me and pay["remaining"]:
        payment_choices(pres, obs, svg, pay["remaining"][0], paying)
    return svg.layer() if svg.parts else None


def payment_choices(pres: MarketWords, obs: MarketObservation, svg: Svg, gem: str, at: dict[str, Any]) -> None:
    """The payer's other ways to pay the gem asked now (the first slot): a gold
    coin under the slot, "one gem less" (the Racket) after the slots."""
    x, y = at["slots"][0], at["y"]
    gold = f"gold {gem}"
    if gold in svg.legal:
        svg.open(gold, None, pres.action_words(obs, gold), "coin")
        draw_coin(svg, x + 17, y + 86, 15, "1")
        svg.close()
        svg.text(x + 38, y + 91, pres.t("ui.gold_coin"), FONT, "bold", "#6b4e0a")
    free = f"free {gem}"
    if free in svg.legal:
        label = pres.t("ui.waive")
        bw = 24 + len(label) * FONT * .62
        x = at["end"]
        svg.open(free, None, pres.action_words(obs, free), "waive")
        svg.rect(x + 10, y + 36, bw, 26, fill="#e9f3e1", stroke="#2f8f4e", rx=13)
        svg.text(x + 10 + bw / 2, y + 54, label, FONT, "bold", "#1f5f34", "middle")
        svg.close()
