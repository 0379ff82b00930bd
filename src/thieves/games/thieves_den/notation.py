"""Thieves Den's action notation parsed once into a typed action.

Like python-chess's ``Move.from_uci`` / ``str(move)``: :meth:`DenAction.parse` reads a notation
string (``"rob 2 jewel"``) into a small frozen record with named parts (seat numbers 0-based
inside, 1-based in the text), and ``str(action)`` writes it back exactly. The engine applies,
explains and describes actions from this record; legal actions stay strings (the engine
contract). The notation is listed in docs/thieves_den.md.

>>> a = DenAction.parse("rob 2 jewel")
>>> a.verb, a.seat, a.treasure
('rob', 1, 'jewel')
>>> str(a)
'rob 2 jewel'
>>> DenAction.parse("power 3 book").stack
2
>>> DenAction.parse("fly L01")
Traceback (most recent call last):
...
thieves.games.thieves_den.notation.NotationError: unknown action 'fly'; actions are keep, loc, sell, power, witch, steal, recruit, pass, take, pay, discard, rob, give, done, recall, move, swap, return
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ...core.notation import small_number
from .components import TREASURES

#: verb -> the kinds of its words after the verb: c = card id, t = treasure, s = seat (1-based),
#: i = power stack (1-based); "?" marks the last word optional
SHAPES: dict[str, str] = {
    "keep": "c", "loc": "c", "sell": "c", "power": "it", "witch": "t", "steal": "t?",
    "recruit": "tt", "pass": "", "take": "t", "pay": "t", "discard": "t", "rob": "st?",
    "give": "s", "done": "", "recall": "c", "move": "cc", "swap": "cc", "return": "c",
}
_EXAMPLES = {"c": "L07", "t": "book", "s": "2", "i": "1"}


class NotationError(ValueError):
    """A string that is not Thieves Den notation at all (the reason says why)."""


@dataclass(frozen=True, slots=True)
class DenAction:
    """One decision: ``verb`` and the parts it names (None where it names none)."""

    verb: str
    card: str | None = None        # location (L..) or fence (F..) id
    card2: str | None = None       # the second card of move / swap
    treasure: str | None = None
    treasure2: str | None = None   # the second treasure paid to recruit
    seat: int | None = None        # 0-based seat of rob / give
    stack: int | None = None       # 0-based power stack

    @staticmethod
    def parse(text: str) -> "DenAction":
        """The action a notation string names; :class:`NotationError` with the reason if
        it is not well formed (whether it is legal now is the state's business)."""
        return parse_action(text)

    # -- the parts its verb always names (SHAPES), typed as present -----------------------------
    @property
    def named_card(self) -> str:
        v = self.card
        if v is None:
            raise NotationError(f"{self.verb!r} names no card")
        return v

    @property
    def named_card2(self) -> str:
        v = self.card2
        if v is None:
            raise NotationError(f"{self.verb!r} names no second card")
        return v

    @property
    def named_treasure(self) -> str:
        v = self.treasure
        if v is None:
            raise NotationError(f"{self.verb!r} names no treasure")
        return v

    @property
    def named_treasure2(self) -> str:
        v = self.treasure2
        if v is None:
            raise NotationError(f"{self.verb!r} names no second treasure")
        return v

    @property
    def named_seat(self) -> int:
        v = self.seat
        if v is None:
            raise NotationError(f"{self.verb!r} names no seat")
        return v

    @property
    def named_stack(self) -> int:
        v = self.stack
        if v is None:
            raise NotationError(f"{self.verb!r} names no power stack")
        return v

    def __str__(self) -> str:
        words = [self.verb]
        if self.stack is not None:
            words.append(str(self.stack + 1))
        if self.seat is not None:
            words.append(str(self.seat + 1))
        words += [w for w in (self.card, self.card2, self.treasure, self.treasure2) if w is not None]
        return " ".join(words)


@lru_cache(maxsize=4096)
def parse_action(text: str) -> DenAction:
    """:meth:`DenAction.parse`, kept per notation string (the rules parse every decision)."""
    return _parse(text)


def _parse(text: str) -> DenAction:
    words = text.split()
    if not words:
        raise NotationError("empty action")
    verb, rest = words[0], words[1:]
    shape = SHAPES.get(verb)
    if shape is None:
        raise NotationError(f"unknown action {verb!r}; actions are {', '.join(SHAPES)}")
    kinds = shape.rstrip("?")
    low = len(kinds) - (1 if shape.endswith("?") else 0)
    if not low <= len(rest) <= len(kinds):
        example = " ".join([verb] + [_EXAMPLES[k] for k in kinds])
        raise NotationError(f"{verb!r} takes {len(kinds)} word(s) after it, e.g. {example!r}")
    cards: list[str | None] = []
    treasures: list[str | None] = []
    seat = stack = None
    for kind, word in zip(kinds, rest):
        if kind == "t":
            if word not in TREASURES:
                raise NotationError(f"unknown treasure {word!r}; treasures are {', '.join(TREASURES)}")
            treasures.append(word)
        elif kind in "si":
            number = small_number(word)
            if number is None or number < 1:
                what = "a seat number from 1" if kind == "s" else "a power stack number (1, 2 or 3)"
                raise NotationError(f"{word[:40]!r} is not {what}")
            if kind == "s":
                seat = number - 1
            else:
                stack = number - 1
        else:
            cards.append(word)
    cards += [None] * (2 - len(cards))
    treasures += [None] * (2 - len(treasures))
    return DenAction(verb, cards[0], cards[1], treasures[0], treasures[1], seat, stack)


#: the verbs and fixed words of the notation (thieves.rl's action space; docs/rl.md)
NOTATION_WORDS: tuple[str, ...] = (
    "keep", "loc", "sell", "power", "witch", "steal", "recruit", "pass", "take", "pay", "rob",
    "discard", "recall", "move", "swap", "return", "done", "give",
)


def action_atoms(data: Any) -> set[str]:
    """The identifiers of the component data that this game's actions name (thieves.rl's action space)."""
    # location and fence cards, treasure words
    return set(data.locations) | set(data.fences) | set(data.board.treasures)
