"""Fixed integer action spaces for every game.

An engine action is a short notation string (``take R``, ``move L03 L07``,
``assign g1>E30 g2>E12``). Learning code needs a fixed set of integers, so each
game gets a *token space*: a sorted list of notation pieces (tokens) built once
from the game's rules and component data when it is loaded. An action is a
sequence of tokens, and the wrapper asks for it one token at a time (a stack of
sub-decisions, see :class:`Decision`): first the verb, then each argument,
so combined actions such as ``assign g1>E30 g2>E12`` need no enumeration of all
their combinations.

* Thief's Market is small (``Research.whole_actions``): each whole action is one token (116 of them, the
  engine's own parse table).
* The other games split an action at spaces and after ``>``:
  ``assign g1>E30`` is ``assign``, ``g1>``, ``E30``. Their tokens are the
  verbs of the notation (``Research.keywords``, from each game's notation
  module), the identifiers of the component data that actions name and the
  tokens the rules make from them (``Research.atoms``: cards, spaces, zones, characters,
  Thiefdom squares ``row.col``, buildings ``3Ab`` and planning strings
  ``12P3``, Age of Thieves ``g4>``...), and the numbers 0-20 (seats, slots, AP).
  A game without ``atoms`` falls back on every identifier-like string
  of its data (:func:`data_atoms`).
* Token 0 is ``<end>``: it is legal only when the tokens chosen so far are a
  whole legal action and some longer legal action starts with them
  (``rob 2`` versus ``rob 2 jewel``).

Sub-decisions with a single possible token are filled in automatically, so
each integer the agent gives is a real choice (the first token of a decision is
always asked, even when only one action is legal, so that every engine decision
is at least one step).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

import thieves
from thieves.core.game import State

END = "<end>"
_SPLIT = re.compile(r"[^ >]+>?")
_ATOM = re.compile(r"^[A-Za-z0-9_.\-]{1,24}$")


# -- tokens from component data ------------------------------------------------------
def data_atoms(data: Any, limit: int = 200_000) -> set[str]:
    """Every identifier-like string in a game's component data (ids, names, dict keys)."""
    out: set[str] = set()
    seen: set[int] = set()
    stack = [data]
    steps = 0
    while stack and steps < limit:
        steps += 1
        x = stack.pop()
        if isinstance(x, str):
            if _ATOM.match(x):
                out.add(x)
            continue
        if isinstance(x, (int, float, bool)) or x is None or callable(x) and not hasattr(x, "__dict__"):
            continue
        if id(x) in seen:
            continue
        seen.add(id(x))
        if isinstance(x, dict):
            stack.extend(k for k in x if isinstance(k, str))
            stack.extend(x.values())
        elif isinstance(x, (list, tuple, set, frozenset)):
            stack.extend(x)
        elif hasattr(x, "model_dump"):
            stack.append(x.model_dump())
        elif hasattr(x, "__dict__") and not isinstance(x, type):
            stack.extend(v for k, v in vars(x).items() if not k.startswith("__"))
    return out


def _numbers(n: int) -> set[str]:
    return {str(i) for i in range(n + 1)}


# -- the space ------------------------------------------------------------------------
@dataclass
class ActionSpace:
    """A game's fixed token space: ``tokens[i]`` is the notation piece of integer ``i``."""

    slug: str
    tokens: list[str]
    whole_actions: bool
    index: dict[str, int] = field(init=False)
    _cache: dict[str, tuple[int, ...]] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        self.index = {t: i for i, t in enumerate(self.tokens)}

    @property
    def n(self) -> int:
        return len(self.tokens)

    def split(self, action: str) -> tuple[int, ...]:
        """The token integers of an engine action (ValueError for a piece outside the space)."""
        got = self._cache.get(action)
        if got is not None:
            return got
        pieces = [action] if self.whole_actions else _SPLIT.findall(action)
        try:
            got = tuple(self.index[t] for t in pieces)
        except KeyError as exc:
            raise ValueError(f"{self.slug}: the action {action!r} has the piece {exc.args[0]!r}, "
                             f"which is not in the game's action space (see docs/rl.md)") from None
        if len(self._cache) > 500_000:
            self._cache.clear()
        self._cache[action] = got
        return got

    def join(self, ids: Iterable[int]) -> str:
        """The engine action string of a token sequence (inverse of :meth:`split`)."""
        out = ""
        for i in ids:
            t = self.tokens[i]
            if t == END:
                continue
            out += t if (not out or out.endswith(">")) else " " + t
        return out


_spaces: dict[tuple[str, Any], ActionSpace] = {}


def action_space(slug: str, data_dir: str | None = None) -> ActionSpace:
    """The fixed action space of a game (built once from its rules and data)."""
    key = (slug, data_dir)
    if key in _spaces:
        return _spaces[key]
    game = thieves.load_game(slug)
    data = game.data(data_dir)
    research = game.research
    if research.whole_actions:
        tokens = [END] + sorted(data.parse)
        space = ActionSpace(slug, tokens, whole_actions=True)
    else:
        # a game without its own list falls back on every identifier in its data
        atoms = research.atoms(data) if research.atoms is not None else data_atoms(data)
        atoms |= set(research.keywords)
        atoms |= _numbers(20)
        atoms.discard(END)
        space = ActionSpace(slug, [END] + sorted(atoms), whole_actions=False)
    _spaces[key] = space
    return space


# -- the sub-decision stack ---------------------------------------------------------------------
class Decision:
    """Builds one engine action of the player to act from integer choices.

    ``options()`` are the legal next tokens; ``choose(i)`` adds one, fills in
    forced tokens, and returns the engine action string once it is complete
    (else None). The candidates are the legal actions of the engine, so the
    mask is exactly the set of legal actions.
    """

    __slots__ = ("space", "player", "prefix", "cands", "_opts", "_complete", "_whole")

    def __init__(self, space: ActionSpace, state: State, player: int) -> None:
        self.space = space
        self.player = player
        self.prefix: list[int] = []
        if space.whole_actions:
            # one token per action: the options are the actions themselves
            index = space.index
            self._whole: dict[int, str] | None = {index[a]: a for a in state.legal_actions(player)}
            self.cands = []
            self._opts = list(self._whole)
            self._complete: str | None = None
            return
        self._whole = None
        split = space.split
        self.cands = [(split(a), a) for a in state.legal_actions(player)]
        self._scan()

    def _scan(self) -> None:
        k = len(self.prefix)
        opts: dict[int, None] = {}
        complete: str | None = None
        for toks, a in self.cands:
            if len(toks) == k:
                complete = a
            else:
                opts[toks[k]] = None
        self._complete = complete
        if complete is not None and opts:
            opts[0] = None
        self._opts = list(opts)

    def options(self) -> list[int]:
        """Legal next tokens (``0`` = ``<end>`` where a shorter action is complete)."""
        return self._opts

    def choose(self, i: int) -> str | None:
        """Take token ``i``; return the finished engine action or None if more is needed."""
        if self._whole is not None:
            a = self._whole.get(i)
            if a is None:
                raise ValueError(f"token {i} is not legal now")
            self.prefix.append(i)
            return a
        if i not in self._opts:
            raise ValueError(f"token {i} ({self.space.tokens[i] if 0 <= i < self.space.n else '?'})"
                             f" is not legal now")
        while True:
            if i == 0:
                return self._complete
            k = len(self.prefix)
            self.prefix.append(i)
            self.cands = [c for c in self.cands if len(c[0]) > k and c[0][k] == i]
            self._scan()
            if self._complete is not None and len(self._opts) == 0:
                return self._complete
            if len(self._opts) != 1:
                return None
            i = self._opts[0]       # a forced token: fill it in
