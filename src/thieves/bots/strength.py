"""Strength benchmark: mcts against greedy in every game, seats rotated.

    python -m thieves.bots.strength --budget 0.1s --games 40 -j 2

Heads-up where a game allows two players, else one mcts among greedy bots at
the smallest table. Prints a Markdown table: mcts's win share with its 95%
Wilson interval, the fair share, mean scores and seconds. Not a test: the
figures depend on the budget, the number of games and (for time budgets) the
machine's speed, so say which when you quote them.
"""
from __future__ import annotations

import argparse
import sys
import time
from typing import Sequence

from ..core.registry import list_games, load_game
from .match import run_match


def table_size(slug: str) -> int:
    game = load_game(slug)
    return 2 if game.min_players <= 2 <= game.max_players else game.min_players


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m thieves.bots.strength", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--budget", default="0.1s", help="mcts budget per decision: 0.1s, 1s, 200...")
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--seed", type=int, default=1000)
    p.add_argument("-j", "--jobs", type=int, default=1)
    p.add_argument("--opponent", default="greedy")
    p.add_argument("games_list", nargs="*", metavar="GAME", help="games (default: all)")
    args = p.parse_args(argv)
    slugs = args.games_list or list_games()
    print(f"mcts:{args.budget} against {args.opponent}, {args.games} games per game, seats rotated\n")
    print("| game | table | mcts wins | win % | 95% interval | fair share | mean score mcts / "
          f"{args.opponent} | no winner | seconds |")
    print("|---|---|---|---|---|---|---|---|---|")
    for slug in slugs:
        n = table_size(slug)
        start = time.perf_counter()
        r = run_match(slug, [f"mcts:{args.budget}", args.opponent], games=args.games, players=n,
                      seed=args.seed, jobs=args.jobs)
        s = r.summary()
        m, g = s.entries
        lo, hi = m.share.interval
        table = "heads-up" if n == 2 else f"1 mcts + {n - 1} {args.opponent}"
        print(f"| {slug} | {table} | {m.share.wins:g}/{m.share.games} | {100 * m.share.rate:.0f}% | "
              f"{100 * lo:.0f}–{100 * hi:.0f}% | {100 / n:.0f}% | {m.scores.mean:.1f} / {g.scores.mean:.1f} | "
              f"{s.no_winner} | {time.perf_counter() - start:.0f} |", flush=True)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
