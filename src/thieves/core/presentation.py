"""One presentation contract for every game: what a person sees of it.

A game's presentation is a small class built for one viewer with the game's
data (so ``data_dir`` is respected), explicit seat names and a language. It
turns an observation (never the state, so nothing hidden can leak) into the
board SVG, the action texts, the prompt, the log lines, the end-of-game
score table and the rules summary. The terminal, the server and replays all
use it; no caller rewrites its texts afterwards.

A game opts in by setting ``Game.presentation_class`` to a subclass.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Sequence

from .svg import Layer, compose, memo
from .texts import Texts

if TYPE_CHECKING:
    from .game import Game

#: the table layouts a client may ask for
LAYOUTS = ("wide", "narrow")

#: argument types whose text is a pure function of their value and type
_PLAIN = frozenset({str, int, bool, type(None)})


#: filled templates and terms: (texts, language, seat names, key, arguments) -> text
_WORDS = memo(20_000)


def _args_key(args: dict[str, Any]) -> tuple[Any, ...] | None:
    """A template's arguments as a key (with their types: ``True`` and ``1``
    read differently, a list and a tuple too), or None when one is neither a
    plain value nor a list or tuple of plain values."""
    out: list[tuple[Any, ...]] = []
    for name, value in args.items():
        kind = type(value)
        if kind not in _PLAIN:
            if kind is not list and kind is not tuple:
                return None
            # a list's text is its items' (their names, runs of equal items, or
            # its repr): a pure function of each item's value and type
            kinds = tuple(map(type, value))
            if not _PLAIN.issuperset(kinds):
                return None
            out.append((name, kind, tuple(value), kinds))
            continue
        out.append((name, kind, value))
    return tuple(out)


class Presentation:
    """Texts and drawings of one game for one viewer in one language."""

    def __init__(self, game: "Game", viewer: int | None, names: Sequence[str] | None = None,
                 lang: str = "en", data_dir: str | None = None, layout: str = "wide") -> None:
        self.game = game
        self.viewer = viewer
        self.lang = lang
        #: "wide" (a desktop: one board about 900 px wide) or "narrow" (a phone:
        #: one tall board about 400 px wide whose hand and choices stay readable)
        self.layout = layout if layout in LAYOUTS else "wide"
        self.data = game.data(data_dir)
        self.texts: Texts = game.texts(data_dir)
        #: seat display names; a seat without one reads "Player N"
        self.names: list[str] = list(names) if names is not None else []

    @property
    def narrow(self) -> bool:
        """True for the phone layout."""
        return self.layout == "narrow"

    # -- words ----------------------------------------------------------------
    def t(self, key: str, **args: Any) -> str:
        """The template ``key`` in the viewer's language, filled with ``args``."""
        plain = _args_key(args)
        if plain is None:
            return self.texts.format(self.lang, key, args, self.names)
        full = (self.texts, self.lang, tuple(self.names), key, plain)
        text: str | None = _WORDS.get(full)
        if text is None:
            text = _WORDS.put(full, self.texts.format(self.lang, key, args, self.names))
        return text

    def term(self, kind: str, value: Any) -> str:
        """The game's name for an id (``term("card", "A13")`` reads ``card.A13``)."""
        if type(value) not in _PLAIN:
            return self.texts.fill(self.lang, "{v:" + kind + "}", {"v": value}, self.names)
        full = (self.texts, self.lang, tuple(self.names), kind, type(value), value)
        text: str | None = _WORDS.get(full)
        if text is None:
            text = _WORDS.put(full, self.texts.fill(self.lang, "{v:" + kind + "}", {"v": value}, self.names))
        return text

    def log(self, events: Sequence[dict[str, Any]]) -> list[str]:
        """Visible events (:meth:`State.visible_events`) as lines in the viewer's language."""
        return [self.texts.event(ev, self.lang, self.names) for ev in events]

    def log_refs(self, events: Sequence[dict[str, Any]]) -> list[list[str]]:
        """The ids each event names (seats as ``seat:N``), so a table can
        highlight them when a log line is pointed at."""
        out = []
        for ev in events:
            refs: list[str] = []
            for name, value in (ev.get("args") or {}).items():
                values = value if isinstance(value, list) else [value]
                for v in values:
                    if isinstance(v, bool) or v is None:
                        continue
                    if isinstance(v, str):
                        refs.append(v)
                    elif isinstance(v, int) and name in ("player", "victim", "seat", "target", "thief"):
                        refs.append(f"seat:{v}")
            out.append(refs)
        return out

    def action_text(self, obs: dict[str, Any], action: str) -> str:
        """A button's words for a legal action (games override; default the notation)."""
        return action

    def prompt(self, obs: dict[str, Any]) -> str | None:
        """What the viewer is deciding now, and what for."""
        return None

    def svg(self, obs: dict[str, Any]) -> str | None:
        """The board as the viewer sees it; clickable parts carry ``data-action``.

        A layered presentation (:attr:`layered`) need not define it: its board
        is its layers put together for this viewer (:meth:`board`)."""
        if not self.layered:
            return None
        return self.board(obs, self.board_public(obs))

    # -- the board in layers (docs/engine.md, "Layers") -----------------------
    #: True: the board is drawn in three layers (what never changes, what every
    #: viewer sees alike, what only this viewer sees), so a server draws the
    #: first once per game and the second once per change for all viewers
    layered: ClassVar[bool] = False

    def board_static(self, obs: dict[str, Any]) -> Layer | None:
        """What never changes during a game (the city's streets, a printed
        board), drawn from public fields only: the same for every viewer and
        every position of one game (in this language and layout). No
        clickable parts: it may be shown as an image."""
        return None

    def board_public(self, obs: dict[str, Any]) -> Layer:
        """What every viewer sees alike, drawn from public fields only (the
        pieces, the market, the seats' open cards) with ``Svg(...,
        offers=True)``: its clickable groups are decided per viewer when the
        layer is rendered. A viewer's observation and the spectator's give
        the same layer."""
        raise NotImplementedError(f"{type(self).__name__} is layered but draws no public layer")

    def board_seat(self, obs: dict[str, Any], public: Layer) -> Layer | None:
        """What only this viewer sees or does (their hand, their secret plan,
        a route's targets), drawn over the public layer (which it may read:
        ``public.anchors``). None: nothing."""
        return None

    def board(self, obs: dict[str, Any], public: Layer, static: str | None = None) -> str:
        """The board of this viewer: the layers put together, the public one
        rendered with their legal actions and recent refs. ``static``: the
        unchanging layer's text as the caller shows it (an image of it, say);
        None draws it here."""
        seat = self.board_seat(obs, public)
        if static is None:
            layer = self.board_static(obs)
            static = layer.render() if layer is not None else ""
            size = [layer] if layer is not None else []
        else:
            size = []
        legal, recent = obs.get("legal") or (), obs.get("recent") or ()
        parts = [static, public.render(legal, recent)]
        if seat is not None:
            parts.append(seat.render(legal, recent))
        every = [public, *size, *([seat] if seat is not None else [])]
        return compose(parts, max(x.width for x in every), max(x.height for x in every),
                       self.texts.get(self.lang, "name"))

    def score_table(self, obs: dict[str, Any], scores: list[float], winners: list[int]) -> dict[str, Any] | None:
        """The end-of-game table: ``{"columns": [...], "rows": [[label, v1, v2, ...]],
        "tiebreak": text or None}`` with one column per seat."""
        return None

    def rules(self) -> str | None:
        """A rules summary in the viewer's language (plain paragraphs)."""
        key = "rules"
        return self.texts.get(self.lang, key)

    def text_view(self, obs: dict[str, Any]) -> str | None:
        """The position as plain text for the terminal (None: the game's own)."""
        return None

    def info(self, obs: dict[str, Any], ident: str) -> str | None:
        """The full text of a component named by its id (``info A13`` in the terminal);
        None when the game knows no such id."""
        return None

    def help(self) -> str | None:
        """A short help for the terminal (defaults to the text key ``help``)."""
        return self.texts.get(self.lang, "help")
