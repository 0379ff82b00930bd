"""``thieves dataset GAME --games N --bots greedy,greedy,... --out FILE.parquet``: bot games as
per-decision records for learning (schema in docs/rl.md, "Datasets"; needs the ``rl`` extra)."""
from __future__ import annotations

import argparse
import time
from typing import Any, Callable

from rich.console import Console

from ..core.errors import ThievesError
from .args import game_options


def add_parser(sub: Any, game_args: Callable[[argparse.ArgumentParser], None]) -> None:
    sp = sub.add_parser("dataset", help="bot games as per-decision records in Parquet (rl extra)",
                        description=__doc__)
    game_args(sp)
    sp.add_argument("--bots", required=True, help="comma-separated bots, one per seat: greedy,greedy,random")
    sp.add_argument("--games", type=int, default=100, help="number of games (at least 1)")
    sp.add_argument("-j", "--jobs", type=int, default=1, help="worker processes (same file as 1)")
    sp.add_argument("--out", required=True, metavar="FILE.parquet")
    sp.set_defaults(func=cmd_dataset)


def cmd_dataset(args: argparse.Namespace, console: Console) -> int:
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    if args.players is not None and args.players != len(bots):
        raise ThievesError(f"--players {args.players} but {len(bots)} bots: give one bot per seat")
    if args.games < 1 or args.jobs < 1:
        raise ThievesError("--games and -j/--jobs must be at least 1")
    try:
        from ..rl.dataset import write_dataset
    except ImportError as exc:
        raise ThievesError(f"thieves dataset needs the rl extra: pip install 'thieves[rl]' ({exc})") from None
    start = time.perf_counter()
    try:
        rows = write_dataset(args.game, bots, args.games, args.out, args.seed, args.jobs, game_options(args))
    except ValueError as exc:
        raise ThievesError(str(exc)) from None
    took = time.perf_counter() - start
    console.print(f"{rows:,} decisions of {args.games} games written to {args.out} "
                  f"in {took:.1f} s ({rows / took:,.0f} decisions/s)", highlight=False)
    return 0
