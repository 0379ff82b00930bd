"""``thieves tournament``: many bots, seeded games, forfeits, OpenSkill ratings.

Prints one line per bot, the best first: games, wins (a shared win counts in part),
win share with its 95% Wilson interval, the OpenSkill rating ``mu ± 2 sigma`` and
its ordinal ``mu - 3 sigma`` (the order of the table), and its forfeits; then every
forfeit with its game, seat, move and reason. ``--out`` writes all of it, every game
included, to a JSON file. The rules of the tournament: :mod:`thieves.bots.tournament`.
"""
from __future__ import annotations

import argparse
import json
from typing import Any, Callable

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..bots.tournament import FORMATS, Tournament, run_tournament


def add_parser(sub: Any, game_args: Callable[[argparse.ArgumentParser], None]) -> None:
    sp = sub.add_parser("tournament", help="many bots, seeded games with seats rotated: ratings, forfeits")
    game_args(sp)
    sp.add_argument("--bots", required=True,
                    help="comma-separated: random, greedy, mcts:100, pkg.module:Class, file.py:Class")
    sp.add_argument("--format", dest="fmt", choices=FORMATS, default="round-robin",
                    help="round-robin: every set of --players bots at one table; swiss: tables by "
                         "rating each round")
    sp.add_argument("--games-per-pairing", type=int, default=None, metavar="N",
                    help="games at each table (each round, in swiss), rounded up to a multiple of the "
                         "players so every bot plays every seat equally (default: 2 x players)")
    sp.add_argument("--rounds", type=int, default=5, metavar="N", help="swiss: rounds (default 5)")
    sp.add_argument("--move-time", type=float, default=60.0, metavar="SECONDS",
                    help="a bot that takes longer over one decision forfeits the game (default 60)")
    sp.add_argument("-j", "--jobs", type=int, default=1, help="worker processes (same results as -j 1)")
    sp.add_argument("--out", help="write the standings, forfeits and every game to this JSON file")
    sp.set_defaults(func=cmd_tournament)


def cmd_tournament(args: argparse.Namespace, console: Console, options: dict[str, Any]) -> int:
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=True) as bar:
        task = bar.add_task(f"{args.game} tournament", total=None)
        result = run_tournament(args.game, bots, args.fmt, args.games_per_pairing, args.rounds, args.players,
                                args.move_time, args.seed, options, args.jobs,
                                progress=lambda done, total: bar.update(task, completed=done, total=total))
    print_tournament(console, result)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            json.dump(result.as_dict(), fh, indent=1, sort_keys=True)
        console.print(f"standings, forfeits and {len(result.games)} games written to {escape(args.out)}",
                      highlight=False)
    return 0


def print_tournament(console: Console, result: Tournament) -> None:
    what = f"{result.format}" + (f", {1 + max(g.round for g in result.games)} rounds"
                                 if result.format == "swiss" and result.games else "")
    console.print(f"[bold]{escape(result.game)}: {len(result.games)} games at {result.players} players "
                  f"({escape(what)}, seed {result.seed})[/bold]", highlight=False)
    t = Table(show_edge=False, pad_edge=False)
    for name, right in (("bot", False), ("games", True), ("wins", True), ("win % [95% CI]", True),
                        ("μ ± 2σ", True), ("μ − 3σ", True), ("forfeits", True)):
        t.add_column(name, justify="right" if right else "left", no_wrap=True)
    for s in result.standings():
        lo, hi = s.win_interval
        t.add_row(escape(s.bot), str(s.games), f"{s.wins:g}",
                  f"{100 * s.win_share:.1f} [{100 * lo:.0f}–{100 * hi:.0f}]",
                  f"{s.mu:.1f} ± {2 * s.sigma:.1f}", f"{s.ordinal:.1f}", str(s.forfeits))
    console.print(t)
    fails = result.failures()
    if fails:
        console.print(f"[bold]{len(fails)} forfeits[/bold] (the random bot finished those games in the seat)",
                      highlight=False)
        for f in fails[:20]:
            console.print(f"  game {f['game'] + 1}: {escape(f['bot'])} in seat {f['seat'] + 1}, move {f['move']}: "
                          f"{f['reason']} ({escape(f['detail'])})", highlight=False)
        if len(fails) > 20:
            console.print(f"  ... and {len(fails) - 20} more (all of them with --out)", highlight=False)
