"""Elo ratings per game between player profiles (pure functions).

Everyone starts at 1500. A game of n rated players counts as the n(n-1)/2
duels between them: in each, the one with the higher final score won (equal
scores: a draw). A player's change is the sum of their duels' changes with
K = 32 / (n - 1), so a game moves a rating about as much as one two-player
game, whatever the number of players.
"""
from __future__ import annotations

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
