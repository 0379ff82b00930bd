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

import hashlib
import importlib
import importlib.util
import json
import os
import sys
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, Sequence, Union, cast

from ..core.errors import ThievesError
from ..core.registry import load_game
from ..core.rng import Rng
from . import Bot, BotFailed, bot_names, make_bot, play_game
from .fair import bot_seed
from .first import first_player, first_player_at_start
from .record import GameRecord as GameRecord  # also imported from here
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
            # one module per file: two bots.py files in different folders are two modules
            digest = hashlib.sha1(os.path.abspath(where).encode()).hexdigest()[:12]
            mod_name = f"thieves_user_bot_{os.path.splitext(os.path.basename(where))[0]}_{digest}"
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


def play_deal(task: tuple[Any, ...]) -> tuple[Any, list[int], list[Bot], int | None]:
    """Play game ``index`` of a match to its end: its final state, each seat's lineup
    entry and bot, and the seat that lost by forfeit (None for a game played to its end). The
    one way a game of a match is played, for ``simulate`` (:func:`play_one`) and
    ``playtest`` alike, so both measure the same games."""
    slug, bots, labels, n, seed0, index, options, forfeit = task
    game = load_game(slug)
    rotation = index % n
    deal = seed0 + index // n
    base = lineup_entries(len(bots), n)
    entries = [base[(s - rotation) % n] for s in range(n)]
    seats = [load_bot(bots[e], slug, bot_seed(deal, rotation, s, "bot")) for s, e in enumerate(entries)]
    state = game.new_game(n, deal, options)
    lost = None
    try:
        # seats deciding at once (a draft, hidden plans) decide in an order drawn from the deal:
        # in seat order a one-ply bot deciding last sees the step resolve in its search, and
        # the last seat won 44% of 3-player Thieves Den games (docs/thieves_den.md)
        play_game(state, seats, seed=bot_seed(deal, rotation, "views"),
                  order=Rng.from_seed(bot_seed(deal, rotation, "order")))
    except BotFailed as exc:
        if not forfeit:
            who = f"{game.name}, game {index + 1} of the match (deal {deal}): {labels[entries[exc.seat]]!r},"
            raise BotFailed(exc.seat, exc.move, exc.problem, who) from None
        lost = exc.seat
    return state, entries, seats, lost


def play_one(task: tuple[Any, ...]) -> GameRecord:
    """Play game ``index`` of a match (run in worker processes too)."""
    slug, bots, labels, n, seed0, index, options, forfeit = task
    state, entries, seats, lost = play_deal(task)
    game = state.game
    rotation, deal = index % n, seed0 + index // n
    first = first_player(state)
    # a forfeit: the failing seat loses, every other seat shares the win
    winners = list(state.winners()) if lost is None else [s for s in range(n) if s != lost]
    return GameRecord(index, deal, rotation, [labels[e] for e in entries], entries,
                      [float(x) for x in state.scores()], winners, len(state.history),
                      first, dict(options or {}), seat_uses(state, game.usage_events),
                      [search_effort(bot) for bot in seats], lost)


def search_effort(bot: Bot) -> dict[str, float] | None:
    """A search bot's totals over one game (None for a bot that keeps no ``searches``)."""
    searches = getattr(bot, "searches", None)
    if searches is None:
        return None
    return {"decisions": float(len(searches)), "iterations": float(sum(searches))}


def run_match(game: str, bots: Sequence[BotSpec], games: int = 100, players: int | None = None,
              seed: int = 0, options: dict[str, Any] | None = None, jobs: int = 1,
              ray_address: str | bool | None = False,
              progress: Callable[[int], None] | None = None,
              done: Sequence[GameRecord] = (),
              on_record: Callable[[GameRecord], None] | None = None,
              forfeit: bool = False) -> MatchResult:
    """Play ``games`` seeded games of ``game`` between ``bots`` with seats rotated.

    ``players`` defaults to one per bot; with fewer bots than players the last bot
    fills the other seats (``["mcts", "greedy"]`` at 4 players: one mcts, three
    greedy). ``jobs`` > 1 plays on that many worker processes; ``ray_address``
    (``True`` or ``None`` for a local Ray, or ``"host:port"``) plays on Ray.
    ``on_record(record)`` is called as each game ends (to save it at once), then
    ``progress(k)`` with the number of games finished. ``done`` holds records of
    this match already played (read back from a file): those games are not played
    again, and a record of another match is refused. A bot that fails (an exception or
    an illegal answer) stops the match with :class:`~thieves.bots.BotFailed` naming the
    game, the bot, its seat and the move, the records of the games already ended kept;
    with ``forfeit`` it loses that game instead (``GameRecord.forfeit``) and the match goes on.
    """
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ThievesError(f"the number of worker processes must be at least 1, not {jobs!r}")
    n = check_match(game, bots, games, players)
    opts = dict(options or {})
    load_game(game).new_game(n, seed, opts)  # bad options fail here, clearly
    labels = unique_labels(bots)
    check_done(done, labels, n, games, seed, opts, game)
    played = {r.index for r in done}
    tasks = [(game, list(bots), labels, n, seed, g, opts, forfeit) for g in range(games) if g not in played]
    records = list(done)

    def finished(record: GameRecord) -> None:
        records.append(record)
        if on_record:
            on_record(record)
        if progress:
            progress(len(records))

    if progress and records:
        progress(len(records))
    if ray_address is not False:
        _run_ray(tasks, ray_address, finished)
    elif jobs > 1 and len(tasks) > 1:
        _run_pool(tasks, jobs, finished)
    else:
        for t in tasks:
            finished(play_one(t))
    records.sort(key=lambda r: r.index)
    return MatchResult(game, labels, n, opts, records)


def options_key(slug: str, options: dict[str, Any]) -> str:
    """The options of a game with every default filled in, as text to compare."""
    return json.dumps(load_game(slug).resolve_options(options), sort_keys=True, default=str)


def check_done(done: Sequence[GameRecord], labels: Sequence[str], n: int, games: int, seed: int,
               options: dict[str, Any], slug: str) -> None:
    """Refuse records that are not games of this match (see :func:`run_match`)."""
    seen: set[int] = set()
    base = lineup_entries(len(labels), n)
    want_options = options_key(slug, options)
    for r in done:
        g = r.index
        if g in seen:
            raise ThievesError(f"game {g} is recorded twice")
        seen.add(g)
        if g >= games:
            raise ThievesError(f"the records hold game {g}, but this match plays {games} games "
                               f"(numbered from 0): ask for at least {g + 1}")
        lineup = [labels[base[(s - g % n) % n]] for s in range(n)]
        if r.seed != seed + g // n or r.rotation != g % n or r.lineup != lineup:
            raise ThievesError(f"game {g} of the records was deal {r.seed} with {', '.join(r.lineup)}; "
                               f"this match deals {seed + g // n} to {', '.join(lineup)}: the records "
                               "are from another match (other bots, players or --seed)")
        if options_key(slug, r.options) != want_options:
            raise ThievesError(f"game {g} of the records was played with options {r.options}, "
                               f"not {options}")


def _run_pool(tasks: list[tuple[Any, ...]], jobs: int, finished: Callable[[Any], None],
              work: Callable[[tuple[Any, ...]], Any] = play_one) -> None:
    """``work`` each task on ``jobs`` processes, ``finished`` called with each result as it comes."""
    pool = ProcessPoolExecutor(max_workers=jobs)
    futures: list[Future[Any]] = []
    try:
        futures.extend(pool.submit(work, t) for t in tasks)
        for fut in as_completed(futures):
            finished(fut.result())
    except BaseException:
        # stopped (Ctrl-C, a failed game): drop the queued games rather than play them out;
        # each is cancelled here, as shutdown's own cancelling may come after the
        # worker threads took the next ones
        for f in futures:
            f.cancel()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()


def _run_ray(tasks: list[tuple[Any, ...]], address: str | bool | None,
             finished: Callable[[GameRecord], None]) -> None:
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
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for record in ray.get(ready):
                finished(record)
    finally:
        if started:
            ray.shutdown()


class RecordWriter:
    """Writes game records to a file one by one as games end, so a run that stops
    keeps what it played: a JSON line (``.jsonl``/``.json``) or a CSV row per game.

    ``append`` adds to an existing JSON Lines file (to resume a match). A CSV row gives
    each seat's components used as JSON, ``{category: {name: uses}}``, named by
    ``names`` (the game's names, :func:`.usage.item_names`; an id without a name stays
    its id)."""

    def __init__(self, path: str, num_players: int, append: bool = False,
                 names: Mapping[tuple[str, str], str] | None = None) -> None:
        if not path.endswith((".jsonl", ".json", ".csv")):
            raise ThievesError(f"records go to a .jsonl or .csv file, not {path!r}")
        if append and path.endswith(".csv"):
            raise ThievesError("records are added to a .jsonl file only, not to a .csv table")
        self.path, self.count, self.names = path, 0, dict(names or {})
        self._csv = path.endswith(".csv")
        if append:
            _drop_cut_line(path)
        self._fh = open(path, "a" if append else "w", newline="" if self._csv else None, encoding="utf-8")
        if self._csv:
            import csv
            self._writer = csv.writer(self._fh)
            head = ["index", "seed", "rotation", "options", "decisions", "no_winner", "first_player"]
            for s in range(1, num_players + 1):
                head += [f"seat{s}_bot", f"seat{s}_score", f"seat{s}_win", f"seat{s}_uses"]
            self._writer.writerow(head)

    def write(self, r: GameRecord) -> None:
        if self._csv:
            row: list[Any] = [r.index, r.seed, r.rotation, json.dumps(r.options, sort_keys=True),
                              r.decisions, int(r.no_winner), "" if r.first_player is None else r.first_player + 1]
            for s in range(len(r.lineup)):
                share = 1.0 / len(r.winners) if s in r.winners else 0.0
                uses = r.uses[s] if s < len(r.uses) else {}
                row += [r.lineup[s], r.scores[s], share, json.dumps(
                    {c: {self.names.get((c, i), i): k for i, k in sorted(ids.items())}
                     for c, ids in sorted(uses.items())}, ensure_ascii=False)]
            self._writer.writerow(row)
        else:
            self._fh.write(json.dumps(r.as_dict(), sort_keys=True) + "\n")
        self._fh.flush()
        self.count += 1

    def close(self) -> None:
        self._fh.close()

    def __enter__(self) -> "RecordWriter":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _drop_cut_line(path: str) -> None:
    """Cut a last line left without its newline (a write that never finished, which
    :func:`read_records` drops) so that appended records start on a line of their own."""
    if not os.path.exists(path):
        return
    with open(path, "rb+") as fh:
        data = fh.read()
        if data and not data.endswith(b"\n"):
            fh.truncate(data.rfind(b"\n") + 1)


def write_records(records: Iterable[GameRecord], path: str) -> int:
    """Write one line (JSON Lines, ``.jsonl``/``.json``) or row (``.csv``) per game."""
    records = list(records)
    with RecordWriter(path, max((len(r.lineup) for r in records), default=0)) as out:
        for r in records:
            out.write(r)
    return len(records)


def read_records(path: str, slug: str | None = None) -> list[GameRecord]:
    """The records of a ``.jsonl`` file written by :class:`RecordWriter`.

    With the game's ``slug``, an old record's first player (the seat that made the first
    decision) is recomputed as the rules define it, from the record's deal.

    A last line cut short (the run was killed while writing it) is dropped: that
    game is played again. Any other line that is not a record is an error."""
    if not path.endswith((".jsonl", ".json")):
        raise ThievesError(f"records are read back from a .jsonl file, not {path!r}")
    with open(path, encoding="utf-8") as fh:
        lines = fh.read().split("\n")
    out: list[GameRecord] = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            out.append(GameRecord.from_dict(json.loads(line)))
        except ValueError as exc:  # JSONDecodeError is a ValueError
            if number == len(lines):  # no newline after it: a write that never finished
                break
            raise ThievesError(f"{path}, line {number}: {exc}") from None
    return [upgrade_first(r, slug) for r in out] if slug else out


def upgrade_first(record: GameRecord, slug: str) -> GameRecord:
    """``record`` with its first player as the rules define it: an old record's (the seat
    that made the first decision) is recomputed from its deal; a game without a rule for
    it keeps the first decision's seat, which is then that rule."""
    if record.first_by == "rules":
        return record
    first = first_player_at_start(slug, len(record.lineup), record.seed, record.options)
    record.first_player = record.first_player if first is None else first
    record.first_by = "rules"
    return record


__all__ = ["run_match", "play_one", "play_deal", "load_bot", "GameRecord", "MatchResult", "write_records",
           "read_records", "upgrade_first", "RecordWriter", "check_done", "options_key",
           "lineup_entries", "BotSpec"]
