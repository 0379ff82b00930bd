"""``thieves playtest``: how a game's components play, measured over seeded bot games.

Generic over the engine contract. Every finished game becomes a small
:class:`GameRecord`; :func:`summarise` turns records into figures:

* game length (decisions), winners (shared wins, nobody wins);
* first-player advantage: the win share of the first player as the rules define it
  (:func:`thieves.bots.first.first_player`, the one ``simulate`` uses), against the
  fair share, both over the games that had a winner; the win share of every seat;
* score spread (highest minus lowest, winner's margin over the runner-up);
* per-component statistics from the structured events' id arguments: for an
  event ``{"key": "buy", "args": {"player": 1, "card": "A13"}}`` the id
  ``A13`` of kind ``card`` is counted under ``buy``; where the event names
  the acting seat (``player``), the mention is credited to the eventual
  winners or not, and the winners' share is set against their fair share
  (the share they would have if the component did not matter);
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
from ..core.rng import Rng
from ..bots.first import first_player, hooks

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
        if isinstance(entry, dict):
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
    zero mentions."""
    out: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
    for kind, idents in (catalogue or {}).items():
        for ident in idents:
            out[kind][ident] = {"mentions": 0, "by_key": Counter(), "games": 0,
                                "acted": 0, "winner": 0.0, "fair": 0.0}
    for rec in records:
        seen: set[tuple[str, str]] = set()
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
                        s["acted"] += 1
                        # by chance a mention falls to a winner with the winners' part of the seats
                        s["winner"] += 1.0 if actor in w else 0.0
                        s["fair"] += fair
    n = len(records) or 1
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
                "lift": (ws / fs) if (ws is not None and fs) else None}
    return result


def _catalogue(records: Sequence[GameRecord]) -> dict[str, list[str]]:
    merged: dict[str, dict[str, None]] = defaultdict(dict)
    for r in records:
        for kind, idents in r.catalogue.items():
            merged[kind].update(dict.fromkeys(idents))
    return {k: list(v) for k, v in merged.items()}


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
                         "fair_share": fair_first / won if won else 0.0, "games": won},
        "seats": [{"seat": p + 1, "win_share": seat_wins[p] / games,
                   "mean_score": _mean(seat_scores[p])} for p in range(seats)],
        "bots": {b: {"seats": bot_seats[b], "win_share": bot_wins[b] / bot_seats[b]}
                 for b in sorted(bot_seats)},
        "scores": {"all": _spread([s for r in records for s in r.scores]),
                   "spread": _spread(spread), "winner_margin": _spread(margin)},
        "measures": measures,
        "events_per_game": {k: v / games for k, v in per_key.most_common()},
        "components": component_stats(records, _catalogue(records)),
    }


def play_records(slug: str, games: int, bots: Sequence[str], num_players: int | None = None,
                 seed: int = 0, options: Mapping[str, Any] | None = None,
                 progress: Callable[[int], None] | None = None) -> list[GameRecord]:
    """Play ``games`` seeded games; ``bots`` names one bot per seat (a single name
    fills every seat); seats rotate so no bot always sits first."""
    from ..bots import make_bot
    game = load_game(slug)
    if games < 1:
        raise ThievesError("--games must be at least 1")
    n = num_players or (len(bots) if len(bots) > 1 else min(max(game.min_players, 3), game.max_players))
    names = list(bots) * n if len(bots) == 1 else list(bots)
    if len(names) != n:
        raise ThievesError(f"--bots names {len(names)} bots for {n} players: give one, or one per seat")
    hook = hooks(slug)
    records = []
    for g in range(games):
        s = seed + g
        state = game.new_game(n, s, options)
        seat_bots = [names[(p + g) % n] for p in range(n)]
        _play(state, [make_bot(b, slug, s * 31 + p) for p, b in enumerate(seat_bots)], Rng.from_seed(s))
        records.append(record(state, seat_bots, hook))
        if progress:
            progress(g + 1)
    return records


def _play(state: State, bots: Sequence[Any], order: Rng, max_decisions: int = 1_000_000) -> None:
    """Play to the end on fair views (:func:`~thieves.bots.play_game`), who decides first
    among seats deciding at once drawn from ``order``."""
    from ..bots import play_game
    play_game(state, list(bots), max_decisions, seed=order.next64() >> 2, order=order)


def playtest(slug: str, games: int = 100, bots: Sequence[str] = ("greedy",),
             num_players: int | None = None, seed: int = 0,
             options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Play seeded bot games of ``slug`` and return :func:`summarise`'s figures."""
    start = time.perf_counter()
    report = summarise(play_records(slug, games, bots, num_players, seed, options))
    report.update({"game": slug, "bots": report["bots"], "seed": seed,
                   "seconds": round(time.perf_counter() - start, 2)})
    return report


# -- printing -------------------------------------------------------------------------

def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.0f}%"


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
    t.add_row("first player wins", f"{_pct(fp['win_share'])} (fair {_pct(fp['fair_share'])}) "
              f"of {fp['games']} games with a winner")
    t.add_row("shared wins / nobody wins",
              f"{_pct(report['winners']['shared'])} / {_pct(report['winners']['nobody'])}")
    t.add_row("scores", f"mean {sc['all']['mean']:.1f}, sd {sc['all']['sd']:.1f}")
    t.add_row("highest - lowest", f"{sc['spread']['mean']:.1f} (max {sc['spread']['max']:.0f})")
    t.add_row("winner's margin", f"{sc['winner_margin']['mean']:.1f}")
    for s in report["seats"]:
        t.add_row(f"seat {s['seat']}", f"wins {_pct(s['win_share'])}, mean score {s['mean_score']:.1f}")
    for b, v in report["bots"].items():
        t.add_row(f"bot {b}", f"wins {_pct(v['win_share'])} of {v['seats']} seats")
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
        for c in ["mentions", *cols, "games", "winner", "fair", "lift"]:
            t.add_column(c, justify="right")
        for row in shown:
            if row is None:
                t.add_row("…", *[""] * (len(cols) + 5))
                continue
            ident, s = row
            lift = "-" if s["lift"] is None else f"{s['lift']:.2f}"
            t.add_row(ident, str(s["mentions"]), *[str(s["by_key"].get(c, 0)) for c in cols],
                      _pct(s["games"]), _pct(s["winner_share"]), _pct(s["fair_share"]), lift)
        console.print(t)


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
