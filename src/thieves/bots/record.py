"""The record of one game of a match (:mod:`thieves.bots.match`): enough to
recompute every statistic (:mod:`thieves.bots.stats`, :mod:`thieves.bots.usage`)."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class GameRecord:
    """One game of a match, enough to recompute every statistic."""

    index: int
    seed: int
    rotation: int
    #: bot label of every seat
    lineup: list[str]
    #: lineup entry (index into the match's labels) of every seat
    entries: list[int]
    scores: list[float]
    winners: list[int]
    decisions: int
    #: the game's first player as its rules define it (:func:`.first.first_player`); in
    #: records written before ``first_by`` existed, the seat that made the first decision
    first_player: int | None
    options: dict[str, Any] = field(default_factory=dict)
    #: per seat, the components it used: category -> id -> uses (:mod:`.usage`)
    uses: list[dict[str, dict[str, int]]] = field(default_factory=list)
    #: per seat, a search bot's effort: ``{"decisions", "iterations"}`` (totals over the
    #: decisions it searched), or None for a bot that does not search. Seconds are left
    #: out so that the same match gives the same records anywhere.
    search: list[dict[str, float] | None] = field(default_factory=list)
    #: the seat whose bot failed (an exception or an illegal answer) and lost the game by
    #: forfeit (``simulate --forfeit``); None for a game played to its end
    forfeit: int | None = None
    #: what ``first_player`` means: ``"rules"`` (:func:`.first.first_player`) or, in an old
    #: record, ``"first decision"`` (:func:`read_records` with the game recomputes it)
    first_by: str = "rules"
    #: how seats deciding at once took turns: ``"dealt"`` (an order drawn from the deal) or,
    #: in a record written before that, ``"seat"`` (seat order); ``--resume`` never mixes them
    order: str = "dealt"

    @property
    def no_winner(self) -> bool:
        return not self.winners

    def as_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["no_winner"] = self.no_winner
        return d

    @classmethod
    def from_dict(cls, d: Any) -> "GameRecord":
        """A record read back from a ``.jsonl`` line (:meth:`as_dict`); ValueError if it is not one."""
        if not isinstance(d, dict):
            raise ValueError("not a game record")
        try:
            rec = cls(int(d["index"]), int(d["seed"]), int(d["rotation"]), [str(x) for x in d["lineup"]],
                      [int(x) for x in d["entries"]], [float(x) for x in d["scores"]],
                      [int(x) for x in d["winners"]], int(d["decisions"]),
                      None if d["first_player"] is None else int(d["first_player"]),
                      dict(d.get("options") or {}), list(d.get("uses") or []),
                      [None if x is None else {k: float(v) for k, v in dict(x).items()}
                       for x in d.get("search") or []],
                      None if d.get("forfeit") is None else int(d["forfeit"]),
                      str(d.get("first_by", "first decision")), str(d.get("order", "seat")))
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"not a game record ({exc!r})") from None
        n = len(rec.lineup)
        if rec.index < 0 or len(rec.entries) != n or len(rec.scores) != n or \
                not all(0 <= w < n for w in rec.winners) or \
                (rec.forfeit is not None and not 0 <= rec.forfeit < n):
            raise ValueError("not a game record (seats do not add up)")
        return rec
