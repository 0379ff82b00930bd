"""Tournaments between many bots: seeded games, forfeits, ratings with intervals.

>>> from thieves.bots.tournament import run_tournament
>>> t = run_tournament("thieves-den", ["random", "greedy"], games_per_pairing=2, seed=1)
>>> [s.games for s in t.standings()]
[2, 2]

Bots are named as everywhere else (:func:`thieves.bots.match.load_bot`: ``random``,
``greedy``, ``mcts:200``, ``pkg.module:Class``, ``file.py:Class``). Every bot decides on
fair views (:func:`thieves.bots.fair.choose_fairly`), never on the real state.

Formats
    ``round-robin``: every set of ``players`` bots sits at one table (every pair of bots at
    two players) and plays ``games_per_pairing`` games there, rounded up to a multiple of
    ``players``: each deal is played once with the lineup rotated by every seat, so every
    bot plays every seat equally often. ``swiss``: ``rounds`` rounds; before each, the bots
    are ordered by their rating so far (the ordinal, ``mu - 3 sigma``) and seated by that
    order in tables of ``players`` (near neighbours play each other); where the bots do not
    fill the last table, the ones that sat out least (the lowest placed first) sit out.

Forfeits
    A bot that raises (``SystemExit`` too), answers an illegal action or takes longer than
    ``move_time`` seconds over one decision forfeits that game: it is ranked below every
    other seat whatever its score and cannot win, and the game is played to its end with
    the random bot in its seat (so the others' game still counts). The failure is recorded with the bot's name,
    seat, move number and reason (:class:`Failure`); a bot class that fails to build
    forfeits at move 0. Nothing a bot does stops the tournament.

    The time limit: on POSIX, in the main thread (as with ``jobs=1`` and in every worker
    process of ``jobs > 1``), a decision is interrupted when its time is up (``SIGALRM``),
    so a bot stuck in a Python loop or a ``sleep`` forfeits; elsewhere, and for a bot stuck
    in C code that never returns to Python, the time is only checked when the bot answers.
    The time counted includes the fair view's copy (milliseconds).

Seeds and processes
    Game ``i`` deals a seed drawn from (``seed``, table, deal number) and the bots' seeds
    from the deal, the rotation and the seat, so the same arguments give the same games on
    one process or ``jobs`` processes; the ratings are updated in game order. A forfeit for
    time depends on the machine's speed: keep ``move_time`` well above the bots' needs
    (iteration budgets, ``mcts:300``, rather than time budgets) for results that repeat.

Ratings
    OpenSkill's Plackett-Luce model (``pip install 'thieves[tournament]'``): each game is a
    ranking of its seats (winners first, then by score, forfeits last); ``mu`` is the skill
    estimate, ``sigma`` its uncertainty (``mu +- 2 sigma`` covers about 95%), the
    ordinal ``mu - 3 sigma`` a cautious estimate used to order the table.
"""
from __future__ import annotations

import math
import signal
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from itertools import combinations
from typing import Any, Callable, Iterator, Sequence

from ..core.errors import ThievesError
from ..core.registry import load_game
from ..core.rng import Rng
from .base import Bot, RandomBot
from .fair import bot_seed, choose_fairly
from .match import BotSpec, load_bot, unique_labels
from .stats import wilson

FORMATS = ("round-robin", "swiss")
#: one game to play: ``(index, round, entries by seat, deal, rotation)``
Slot = tuple[int, int, list[int], int, int]
#: what a failure was: an exception, an illegal answer, a decision over the time limit
REASONS = ("exception", "illegal", "time")
#: the most decisions a game may take before the tournament gives up on it
MAX_DECISIONS = 1_000_000


class MoveTimeout(BaseException):
    """Raised inside a bot whose decision ran out of time (a BaseException, so that a
    bot's own ``except Exception`` does not swallow it)."""


@dataclass
class Failure:
    """A bot's forfeit: who (``bot``, ``seat`` from 0), when (``move``: the number of the
    decision it was asked for, from 1; 0 when the bot could not even be built), why
    (``reason``, one of :data:`REASONS`) and what it said (``detail``)."""

    bot: str
    seat: int
    move: int
    reason: str
    detail: str


@dataclass
class TableGame:
    """One game of a tournament, enough to recompute every figure."""

    index: int
    round: int
    #: the game's deal (its seed) and which rotation of the table's lineup it is
    deal: int
    rotation: int
    #: bot label and entry (index into the tournament's bots) of every seat
    lineup: list[str]
    entries: list[int]
    scores: list[float]
    #: every seat's place, 1 the best (shared places share a number); forfeits last
    ranks: list[int]
    #: the seats that won (forfeiting seats never do)
    winners: list[int]
    decisions: int
    failures: list[Failure] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Standing:
    """One bot's line in the table."""

    bot: str
    games: int
    wins: float
    win_share: float
    win_interval: tuple[float, float]
    mu: float
    sigma: float
    forfeits: int
    failures: dict[str, int]

    @property
    def ordinal(self) -> float:
        """The cautious estimate ``mu - 3 sigma`` the table is ordered by."""
        return self.mu - 3 * self.sigma

    def as_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["win_interval"] = list(self.win_interval)
        d["ordinal"] = self.ordinal
        return d


@dataclass
class Tournament:
    game: str
    format: str
    bots: list[str]
    labels: list[str]
    players: int
    seed: int
    move_time: float | None
    options: dict[str, Any]
    games: list[TableGame]

    def standings(self) -> list[Standing]:
        """Every bot, the best first (by rating ordinal, then label)."""
        ratings = rate(self.games, len(self.labels))
        rows = []
        for e, label in enumerate(self.labels):
            mine = [(g, g.entries.index(e)) for g in self.games if e in g.entries]
            wins = sum(1 / len(g.winners) for g, s in mine if s in g.winners)
            fails = [f for g, s in mine for f in g.failures if f.seat == s]
            by_reason = {r: sum(f.reason == r for f in fails) for r in REASONS}
            n = len(mine)
            mu, sigma = ratings[e]
            rows.append(Standing(label, n, wins, wins / n if n else 0.0, wilson(min(wins, n), n),
                                 mu, sigma, len(fails), by_reason))
        return sorted(rows, key=lambda r: (-r.ordinal, r.bot))

    def failures(self) -> list[dict[str, Any]]:
        """Every forfeit with the game it happened in."""
        return [{"game": g.index, "deal": g.deal, **asdict(f)} for g in self.games for f in g.failures]

    def as_dict(self) -> dict[str, Any]:
        return {"game": self.game, "format": self.format, "bots": self.bots, "labels": self.labels,
                "players": self.players, "seed": self.seed, "move_time": self.move_time,
                "options": self.options, "rating": "openskill PlackettLuce",
                "standings": [s.as_dict() for s in self.standings()],
                "failures": self.failures(), "games": [g.as_dict() for g in self.games]}


def _model() -> Any:
    try:
        from openskill.models import PlackettLuce
    except ModuleNotFoundError:
        raise ThievesError("tournament ratings need OpenSkill: pip install 'thieves[tournament]'") from None
    return PlackettLuce()


def rate(games: Sequence[TableGame], entries: int) -> list[tuple[float, float]]:
    """Every entry's OpenSkill rating ``(mu, sigma)`` after ``games``, taken in game order."""
    model = _model()
    ratings = [model.rating() for _ in range(entries)]
    for g in sorted(games, key=lambda g: g.index):
        teams = [[ratings[e]] for e in g.entries]
        for e, team in zip(g.entries, model.rate(teams, ranks=list(g.ranks))):
            ratings[e] = team[0]
    return [(float(r.mu), float(r.sigma)) for r in ratings]


def places(scores: Sequence[float], winners: Sequence[int], forfeits: set[int]) -> list[int]:
    """Each seat's place, 1 the best: forfeits last, then winners first, then by score.

    >>> places([10, 30, 20], [1], set())
    [3, 1, 2]
    >>> places([10, 30, 20], [1], {1})
    [2, 3, 1]
    """
    keys = [(s in forfeits, s not in winners, -scores[s]) for s in range(len(scores))]
    return [1 + sum(other < key for other in keys) for key in keys]


# -- playing one game -------------------------------------------------------------------

@contextmanager
def _deadline(seconds: float | None) -> Iterator[None]:
    """Interrupt the block with :class:`MoveTimeout` after ``seconds`` where a timer signal
    can (POSIX, main thread); elsewhere do nothing (the time is checked afterwards)."""
    if seconds is None or not hasattr(signal, "setitimer") or \
            threading.current_thread() is not threading.main_thread():
        yield
        return

    def ring(signum: int, frame: Any) -> None:
        raise MoveTimeout()

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _decide(bot: Bot, state: Any, seat: int, views: int, move_time: float | None) -> tuple[str, str]:
    """``(action, "")`` or ``("", problem)`` with the problem's reason first."""
    start = time.perf_counter()
    try:
        with _deadline(move_time):
            action = choose_fairly(bot, state, seat, views)
    except MoveTimeout:
        return "", f"time: no answer within {move_time:g} s"
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - a bot's bug forfeits its game, nothing more
        return "", f"exception: {type(exc).__name__}: {str(exc)[:300]}"
    took = time.perf_counter() - start
    if move_time is not None and took > move_time:
        return "", f"time: answered after {took:.2f} s, over the {move_time:g} s limit"
    return action, ""


def play_table_game(task: tuple[Any, ...]) -> TableGame:
    """Play one game of a tournament (in worker processes too); see the module docstring."""
    slug, specs, labels, index, round_, entries, deal, rotation, options, move_time = task
    n = len(entries)
    failures: list[Failure] = []
    seats: list[Bot] = []
    for s, e in enumerate(entries):
        try:
            seats.append(load_bot(specs[e], slug, bot_seed(deal, rotation, s, "bot")))
        except (Exception, SystemExit) as exc:  # noqa: BLE001 - a class that cannot be built forfeits
            failures.append(Failure(labels[e], s, 0, "exception",
                                    f"could not be built: {type(exc).__name__}: {str(exc)[:300]}"))
            seats.append(RandomBot(seed=bot_seed(deal, rotation, s, "stand-in")))
    state = load_game(slug).new_game(n, deal, options)
    order = Rng.from_seed(bot_seed(deal, rotation, "order"))
    views = bot_seed(deal, rotation, "views")
    decisions = 0
    while not state.is_terminal():
        to_act = state.players_to_act()
        p = to_act[0] if len(to_act) == 1 else to_act[order.below(len(to_act))]
        action, problem = _decide(seats[p], state, p, views, move_time)
        if not problem:
            try:
                state.apply_action(p, action)
            except Exception as exc:  # noqa: BLE001 - IllegalAction, or an answer that is no action
                problem = f"illegal: {str(action)[:100]!r}: {type(exc).__name__}: {str(exc)[:300]}"
        if problem:
            reason, _, detail = problem.partition(": ")
            failures.append(Failure(labels[entries[p]], p, state.ply + 1, reason, detail))
            seats[p] = RandomBot(seed=bot_seed(deal, rotation, p, "stand-in"))
            continue
        decisions += 1
        if decisions > MAX_DECISIONS:
            raise ThievesError(f"{slug}: game {index + 1} (deal {deal}) did not end after "
                               f"{MAX_DECISIONS} decisions")
    lost = {f.seat for f in failures}
    scores = [float(x) for x in state.scores()]
    ranks = places(scores, list(state.winners()), lost)
    winners = [s for s in state.winners() if s not in lost]
    if not winners and state.winners():  # every winner forfeited: the best of the others win
        winners = [s for s in range(n) if ranks[s] == 1]
    return TableGame(index, round_, deal, rotation, [labels[e] for e in entries], list(entries),
                     scores, ranks, winners, decisions, failures)


# -- schedules --------------------------------------------------------------------------

def deal_seed(seed: int, table: Sequence[int], round_: int, k: int) -> int:
    """The seed of deal ``k`` of ``table`` (its entries) in ``round_``: from public facts only."""
    return bot_seed(seed, "deal", round_, *table, k) % (2 ** 31)


def table_tasks(table: Sequence[int], round_: int, games: int, first_index: int,
                seed: int) -> list[Slot]:
    """The :data:`Slot` of ``games`` games at ``table``: whole deals, each played once from
    every seat."""
    n = len(table)
    out: list[Slot] = []
    for k in range(math.ceil(games / n)):
        deal = deal_seed(seed, table, round_, k)
        for r in range(n):
            entries = [table[(s - r) % n] for s in range(n)]
            out.append((first_index + len(out), round_, entries, deal, r))
    return out


def round_robin(entries: int, players: int, games: int, seed: int) -> list[Slot]:
    """Every set of ``players`` entries at one table, ``games`` games each (see :func:`table_tasks`)."""
    out: list[Slot] = []
    for table in combinations(range(entries), players):
        out += table_tasks(table, 0, games, len(out), seed)
    return out


def swiss_tables(order: Sequence[int], players: int, sat_out: Sequence[int]) -> list[list[int]]:
    """Tables for one Swiss round: ``order`` (entries, the best first) seated in groups of
    ``players``; the leftover seats go to the entries that sat out least, lowest placed first.

    >>> swiss_tables([3, 0, 2, 1], 3, [0, 0, 0, 0])
    [[3, 0, 2]]
    >>> swiss_tables([3, 0, 2, 1], 3, [0, 1, 0, 0])  # entry 1 sat out before: 2 sits out now
    [[3, 0, 1]]
    """
    out = len(order) % players
    rest = list(order)
    for _ in range(out):
        low = min(reversed(rest), key=lambda e: sat_out[e])  # fewest byes, lowest placed first
        rest.remove(low)
    return [rest[i:i + players] for i in range(0, len(rest), players)]


# -- running ----------------------------------------------------------------------------

def tournament_players(slug: str, entries: int, players: int | None) -> int:
    """The number of seats at each table: ``players``, or as many bots as the game seats."""
    game = load_game(slug)
    n = players if players is not None else min(entries, game.max_players)
    if isinstance(n, bool) or not isinstance(n, int) or not game.min_players <= n <= game.max_players:
        raise ThievesError(f"{game.name} is played by {game.min_players} to {game.max_players} players, "
                           f"not {n}" + ("" if players is not None else
                                         " (give more bots; a bot may be named twice: random,random)"))
    if n > entries:
        raise ThievesError(f"{entries} bots for tables of {n}: give at least {n} bots "
                           "(a bot may be named twice: random,random)")
    return n


def run_tournament(game: str, bots: Sequence[BotSpec], fmt: str = "round-robin",
                   games_per_pairing: int | None = None, rounds: int = 5, players: int | None = None,
                   move_time: float | None = 60.0, seed: int = 0, options: dict[str, Any] | None = None,
                   jobs: int = 1, progress: Callable[[int, int], None] | None = None) -> Tournament:
    """Play a tournament (see the module docstring) and return every game.

    ``games_per_pairing`` (default: two deals, ``2 * players``) is the number of games each
    table plays, in a round-robin once, in a Swiss tournament each round. ``progress(done,
    total)`` is called as games end.
    """
    if fmt not in FORMATS:
        raise ThievesError(f"the format is one of {', '.join(FORMATS)}, not {fmt!r}")
    for name, value in (("jobs", jobs), ("rounds", rounds)) + \
            ((("games per pairing", games_per_pairing),) if games_per_pairing is not None else ()):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ThievesError(f"the number of {name} must be a whole number of at least 1, not {value!r}")
    if move_time is not None and not 0 < move_time < math.inf:
        raise ThievesError(f"the time per move must be above 0 seconds, not {move_time!r}")
    if len(bots) < 2:
        raise ThievesError("a tournament needs at least two bots")
    n = tournament_players(game, len(bots), players)
    opts = dict(options or {})
    load_game(game).new_game(n, seed, opts)  # bad options fail here, clearly
    for b in bots:
        try:
            load_bot(b, game, 0)  # an unknown name fails here, before any game
        except ThievesError:
            raise
        except Exception:  # noqa: BLE001 - a class that fails to build forfeits its games instead
            pass
    labels = unique_labels(bots)
    specs = list(bots)
    per_table = games_per_pairing if games_per_pairing is not None else 2 * n
    result = Tournament(game, fmt, [b if isinstance(b, str) else labels[i] for i, b in enumerate(bots)],
                        labels, n, seed, move_time, opts, [])

    def play(schedule: list[Slot], total: int) -> None:
        tasks = [(game, specs, labels, i, r, entries, deal, rot, opts, move_time)
                 for i, r, entries, deal, rot in schedule]
        for record in _play_all(tasks, jobs):
            result.games.append(record)
            if progress:
                progress(len(result.games), total)
        result.games.sort(key=lambda g: g.index)

    if fmt == "round-robin":
        schedule = round_robin(len(bots), n, per_table, seed)
        play(schedule, len(schedule))
        return result
    sat_out = [0] * len(bots)
    per_round = (len(bots) // n) * n * math.ceil(per_table / n)
    for r in range(rounds):
        ratings = rate(result.games, len(bots))
        order = sorted(range(len(bots)), key=lambda e: (-(ratings[e][0] - 3 * ratings[e][1]), e))
        tables = swiss_tables(order, n, sat_out)
        seated = {e for t in tables for e in t}
        for e in range(len(bots)):
            sat_out[e] += e not in seated
        slots: list[Slot] = []
        for t in tables:
            slots += table_tasks(t, r, per_table, len(result.games) + len(slots), seed)
        play(slots, per_round * rounds)
    return result


def _play_all(tasks: list[tuple[Any, ...]], jobs: int) -> Iterator[TableGame]:
    if jobs == 1 or len(tasks) < 2:
        for t in tasks:
            yield play_table_game(t)
        return
    pool = ProcessPoolExecutor(max_workers=jobs)
    futures: list[Future[TableGame]] = []
    try:
        futures.extend(pool.submit(play_table_game, t) for t in tasks)
        for fut in as_completed(futures):
            yield fut.result()
    except BaseException:
        for f in futures:
            f.cancel()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()


__all__ = ["run_tournament", "play_table_game", "Tournament", "TableGame", "Standing", "Failure",
           "MoveTimeout", "rate", "places", "round_robin", "swiss_tables", "FORMATS", "REASONS"]
