"""``thieves analyze``: a post-game review of a recorded game, or the calibration of its win chance.

    thieves analyze GAME.json [--budget mcts:200] [-j N] [--seed S] [--out review.json]
    thieves analyze --calibrate thiefs-market [--players 3] [--games 200] [--per-game 4]

The review's JSON is documented in docs/review.md; the calibration's figures too ("Calibration").
"""
from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..bots.review import DEFAULT_BUDGET, Progress, calibrate, review, write_map
from ..core.errors import ThievesError
from ..core.registry import load_game
from ..core.replay import Replay
from .simulate import _progress


def add_parser(sub: Any) -> None:
    sp = sub.add_parser("analyze", help="post-game review: each seat's win chance and mistakes, by the search")
    sp.add_argument("file", nargs="?", help="a replay file (thieves-replay/1, as `play --save` or the "
                                            "server's replay.json write it)")
    sp.add_argument("--budget", default=f"mcts:{DEFAULT_BUDGET}",
                    help=f"search iterations per decision (default mcts:{DEFAULT_BUDGET})")
    sp.add_argument("--seed", type=int, default=0, help="the review's seed (same seed, same review)")
    sp.add_argument("-j", "--jobs", type=int, default=1, help="processes")
    sp.add_argument("--out", help="write the review (or the calibration) as JSON to this file")
    sp.add_argument("--calibrate", metavar="GAME",
                    help="instead of a review: the Brier score of the win chance over seeded "
                         "greedy-against-greedy games of GAME, against the fair-share constant")
    sp.add_argument("--players", type=int, default=3, help="--calibrate: players per game")
    sp.add_argument("--games", type=int, default=200, help="--calibrate: games")
    sp.add_argument("--per-game", type=int, default=4, help="--calibrate: sampled decisions per game")
    sp.add_argument("--write-map", action="store_true",
                    help="--calibrate: keep the fitted map in bots/review_calibration.json (the reviews use it)")
    sp.set_defaults(func=cmd_analyze)


def cmd_analyze(args: argparse.Namespace, console: Console) -> int:
    if args.jobs < 1:
        raise ThievesError(f"-j/--jobs must be at least 1, not {args.jobs}")
    if args.calibrate:
        return _calibrate(args, console)
    if not args.file:
        raise ThievesError("give a replay file to review (or --calibrate GAME)")
    replay = Replay.from_json(Path(args.file).read_bytes())
    load_game(replay.game)  # an unknown game says so before any work
    bar = _progress(console, console.is_terminal)
    if bar is not None:
        with bar:
            task = bar.add_task("reviewing", total=None)
            result = review(replay, args.budget, args.seed, args.jobs,
                            progress=lambda done, total: bar.update(task, completed=done, total=total))
    else:
        result = review(replay, args.budget, args.seed, args.jobs)
    text = json.dumps(result, indent=1)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")
        _summary(result, console)
        console.print(f"review written to {escape(args.out)}", highlight=False)
    else:
        print(text)
    return 0


def _summary(result: dict[str, Any], console: Console) -> None:
    t = Table(title=f"{result['game']}: review at {result['budget']} iterations per decision")
    for col in ("seat", "decisions", "mean chance", "inaccuracies", "mistakes", "blunders", "worst moves"):
        t.add_column(col)
    for s in result["seats"]:
        chances = [d["chance"] for d in s["decisions"] if d["chance"] is not None]
        mean = f"{100 * sum(chances) / len(chances):.0f}%" if chances else "–"
        by_index = {d["index"]: d for d in s["decisions"]}
        worst = ", ".join(f"#{i + 1} {by_index[i]['played']} (better {by_index[i]['best']})" for i in s["worst"])
        t.add_row(escape(s["name"]), str(len(s["decisions"])), mean, str(s["marks"]["inaccuracy"]),
                  str(s["marks"]["mistake"]), str(s["marks"]["blunder"]), escape(worst) or "–")
    console.print(t)


def _calibrate(args: argparse.Namespace, console: Console) -> int:
    if args.games < 1 or args.per_game < 1:
        raise ThievesError("--games and --per-game must be at least 1")
    game = load_game(args.calibrate)
    if not game.min_players <= args.players <= game.max_players:
        raise ThievesError(f"{args.calibrate} is played by {game.min_players} to {game.max_players}")
    bar = _progress(console, console.is_terminal)

    def run(progress: Progress | None) -> dict[str, Any]:
        return calibrate(args.calibrate, args.players, args.games, args.per_game, args.budget,
                         args.seed, args.jobs, progress)

    if bar is not None:
        with bar:
            task = bar.add_task("calibrating", total=args.games)
            result = run(lambda done, total: bar.update(task, completed=done))
    else:
        result = run(None)
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    kept = write_map(result) if args.write_map else False
    r = result
    console.print(f"{r['game']}, {r['players']} players: {r['samples']} decisions of {r['games']} games at "
                  f"{r['budget']} iterations. Brier: fair share {_f(r['brier_fair_share'])}, search value "
                  f"{_f(r['brier_raw'])}; odd games ({r['test_samples']} decisions): fair share "
                  f"{_f(r['brier_fair_share_test'])}, search value {_f(r['brier_raw_test'])}, map fitted on the even "
                  f"games {_f(r['brier_heldout'])}; map {r['map']}", highlight=False)
    if args.write_map:
        console.print("map kept in bots/review_calibration.json" if kept else
                      "no map kept: on the odd games it did not beat the search's value as it is")
    return 0


def _f(x: float | None) -> str:
    return "–" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.4f}"
