"""Strength benchmark: mcts against greedy in every game, seats rotated.

    python -m thieves.bots.strength --budget 0.1s --games 40 -j 2
    python -m thieves.bots.strength --matrix random,greedy,mcts:0.1s,mcts:1s --games 100 thieves-den

    python -m thieves.bots.strength --budget 1s --games 100 -j 2 --records docs/strength thiefdom

Heads-up where a game allows two players, else one mcts among greedy bots at
the smallest table. With ``--records DIR`` every match keeps its games in a
file of DIR as they end (``thiefdom--mcts-1s--greedy--2p--seed1000.jsonl``)
and goes on from the games already there, so a run of many hours can be
stopped and taken up again, on this machine or another of the same kind. Prints a Markdown table: mcts's win share with its 95%
Wilson interval, the fair share, mean scores and seconds. Not a test: the
figures depend on the budget, the number of games and (for time budgets) the
machine's speed, so say which when you quote them.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
import time
from dataclasses import dataclass
from typing import Sequence

from ..core.errors import ThievesError
from ..core.registry import list_games, load_game
from .match import MatchResult, RecordWriter, read_records, run_match, unique_labels
from .stats import Share


def table_size(slug: str) -> int:
    game = load_game(slug)
    return 2 if game.min_players <= 2 <= game.max_players else game.min_players


def records_file(slug: str, bots: Sequence[str], players: int, seed: int) -> str:
    """The file name of a match's records: ``slug--bot--bot--Np--seedS.jsonl``."""
    names = [re.sub(r"[^A-Za-z0-9.]+", "-", label) for label in unique_labels(bots)]
    return f"{slug}--{'--'.join(names)}--{players}p--seed{seed}.jsonl"


def play_match(slug: str, bots: Sequence[str], games: int, players: int, seed: int = 1000, jobs: int = 1,
               records: str | None = None) -> MatchResult:
    """:func:`run_match`; with ``records`` (a folder) the games are kept in its file
    as they end, and the games already there are not played again."""
    if records is None:
        return run_match(slug, list(bots), games=games, players=players, seed=seed, jobs=jobs)
    os.makedirs(records, exist_ok=True)
    path = os.path.join(records, records_file(slug, bots, players, seed))
    done = [r for r in read_records(path, slug) if r.index < games] if os.path.exists(path) else []
    if len(done) < games and any(r.order != "dealt" for r in done):
        # seats deciding at once took turns in seat order in older records (match.GameRecord.order)
        raise ThievesError(f"{path} holds games played with seats deciding at once in seat order; "
                           "playing the missing ones now would mix two orders: use another folder")
    with RecordWriter(path, players, append=True) as out:
        return run_match(slug, list(bots), games=games, players=players, seed=seed, jobs=jobs, done=done,
                         on_record=out.write)


@dataclass(frozen=True)
class Matrix:
    """Win shares of every bot against every other in one game: ``cells[(a, b)]`` is
    ``a``'s share in the games of one ``a`` against ``b`` (``b`` in every other seat)."""
    slug: str
    players: int
    bots: tuple[str, ...]
    cells: dict[tuple[str, str], Share]

    def markdown(self) -> str:
        """The matrix as a Markdown table: row bot's win share against the column bot."""
        head = "| row wins against column | " + " | ".join(self.bots) + " |"
        lines = [head, "|---" * (len(self.bots) + 1) + "|"]
        for a in self.bots:
            row = []
            for b in self.bots:
                c = self.cells.get((a, b))
                if c is None:
                    row.append("–")
                else:
                    lo, hi = c.interval
                    row.append(f"{100 * c.rate:.0f}% ({100 * lo:.0f}–{100 * hi:.0f}) of {c.games}")
            lines.append(f"| {a} | " + " | ".join(row) + " |")
        return "\n".join(lines)


def strength_matrix(slug: str, bots: Sequence[str], games: int, seed: int = 1000,
                    jobs: int = 1, records: str | None = None) -> Matrix:
    """Every pair of ``bots`` in ``slug`` (heads-up where the game allows it, else one
    against a full table of the other), ``games`` games per pairing, seats rotated.
    Heads-up, one match gives both cells of a pair."""
    n = table_size(slug)
    cells: dict[tuple[str, str], Share] = {}
    for i, a in enumerate(bots):
        for j, b in enumerate(bots):
            if a == b or (a, b) in cells or (n == 2 and j < i):
                continue
            s = play_match(slug, [a, b], games, n, seed, jobs, records).summary()
            cells[(a, b)] = s.entries[0].share
            if n == 2:
                cells[(b, a)] = s.entries[1].share
    return Matrix(slug, n, tuple(bots), cells)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m thieves.bots.strength", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--budget", default="0.1s", help="mcts budget per decision: 0.1s, 1s, 200...")
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--seed", type=int, default=1000)
    p.add_argument("-j", "--jobs", type=int, default=1)
    p.add_argument("--opponent", default="greedy")
    p.add_argument("--matrix", metavar="BOTS",
                   help="comma-separated bots (e.g. random,greedy,mcts:0.1s,mcts:1s): print the "
                        "win matrix of every pair instead of mcts against the opponent")
    p.add_argument("--records", metavar="DIR",
                   help="keep each match's games in a .jsonl file of DIR as they end, and go on from "
                        "the games already there")
    p.add_argument("games_list", nargs="*", metavar="GAME", help="games (default: all)")
    args = p.parse_args(argv)
    slugs = args.games_list or list_games()
    if args.matrix:
        bots = [b.strip() for b in args.matrix.split(",") if b.strip()]
        if len(bots) < 2 or len(set(bots)) != len(bots):
            p.error("--matrix needs at least two different bots, separated by commas")
        for slug in slugs:
            matrix = strength_matrix(slug, bots, args.games, args.seed, args.jobs, args.records)
            n = matrix.players
            table = "heads-up" if n == 2 else f"one row bot among {n - 1} column bots"
            print(f"{slug} ({table}, {args.games} games a pairing, seats rotated, 95% Wilson intervals)\n")
            print(matrix.markdown() + "\n", flush=True)
        return 0
    print(f"mcts:{args.budget} against {args.opponent}, {args.games} games per game, seats rotated\n")
    print("| game | table | mcts wins | win % | 95% interval | fair share | mean score mcts / "
          f"{args.opponent} | no winner | iterations a decision | seconds |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for slug in slugs:
        n = table_size(slug)
        start = time.perf_counter()
        r = play_match(slug, [f"mcts:{args.budget}", args.opponent], args.games, n, args.seed, args.jobs,
                       args.records)
        s = r.summary()
        m, g = s.entries
        lo, hi = m.share.interval
        table = "heads-up" if n == 2 else f"1 mcts + {n - 1} {args.opponent}"
        print(f"| {slug} | {table} | {m.share.wins:g}/{m.share.games} | {100 * m.share.rate:.0f}% | "
              f"{100 * lo:.0f}–{100 * hi:.0f}% | {100 / n:.0f}% | {m.scores.mean:.1f} / {g.scores.mean:.1f} | "
              f"{s.no_winner} | {m.search.iterations_per_decision if m.search else 0:,.0f} | "
              f"{time.perf_counter() - start:.0f} |", flush=True)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
