"""``thieves playtest``: how a game's components play, measured over seeded bot games.

Generic over the engine contract. Every finished game becomes a small
:class:`GameRecord`; :func:`summarise` turns records into figures:

* game length (decisions), winners (shared wins, nobody wins);
* first-player advantage: the win share of the first player as the rules define it
  (:func:`thieves.bots.first.first_player`, the one ``simulate`` uses), against the
  fair share, both over the games that had a winner; the win share of every seat and
  bot; each share with its 95% Wilson interval (as ``simulate`` gives it). The games
  are ``simulate``'s games with the same bots, seed and options, so the figures both
  commands give agree; ``-j N`` plays them on N processes with the same results;
* score spread (highest minus lowest, winner's margin over the runner-up);
* per-component statistics from the structured events' id arguments: for an
  event ``{"key": "buy", "args": {"player": 1, "card": "A13"}}`` the id
  ``A13`` of kind ``card`` is counted under ``buy``; where the event names
  the acting seat (``player``), the mention is credited to the eventual
  winners or not, and the winners' share is set against their fair share
  (the share they would have if the component did not matter); per component, the win
  share of the seat-games that acted with it against the others, with the p-value of
  the difference adjusted for the number of components compared (Benjamini-Hochberg);
* game-specific measures from an optional hook module
  ``thieves.games.<package>.playtest``: ``measures(state) -> dict[str, float]``
  (averaged over games), ``first_player(state) -> int`` and
  ``catalogue(state) -> {kind: [id, ...]}`` (every id of the data, so that
  components never used are listed with zero mentions) and
  ``actor(state, args) -> int | None`` (the acting seat of an event that names
  no ``player``, e.g. from a character id).

The analysis reads the log from the referee's side (secret arguments
included): it is an offline tool, never shown to a player during a game.
"""
from __future__ import annotations

import json
import re
import statistics
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence

from ..core.errors import ThievesError
from ..core.game import State
from ..core.registry import load_game
from ..bots.first import first_player, hooks
from ..bots.stats import ALPHA, Share, benjamini_hochberg, two_proportion_p, wilson

#: an id argument: a short token such as ``A13``, ``F06``, ``golden_domes``, ``N-gate1``
ID = re.compile(r"^[A-Za-z][A-Za-z0-9_\-]{0,31}$")
#: arguments naming seats, never components
SEAT_ARGS = frozenset({"player", "victim", "target", "seat", "owner", "to", "by", "players"})


@dataclass
class GameRecord:
    """What the analysis needs from one finished game."""

    num_players: int
    decisions: int
    scores: list[float]
    winners: list[int]
    #: the game's first player (:func:`thieves.bots.first.first_player`)
    first_player: int
    #: (key, args) of every structured event, secret arguments included
    events: list[tuple[str, dict[str, Any]]]
    #: seat -> bot name
    bots: list[str] = field(default_factory=list)
    #: game-specific measures of this game
    measures: dict[str, float] = field(default_factory=dict)
    #: kind -> every id of the game's data (from the hook), so unused ones show
    catalogue: dict[str, list[str]] = field(default_factory=dict)


def record(state: State, bots: Sequence[str] = (), hook: Any = None) -> GameRecord:
    """The record of a finished game ``state``."""
    events = []
    actor = getattr(hook, "actor", None)
    for entry in state.log:
        args = dict(entry["args"])
        args.update(entry.get("secret") or {})
        if actor is not None and type(args.get("player")) is not int:
            seat = actor(state, args)
            if seat is not None:
                args["player"] = seat
        events.append((entry["key"], args))
    first = first_player(state, hook)
    measures: dict[str, float] = {}
    catalogue: dict[str, list[str]] = {}
    if hook is not None:
        if hasattr(hook, "catalogue"):
            catalogue = {k: list(v) for k, v in hook.catalogue(state).items()}
        if hasattr(hook, "measures"):
            measures = {k: float(v) for k, v in hook.measures(state).items()}
    return GameRecord(state.num_players, len(state.history), [float(s) for s in state.scores()],
                      list(state.winners()), 0 if first is None else first, events, list(bots), measures, catalogue)


def _ids(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value] if ID.match(value) else []
    if isinstance(value, list):
        return [v for v in value if isinstance(v, str) and ID.match(v)]
    return []


def _mean(xs: Sequence[float]) -> float:
    return statistics.fmean(xs) if xs else 0.0


def _spread(xs: Sequence[float]) -> dict[str, float]:
    if not xs:
        return {"mean": 0.0, "min": 0.0, "max": 0.0, "sd": 0.0}
    return {"mean": _mean(xs), "min": float(min(xs)), "max": float(max(xs)),
            "sd": statistics.pstdev(xs) if len(xs) > 1 else 0.0}


def component_stats(records: Sequence[GameRecord],
                    catalogue: Mapping[str, Iterable[str]] | None = None
                    ) -> dict[str, dict[str, dict[str, Any]]]:
    """kind -> id -> figures, from the events' id arguments.

    ``mentions``: events naming the id; ``by_key``: those mentions per event key;
    ``games``: share of games where it appears; ``acted``: mentions naming an acting
    seat (``player``); ``winner_share``: the share of those by an eventual winner
    (a shared win counts in part); ``fair_share``: what that share would be by
    chance (winners / players); ``lift``: winner_share / fair_share. Ids of the
    ``catalogue`` (kind -> every id the data has) that never appear are listed with
    zero mentions.

    A test per component, on seat-games (independent of how often a seat used it):
    ``seat_games`` in which a seat acted with it, their ``used_win_share`` (95% Wilson
    interval ``used_low``-``used_high``) against the other seat-games'
    (``unused_win_share``), ``p`` the two-proportion z-test's p-value of that
    difference and ``p_adjusted_bh`` that p-value adjusted for every component of every
    kind compared at once (Benjamini-Hochberg, false discovery rate)."""
    out: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
    #: (kind, id) -> the win share of every seat-game whose seat acted with it
    used: dict[tuple[str, str], list[float]] = defaultdict(list)
    for kind, idents in (catalogue or {}).items():
        for ident in idents:
            out[kind][ident] = {"mentions": 0, "by_key": Counter(), "games": 0,
                                "acted": 0, "winner": 0.0, "fair": 0.0}
    for rec in records:
        seen: set[tuple[str, str]] = set()
        acted_by: set[tuple[str, str, int]] = set()
        w = set(rec.winners)
        fair = len(w) / rec.num_players
        for key, args in rec.events:
            actor = args.get("player")
            actor = actor if type(actor) is int else None
            for kind, value in args.items():
                if kind in SEAT_ARGS:
                    continue
                for ident in _ids(value):
                    s = out[kind].get(ident)
                    if s is None:
                        s = out[kind][ident] = {"mentions": 0, "by_key": Counter(), "games": 0,
                                                "acted": 0, "winner": 0.0, "fair": 0.0}
                    s["mentions"] += 1
                    s["by_key"][key] += 1
                    if (kind, ident) not in seen:
                        seen.add((kind, ident))
                        s["games"] += 1
                    if actor is not None:
                        acted_by.add((kind, ident, actor))
                        s["acted"] += 1
                        # by chance a mention falls to a winner with the winners' part of the seats
                        s["winner"] += 1.0 if actor in w else 0.0
                        s["fair"] += fair
        for kind, ident, seat in acted_by:
            used[(kind, ident)].append(1 / len(w) if seat in w else 0.0)
    n = len(records) or 1
    seat_games = sum(r.num_players for r in records)
    wins = float(sum(1 for r in records if r.winners))
    tests = {k: _used_test(v, seat_games, wins) for k, v in used.items()}
    adjusted = dict(zip(tests, benjamini_hochberg([t["p"] for t in tests.values()])))
    result: dict[str, dict[str, dict[str, Any]]] = {}
    for kind, ids in out.items():
        result[kind] = {}
        for ident, s in sorted(ids.items(), key=lambda kv: (-kv[1]["mentions"], kv[0])):
            acted = s["acted"]
            ws = s["winner"] / acted if acted else None
            fs = s["fair"] / acted if acted else None
            result[kind][ident] = {
                "mentions": s["mentions"], "by_key": dict(s["by_key"].most_common()),
                "games": s["games"] / n, "acted": acted,
                "winner_share": ws, "fair_share": fs,
                "lift": (ws / fs) if (ws is not None and fs) else None,
                **tests.get((kind, ident), _used_test([], seat_games, wins)),
                "p_adjusted_bh": adjusted.get((kind, ident))}
    return result


def _used_test(shares: Sequence[float], seat_games: int, wins: float) -> dict[str, Any]:
    """The win share of the seat-games whose seat acted with a component (95% Wilson
    interval) against the other seat-games', and the two-proportion z-test's p-value of
    the difference (not adjusted)."""
    won = sum(shares)
    used, unused = Share(won, len(shares)), Share(max(0.0, wins - won), seat_games - len(shares))
    lo, hi = used.interval
    return {"seat_games": len(shares), "used_win_share": used.rate if shares else None,
            "used_low": lo, "used_high": hi, "unused_win_share": unused.rate if unused.games else None,
            "p": two_proportion_p(used, unused)}


def _catalogue(records: Sequence[GameRecord]) -> dict[str, list[str]]:
    merged: dict[str, dict[str, None]] = defaultdict(dict)
    for r in records:
        for kind, idents in r.catalogue.items():
            merged[kind].update(dict.fromkeys(idents))
    return {k: list(v) for k, v in merged.items()}


def _interval(wins: float, games: int) -> dict[str, float]:
    """The 95% Wilson interval of a win share, as ``thieves simulate`` gives it."""
    lo, hi = wilson(wins, games)
    return {"low": lo, "high": hi}


def summarise(records: Sequence[GameRecord]) -> dict[str, Any]:
    """The figures of a playtest (plain JSON data)."""
    if not records:
        raise ThievesError("no games to summarise")
    games = len(records)
    seats = max(r.num_players for r in records)
    seat_wins = [0.0] * seats
    seat_scores: list[list[float]] = [[] for _ in range(seats)]
    first_wins = 0.0
    fair_first = 0.0  # over the games with a winner: each seat's chance share is 1/players
    nobody = ties = 0
    bot_wins: dict[str, float] = defaultdict(float)
    bot_seats: dict[str, int] = defaultdict(int)
    spread, margin = [], []
    for r in records:
        w = r.winners
        if not w:
            nobody += 1
        elif len(w) > 1:
            ties += 1
        for p in w:
            seat_wins[p] += 1 / len(w)
        if r.first_player in w:
            first_wins += 1 / len(w)
        fair_first += 1 / r.num_players if w else 0.0
        for p, s in enumerate(r.scores):
            seat_scores[p].append(s)
        ordered = sorted(r.scores, reverse=True)
        spread.append(ordered[0] - ordered[-1])
        margin.append(ordered[0] - ordered[1] if len(ordered) > 1 else 0.0)
        for p, name in enumerate(r.bots):
            bot_seats[name] += 1
            if p in w:
                bot_wins[name] += 1 / len(w)
    won = games - nobody
    per_key: Counter[str] = Counter()
    for r in records:
        per_key.update(k for k, _ in r.events)
    names = sorted({k for r in records for k in r.measures})
    measures = {k: _spread([r.measures[k] for r in records if k in r.measures]) for k in names}
    return {
        "games": games,
        "players": sorted({r.num_players for r in records}),
        "length": _spread([float(r.decisions) for r in records]),
        "winners": {"shared": ties / games, "nobody": nobody / games},
        "first_player": {"win_share": first_wins / won if won else 0.0,
                         "fair_share": fair_first / won if won else 0.0, "games": won,
                         **_interval(first_wins, won)},
        "seats": [{"seat": p + 1, "win_share": seat_wins[p] / games,
                   "mean_score": _mean(seat_scores[p]), **_interval(seat_wins[p], games)} for p in range(seats)],
        "bots": {b: {"seats": bot_seats[b], "win_share": bot_wins[b] / bot_seats[b],
                     **_interval(bot_wins[b], bot_seats[b])}
                 for b in sorted(bot_seats)},
        "scores": {"all": _spread([s for r in records for s in r.scores]),
                   "spread": _spread(spread), "winner_margin": _spread(margin)},
        "measures": measures,
        "events_per_game": {k: v / games for k, v in per_key.most_common()},
        "components": component_stats(records, _catalogue(records)),
    }


def play_records(slug: str, games: int, bots: Sequence[Any], num_players: int | None = None,
                 seed: int = 0, options: Mapping[str, Any] | None = None,
                 progress: Callable[[int], None] | None = None, jobs: int = 1) -> list[GameRecord]:
    """Play ``games`` seeded games; ``bots`` names one bot per seat (a single name
    fills every seat). They are the games ``thieves simulate`` plays with the same bots,
    seed and options (:func:`thieves.bots.match.play_deal`): game ``g`` is dealt from
    ``seed + g // players`` with the seats rotated ``g % players`` times, so the two
    commands' common figures agree. ``jobs`` > 1 plays on that many worker processes,
    with the same records as one."""
    from ..bots.match import _run_pool, check_match, unique_labels
    game = load_game(slug)
    if games < 1:
        raise ThievesError("--games must be at least 1")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ThievesError(f"-j/--jobs must be at least 1, not {jobs!r}")
    n = num_players or (len(bots) if len(bots) > 1 else min(max(game.min_players, 3), game.max_players))
    if len(bots) not in (1, n):
        raise ThievesError(f"--bots names {len(bots)} bots for {n} players: give one, or one per seat")
    check_match(slug, bots, games, n)
    opts = dict(options or {})
    game.new_game(n, seed, opts)  # bad options fail here, clearly
    tasks = [(slug, list(bots), unique_labels(bots), n, seed, g, opts, False) for g in range(games)]
    records: dict[int, GameRecord] = {}

    def finished(item: tuple[int, GameRecord]) -> None:
        records[item[0]] = item[1]
        if progress:
            progress(len(records))

    if jobs > 1 and games > 1:
        _run_pool(tasks, jobs, finished, _play_task)
    else:
        for t in tasks:
            finished(_play_task(t))
    return [records[g] for g in range(games)]


def _play_task(task: tuple[Any, ...]) -> tuple[int, GameRecord]:
    """Game ``index`` of a playtest and its record (run in worker processes too)."""
    from ..bots.match import bot_label, play_deal
    state, entries, _, _ = play_deal(task)
    return task[5], record(state, [bot_label(task[1][e]) for e in entries], hooks(task[0]))


def playtest(slug: str, games: int = 100, bots: Sequence[str] = ("greedy",),
             num_players: int | None = None, seed: int = 0,
             options: Mapping[str, Any] | None = None, jobs: int = 1) -> dict[str, Any]:
    """Play seeded bot games of ``slug`` and return :func:`summarise`'s figures."""
    start = time.perf_counter()
    report = summarise(play_records(slug, games, bots, num_players, seed, options, jobs=jobs))
    report.update({"game": slug, "bots": report["bots"], "seed": seed,
                   "seconds": round(time.perf_counter() - start, 2)})
    return report


# -- printing -------------------------------------------------------------------------

def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.0f}%"


def _pct1(x: float) -> str:
    """A share to a tenth of a point, as ``simulate`` prints it."""
    return f"{100 * x:.1f}%"


def _ci(figures: Mapping[str, Any]) -> str:
    """A share's 95% Wilson interval in brackets."""
    return f"[{100 * figures['low']:.0f}–{100 * figures['high']:.0f}]"


def render(report: Mapping[str, Any], console: Any, top: int = 12) -> None:
    """Print a report as rich tables (``top`` rows per component kind, busiest and
    quietest)."""
    from rich.table import Table
    L, sc = report["length"], report["scores"]
    console.print(f"[bold]{report.get('game', '')}[/bold]: {report['games']} games, "
                  f"{'/'.join(map(str, report['players']))} players"
                  + (f", {report['seconds']} s" if "seconds" in report else ""), highlight=False)
    t = Table(title="Games", show_header=False)
    t.add_row("decisions per game", f"{L['mean']:.1f} (min {L['min']:.0f}, max {L['max']:.0f})")
    fp = report["first_player"]
    t.add_row("first player wins (as the rules choose)", f"{_pct1(fp['win_share'])} {_ci(fp)} "
              f"(fair {_pct(fp['fair_share'])}) of {fp['games']} games with a winner")
    t.add_row("shared wins / nobody wins",
              f"{_pct(report['winners']['shared'])} / {_pct(report['winners']['nobody'])}")
    t.add_row("scores", f"mean {sc['all']['mean']:.1f}, sd {sc['all']['sd']:.1f}")
    t.add_row("highest - lowest", f"{sc['spread']['mean']:.1f} (max {sc['spread']['max']:.0f})")
    t.add_row("winner's margin", f"{sc['winner_margin']['mean']:.1f}")
    for s in report["seats"]:
        t.add_row(f"seat {s['seat']}", f"wins {_pct1(s['win_share'])} {_ci(s)}, mean score {s['mean_score']:.1f}")
    for b, v in report["bots"].items():
        t.add_row(f"bot {b}", f"wins {_pct1(v['win_share'])} {_ci(v)} of {v['seats']} seats")
    console.print(t)
    if report["measures"]:
        t = Table(title="Game-specific measures (per game)")
        for col in ("measure", "mean", "min", "max"):
            t.add_column(col, justify="left" if col == "measure" else "right")
        for k, v in report["measures"].items():
            t.add_row(k, f"{v['mean']:.3f}", f"{v['min']:.3g}", f"{v['max']:.3g}")
        console.print(t)
    epg = report.get("events_per_game") or {}
    if epg:
        t = Table(title="Events per game")
        t.add_column("event")
        t.add_column("per game", justify="right")
        for k, v in epg.items():
            t.add_row(k, f"{v:.2f}")
        console.print(t)
    for kind, ids in report["components"].items():
        keys: Counter[str] = Counter()
        for s in ids.values():
            keys.update(s["by_key"])
        cols = [k for k, _ in keys.most_common(4)]
        rows = list(ids.items())
        shown = rows if len(rows) <= 2 * top else rows[:top] + [None] + rows[-top:]
        t = Table(title=f"{kind} ({len(ids)} ids)")
        t.add_column("id")
        for c in ["mentions", *cols, "games", "winner", "fair", "lift", "win % used [95%]", "p adj. (BH)"]:
            t.add_column(c, justify="right")
        for row in shown:
            if row is None:
                t.add_row("…", *[""] * (len(cols) + 7))
                continue
            ident, s = row
            lift = "-" if s["lift"] is None else f"{s['lift']:.2f}"
            q = s["p_adjusted_bh"]
            used = "-" if s["used_win_share"] is None else \
                f"{_pct(s['used_win_share'])} [{100 * s['used_low']:.0f}–{100 * s['used_high']:.0f}]"
            t.add_row(ident, str(s["mentions"]), *[str(s["by_key"].get(c, 0)) for c in cols],
                      _pct(s["games"]), _pct(s["winner_share"]), _pct(s["fair_share"]), lift, used,
                      "-" if q is None else f"{q:.3f}" + (" *" if q <= ALPHA else ""))
        console.print(t)
    if report["components"]:
        console.print("win % used: the win share of the seat-games whose seat acted with the component; "
                      "p adj.: the p-value of its difference from the other seat-games' (two-proportion "
                      "z-test), adjusted for every component compared (Benjamini-Hochberg, false "
                      f"discovery rate); * adjusted p ≤ {ALPHA:g}", highlight=False)


def write_json(report: Mapping[str, Any], path: str) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(report, fh, indent=1)


def quiet(ids: Mapping[str, Mapping[str, Any]], key: str) -> list[str]:
    """Ids never counted under ``key`` (e.g. fences never sold)."""
    return [i for i, s in ids.items() if not s["by_key"].get(key)]


def by_key(ids: Mapping[str, Mapping[str, Any]], key: str) -> dict[str, int]:
    """id -> mentions under ``key``."""
    return {i: s["by_key"].get(key, 0) for i, s in ids.items()}


__all__ = ["GameRecord", "record", "summarise", "component_stats", "play_records",
           "playtest", "render", "hooks"]
