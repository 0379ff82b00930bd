"""Age of Thieves' action notation, parsed once into a typed :class:`AotAction`.

Like python-chess's ``Move.from_uci``/``uci``: ``AotAction.parse(text)``
checks the shape of a notation string and ``str(action)`` gives it back
unchanged. The engine, the explanations and the presentation all read the
fields of the typed action instead of splitting strings again.

>>> a = AotAction.parse("steal 2 green")
>>> (a.verb, a.seat, a.kind, str(a))
('steal', 1, 'green', 'steal 2 green')
>>> AotAction.parse("to N12").space
'N12'
>>> AotAction.parse("ap 3").count
3
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ...core.errors import IllegalAction
from ...core.notation import small_number

#: verbs with no argument
BARE = frozenset({"sneak", "sprint", "cleverness", "cunning", "special", "stop", "done", "next",
                  "know", "gstop", "nothing"})
#: verbs whose argument is one space id
SPACE_VERBS = frozenset({"start", "jewel", "place", "to", "sewer", "at", "gstep"})
#: verbs whose argument is one word (a card type, a token, a jewel, a figure, an exit)
WORD_VERBS = frozenset({"plan", "special", "play", "decline", "discard", "add", "take", "lose",
                        "guard", "first", "leave"})
#: verbs whose argument starts with a seat number (1-based in the notation)
SEAT_VERBS = frozenset({"steal", "thief", "token"})


def ctype(cid: str) -> str:
    """A general card's type from its instance id: ``beacon3`` -> ``beacon``."""
    return cid.rstrip("0123456789")


def figure_kind(g: str) -> str:
    """``g4`` is a guard, ``c1`` a captain."""
    return "captain" if g[0] == "c" else "guard"


@dataclass(frozen=True)
class AotAction:
    """One decision: ``verb`` and its argument text ``arg`` (``""`` when none)."""

    verb: str
    arg: str = ""

    @staticmethod
    def parse(text: str) -> "AotAction":
        """The typed action for a notation string; a malformed one raises IllegalAction."""
        return parse_action(text)

    def __str__(self) -> str:
        return f"{self.verb} {self.arg}" if self.arg else self.verb

    # -- typed views of the argument ------------------------------------------------
    @property
    def space(self) -> str | None:
        """The space a space verb names (``to N12`` -> ``N12``)."""
        return self.arg if self.verb in SPACE_VERBS else None

    @property
    def seat(self) -> int | None:
        """The 0-based seat a seat verb names (``steal 2 green`` -> 1)."""
        if self.verb in SEAT_VERBS:
            return int(self.arg.split()[0]) - 1
        return None

    @property
    def kind(self) -> str | None:
        """The second word of ``steal Q kind`` / ``token Q kind``."""
        if self.verb in ("steal", "token"):
            return self.arg.split()[1]
        return None

    # -- the same, for a verb that always names it (typed as present) ------------------
    @property
    def named_seat(self) -> int:
        v = self.seat
        if v is None:
            raise IllegalAction(f"{self.verb!r} names no seat")
        return v

    @property
    def named_kind(self) -> str:
        v = self.kind
        if v is None:
            raise IllegalAction(f"{self.verb!r} names no jewel or token")
        return v

    @property
    def named_count(self) -> int:
        v = self.count
        if v is None:
            raise IllegalAction(f"{self.verb!r} names no number of AP")
        return v

    @property
    def count(self) -> int | None:
        """The number of AP of ``ap N``."""
        return int(self.arg) if self.verb == "ap" else None

    @property
    def assignment(self) -> dict[str, str]:
        """The figure -> target space pairs of ``assign g1>E3 g2>N4``."""
        if self.verb != "assign":
            return {}
        return dict(x.split(">") for x in self.arg.split())


@lru_cache(maxsize=4096)
def parse_action(text: str) -> AotAction:
    """:meth:`AotAction.parse` itself, one call less for the engine's hot paths (each text is
    parsed once; later calls return the same frozen action)."""
    if type(text) is not str or not text or text != text.strip() or "  " in text:
        raise IllegalAction(f"{text!r} is not an Age of Thieves action")
    verb, _, arg = text.partition(" ")
    ok = False
    if not arg:
        ok = verb in BARE
    elif verb in SPACE_VERBS or verb in WORD_VERBS:
        ok = " " not in arg
    elif verb in SEAT_VERBS:
        parts = arg.split()
        seat = small_number(parts[0])
        ok = seat is not None and seat >= 1 and len(parts) == (2 if verb != "thief" else 1)
    elif verb == "ap":
        ok = small_number(arg) is not None
    elif verb == "assign":
        ok = all(x.count(">") == 1 for x in arg.split())
    if not ok:
        raise IllegalAction(f"{text!r} is not an Age of Thieves action")
    return AotAction(verb, arg)


#: the verbs and fixed words of the notation (thieves.rl's action space; docs/rl.md)
NOTATION_WORDS: tuple[str, ...] = (
    "start", "jewel", "place", "take", "discard", "lose", "plan", "special", "ap", "add", "next",
    "done", "sneak", "sprint", "cleverness", "cunning", "play", "decline", "to", "sewer", "steal",
    "know", "leave", "stop", "guard", "thief", "at", "token", "nothing", "gstep", "gstop",
    "assign", "first", "move", "ambush", "yellow", "green", "emperor", "trinket",
)


def action_atoms(data: Any) -> set[str]:
    """The identifiers of the component data that this game's actions name (thieves.rl's action space)."""
    out = {s.id for s in data.board.spaces} | set(data.exits)
    out |= {c.id for c in data.cards.general}                     # plan / play / discard <card>
    basic = data.cards.basic
    for name in ("move", "ambush"):                                  # basic cards and their halves
        half = getattr(basic, name)
        out |= {name, half["upper"], half["lower"]}
    out |= {t.id for t in data.tokens.city_tokens}                  # add informer, token 2 informer
    # assign g1>E30: guards g1-g20 and captains c1, c2, alone and followed by '>'
    figures = {f"g{i}" for i in range(1, 21)} | {"c1", "c2"}
    return out | figures | {f + ">" for f in figures}
