"""``thieves bench``: how fast seeded random games play."""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from ..core.game import State
from ..core.registry import load_game
from ..core.rng import Rng
from ..testing import checked_playout


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
          options: dict[str, Any] | None = None, max_games: int | None = None) -> BenchResult:
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


@dataclass
class PlayoutBench:
    """Playouts per second from the same positions, checked path against fast path."""

    positions: int
    checked_playouts: int
    checked_seconds: float
    fast_playouts: int
    fast_seconds: float
    #: decisions per playout (the same in both paths when ``same`` holds)
    decisions: int
    #: every fast playout ended exactly where its checked twin ended
    same: bool

    @property
    def checked_per_second(self) -> float:
        return self.checked_playouts / self.checked_seconds if self.checked_seconds else 0.0

    @property
    def fast_per_second(self) -> float:
        return self.fast_playouts / self.fast_seconds if self.fast_seconds else 0.0

    @property
    def speedup(self) -> float:
        return self.fast_per_second / self.checked_per_second if self.checked_per_second else 0.0


def midgame_positions(slug: str, count: int = 8, num_players: int | None = None, seed: int = 0,
                      options: dict[str, Any] | None = None) -> list[State]:
    """``count`` seeded positions halfway through seeded random games."""
    game = load_game(slug)
    n = num_players or min(max(game.min_players, 4), game.max_players)
    out = []
    for i in range(count):
        full = game.new_game(n, seed + i, options)
        length = checked_playout(full, Rng.from_seed(seed + i))
        state = game.new_game(n, seed + i, options)
        checked_playout(state, Rng.from_seed(seed + i), length // 2)
        out.append(state)
    return out


def bench_playouts(slug: str, seconds: float = 5.0, num_players: int | None = None, seed: int = 0,
                   options: dict[str, Any] | None = None, positions: int = 8) -> PlayoutBench:
    """Clone a mid-game position and play it out at random, by the checked
    contract and by the trusted fast path, in alternating rounds (fair on a
    busy machine) for about ``seconds`` in all; the i-th playout of both paths
    uses the same position and seed, and must end the same. Times are CPU
    seconds of this process (steadier than wall time on a shared machine)."""
    starts = midgame_positions(slug, positions, num_players, seed, options)
    ends: dict[int, tuple[int, int, list[float]]] = {}
    played_count = {"checked": 0, "fast": 0}
    spent = {"checked": 0.0, "fast": 0.0}
    same = True
    decisions = 0
    deadline = time.process_time() + seconds
    k = 0
    while True:
        for path in ("checked", "fast"):
            t0 = time.process_time()
            results = []
            for j, start in enumerate(starts):
                state = start.clone()
                rng = Rng.from_seed(seed * 7919 + k * len(starts) + j)
                if path == "checked":
                    played = checked_playout(state, rng)
                else:
                    played = state.random_playout(rng)
                results.append((played, state.rng.state, state.scores()))
            played_count[path] += len(starts)
            spent[path] += time.process_time() - t0
            for j, end in enumerate(results):
                if path == "checked":
                    ends[j] = end
                    decisions += end[0]
                elif ends[j] != end:
                    same = False
        k += 1
        if time.process_time() >= deadline:
            break
    return PlayoutBench(len(starts), played_count["checked"], spent["checked"],
                        played_count["fast"], spent["fast"],
                        decisions // max(1, played_count["checked"]), same)
