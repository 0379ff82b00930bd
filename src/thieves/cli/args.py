"""The arguments the ``thieves`` commands share, and how they are read."""
from __future__ import annotations

import argparse
import json
from typing import Any

from ..core.errors import ThievesError

#: the longest measurement ``bench --seconds`` accepts (a day)
MAX_SECONDS = 86_400.0


def seconds(text: str) -> float:
    """An argparse type: a duration in seconds, above 0 and at most :data:`MAX_SECONDS`
    (``-1``, ``0``, ``nan`` and ``inf`` are refused with exit code 2)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 < value <= MAX_SECONDS:   # false for nan too
        raise argparse.ArgumentTypeError(
            f"{text} seconds: give a duration above 0 and at most {MAX_SECONDS:,.0f} (a day)")
    return value


def game_options(args: argparse.Namespace) -> dict[str, Any]:
    """The game options of ``--option NAME=VALUE`` (JSON values, else text) and ``--data-dir``."""
    opts: dict[str, Any] = {}
    for item in getattr(args, "option", None) or []:
        if "=" not in item:
            raise ThievesError(f"option {item!r} must look like name=value")
        key, value = item.split("=", 1)
        if len(value) > 10_000 or value.count("[") + value.count("{") > 32:
            raise ThievesError(f"option {key!r}: the value is too large or nested too deep")
        try:
            opts[key] = json.loads(value)
        except (json.JSONDecodeError, RecursionError):
            opts[key] = value
    if getattr(args, "data_dir", None):
        opts["data_dir"] = args.data_dir
    return opts


def game_args(sp: argparse.ArgumentParser) -> None:
    """The arguments of a command that starts games: slug, players, seed, options, data."""
    sp.add_argument("game", help="game slug, e.g. thiefs-market")
    sp.add_argument("--players", type=int, default=None, help="number of players")
    sp.add_argument("--seed", type=int, default=0)
    sp.add_argument("--option", "-o", action="append", metavar="NAME=VALUE", help="game option")
    sp.add_argument("--data-dir", help="directory with your own component data files")
