"""Statistics of bot matches: win shares with Wilson intervals, per seat, spreads.

Everything here works on :class:`~thieves.bots.match.GameRecord` lists, so it
can be tested on hand-made records and reused on records read back from a
``--out`` file.
"""
from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field
from typing import Any, Sequence

from .record import GameRecord

#: two-sided 95% normal quantile
Z95 = 1.959963984540054


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion (``successes`` may be fractional: shared wins).

    >>> tuple(round(x, 4) for x in wilson(5, 10))
    (0.2366, 0.7634)
    """
    if trials <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= trials:
        raise ValueError("successes must lie between 0 and the number of trials")
    p = successes / trials
    z2 = z * z
    denom = 1 + z2 / trials
    center = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    return (max(0.0, center - half), min(1.0, center + half))


@dataclass(frozen=True)
class Spread:
    """Mean, sample standard deviation, quartiles and range of some values."""

    n: int
    mean: float
    sd: float
    q1: float
    median: float
    q3: float
    low: float
    high: float

    @classmethod
    def of(cls, values: Sequence[float]) -> "Spread":
        xs = sorted(float(v) for v in values)
        if not xs:
            nan = float("nan")
            return cls(0, nan, nan, nan, nan, nan, nan, nan)
        if len(xs) == 1:
            x = xs[0]
            return cls(1, x, 0.0, x, x, x, x, x)
        q1, med, q3 = statistics.quantiles(xs, n=4, method="inclusive")
        return cls(len(xs), statistics.fmean(xs), statistics.stdev(xs), q1, med, q3, xs[0], xs[-1])

    def as_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in ("n", "mean", "sd", "q1", "median", "q3", "low", "high")}


@dataclass(frozen=True)
class Share:
    """A win share out of some games, with its 95% Wilson interval."""

    wins: float
    games: int

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    def as_dict(self) -> dict[str, Any]:
        lo, hi = self.interval
        return {"wins": self.wins, "games": self.games, "rate": self.rate, "low": lo, "high": hi}


@dataclass
class EntryStats:
    """Results of one entry of the lineup (one bot, wherever it sat)."""

    label: str
    share: Share
    scores: Spread
    by_seat: list[Share] = field(default_factory=list)
    #: a search bot's effort over all its games (None for a bot that does not search)
    search: "SearchEffort | None" = None


@dataclass(frozen=True)
class SearchEffort:
    """What a search bot spent: decisions searched and iterations in all."""

    games: int
    decisions: float
    iterations: float

    @property
    def per_game(self) -> float:
        return self.decisions / self.games if self.games else 0.0

    @property
    def iterations_per_decision(self) -> float:
        return self.iterations / self.decisions if self.decisions else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {"games": self.games, "decisions": self.decisions, "iterations": self.iterations}


@dataclass
class MatchSummary:
    labels: list[str]
    num_players: int
    games: int
    entries: list[EntryStats]
    seats: list[Share]
    first_player: Share
    no_winner: int
    lengths: Spread

    @property
    def fair_share(self) -> float:
        """The first player's share by chance, over the games with a winner (``first_player``
        counts only those): the winners' shares of such a game add up to one."""
        return 1.0 / self.num_players

    def as_dict(self) -> dict[str, Any]:
        return {
            "labels": self.labels, "num_players": self.num_players, "games": self.games,
            "entries": [{"label": e.label, **e.share.as_dict(), "scores": e.scores.as_dict(),
                         "by_seat": [s.as_dict() for s in e.by_seat],
                         "search": e.search.as_dict() if e.search else None} for e in self.entries],
            "seats": [s.as_dict() for s in self.seats],
            "first_player": self.first_player.as_dict(),
            "no_winner": self.no_winner, "lengths": self.lengths.as_dict(),
        }


def win_shares(record: "GameRecord") -> list[float]:
    """Each seat's share of the win: 1 for a lone winner, 1/k on a k-way shared win, else 0."""
    w = record.winners
    return [(1.0 / len(w) if s in w else 0.0) for s in range(len(record.lineup))]


def search_effort(records: Sequence["GameRecord"], entry: int) -> SearchEffort | None:
    """Lineup entry ``entry``'s search effort summed over its seats in ``records``."""
    games, total = 0, [0.0, 0.0]
    for r in records:
        for s, e in enumerate(r.entries):
            effort = r.search[s] if s < len(r.search) else None
            if e != entry or effort is None:
                continue
            games += 1
            for i, key in enumerate(("decisions", "iterations")):
                total[i] += effort.get(key, 0.0)
    return SearchEffort(games, *total) if games else None


def summarize(records: Sequence["GameRecord"], labels: Sequence[str]) -> MatchSummary:
    """Win shares per entry, per seat and per entry and seat; the first player's share
    (as the rules define it, :func:`thieves.bots.first.first_player`) over the games that
    had a winner, whose fair share is 1/players; games nobody won; score and length spreads."""
    if not records:
        raise ValueError("no games to summarize")
    n = len(records[0].lineup)
    k = len(labels)
    wins = [0.0] * k
    played = [0] * k
    scores: list[list[float]] = [[] for _ in range(k)]
    seat_entry_wins = [[0.0] * n for _ in range(k)]
    seat_entry_games = [[0] * n for _ in range(k)]
    seat_wins = [0.0] * n
    first_wins, first_games = 0.0, 0
    no_winner = 0
    for r in records:
        shares = win_shares(r)
        if not r.winners:
            no_winner += 1
        for s, entry in enumerate(r.entries):
            wins[entry] += shares[s]
            played[entry] += 1
            scores[entry].append(r.scores[s])
            seat_entry_wins[entry][s] += shares[s]
            seat_entry_games[entry][s] += 1
            seat_wins[s] += shares[s]
        if r.first_player is not None and r.winners:
            first_games += 1
            first_wins += shares[r.first_player]
    entries = [EntryStats(labels[e], Share(wins[e], played[e]), Spread.of(scores[e]),
                          [Share(seat_entry_wins[e][s], seat_entry_games[e][s]) for s in range(n)],
                          search_effort(records, e))
               for e in range(k)]
    return MatchSummary(list(labels), n, len(records), entries,
                        [Share(seat_wins[s], len(records)) for s in range(n)],
                        Share(first_wins, first_games), no_winner,
                        Spread.of([r.decisions for r in records]))


# -- tests of a difference, and p-values adjusted for many comparisons --------------------

def two_proportion_p(a: Share, b: Share) -> float | None:
    """Two-sided p-value of the pooled two-proportion z-test that shares ``a`` and ``b``
    have the same rate (None where either has no games or the pooled rate is 0 or 1).

    >>> round(two_proportion_p(Share(30, 100), Share(45, 100)), 4)
    0.0285
    """
    if not a.games or not b.games:
        return None
    pooled = (a.wins + b.wins) / (a.games + b.games)
    var = pooled * (1 - pooled) * (1 / a.games + 1 / b.games)
    if var <= 0:
        return None
    z = (a.rate - b.rate) / math.sqrt(var)
    return math.erfc(abs(z) / math.sqrt(2))


def _order(pvalues: Sequence[float | None]) -> list[int]:
    return sorted((i for i, p in enumerate(pvalues) if p is not None), key=lambda i: pvalues[i])  # type: ignore[arg-type, return-value]


def holm(pvalues: Sequence[float | None]) -> list[float | None]:
    """Holm's step-down adjusted p-values (family-wise error): the k-th smallest of m is
    multiplied by m - k + 1, kept non-decreasing, capped at 1. None (no test) stays None
    and does not count in m. Same as R's ``p.adjust(p, "holm")``."""
    idx = _order(pvalues)
    m = len(idx)
    out: list[float | None] = [None] * len(pvalues)
    running = 0.0
    for k, i in enumerate(idx):
        running = max(running, min(1.0, (m - k) * float(pvalues[i])))  # type: ignore[arg-type]
        out[i] = running
    return out


def benjamini_hochberg(pvalues: Sequence[float | None]) -> list[float | None]:
    """Benjamini-Hochberg adjusted p-values (false discovery rate, "q-values"): the k-th
    smallest of m is multiplied by m / k, kept non-decreasing from the largest down,
    capped at 1. None (no test) stays None and does not count in m. Same as R's
    ``p.adjust(p, "BH")`` and scipy's ``false_discovery_control``."""
    idx = _order(pvalues)
    m = len(idx)
    out: list[float | None] = [None] * len(pvalues)
    running = 1.0
    for k in range(m - 1, -1, -1):
        i = idx[k]
        running = min(running, m / (k + 1) * float(pvalues[i]))  # type: ignore[arg-type]
        out[i] = running
    return out


#: the level at which an adjusted p-value is flagged
ALPHA = 0.05
