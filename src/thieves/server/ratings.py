"""Elo ratings per game between player profiles (pure functions).

Everyone starts at 1500. A game of n rated players counts as the n(n-1)/2
duels between them: in each, the one with the higher final score won (equal
scores: a draw). A player's change is the sum of their duels' changes with
K = 32 / (n - 1), so a game moves a rating about as much as one two-player
game, whatever the number of players.
"""
from __future__ import annotations

from typing import Any

START = 1500.0
K = 32.0


def expected(a: float, b: float) -> float:
    """The expected result of a player rated ``a`` against one rated ``b``."""
    return 1.0 / (1.0 + float(10.0 ** ((b - a) / 400.0)))


def updated(ratings: list[float], scores: list[float]) -> list[float]:
    """New ratings of the players of one game (same order), from their final scores."""
    n = len(ratings)
    if n < 2:
        return list(ratings)
    k = K / (n - 1)
    out = []
    for i in range(n):
        delta = 0.0
        for j in range(n):
            if i == j:
                continue
            result = 1.0 if scores[i] > scores[j] else 0.5 if scores[i] == scores[j] else 0.0
            delta += k * (result - expected(ratings[i], ratings[j]))
        out.append(ratings[i] + delta)
    return out


#: why a finished table did not count in the ratings (texts: ``unrated_<code>`` in server/i18n.py)
UNRATED = ("few_profiles", "same_profile", "late_link", "same_address", "same_browser", "substitutes",
           "hints")


def unrated_reason(links: dict[int, dict[str, Any]], history: list[tuple[int, str]] | list[list[Any]],
                   substituted: set[int], hinted: bool = False) -> str | None:
    """Why a finished table must not count (None: it counts).

    ``links``: seat -> its profile link (``profile``; ``ply``, the move number
    when it was linked, None for links older than this rule; ``address`` and
    ``browser``, digests of where it was linked from, None when unknown);
    ``history``: the game's decisions as ``(seat, action)``; ``substituted``:
    the move numbers a substitute bot decided. A table counts only when

    * at least two seats are linked, each to its own profile;
    * every linked seat was linked before its own first decision (so its
      player played it from the first move: nobody links a game they are
      already winning);
    * no two linked seats were linked from one address or one browser (two
      profiles of one person farming each other);
    * no linked seat had more than half of its decisions made by a
      substitute (a bot playing for a player who left or ran out of time);
    * no seat asked the search for a hint (``hinted``: server/review.py).
    """
    if hinted:
        return "hints"
    if len(links) < 2:
        return "few_profiles"
    if len({link["profile"] for link in links.values()}) != len(links):
        return "same_profile"
    first: dict[int, int] = {}
    own: dict[int, int] = {}
    subs: dict[int, int] = {}
    for ply, (seat, _action) in enumerate(history):
        first.setdefault(int(seat), ply)
        own[int(seat)] = own.get(int(seat), 0) + 1
        if ply in substituted:
            subs[int(seat)] = subs.get(int(seat), 0) + 1
    for seat, link in links.items():
        at = link.get("ply")
        if at is not None and seat in first and at > first[seat]:
            return "late_link"
    for key, code in (("address", "same_address"), ("browser", "same_browser")):
        seen = [link.get(key) for link in links.values() if link.get(key)]
        if len(seen) != len(set(seen)):
            return code
    for seat in links:
        if 2 * subs.get(seat, 0) > own.get(seat, 0):
            return "substitutes"
    return None
