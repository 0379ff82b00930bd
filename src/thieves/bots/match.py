"""Matches between bots: many seeded games with rotated seats, on one or many processes.

>>> from thieves.bots.match import run_match
>>> result = run_match("thieves-den", ["greedy", "random"], games=4, seed=1)
>>> result.summary().games
4

A bot is named as for :func:`thieves.bots.make_bot` (``random``, ``greedy``,
``mcts:200``...), as ``module:Class`` or ``path/to/file.py:Class`` (your own
bot class, built with ``Class(seed=...)``), or given as a class or factory
taking ``seed``. Bots always decide on fair views (:mod:`thieves.bots.fair`).

Game ``g`` of a match deals seed ``seed + g // n`` (``n`` players) with the
lineup rotated by ``g % n`` seats, so with a multiple of ``n`` games every deal
is played once from every seat. The same arguments give the same records on one
process, on ``jobs`` processes or on Ray (with iteration budgets: a time budget
depends on the machine's speed).
"""
from __future__ import annotations

import importlib
import importlib.util
import json
import os
import sys
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Iterable, Sequence, Union, cast

from ..core.errors import ThievesError
from ..core.registry import load_game
from . import Bot, bot_names, make_bot, play_game
from .fair import bot_seed
from .stats import MatchSummary, summarize
from .usage import seat_uses

#: a bot as a name, ``module:Class``, ``file.py:Class``, or a class / factory taking ``seed``
BotSpec = Union[str, Callable[..., Bot]]


def bot_label(spec: BotSpec) -> str:
    """Short name of a bot in tables: ``mcts:200`` stays, ``pkg.mod:MyBot`` becomes ``MyBot``."""
    if isinstance(spec, str):
        right = spec.rpartition(":")[2]
        return right if ":" in spec and right.isidentifier() else spec
    return getattr(spec, "__name__", type(spec).__name__)


def load_bot(spec: BotSpec, slug: str, seed: int = 0) -> Bot:
    """Build one bot for game ``slug`` from a :data:`BotSpec`."""
    if not isinstance(spec, str):
        return spec(seed=seed)
    base = spec.split(":", 1)[0]
    if ":" not in spec or base in bot_names(slug) or base in ("random", "mcts"):
        return make_bot(spec, slug, seed)
    return _load_class(spec)(seed=seed)


def _load_class(spec: str) -> Callable[..., Bot]:
    where, _, name = spec.rpartition(":")
    try:
        if where.endswith(".py"):
            if not os.path.isfile(where):
                raise ThievesError(f"bot {spec!r}: no file {where!r}")
            mod_name = "thieves_user_bot_" + os.path.splitext(os.path.basename(where))[0]
            module = sys.modules.get(mod_name)
            if module is None:
                loader = importlib.util.spec_from_file_location(mod_name, where)
                assert loader is not None and loader.loader is not None
                module = importlib.util.module_from_spec(loader)
                sys.modules[mod_name] = module
                loader.loader.exec_module(module)
        else:
            if os.getcwd() not in sys.path and "" not in sys.path:
                sys.path.insert(0, os.getcwd())  # like ``python -m``: modules of the current folder
            module = importlib.import_module(where)
    except ImportError as exc:
        raise ThievesError(f"bot {spec!r}: cannot import {where!r} ({exc})") from None
    cls = getattr(module, name, None)
    if cls is None or not callable(cls):
        raise ThievesError(f"bot {spec!r}: {where!r} has no class {name!r}")
    return cast(Callable[..., Bot], cls)


@dataclass
class GameRecord:
    """One game of a match, enough to recompute every statistic."""

    index: int
    seed: int
    rotation: int
    #: bot label of every seat
    lineup: list[str]
    #: lineup entry (index into the match's labels) of every seat
    entries: list[int]
    scores: list[float]
    winners: list[int]
    decisions: int
    #: the seat that made the first decision
    first_player: int | None
    options: dict[str, Any] = field(default_factory=dict)
    #: per seat, the components it used: category -> id -> uses (:mod:`.usage`)
    uses: list[dict[str, dict[str, int]]] = field(default_factory=list)

    @property
    def no_winner(self) -> bool:
        return not self.winners

    def as_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["no_winner"] = self.no_winner
        return d


@dataclass
class MatchResult:
    game: str
    labels: list[str]
    num_players: int
    options: dict[str, Any]
    records: list[GameRecord]

    def summary(self) -> MatchSummary:
        return summarize(self.records, self.labels)


def lineup_entries(num_entries: int, num_players: int) -> list[int]:
    """Entries seat by seat before rotation: one per seat, the last filling the table."""
    return [min(i, num_entries - 1) for i in range(num_players)]


def unique_labels(bots: Sequence[BotSpec]) -> list[str]:
    out: list[str] = []
    for b in bots:
        label = bot_label(b)
        k, new = 2, label
        while new in out:
            new, k = f"{label}#{k}", k + 1
        out.append(new)
    return out


def check_match(slug: str, bots: Sequence[BotSpec], games: int, players: int | None) -> int:
    """Validate a match's arguments; returns the number of players."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ThievesError(f"the number of games must be a whole number of at least 1, not {games!r}")
    if not bots:
        raise ThievesError("a match needs at least one bot")
    game = load_game(slug)
    n = players if players is not None else len(bots)
    if players is not None and (isinstance(players, bool) or not isinstance(players, int)):
        raise ThievesError(f"the number of players must be a whole number, not {players!r}")
    if not game.min_players <= n <= game.max_players:
        raise ThievesError(f"{game.name} is played by {game.min_players} to {game.max_players} players, "
                           f"not {n}" + ("" if players is not None else
                                         f" (one per bot given; use --players to fill the table)"))
    if len(bots) > n:
        raise ThievesError(f"{len(bots)} bots for {n} seats: give at most one bot per seat")
    for b in bots:
        load_bot(b, slug, 0)  # a bad name fails here, before any game is played
    return n


def play_one(task: tuple[Any, ...]) -> GameRecord:
    """Play game ``index`` of a match (run in worker processes too)."""
    slug, bots, labels, n, seed0, index, options = task
    game = load_game(slug)
    rotation = index % n
    deal = seed0 + index // n
    base = lineup_entries(len(bots), n)
    entries = [base[(s - rotation) % n] for s in range(n)]
    seats = [load_bot(bots[e], slug, bot_seed(deal, rotation, s, "bot")) for s, e in enumerate(entries)]
    state = game.new_game(n, deal, options)
    play_game(state, seats, seed=bot_seed(deal, rotation, "views"))
    first = state.history[0][0] if state.history else None
    return GameRecord(index, deal, rotation, [labels[e] for e in entries], entries,
                      [float(x) for x in state.scores()], list(state.winners()), len(state.history),
                      first, dict(options or {}), seat_uses(state, game.usage_events))


def run_match(game: str, bots: Sequence[BotSpec], games: int = 100, players: int | None = None,
              seed: int = 0, options: dict[str, Any] | None = None, jobs: int = 1,
              ray_address: str | bool | None = False,
              progress: Callable[[int], None] | None = None) -> MatchResult:
    """Play ``games`` seeded games of ``game`` between ``bots`` with seats rotated.

    ``players`` defaults to one per bot; with fewer bots than players the last bot
    fills the other seats (``["mcts", "greedy"]`` at 4 players: one mcts, three
    greedy). ``jobs`` > 1 plays on that many worker processes; ``ray_address``
    (``True`` or ``None`` for a local Ray, or ``"host:port"``) plays on Ray.
    ``progress(k)`` is called after each finished game with the number finished.
    """
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ThievesError(f"the number of worker processes must be at least 1, not {jobs!r}")
    n = check_match(game, bots, games, players)
    opts = dict(options or {})
    load_game(game).new_game(n, seed, opts)  # bad options fail here, clearly
    labels = unique_labels(bots)
    tasks = [(game, list(bots), labels, n, seed, g, opts) for g in range(games)]
    if ray_address is not False:
        records = _run_ray(tasks, ray_address, progress)
    elif jobs > 1 and games > 1:
        records = _run_pool(tasks, jobs, progress)
    else:
        records = []
        for t in tasks:
            records.append(play_one(t))
            if progress:
                progress(len(records))
    records.sort(key=lambda r: r.index)
    return MatchResult(game, labels, n, opts, records)


def _run_pool(tasks: list[tuple[Any, ...]], jobs: int, progress: Callable[[int], None] | None) -> list[GameRecord]:
    records: list[GameRecord] = []
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(play_one, t) for t in tasks]
        for fut in as_completed(futures):
            records.append(fut.result())
            if progress:
                progress(len(records))
    return records


def _run_ray(tasks: list[tuple[Any, ...]], address: str | bool | None,
             progress: Callable[[int], None] | None) -> list[GameRecord]:
    try:
        import ray
    except ModuleNotFoundError:
        raise ThievesError("--ray needs Ray: pip install 'thieves[ray]'") from None
    started = False
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {"ignore_reinit_error": True, "log_to_driver": False,
                                  "include_dashboard": False}
        if isinstance(address, str) and address:
            kwargs["address"] = address
        ray.init(**kwargs)
        started = True
    try:
        remote = ray.remote(play_one)
        pending = [remote.remote(t) for t in tasks]
        records: list[GameRecord] = []
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            records.extend(ray.get(done))
            if progress:
                progress(len(records))
        return records
    finally:
        if started:
            ray.shutdown()


def write_records(records: Iterable[GameRecord], path: str) -> int:
    """Write one line (JSON Lines, ``.jsonl``/``.json``) or row (``.csv``) per game."""
    records = list(records)
    if path.endswith(".csv"):
        import csv
        n = max((len(r.lineup) for r in records), default=0)
        head = ["index", "seed", "rotation", "options", "decisions", "no_winner", "first_player"]
        for s in range(1, n + 1):
            head += [f"seat{s}_bot", f"seat{s}_score", f"seat{s}_win"]
        with open(path, "w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh)
            w.writerow(head)
            for r in records:
                row: list[Any] = [r.index, r.seed, r.rotation, json.dumps(r.options, sort_keys=True),
                                  r.decisions, int(r.no_winner),
                                  "" if r.first_player is None else r.first_player + 1]
                for s in range(len(r.lineup)):
                    share = 1.0 / len(r.winners) if s in r.winners else 0.0
                    row += [r.lineup[s], r.scores[s], share]
                w.writerow(row)
    elif path.endswith(".jsonl") or path.endswith(".json"):
        with open(path, "w", encoding="utf-8") as fh:
            for r in records:
                fh.write(json.dumps(r.as_dict(), sort_keys=True) + "\n")
    else:
        raise ThievesError(f"records go to a .jsonl or .csv file, not {path!r}")
    return len(records)


__all__ = ["run_match", "play_one", "load_bot", "GameRecord", "MatchResult", "write_records",
           "lineup_entries", "BotSpec"]
