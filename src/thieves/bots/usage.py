"""Which components each seat used in a game, and how those seats fared.

A game names the events that count as a seat using a component in
:attr:`thieves.core.game.Game.usage_events`: ``(event key, argument,
category)`` triples such as ``("buy", "card", "card")``. After a game,
:func:`seat_uses` reads its log as a spectator would (secret arguments are
never counted) and gives, per seat, how often it used each component;
:func:`item_stats` turns many games' records into the win share of the seats
that used each component against the seats that did not, so a designer sees
which cards, locations or thieves go with winning.

``thieves playtest`` (:mod:`thieves.cli.playtest`) looks from the referee's
side instead: every id of every event, secrets included, and the winners' share
of those mentions.

A component that appears in the winners' games more often is not proof that it
is too strong (a strong seat also buys more), but a large gap with intervals
that do not overlap is where to look first.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from ..core.texts import placeholders, visible_event
from .record import GameRecord
from .stats import ALPHA, Share, benjamini_hochberg, two_proportion_p, win_shares

if TYPE_CHECKING:  # pragma: no cover
    from ..core.game import Game, State

#: per seat: category -> component id -> number of uses in the game
SeatUses = dict[str, dict[str, int]]


def seat_uses(state: "State", usage_events: Sequence[tuple[str, str, str]]) -> list[SeatUses]:
    """Per seat, how often it used each component (by the public log of ``state``).

    An event counts for the seat in its ``player`` argument; a list argument
    counts each of its items.
    """
    wanted: dict[str, list[tuple[str, str]]] = {}
    for key, arg, category in usage_events:
        wanted.setdefault(key, []).append((arg, category))
    out: list[SeatUses] = [{} for _ in range(state.num_players)]
    for entry in state.log:
        if entry.get("key") not in wanted:
            continue
        ev = visible_event(entry, None)  # what a spectator read: no secret argument counts
        if ev is None:
            continue
        args = ev["args"]
        seat = args.get("player")
        if type(seat) is not int or not 0 <= seat < state.num_players:
            continue
        for arg, category in wanted[entry["key"]]:
            value = args.get(arg)
            for item in value if isinstance(value, (list, tuple)) else [value]:
                if item is None:
                    continue
                counts = out[seat].setdefault(category, {})
                counts[str(item)] = counts.get(str(item), 0) + 1
    return out


@dataclass(frozen=True)
class ItemStats:
    """One component over a match: the seats that used it against those that did not."""

    category: str
    item: str
    #: seat-games in which the seat used it at least once
    used: Share
    #: the other seat-games
    unused: Share
    #: uses in all games together
    uses: int

    @property
    def gap(self) -> float:
        """Win share when used minus win share when not (points of share)."""
        return self.used.rate - self.unused.rate

    @property
    def p(self) -> float | None:
        """Two-sided p-value of the gap (two-proportion z-test), not adjusted: with tens of
        components compared, some small ones come by chance (see :func:`adjusted_p`)."""
        return two_proportion_p(self.used, self.unused)

    def as_dict(self) -> dict[str, Any]:
        return {"category": self.category, "item": self.item, "uses": self.uses,
                "used": self.used.as_dict(), "unused": self.unused.as_dict(), "p": self.p}


def adjusted_p(stats: Sequence[ItemStats]) -> list[float | None]:
    """The gaps' p-values adjusted for comparing every component of the match at once
    (Benjamini-Hochberg, false discovery rate): among the components whose adjusted
    p-value is at most 0.05, about 5% or fewer are flagged by chance alone."""
    return benjamini_hochberg([st.p for st in stats])


def flagged(q: float | None) -> bool:
    """Whether an adjusted p-value is small enough to flag (:data:`~.stats.ALPHA`)."""
    return q is not None and q <= ALPHA


def item_stats(records: Sequence["GameRecord"]) -> list[ItemStats]:
    """Every component used in ``records``, by category, most used first."""
    seat_games = sum(len(r.lineup) for r in records)
    wins_total = sum(sum(win_shares(r)) for r in records)
    used: dict[tuple[str, str], list[float]] = {}
    uses: dict[tuple[str, str], int] = {}
    for r in records:
        shares = win_shares(r)
        for seat, by_category in enumerate(r.uses):
            for category, counts in by_category.items():
                for item, k in counts.items():
                    used.setdefault((category, item), []).append(shares[seat])
                    uses[(category, item)] = uses.get((category, item), 0) + k
    out = []
    for (category, item), wins in used.items():
        won = sum(wins)
        out.append(ItemStats(category, item, Share(won, len(wins)),
                             Share(max(0.0, wins_total - won), seat_games - len(wins)), uses[(category, item)]))
    out.sort(key=lambda s: (s.category, -s.used.games, s.item))
    return out


def item_names(game: "Game", lang: str = "en") -> dict[tuple[str, str], str]:
    """Display names ``(category, id) -> name`` of every component the game's texts
    name, in the namespace that the usage events' templates use for that category."""
    texts = game.texts()
    spaces: dict[str, str] = {}
    for key, arg, category in game.usage_events:
        template = texts.get("en", "log." + key) or ""
        kind = placeholders(template).get(arg)
        if kind and kind not in ("|", "player"):
            spaces.setdefault(category, kind)
    names: dict[tuple[str, str], str] = {}
    for category, kind in spaces.items():
        prefix = kind + "."
        for k in texts.keys("en"):
            if k.startswith(prefix) and "." not in k[len(prefix):]:
                names[(category, k[len(prefix):])] = texts.get(lang, k) or k
    return distinct_names(names)


def distinct_names(names: Mapping[tuple[str, str], str]) -> dict[tuple[str, str], str]:
    """``names`` with the id added to a name that several components of one category share
    (two cards both called "Treasure Map" become "Treasure Map (C13)" and "Treasure Map (C14)")."""
    seen = Counter((category, name) for (category, _), name in names.items())
    return {(category, item): f"{name} ({item})" if seen[(category, name)] > 1 else name
            for (category, item), name in names.items()}


def item_label(names: Mapping[tuple[str, str], str], category: str, item: str) -> str:
    """The display name of a component, or its id where the game has no name for it."""
    return names.get((category, item), item)


__all__ = ["seat_uses", "item_stats", "adjusted_p", "flagged", "items_csv", "item_names", "item_label", "distinct_names", "ItemStats", "SeatUses"]


def items_csv(path: str, stats: Sequence[ItemStats], names: Mapping[tuple[str, str], str],
              point: Mapping[str, Any] | None = None, append: bool = False) -> None:
    """One row per component: its name from the game's texts, the win shares used and not
    used with their 95% intervals, the gap, its p-value and the BH-adjusted p-value (with
    ``point``, the sweep options of the match in a first column)."""
    import csv
    import json
    q = adjusted_p(stats)
    with open(path, "a" if append else "w", newline="", encoding="utf-8") as fh:
        out = csv.writer(fh)
        if not append:
            out.writerow(["options", "category", "id", "name", "uses", "seat_games_used", "win_share_used",
                          "used_low95", "used_high95", "seat_games_not_used", "win_share_not_used",
                          "not_used_low95", "not_used_high95", "gap", "p", "p_adjusted_bh", "flag_bh_05"])
        for st, qv in zip(stats, q):
            lo, hi = st.used.interval
            ulo, uhi = st.unused.interval
            out.writerow([json.dumps(dict(point or {}), sort_keys=True), st.category, st.item,
                          item_label(names, st.category, st.item), st.uses, st.used.games, st.used.rate, lo, hi,
                          st.unused.games, st.unused.rate if st.unused.games else "",
                          ulo if st.unused.games else "", uhi if st.unused.games else "",
                          st.gap if st.unused.games else "",
                          "" if st.p is None else st.p, "" if qv is None else qv, int(flagged(qv))])
