"""``thieves bench``: how fast seeded random games play."""
from __future__ import annotations

import time
from dataclasses import dataclass

from ..core.registry import load_game
from ..core.rng import Rng


@dataclass
class BenchResult:
    games: int
    decisions: int
    seconds: float
    #: CPU seconds of this process (steadier than wall time on a shared machine)
    cpu_seconds: float = 0.0

    @property
    def decisions_per_second(self) -> float:
        return self.decisions / self.seconds if self.seconds else 0.0

    @property
    def decisions_per_cpu_second(self) -> float:
        return self.decisions / self.cpu_seconds if self.cpu_seconds else 0.0

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def decisions_per_game(self) -> float:
        return self.decisions / self.games if self.games else 0.0


def bench(slug: str, seconds: float = 5.0, num_players: int | None = None, seed: int = 0,
          options: dict | None = None, max_games: int | None = None) -> BenchResult:
    """Play random games back to back for ``seconds`` (whole games only)."""
    game = load_game(slug)
    n = num_players or min(max(game.min_players, 4), game.max_players)
    rng = Rng.from_seed(seed)
    games = decisions = 0
    start = time.perf_counter()
    cpu_start = time.process_time()
    deadline = start + seconds
    while True:
        state = game.new_game(n, seed + games, options)
        while not state.is_terminal():
            to_act = state.players_to_act()
            p = to_act[0] if len(to_act) == 1 else to_act[rng.below(len(to_act))]
            actions = state.legal_actions(p)
            state.apply_action(p, actions[rng.below(len(actions))])
            decisions += 1
        games += 1
        if time.perf_counter() >= deadline or (max_games is not None and games >= max_games):
            break
    return BenchResult(games, decisions, time.perf_counter() - start, time.process_time() - cpu_start)
