"""Thiefdom's action notation, parsed once into a typed :class:`Action`.

Like python-chess's ``Move.from_uci`` / ``Move.uci()``: the engine, the
explanations of refused actions and the presentation all read the same small
frozen value instead of splitting strings on their own. The notation (see
docs/thiefdom.md) is a verb and up to two words::

    n | e | s | w            step on the alleys
    climb e                  step over a wall (Climbing Tools)
    go s                     a townsfolk in transit goes south (its mover decides)
    plan 2 | plan P          put a planning tile in the next free order slot
    rob gA | rob nB gold     rob a guard, a noble (choosing the goods) or the carriage
    exit 3.11 | jin 3.11     leave a building / Jin's jump, to square row.col
    tp 2Bb | tp 3.20         teleport to a building or a river quay
    buy crossbow [2]         buy equipment (for thief 2 in the opening draft)
    ...

>>> a = Action.parse("rob nB gold")
>>> a.verb, a.arg, a.arg2
('rob', 'nB', 'gold')
>>> str(a)
'rob nB gold'
>>> Action.parse("fly")
Traceback (most recent call last):
...
ValueError: unknown action 'fly'
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

#: verb -> (fewest, most) words after it
ARITY: dict[str, tuple[int, int]] = {
    **{v: (0, 0) for v in ("n", "e", "s", "w", "end", "stamina", "move", "stop", "use", "done", "decline",
                           "clients", "smoke", "fish", "antonius", "kostanze", "beatrix", "apollon",
                           "discard")},
    **{v: (1, 1) for v in ("climb", "go", "plan", "exit", "jin", "tp", "hook", "svenja", "hideout", "cata",
                           "pigeon", "samuel", "lentz", "crossbow", "stars", "bernhard", "keep", "fetch",
                           "stash", "drop", "give", "get", "ruth", "sell", "fill", "ally", "brawl", "deliver",
                           "burn")},
    "rob": (1, 2), "buy": (1, 2), "take": (1, 2), "hand": (2, 2),
}
STEPS = ("n", "e", "s", "w")
#: THIEF_REFS[p][t]: the figure name of thief t of player p ("p0t1")
THIEF_REFS = [[f"p{p}t{t}" for t in range(3)] for p in range(4)]
#: notation -> its parsed Action (an Action is frozen, so one value serves every
#: caller; the notations of a game are a small, fixed set)
PARSED: dict[str, "Action"] = {}


@dataclass(frozen=True, slots=True)
class Action:
    """One decision of the notation: a verb and its words (never validated
    against a position here: legality is the engine's)."""

    verb: str
    args: tuple[str, ...] = ()

    @classmethod
    def parse(cls, text: str) -> "Action":
        """The action written as ``text``; ValueError for a malformed one."""
        got = PARSED.get(text) if type(text) is str else None
        if got is not None:
            return got
        if not isinstance(text, str):
            raise ValueError(f"an action is text, not {type(text).__name__}")
        words = text.split()
        if not words:
            raise ValueError("an empty action")
        verb, args = words[0], tuple(words[1:])
        arity = ARITY.get(verb)
        if arity is None:
            raise ValueError(f"unknown action {verb!r}")
        if not arity[0] <= len(args) <= arity[1]:
            raise ValueError(f"{verb!r} takes {arity[0]}" + (f" to {arity[1]}" if arity[1] != arity[0] else "")
                             + f" word(s), not {len(args)}")
        got = cls(verb, args)
        if cls is Action and len(PARSED) < 100_000:
            PARSED[text] = got
        return got

    @property
    def arg(self) -> str | None:
        """The first word after the verb."""
        return self.args[0] if self.args else None

    @property
    def arg2(self) -> str | None:
        """The second word after the verb."""
        return self.args[1] if len(self.args) > 1 else None

    @property
    def words(self) -> list[str]:
        return [self.verb, *self.args]

    def __str__(self) -> str:
        return " ".join(self.words)


#: the verbs and fixed words of the notation (thieves.rl's action space; docs/rl.md)
NOTATION_WORDS: tuple[str, ...] = (
    "keep", "buy", "done", "hideout", "plan", "go", "n", "e", "s", "w", "move", "rob", "car",
    "pay", "gold", "gem", "use", "stamina", "end", "stash", "fetch", "hand", "take", "drop",
    "climb", "exit", "cata", "jin", "give", "get", "stop", "fill", "sell", "brandy", "wine",
    "badge", "gems", "art", "deliver", "svenja", "clients", "ally", "brawl", "decline", "burn",
    "poster", "crossbow", "stars", "fish", "hook", "pigeon", "smoke", "bernhard", "samuel",
    "lentz", "tp", "antonius", "apollon", "kostanze", "beatrix", "ruth", "discard",
)


def action_atoms(data: Any) -> set[str]:
    """The identifiers of the component data that this game's actions name (thieves.rl's action space)."""
    out = set(data.equipment) | set(data.clients) | set(data.artworks) | set(data.patrols)
    size = 7                                   # a section is 7 x 7 squares
    n_sections = len({s.section for s in data.sections.values()})
    rows, cols = 2 * size, (n_sections // 2) * size
    out |= {f"{r}.{c}" for r in range(rows) for c in range(cols)}
    for s in data.sections.values():           # buildings <section><face><letter>, villas
        out |= {f"{s.section}{s.face}{b.id}" for b in s.buildings}
        out.add(f"villa{s.section}")
    for side in data.board.loot_board.values():   # loot board: guards gA-gD, nobles nA-nD
        out |= {f"g{x}" for x in side.guards} | {f"n{x}" for x in side.nobles}
    # planning: what tiles 1-4 activate (thief 1-3 or the patrol board P), 1 to 4 tiles
    for k in range(1, 5):
        out |= {"".join(t) for t in itertools.product("123P", repeat=k)}
    return out
