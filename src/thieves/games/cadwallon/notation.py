"""Cadwallon's action notation, parsed once into a typed :class:`Action`.

Like python-chess's ``Move.from_uci``/``uci``: the rules, the explanations of
refused actions and the presentation all read the same small frozen object,
and ``str(action)`` gives the notation back exactly.

    gang K              choose a gang (setup, seat order; option gang_choice)
    deploy E1, at b1    choose character E1, then put it on deployment zone b1 (setup)
    militia kornak      choose the militiaman to move (his die is rolled at once)
    mm e5 / mm stay     move the chosen militiaman to e5 (a zone with a thief = attack him)
    act E1              activate character E1 (the previous one is finished)
    move c2             move the active character to c2 (1 AP)
    leave               the active character leaves the district (1 AP, after the alarm)
    open / force        try to open (1 AP) / force (2 AP) the chest in the active character's zone
    attack N2           the active character attacks N2 in an adjacent zone (1 AP)
    talent c3 / talent fury   use the active character's talent (shadow step / sleight of hand)
    play run            play an arcana card (targets: play pickpocket P2, play reinforced_lock c2)
    mission 2           use the mission in slot 2 (3 AP)
    end                 end the turn
    card fury / nocard  in a fight: play a combat arcana card or none (before the dice), or a
                        re-roll card (card second_chance, card jinx) or none (after the dice)
    play niggling_injury / no   interrupt: during an enemy thief's move, cut its Movement by 2
    play jinx / no      interrupt: an opponent's successful opening or Spirit test is rolled again
    move c2 / leave / stay      plot an injured character's move again within its Movement
    take scroll         the winner of a fight takes a scroll from the loser
    drop red c2         put a treasure over the carrying limit down in empty room c2
    flee e5             move a beaten character to e5 (end of its flight)

>>> a = Action.parse("play pickpocket P2")
>>> a.verb, a.arg, a.target, a.seat
('play', 'pickpocket', 'P2', 1)
>>> str(a)
'play pickpocket P2'
>>> Action.parse("dance")
Traceback (most recent call last):
...
thieves.core.errors.IllegalAction: unknown action 'dance'
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ...core.errors import IllegalAction
from ...core.notation import small_number

#: verb -> (least, most) words after it
ARITY: dict[str, tuple[int, int]] = {
    "gang": (1, 1), "deploy": (1, 1), "at": (1, 1), "militia": (1, 1), "mm": (1, 1),
    "act": (1, 1), "move": (1, 1), "leave": (0, 0), "open": (0, 0), "force": (0, 0),
    "attack": (1, 1), "talent": (1, 1), "play": (1, 2), "mission": (1, 1), "end": (0, 0),
    "card": (1, 1), "nocard": (0, 0), "no": (0, 0), "stay": (0, 0), "take": (1, 1),
    "drop": (2, 2), "flee": (1, 1),
}


@dataclass(frozen=True, slots=True)
class Action:
    """One decision: a verb, its object (a character, zone, card, treasure...) and, for
    ``play pickpocket P2`` / ``play reinforced_lock c2`` / ``drop red c2``, a target."""

    verb: str
    arg: str | None = None
    target: str | None = None

    @staticmethod
    def parse(text: str) -> "Action":
        """The action for a notation string (IllegalAction for a malformed one)."""
        return _parse(text)

    def __str__(self) -> str:
        return " ".join(x for x in (self.verb, self.arg, self.target) if x is not None)

    @property
    def slot(self) -> int:
        """``mission N``: the 0-based mission slot."""
        return int(self.arg) - 1  # type: ignore[arg-type]

    @property
    def seat(self) -> int | None:
        """``play pickpocket P2``: the 0-based seat robbed."""
        t = self.target
        number = small_number(t[1:]) if t and t[0] == "P" else None
        return number - 1 if number is not None else None


@lru_cache(maxsize=4096)
def _parse(text: str) -> Action:
    words = text.split() if isinstance(text, str) else []
    if not words:
        raise IllegalAction("empty action")
    verb, rest = words[0], words[1:]
    if verb not in ARITY:
        raise IllegalAction(f"unknown action {verb!r}")
    least, most = ARITY[verb]
    if not least <= len(rest) <= most:
        raise IllegalAction(f"{verb!r} takes {least}" + (f" to {most}" if most != least else "")
                            + f" word(s) after it, not {len(rest)}")
    if verb == "mission" and small_number(rest[0]) is None:
        raise IllegalAction("a mission is named by its slot number ('mission 2')")
    return Action(verb, rest[0] if rest else None, rest[1] if len(rest) > 1 else None)


#: the verbs and fixed words of the notation (thieves.rl's action space; docs/rl.md)
NOTATION_WORDS: tuple[str, ...] = (
    "gang", "deploy", "at", "militia", "mm", "stay", "act", "move", "leave", "open", "force",
    "attack", "talent", "fury", "play", "no", "mission", "end", "card", "nocard", "take", "drop",
    "flee", "red", "green", "key", "scroll", "bracelet", "purse",
)


def action_atoms(data: Any) -> set[str]:
    """The identifiers of the component data that this game's actions name (thieves.rl's action space)."""
    out = set(data.zone_ids) | set(data.gang_ids) | set(data.char) | set(data.militia_ids)
    out |= set(data.heroine) | set(data.card) | set(data.talent)
    out |= {f"P{i}" for i in range(1, 5)}                            # players P1-P4
    types = [t.id for t in data.treasures.types]
    most = max((sum(m.values()) for m in data.treasures.mixes.values()), default=12)
    out |= set(types) | {f"{t}{i}" for t in types for i in range(1, most + 1)}
    return out
