"""The shared kit every game's board is drawn with (pure SVG text, no state).

Each game fills the kit with its own pieces; the platform draws cards,
dice, tokens, legends and seat colours the same way in all five games, so a
player of one game is at home in the next and a fix here improves all five.

Rules the kit keeps for every game (the table standard):

* no text smaller than :data:`MIN_FONT` CSS px at the board's natural width;
* clickable parts are ``<g class="clickable" data-action=...>`` with
  ``tabindex`` and ``role="button"`` so Enter and Space work on them;
* in the phone layout (``Presentation.layout == "narrow"``) a board is about
  :data:`NARROW_WIDTH` wide: what the viewer holds and clicks most is drawn at
  full size, the rest may be an :meth:`Svg.inset` scaled down;
* parts named by a recent event carry ``data-ref`` and, when recent, the
  class ``recent`` so the table can highlight them;
* every piece, card, token, die and figure sits in a group with a stable
  ``data-pid`` (:meth:`Svg.moving`, or ``pid=`` of the pieces below), the
  same from one view to the next and for every viewer who sees it, so the
  table can slide what moved; an id never tells what a viewer may not know
  (a face-down card is named by its place: :func:`slot_pid`). The scheme is
  in docs/engine.md, "Stable ids".
"""
from __future__ import annotations

import json
from typing import AbstractSet, Any, Callable, Iterable, Sequence
from xml.sax.saxutils import escape as _sax_escape, quoteattr as _sax_quoteattr

MIN_FONT = 12
#: the width of a phone board: at a 420 px window it shows at full size
NARROW_WIDTH = 380
#: one colour per seat, the same in the panels, on the board and in the log
SEAT_COLORS = ("#c0392b", "#2e6fce", "#2f8f4e", "#c98a0b", "#8248b8", "#1f9a9a")
SEAT_INK = ("#fff", "#fff", "#fff", "#111", "#fff", "#fff")
INK = "#1d1a16"
PAPER = "#fbf7ee"
MUTED = "#5d564b"


class _Moving:
    """The group of one piece with a stable id (see :meth:`Svg.moving`)."""

    __slots__ = ("svg", "head")

    def __init__(self, svg: "Svg", pid: str | None, kind: str | None = None, count: int | None = None,
                 at: tuple[float, float] | None = None, origin: str | None = None) -> None:
        self.svg = svg
        self.head = None if pid is None else piece_head(pid, kind, count, at, origin)

    def __enter__(self) -> None:
        if self.head is not None:
            self.svg.parts.append(self.head)

    def __exit__(self, *exc: object) -> None:
        if self.head is not None:
            self.svg.parts.append("</g>")


def piece_head(pid: str, kind: str | None = None, count: int | None = None,
               at: tuple[float, float] | None = None, origin: str | None = None) -> str:
    """The opening tag of a piece's group (closed by ``</g>``): ``data-pid``,
    and ``data-kind``, ``data-count`` and ``data-at`` where given (see
    :meth:`Svg.moving`, which is the same as a ``with`` block)."""
    attrs = f"<g data-pid={quoteattr(pid)}"
    if kind:
        attrs += f" data-kind={quoteattr(kind)}"
    if count is not None:
        attrs += f' data-count="{int(count)}"'
    if at is not None:
        attrs += f' data-at="{at[0]:g} {at[1]:g}"'
    if origin is not None:
        attrs += f" data-from={quoteattr(origin)}"
    return attrs + ">"


class BoundedMemo:
    """A bounded cache of a pure function's results (the oldest entry goes first).

    The boards are drawn again after every decision, mostly from the same
    words and pieces; what a key names is never changed afterwards (texts and
    component data are shared and never mutated), so a kept result equals a
    fresh one."""

    #: the kept result of ``key``, or None (the dict's own ``get``, bound once:
    #: the boards look up tens of thousands of pieces per second)
    get: Callable[[Any], Any]

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: dict[Any, Any] = {}
        self.get = self.items.get

    def put(self, key: Any, value: Any) -> Any:
        items = self.items
        if len(items) >= self.size:
            del items[next(iter(items))]
        items[key] = value
        return value

    def clear(self) -> None:
        self.items.clear()


#: every memo of the kit and the games (:func:`clear_memos` empties them all)
MEMOS: list[BoundedMemo] = []


def memo(size: int) -> BoundedMemo:
    """A new bounded memo, listed in :data:`MEMOS`."""
    out = BoundedMemo(size)
    MEMOS.append(out)
    return out


def clear_memos() -> None:
    """Forget every kept word and piece (tests compare kept and fresh drawings)."""
    for m in MEMOS:
        m.clear()


#: texts already wrapped, by their text, width and size
_WRAPPED = memo(8192)


def escape(text: str) -> str:
    """``text`` with ``&``, ``<`` and ``>`` escaped (``xml.sax.saxutils.escape``,
    quicker for the usual text that has none of them)."""
    if "&" in text or "<" in text or ">" in text:
        return _sax_escape(text)
    return text


def quoteattr(text: str) -> str:
    """``text`` as a quoted attribute value (``xml.sax.saxutils.quoteattr``,
    quicker for the usual text that needs no escape)."""
    if "&" in text or "<" in text or ">" in text or '"' in text or "\n" in text or "\r" in text \
            or "\t" in text:
        return _sax_quoteattr(text)
    return f'"{text}"'


def seat_color(seat: int) -> str:
    return SEAT_COLORS[seat % len(SEAT_COLORS)]


def wrap(text: str, width_px: float, size: float) -> list[str]:
    """Split ``text`` into lines that fit ``width_px`` at font ``size`` (estimate)."""
    key = (text, width_px, size)
    lines: tuple[str, ...] | None = _WRAPPED.get(key)
    if lines is None:
        lines = _WRAPPED.put(key, tuple(_wrap(text, width_px, size)))
    return list(lines)


def _wrap(text: str, width_px: float, size: float) -> list[str]:
    per_line = max(4, int(width_px / (size * 0.56)))
    lines: list[str] = []
    for para in text.split("\n"):
        line = ""
        for word in para.split():
            if line and len(line) + 1 + len(word) > per_line:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        lines.append(line)
    return lines


#: the markup of rectangles, circles and texts already drawn, by their arguments
_PIECES = memo(30_000)


def _rect(x: float, y: float, w: float, h: float, fill: str, stroke: str, rx: float, width: float,
          extra: str) -> str:
    return (f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="{rx:g}" fill="{fill}" '
            f'stroke="{stroke}" stroke-width="{width:g}"{extra}/>')


def _circle(cx: float, cy: float, r: float, fill: str, stroke: str, width: float) -> str:
    return f'<circle cx="{cx:g}" cy="{cy:g}" r="{r:g}" fill="{fill}" stroke="{stroke}" stroke-width="{width:g}"/>'


def _text(x: float, y: float, s: str, size: float, weight: str, color: str, anchor: str, italic: bool) -> str:
    size = max(size, MIN_FONT)
    style = ' font-style="italic"' if italic else ""
    return (f'<text x="{x:g}" y="{y:g}" font-size="{size:g}" font-weight="{weight}" fill="{color}" '
            f'text-anchor="{anchor}"{style}>{escape(s)}</text>')


#: at most this many further steps in one gesture (the server refuses more)
MAX_THEN = 40


def gesture_attrs(then: Sequence[str] = (), path: Sequence[tuple[float, float]] = (),
                  confirm: str | None = None) -> str:
    """The attributes of a clickable group that stands for several decisions
    (see :meth:`Svg.open`): ``data-then`` (a JSON list of further actions),
    ``data-path`` ("x,y x,y ..." in the drawing's coordinates) and
    ``data-confirm``.

    >>> print(gesture_attrs(["move D11"], [(0, 0), (10.5, 20)], "Into the guard's view?"))
     data-then='["move D11"]' data-path="0,0 10.5,20" data-confirm="Into the guard's view?"
    >>> gesture_attrs()
    ''
    """
    if len(then) > MAX_THEN:
        raise ValueError(f"a gesture has at most {MAX_THEN} further steps, not {len(then)}")
    out = ""
    if then:
        out += f" data-then={quoteattr(json.dumps(list(then), ensure_ascii=False))}"
    if path:
        out += ' data-path="' + " ".join(f"{x:g},{y:g}" for x, y in path) + '"'
    if confirm:
        out += f" data-confirm={quoteattr(confirm)}"
    return out


def slot_pid(owner: str, index: int) -> str:
    """The id of a hidden thing by its place (``hand-1-slot-3``): it tells
    where the thing is, never which one it is."""
    return f"{owner}-slot-{index}"


class Offer:
    """The opening tag of a group whose look depends on the viewer: clickable
    when its ``action`` is legal for them, ``recent`` when a recent event (since
    their last decision) named its ``ref``.

    A drawing made with ``Svg(..., offers=True)`` keeps these tags as objects
    instead of text, so one drawing is shared by every viewer and each viewer's
    text is made by :meth:`Layer.render` without drawing again (and without
    reading the SVG back: the kit records every clickable as it draws it).

    >>> o = Offer("take 2", "pile-2", "Take pile 2", "card")
    >>> o.tag(set(), set())
    '<g class="card" data-ref="pile-2">'
    >>> print(o.tag({"take 2"}, {"pile-2"}))
    <g class="card clickable recent" data-action="take 2" tabindex="0" role="button" aria-label="Take pile 2" data-ref="pile-2"><title>Take pile 2</title>
    """

    __slots__ = ("action", "ref", "label", "cls", "extra", "_tags")

    def __init__(self, action: str | None, ref: str | None, label: str | None = None,
                 cls: str = "", extra: str = "") -> None:
        self.action = action
        self.ref = ref
        self.label = label
        self.cls = cls
        #: the gesture attributes (``data-then``, ``data-path``, ``data-confirm``, ``data-needs``)
        self.extra = extra
        #: the tag as written, by (clickable, recent): an offer kept in a memo is
        #: rendered for many viewers and positions
        self._tags: dict[tuple[bool, bool], str] = {}

    def tag(self, legal: "AbstractSet[str] | Sequence[str]", recent: "AbstractSet[str] | Sequence[str]") -> str:
        """The tag as :meth:`Svg.open` writes it for a viewer with these legal
        actions and recent refs."""
        look = (self.action is not None and self.action in legal, self.ref is not None and self.ref in recent)
        tag = self._tags.get(look)
        if tag is None:
            tag = self._tags[look] = _open_tag(self.action, self.ref, self.label, self.cls, look[0], look[1],
                                               self.extra)
        return tag

    def __repr__(self) -> str:
        return f"Offer({self.action!r}, {self.ref!r})"


def _open_tag(action: str | None, ref: str | None, label: str | None, cls: str, live: bool,
              recent: bool, extra: str) -> str:
    """The opening tag of a group (see :meth:`Svg.open`)."""
    classes = [cls] if cls else []
    attrs = ""
    if live:
        classes.append("clickable")
        attrs += f' data-action={quoteattr(action or "")} tabindex="0" role="button"' + extra
        if label:
            attrs += f" aria-label={quoteattr(label)}"
    if ref is not None:
        attrs += f" data-ref={quoteattr(ref)}"
        if recent:
            classes.append("recent")
    if classes:
        attrs = f' class="{" ".join(classes)}"' + attrs
    if live and label:
        return f"<g{attrs}><title>{escape(label)}</title>"
    return f"<g{attrs}>"


class Layer:
    """One layer of a board (docs/engine.md, "Layers"): SVG elements without
    the ``<svg>`` root, as text and :class:`Offer` tags, with the size it needs.

    ``anchors`` is what a later layer needs to know of this one (where the
    viewer's own part goes, where a piece stands); it never holds a secret,
    as a shared layer is drawn from the public observation only.

    >>> s = Svg(100, 50, offers=True)
    >>> s.open("take 1", "pile-1"); s.rect(1, 2, 3, 4); s.close()
    False
    >>> layer = s.layer()
    >>> layer.offers
    (Offer('take 1', 'pile-1'),)
    >>> layer.render({"take 1"}, ())[:58]
    '<g class="clickable" data-action="take 1" tabindex="0" rol'
    >>> layer.render((), ())[:25]
    '<g data-ref="pile-1"><rec'
    """

    __slots__ = ("parts", "width", "height", "anchors", "_text", "_offer_at")

    def __init__(self, parts: Sequence["str | Offer"] = (), width: float = 0.0, height: float = 0.0,
                 anchors: dict[str, Any] | None = None) -> None:
        merged = _merged(parts)
        self.parts: tuple[str | Offer, ...] = tuple(merged)
        self.width = width
        self.height = height
        self.anchors: dict[str, Any] = anchors or {}
        #: the text when nothing in it depends on the viewer
        self._text: str | None = merged[0] if len(merged) == 1 and type(merged[0]) is str else (
            "" if not merged else None)
        #: where the offers stand among the parts (found when first rendered)
        self._offer_at: list[int] | None = None

    @classmethod
    def of_merged(cls, parts: tuple["str | Offer", ...], width: float, height: float,
                  anchors: dict[str, Any] | None = None) -> "Layer":
        """A layer of parts already merged (no two texts side by side, no empty
        text: what another layer's ``parts`` hold), taken as they are."""
        layer = cls.__new__(cls)
        layer.parts = parts
        layer.width = width
        layer.height = height
        layer.anchors = anchors or {}
        layer._text = parts[0] if len(parts) == 1 and type(parts[0]) is str else ("" if not parts else None)
        layer._offer_at = None
        return layer

    @property
    def offers(self) -> tuple["Offer", ...]:
        """Every group whose look depends on the viewer, in drawing order."""
        return tuple(p for p in self.parts if isinstance(p, Offer))

    def render(self, legal: "AbstractSet[str] | Sequence[str]" = (),
               recent: "AbstractSet[str] | Sequence[str]" = ()) -> str:
        """The layer's text for a viewer with these legal actions and recent refs."""
        if self._text is not None:
            return self._text
        legal = legal if isinstance(legal, (set, frozenset)) else set(legal)
        recent = recent if isinstance(recent, (set, frozenset)) else set(recent)
        parts = self.parts
        at = self._offer_at
        if at is None:  # a shared layer is rendered for every viewer: found once
            at = self._offer_at = [i for i, p in enumerate(parts) if not isinstance(p, str)]
        out: list[Any] = list(parts)
        for i in at:
            out[i] = parts[i].tag(legal, recent)  # type: ignore[union-attr]
        return "".join(out)

    def size_in_bytes(self) -> int:
        """About how much memory its text holds (for bounded caches)."""
        texts = [p for p in self.parts if isinstance(p, str)]
        return sum(map(len, texts)) + 64 * (len(self.parts) - len(texts))


def _merged(parts: Sequence["str | Offer"]) -> list["str | Offer"]:
    """``parts`` with neighbouring texts joined (fewer pieces to render), no empty text."""
    cuts = [i for i, part in enumerate(parts) if not isinstance(part, str)]
    if not cuts:
        text = "".join(parts)  # type: ignore[arg-type]
        return [text] if text else []
    merged: list[str | Offer] = []
    start = 0
    for i in cuts:
        if i > start:
            text = "".join(parts[start:i])  # type: ignore[arg-type]
            if text:
                merged.append(text)
        merged.append(parts[i])
        start = i + 1
    text = "".join(parts[start:])  # type: ignore[arg-type]
    if text:
        merged.append(text)
    return merged


def svg_root(width: float, height: float, title: str | None = None) -> str:
    """The opening ``<svg>`` tag of a board of this size (closed by ``</svg>``)."""
    label = f' aria-label={quoteattr(title)}' if title else ""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:g} {height:g}" '
            f'width="{width:g}" height="{height:g}" role="img"{label} '
            f'font-family="system-ui, sans-serif">')


def compose(layers: Sequence[str], width: float, height: float, title: str | None = None) -> str:
    """One board from its layers' texts, the first underneath."""
    return "".join([svg_root(width, height, title), *layers, "</svg>"])


def static_image(href: str, width: float, height: float) -> str:
    """A board's unchanging layer as an image the browser fetches once and
    keeps (its address names its content)."""
    return (f'<image href={quoteattr(href)} x="0" y="0" width="{width:g}" height="{height:g}" '
            f'class="static-layer"/>')


class Svg:
    """An SVG document built piece by piece; :meth:`done` closes it."""

    def __init__(self, width: float, height: float, legal: Iterable[str] = (),
                 recent: Iterable[str] = (), title: str | None = None, offers: bool = False) -> None:
        self.width = width
        self.height = height
        self.legal = set(legal)
        self.recent = set(recent)
        self.parts: list[Any] = []  # text, and :class:`Offer` tags in a drawing with ``offers``
        self.title = title
        #: a drawing shared by viewers: every group that may be clickable or
        #: recent is kept as an :class:`Offer`, decided per viewer by :meth:`Layer.render`
        self.offers = offers

    # -- low level ----------------------------------------------------------
    def add(self, markup: str) -> None:
        self.parts.append(markup)

    def open(self, action: str | None = None, ref: str | None = None, label: str | None = None,
             cls: str = "", then: Sequence[str] = (), path: Sequence[tuple[float, float]] = (),
             confirm: str | None = None, needs: str | None = None) -> bool:
        """Open a group: clickable when ``action`` is legal now, marked with
        ``ref`` (and ``recent`` when a recent event named it). Returns
        whether it is clickable.

        A clickable group may stand for several decisions in one gesture (the
        table standard, part 18): ``then`` lists the actions the table applies
        after ``action`` while the same seat still acts and each is legal (a
        route's further steps), ``path`` the points (in the coordinates
        the group draws in) the page draws as a preview before the click, and
        ``confirm`` a sentence in the viewer's language the page asks first (a
        costly move: into a guard's view, spending gold). ``needs`` makes it
        the second click of a two-click choice: shown only while the picker
        ``needs`` (:meth:`picker`) is picked. See docs/engine.md, "Gestures".

        In a drawing with ``offers`` (a layer shared by viewers) the group is
        kept as an :class:`Offer` and this returns False: what it looks like
        when clickable is then the page's (the class ``clickable``), never the
        drawing's."""
        extra = ""
        if action is not None:
            extra = gesture_attrs(then, path, confirm)
            if needs is not None:
                extra += f" data-needs={quoteattr(needs)}"
        if self.offers:
            if action is None and ref is None:
                self.add(_open_tag(None, None, None, cls, False, False, ""))
            else:
                self.parts.append(Offer(action, ref, label, cls, extra))
            return False
        live = action is not None and action in self.legal
        self.add(_open_tag(action, ref, label, cls, live, ref is not None and ref in self.recent, extra))
        return live

    def close(self) -> None:
        self.add("</g>")

    def picker(self, key: str, label: str | None = None, default: bool = False,
               ref: str | None = None) -> None:
        """Open the group of the first click of a two-click choice (a card,
        then the thief who takes it; a thief, then where he goes): picking it
        shows the clickable groups opened with ``needs=key``. ``default``: it
        starts picked (at most one per drawing). Close with :meth:`close`."""
        attrs = f' class="pickable" data-pick={quoteattr(key)} tabindex="0" role="button" aria-pressed="false"'
        if default:
            attrs += ' data-pick-default="1"'
        if label:
            attrs += f" aria-label={quoteattr(label)}"
        if ref is not None:
            attrs += f" data-ref={quoteattr(ref)}"
        self.add(f"<g{attrs}>")
        if label:
            self.add(f"<title>{escape(label)}</title>")

    def fold(self, key: str, title: str, x: float, y: float, folded: bool = False,
             size: float = 14) -> float:
        """Open a part of the drawing the viewer may fold away (a legend, a
        detail): a header at ``(x, y)`` with the mark ▾ (open) or ▸ (folded)
        and ``title`` (the page toggles it on a click, Enter or Space, and
        remembers it per game and ``key``), then its body, drawn after this
        call and ended with :meth:`end_fold`. ``folded``: how it starts before
        the viewer chose (e.g. on the phone only). Returns the y below the
        header, where the body begins."""
        state = "1" if folded else "0"
        self.add(f'<g class="fold" data-fold={quoteattr(key)} data-fold-default="{state}">')
        self.add(f'<g class="fold-head" tabindex="0" role="button" aria-expanded="{"false" if folded else "true"}">')
        self.add(_rect(x - 4, y, size * 1.4 + len(title) * size * 0.62 + 8, size * 1.7,
                       "transparent", "none", 4, 0, ""))
        self.add(_text(x, y + size * 1.2, "▸" if folded else "▾", size, "bold", INK, "start", False)
                 .replace("<text ", '<text class="fold-mark" ', 1))
        self.add(_text(x + size * 1.3, y + size * 1.2, title, size, "bold", INK, "start", False))
        self.add("</g>")
        self.add('<g class="fold-body">')
        return y + size * 1.7

    def end_fold(self) -> None:
        """End the body of the part opened with :meth:`fold`."""
        self.add("</g></g>")

    def moving(self, pid: str | None, kind: str | None = None, count: int | None = None,
               at: tuple[float, float] | None = None, origin: str | None = None) -> "_Moving":
        """``with svg.moving("thief-2"): ...``: what is drawn inside is one
        piece with a stable id (nothing is added for ``None``). ``kind`` names
        interchangeable pieces (``die-R``: any red die): when one leaves a
        place and one of its kind appears elsewhere, it is seen to move there.
        ``count``: the piece is a pile drawn once with its number (``×3``);
        when one pile shrinks and another of its kind grows, a piece is seen
        to go from one to the other. ``at``: the point that says where the
        piece stands (a figure's centre: a guard that only turns has not
        moved), else the centre of what is drawn. ``origin``: the id of a
        piece it comes out of when it first appears (a copy of a card that
        stays in the hand)."""
        return _Moving(self, pid, kind, count, at, origin)

    def piece(self, kept: BoundedMemo, key: Any, draw: Callable[["Svg"], Any]) -> Any:
        """Add what ``draw(svg)`` adds, drawn once and kept in ``kept`` under
        ``key``; returns what ``draw`` returned. ``key`` names everything the
        drawing depends on, including which of its actions are legal and which
        of its refs are recent (``draw`` sees this drawing's legal and recent
        sets), and ``draw`` only adds parts."""
        if self.offers:
            key = ("offers", key)
        hit = kept.get(key)
        if hit is None:
            scratch = Svg(self.width, self.height, title=self.title, offers=self.offers)
            scratch.legal, scratch.recent = self.legal, self.recent
            value = draw(scratch)
            # merged without building a Layer (its parts were all that was kept)
            drawn: Any = tuple(_merged(scratch.parts)) if self.offers else "".join(scratch.parts)
            hit = kept.put(key, (drawn, value))
        if self.offers:
            self.parts.extend(hit[0])
        else:
            self.parts.append(hit[0])
        return hit[1]

    def piece_of(self, owner: Any, kept: BoundedMemo, key: Any, draw: Callable[[], Any]) -> Any:
        """:meth:`piece` for a drawer object that draws into ``owner.svg``: while
        ``draw()`` runs, ``owner.svg`` is the scratch drawing."""
        def run(scratch: "Svg") -> Any:
            outer, owner.svg = owner.svg, scratch
            try:
                return draw()
            finally:
                owner.svg = outer
        return self.piece(kept, key, run)

    # The pieces below recur from one drawing to the next (the same card title
    # at the same place), so their markup is kept, keyed by every argument.
    # Zero is never a key: 0 and -0.0 are equal keys but print differently.
    def rect(self, x: float, y: float, w: float, h: float, fill: str = PAPER, stroke: str = INK,
             rx: float = 6, width: float = 1.2, extra: str = "") -> None:
        if x and y and w and h and rx and width:
            key = ("r", x, y, w, h, fill, stroke, rx, width, extra)
            markup = _PIECES.get(key)
            if markup is None:
                markup = _PIECES.put(key, _rect(x, y, w, h, fill, stroke, rx, width, extra))
            self.parts.append(markup)
        else:
            self.parts.append(_rect(x, y, w, h, fill, stroke, rx, width, extra))

    def circle(self, cx: float, cy: float, r: float, fill: str, stroke: str = INK, width: float = 1.2) -> None:
        if cx and cy and r and width:
            key = ("c", cx, cy, r, fill, stroke, width)
            markup = _PIECES.get(key)
            if markup is None:
                markup = _PIECES.put(key, _circle(cx, cy, r, fill, stroke, width))
            self.parts.append(markup)
        else:
            self.parts.append(_circle(cx, cy, r, fill, stroke, width))

    def text(self, x: float, y: float, s: str, size: float = 14, weight: str = "normal", color: str = INK,
             anchor: str = "start", italic: bool = False) -> None:
        if x and y:
            key = ("t", x, y, s, size, weight, color, anchor, italic)
            markup = _PIECES.get(key)
            if markup is None:
                markup = _PIECES.put(key, _text(x, y, s, size, weight, color, anchor, italic))
            self.parts.append(markup)
        else:
            self.parts.append(_text(x, y, s, size, weight, color, anchor, italic))

    def para(self, x: float, y: float, s: str, width: float, size: float = 13, color: str = INK,
             max_lines: int | None = None, weight: str = "normal", anchor: str = "start") -> float:
        """Wrapped text from ``(x, y)`` (first baseline); returns the y after it."""
        size = max(size, MIN_FONT)
        lines = wrap(s, width, size)
        if max_lines is not None and len(lines) > max_lines:
            lines = lines[:max_lines]
            lines[-1] = lines[-1].rstrip(".,;: ") + "…"
        step = size * 1.22
        for i, line in enumerate(lines):
            self.text(x, y + i * step, line, size, weight, color, anchor)
        return y + len(lines) * step

    # -- pieces ---------------------------------------------------------------
    # Each piece is kept by its arguments, whether its action is legal now and
    # whether its ref is recent (see :meth:`piece`); zero coordinates are
    # drawn afresh (0 and -0.0 are equal keys but print differently).
    def _live(self, action: str | None, ref: str | None) -> tuple[bool, bool]:
        return (action is not None and action in self.legal, ref is not None and ref in self.recent)

    def card(self, x: float, y: float, w: float, h: float, title: str, body: str = "",
             action: str | None = None, ref: str | None = None, fill: str = PAPER,
             band: str = "#6b4f2a", corner: str | None = None, used: bool = False,
             footer: str | None = None, size: float = 13, pid: str | None = None) -> None:
        """A card with its name on a coloured band and its full effect text.

        ``corner`` is a short mark (cost, points); ``used`` greys it out;
        ``pid`` its stable id."""
        args = (x, y, w, h, title, body, action, ref, fill, band, corner, used, footer, size)
        with self.moving(pid):
            if x and y and w and h:
                self.piece(_PIECES, ("card", args, self._live(action, ref)), lambda s: s._draw_card(*args))
            else:
                self._draw_card(*args)

    def die(self, x: float, y: float, size: float, fill: str, ink: str, label: str,
            action: str | None = None, ref: str | None = None, title: str | None = None,
            dim: bool = False, pid: str | None = None) -> None:
        """A die showing ``label`` (a symbol or a short word) on its face."""
        args = (x, y, size, fill, ink, label, action, ref, title, dim)
        with self.moving(pid):
            if x and y and size:
                self.piece(_PIECES, ("die", args, self._live(action, ref)), lambda s: s._draw_die(*args))
            else:
                self._draw_die(*args)

    def token(self, cx: float, cy: float, r: float, fill: str, label: str = "", ink: str = "#fff",
              action: str | None = None, ref: str | None = None, title: str | None = None,
              pid: str | None = None) -> None:
        """A round token (a figure, a coin, a marker) with a short label."""
        args = (cx, cy, r, fill, label, ink, action, ref, title)
        with self.moving(pid):
            if cx and cy and r:
                self.piece(_PIECES, ("token", args, self._live(action, ref)), lambda s: s._draw_token(*args))
            else:
                self._draw_token(*args)

    def badge(self, x: float, y: float, label: str, fill: str = "#efe6d2", ink: str = INK,
              action: str | None = None, ref: str | None = None, size: float = 13,
              pid: str | None = None) -> float:
        """A pill with a short label (a count, a button on the board); returns its right edge."""
        args = (x, y, label, fill, ink, action, ref, size)
        with self.moving(pid):
            if x and y and size:
                end: float = self.piece(_PIECES, ("badge", args, self._live(action, ref)),
                                        lambda s: s._draw_badge(*args))
                return end
            return self._draw_badge(*args)

    def _draw_card(self, x: float, y: float, w: float, h: float, title: str, body: str = "",
             action: str | None = None, ref: str | None = None, fill: str = PAPER,
             band: str = "#6b4f2a", corner: str | None = None, used: bool = False,
             footer: str | None = None, size: float = 13) -> None:
        """A card with its name on a coloured band and its full effect text.

        ``corner`` is a short mark (cost, points); ``used`` greys it out."""
        live = self.open(action, ref, title, "card")
        stroke = "#e8a317" if live else INK
        self.rect(x, y, w, h, fill="#e6e1d8" if used else fill, stroke=stroke, width=3 if live else 1.2)
        self.add(f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{size * 1.9:g}" rx="6" fill="{band}"/>')
        title_w = w - 12 - (size * 2.2 if corner else 0)
        name = wrap(title, title_w, size)[0] if title else ""
        if name != title:
            name = name.rstrip() + "…"
        self.text(x + 6, y + size * 1.35, name, size, "bold", "#fff")
        if corner:
            self.text(x + w - 6, y + size * 1.35, corner, size, "bold", "#fff", "end")
        lines = max(1, int((h - size * 2.4 - (size * 1.3 if footer else 0)) // (size * 1.22)))
        if body:
            self.para(x + 6, y + size * 3.1, body, w - 12, size - 1 if size > MIN_FONT else size,
                      MUTED if used else INK, max_lines=lines)
        if footer:
            self.text(x + 6, y + h - 6, footer, MIN_FONT, "bold", MUTED)
        self.close()

    def _draw_die(self, x: float, y: float, size: float, fill: str, ink: str, label: str,
            action: str | None = None, ref: str | None = None, title: str | None = None,
            dim: bool = False) -> None:
        """A die showing ``label`` (a symbol or a short word) on its face."""
        live = self.open(action, ref, title, "die")
        self.rect(x, y, size, size, fill=fill, stroke="#e8a317" if live else INK, rx=size * 0.18,
                  width=3 if live else 1.4, extra=' opacity="0.45"' if dim else "")
        self.text(x + size / 2, y + size * 0.66, label, max(MIN_FONT, size * 0.5), "bold", ink, "middle")
        self.close()

    def _draw_token(self, cx: float, cy: float, r: float, fill: str, label: str = "", ink: str = "#fff",
              action: str | None = None, ref: str | None = None, title: str | None = None) -> None:
        """A round token (a figure, a coin, a marker) with a short label."""
        live = self.open(action, ref, title, "token")
        self.circle(cx, cy, r, fill, "#e8a317" if live else INK, 3 if live else 1.2)
        if label:
            self.text(cx, cy + max(MIN_FONT, r * 0.8) * 0.36, label, max(MIN_FONT, r * 0.8), "bold", ink, "middle")
        self.close()

    def _draw_badge(self, x: float, y: float, label: str, fill: str = "#efe6d2", ink: str = INK,
              action: str | None = None, ref: str | None = None, size: float = 13) -> float:
        """A pill with a short label (a count, a button on the board); returns its right edge."""
        w = 16 + len(label) * size * 0.64  # bold text runs wider than plain
        live = self.open(action, ref, label, "badge")
        self.rect(x, y, w, size * 1.8, fill=fill, stroke="#e8a317" if live else INK, rx=size * 0.9,
                  width=3 if live else 1)
        self.text(x + w / 2, y + size * 1.25, label, size, "bold", ink, "middle")
        self.close()
        return x + w

    def legend(self, x: float, y: float, items: Sequence[tuple[str, str]], width: float,
               title: str | None = None, size: float = 13) -> float:
        """A legend: ``(swatch colour or symbol, meaning)`` pairs flowing in rows.
        Returns the y below it."""
        if title:
            self.text(x, y + size, title, size, "bold")
            y += size * 1.6
        cx, row_h = x, size * 1.8
        for mark, meaning in items:
            w = 28 + len(meaning) * size * 0.56
            if cx > x and cx + w > x + width:
                cx, y = x, y + row_h
            if mark.startswith("#"):
                self.rect(cx, y + 2, size, size, fill=mark, rx=3)
            else:
                self.text(cx + size / 2, y + size, mark, size, "bold", INK, "middle")
            self.text(cx + size + 6, y + size, meaning, size)
            cx += w + 10
        return y + row_h

    # -- the phone layout -----------------------------------------------------------
    def inset(self, other: "Svg", x: float, y: float, width: float) -> float:
        """Draw ``other`` (a part drawn at its own, wider size) scaled down to
        ``width`` at ``(x, y)``: the phone layout keeps the board whole but
        small (the zoom buttons enlarge it) and draws the viewer's hand at full
        size around it. Clickable parts stay clickable. Returns the y below it."""
        scale = min(1.0, width / other.width)
        self.add(f'<g class="inset" transform="translate({x:g} {y:g}) scale({scale:.4g})">')
        self.parts.extend(other.parts)
        self.add("</g>")
        return y + other.height * scale

    def done(self) -> str:
        """The whole document (a drawing with ``offers`` is rendered for nobody:
        use :meth:`layer`)."""
        if self.offers:
            return compose([self.layer().render()], self.width, self.height, self.title)
        # one join: a board is a large string, and each copy of it costs
        return "".join([svg_root(self.width, self.height, self.title), *self.parts, "</svg>"])

    def layer(self, anchors: dict[str, Any] | None = None) -> Layer:
        """What was drawn, as a :class:`Layer` of this drawing's size."""
        return Layer(self.parts, self.width, self.height, anchors)
