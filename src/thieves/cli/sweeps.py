"""The points of a ``thieves simulate --sweep`` and the tests of the differences
between them, for the terminal's tables and the HTML report alike."""
from __future__ import annotations

import itertools
from typing import Any

from ..bots.match import MatchResult
from ..bots.stats import MatchSummary, Share, holm, two_proportion_p


def point_label(point: dict[str, Any]) -> str:
    """A sweep point as its options read: ``players=3, rounds=2``."""
    return ", ".join(f"{k}={v}" for k, v in point.items())


def sweep_tests(results: list[tuple[dict[str, Any], MatchResult]]) -> list[tuple[str, int, int, float | None,
                                                                                 float | None]]:
    """Per bot, every pair of sweep points: (bot, point i, point j, p of the difference of
    its win shares (two-proportion z-test), that p adjusted by Holm over every pair and
    bot tested). The first player's share is tested the same way under the label
    "first player"."""
    summaries = [r.summary() for _, r in results]
    rows: list[tuple[str, int, int, float | None]] = []
    shares: list[tuple[str, list[Share]]] = [
        (label, [s.entries[e].share for s in summaries]) for e, label in enumerate(summaries[0].labels)]
    shares.append(("first player", [s.first_player for s in summaries]))
    for label, xs in shares:
        for i, j in itertools.combinations(range(len(xs)), 2):
            rows.append((label, i, j, two_proportion_p(xs[i], xs[j])))
    adjusted = holm([r[3] for r in rows])
    return [(*r, qv) for r, qv in zip(rows, adjusted)]


def share_of(s: MatchSummary, label: str) -> Share:
    """The win share of one bot (by label) in a summary, or the first player's."""
    if label == "first player":
        return s.first_player
    return s.entries[s.labels.index(label)].share
