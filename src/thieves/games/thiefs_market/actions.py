"""The Thief's Market notation, parsed once into a typed action.

Like python-chess's ``Move.from_uci`` / ``Move.uci``: :meth:`MarketAction.parse`
reads a notation string (syntax only, no position needed) and ``str()``
writes it back, so ``str(MarketAction.parse(s)) == s`` for every valid
notation. The rules (``state.py``), the reasons for illegal actions
(``text.explain``) and the words for people (``presentation.py``) all read
the same typed action.

Notation (seats are numbered from 1 in the notation, from 0 inside):

===================  ============================================================
``take R``           take one die showing that face from the center (R W B G Y P)
``take T``           take the start player token from the center
``take all``         the last player without a pile takes everything left
``steal 2``          steal the pile of player 2
``return R``/``T``   put a die (or the token) of the stolen pile back
``done``             stop taking / stop returning
``reroll R``         Lucky Animal Appendage: reroll a die of your pile
``keep``             keep your dice as they are (no reroll)
``buy A7``           buy a market card
``pay R``            pay a red gem of the card with a die of your pile
``gold R``           pay a red gem with a gold coin
``free R``           leave a red gem out (Insurance Racket)
``use A1 W``         use a card's ability (with the face it turns a die to)
``end``              end your purchase turn
===================  ============================================================
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from thieves.core.errors import IllegalAction
from thieves.core.notation import small_number

from .faces import FACES, GEMS, TOKEN

#: kinds that name a die face (or the token) as their argument
FACE_KINDS = ("take", "return", "reroll")
#: kinds that name one of the four gems of a card's cost
GEM_KINDS = ("pay", "gold", "free")
#: kinds without an argument
BARE_KINDS = ("done", "keep", "end")
_CARD = re.compile(r"^[A-Z][0-9]{1,2}$", re.ASCII)
#: one letter each (``"WB" in FACES`` is true of the string, not of a face)
_FACES = frozenset(FACES)
_GEMS = frozenset(GEMS)
EXAMPLES = "e.g. 'take R', 'steal 2', 'buy A7', 'use A1 W', 'pay R', 'end'"


@dataclass(frozen=True, slots=True)
class MarketAction:
    """One decision. ``face`` is a face letter (or ``T`` for the token),
    ``card`` a card id, ``seat`` a 0-based seat; unused fields are None."""

    kind: str
    face: Optional[str] = None
    card: Optional[str] = None
    seat: Optional[int] = None

    @classmethod
    def parse(cls, text: str) -> "MarketAction":
        """Read a notation; raises :class:`IllegalAction` with the reason when it is not one."""
        words = text.split() if isinstance(text, str) else []
        if not words or " ".join(words) != text:
            raise IllegalAction(f"{text!r} is not Thief's Market notation ({EXAMPLES})")
        verb, args = words[0], words[1:]
        if verb in BARE_KINDS and not args:
            return cls(verb)
        if verb == "take" and args == ["all"]:
            return cls("take_all")
        if verb in FACE_KINDS and len(args) == 1 and (args[0] in _FACES or (args[0] == TOKEN and verb != "reroll")):
            return cls(verb, face=args[0])
        if verb in GEM_KINDS and len(args) == 1 and args[0] in _GEMS:
            return cls(verb, face=args[0])
        seat = small_number(args[0]) if verb == "steal" and len(args) == 1 else None
        if seat is not None and seat >= 1:
            return cls("steal", seat=seat - 1)
        if verb == "buy" and len(args) == 1 and _CARD.match(args[0]):
            return cls("buy", card=args[0])
        if verb == "use" and 1 <= len(args) <= 2 and _CARD.match(args[0]) \
                and (len(args) == 1 or args[1] in _FACES):
            return cls("use", card=args[0], face=args[1] if len(args) == 2 else None)
        raise IllegalAction(f"{text!r} is not Thief's Market notation ({EXAMPLES})")

    def __str__(self) -> str:
        k = self.kind
        if k in BARE_KINDS:
            return k
        if k == "take_all":
            return "take all"
        if k == "steal":
            return f"steal {self.seat + 1}"  # type: ignore[operator]
        if k == "buy":
            return f"buy {self.card}"
        if k == "use":
            return f"use {self.card}" + (f" {self.face}" if self.face else "")
        return f"{k} {self.face}"

    # -- the numbers the rules use -------------------------------------------------
    @property
    def face_index(self) -> int:
        """0..5 for a die face (R W B G Y P), -1 for the token or none."""
        return FACES.index(self.face) if self.face and self.face != TOKEN else -1
