"""``thieves simulate``: bot against bot over many seeded games, for designers.

Prints, per bot, its win share with a 95% Wilson interval and its score spread;
per seat, the win share (and each bot's share by seat); the first player's
share against a fair share; games nobody won; the spread of game lengths.
``--items`` adds, per component a seat can use (cards, locations...), the win
share of the seats that used it against those that did not, with the p-value of
the gap adjusted for the number of components compared (Benjamini-Hochberg);
``--items FILE.csv`` also writes those figures, one row per component.
``--out`` keeps one record per game, written as each game ends; with
``--resume`` a run that stopped goes on from the games in its ``.jsonl`` file
(or a finished one grows to a larger ``--games``). ``--report`` writes an HTML page of plots,
``--sweep option=a,b`` repeats the whole match for each value of an option, then
sets the values side by side and tests each difference (two-proportion z-test,
Holm-adjusted over the pairs).
"""
from __future__ import annotations

import argparse
import itertools
import json
import os
from typing import Any, Callable

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, \
    TimeRemainingColumn
from rich.table import Table

from ..bots import BotFailed
from ..bots.match import GameRecord, MatchResult, RecordWriter, check_done, check_match, options_key, \
    read_records, run_match, unique_labels
from ..bots.stats import ALPHA, MatchSummary, Share
from ..bots.usage import adjusted_p, flagged, item_label, item_names, item_stats, items_csv
from ..core.errors import ThievesError
from ..core.registry import load_game
from .sweeps import point_label, share_of, sweep_tests


def parse_sweeps(items: list[str] | None) -> list[dict[str, Any]]:
    """``["players=3,4", "variant=a,b"]`` -> every combination as an options dict."""
    if not items:
        return [{}]
    axes = []
    for item in items:
        name, eq, values = item.partition("=")
        name = name.strip()
        if not eq or not name or not values.strip():
            raise ThievesError(f"a sweep looks like option=value1,value2 (not {item!r})")
        vals = []
        for v in values.split(","):
            v = v.strip()
            try:
                vals.append(json.loads(v))
            except json.JSONDecodeError:
                vals.append(v)
        axes.append([(name, v) for v in vals])
    return [dict(combo) for combo in itertools.product(*axes)]


def _pct(share: Share) -> str:
    lo, hi = share.interval
    return f"{100 * share.rate:.1f}% [{100 * lo:.0f}–{100 * hi:.0f}]"


def _num(x: float) -> str:
    return f"{x:.1f}" if x == x else "–"


def print_summary(console: Console, result: MatchResult, s: MatchSummary, title: str) -> None:
    n = s.num_players
    console.print(f"[bold]{escape(title)}[/bold]", highlight=False)
    t = Table(title=None, show_edge=False, pad_edge=False)
    t.add_column("bot")
    t.add_column("games", justify="right")
    t.add_column("wins", justify="right")
    t.add_column("win %", justify="right")
    t.add_column("95% CI", justify="right")
    t.add_column("score ± sd", justify="right")
    t.add_column("quartiles", justify="right")
    for e in s.entries:
        sc = e.scores
        lo, hi = e.share.interval
        t.add_row(escape(e.label), str(e.share.games), f"{e.share.wins:g}", f"{100 * e.share.rate:.1f}",
                  f"{100 * lo:.1f}–{100 * hi:.1f}", f"{_num(sc.mean)} ± {_num(sc.sd)}",
                  f"{_num(sc.q1)}/{_num(sc.median)}/{_num(sc.q3)}")
    console.print(t)
    seats = Table(show_edge=False, pad_edge=False)
    seats.add_column("win % [95% CI] by seat")
    for i in range(n):
        seats.add_column(f"seat {i + 1}", justify="right")
    seats.add_row("all bots", *[_pct(x) for x in s.seats])
    for e in s.entries:
        seats.add_row(escape(e.label), *[_pct(x) if x.games else "–" for x in e.by_seat])
    console.print(seats)
    fp = s.first_player
    console.print(f"first player (as the rules choose): wins {_pct(fp)} of {fp.games} games with a "
                  f"winner; fair share {100 * s.fair_share:.1f}%", highlight=False)
    console.print(f"no winner: {s.no_winner} of {s.games} games ({100 * s.no_winner / s.games:.1f}%)",
                  highlight=False)
    ln = s.lengths
    console.print(f"game length (decisions): mean {ln.mean:.1f} ± {ln.sd:.1f}, quartiles "
                  f"{ln.q1:g} / {ln.median:g} / {ln.q3:g}, range {ln.low:g}–{ln.high:g}", highlight=False)
    for e in s.entries:
        if e.search is not None and e.search.decisions:
            x = e.search
            console.print(f"{escape(e.label)} searched {x.per_game:.0f} decisions a game, "
                          f"{x.iterations_per_decision:,.0f} iterations a decision on average", highlight=False)


def print_items(console: Console, result: MatchResult, names: dict[tuple[str, str], str]) -> None:
    """Per component, the win share of the seats that used it against the others."""
    stats = item_stats(result.records)
    if not stats:
        console.print("no component use recorded for this game", highlight=False)
        return
    q = dict(zip(((st.category, st.item) for st in stats), adjusted_p(stats)))
    console.print(f"p adj.: the p-value of the gap (two-proportion z-test) adjusted for the {len(stats)} "
                  f"components compared (Benjamini-Hochberg, false discovery rate; the p-values before "
                  f"adjustment are in --items FILE.csv and --report); * adjusted p ≤ {ALPHA:g}", highlight=False)
    category = None
    t: Table | None = None
    for st in stats:
        if st.category != category:
            if t is not None:
                console.print(t)
            category = st.category
            t = Table(show_edge=False, pad_edge=False)
            for head, justify in ((category, "left"), ("seat-games", "right"),
                                  ("win % used [95% CI]", "right"), ("not used", "right"),
                                  ("gap", "right"), ("p adj.", "right")):
                t.add_column(head, justify=justify, min_width=18 if head == category else None)  # type: ignore[arg-type]
        assert t is not None
        qv = q[(st.category, st.item)]
        t.add_row(escape(item_label(names, st.category, st.item)), str(st.used.games),
                  _pct(st.used), f"{100 * st.unused.rate:.1f}%" if st.unused.games else "–",
                  f"{100 * st.gap:+.1f}" if st.unused.games else "–",
                  _p(qv) + (" *" if flagged(qv) else ""))
    if t is not None:
        console.print(t)


def _p(p: float | None) -> str:
    """A p-value as text ("–" where there is no test)."""
    if p is None:
        return "–"
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def print_sweep(console: Console, results: list[tuple[dict[str, Any], MatchResult]]) -> None:
    """The sweep's points side by side (win shares with 95% intervals, first player, no
    winner, length) and the test of each difference between points."""
    summaries = [r.summary() for _, r in results]
    t = Table(title="sweep side by side: win % [95% CI]", show_edge=False, pad_edge=False)
    t.add_column("")
    for point, _ in results:
        t.add_column(escape(point_label(point)), justify="right")
    for e, label in enumerate(summaries[0].labels):
        t.add_row(escape(label), *[_pct(s.entries[e].share) for s in summaries])
    t.add_row("first player", *[_pct(s.first_player) for s in summaries])
    t.add_row("no winner", *[f"{s.no_winner} of {s.games}" for s in summaries])
    t.add_row("length (decisions)", *[f"{s.lengths.mean:.1f} ± {s.lengths.sd:.1f}" for s in summaries])
    console.print(t)
    tests = sweep_tests(results)
    d = Table(title="differences between sweep points (two-proportion z-test; p adj.: Holm, over the "
                    f"{len(tests)} tests)", show_edge=False, pad_edge=False)
    for head in ("", "between", "and", "difference", "p", "p adj. (Holm)"):
        d.add_column(head, justify="left" if head in ("", "between", "and") else "right")
    for label, i, j, p, qv in tests:
        a, b = (share_of(summaries[k], label) for k in (i, j))
        d.add_row(escape(label), escape(point_label(results[i][0])), escape(point_label(results[j][0])),
                  f"{100 * (a.rate - b.rate):+.1f}", _p(p), _p(qv) + (" *" if flagged(qv) else ""))
    console.print(d)


def _progress(console: Console, enabled: bool) -> Progress | None:
    if not enabled:
        return None
    return Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn(), console=console,
                    transient=True)


def cmd_simulate(args: argparse.Namespace, console: Console, options: dict[str, Any]) -> int:
    bots = [b.strip() for b in (args.extra_bot or [])] + [b.strip() for b in args.bots.split(",")]
    if any(not b for b in bots):
        raise ThievesError(f"--bots is a comma-separated list of bot names, not {args.bots!r}")
    if args.games < 1:
        raise ThievesError(f"--games must be at least 1, not {args.games}")
    if args.jobs < 1:
        raise ThievesError(f"-j/--jobs must be at least 1, not {args.jobs}")
    if args.out and not args.out.endswith((".jsonl", ".json", ".csv")):
        raise ThievesError(f"--out must name a .jsonl or .csv file, not {args.out!r}")
    if isinstance(args.items, str) and not args.items.endswith(".csv"):
        raise ThievesError(f"--items writes its figures to a .csv file, not {args.items!r}")
    if args.report and not args.report.endswith((".html", ".htm")):
        raise ThievesError(f"--report must name an .html file, not {args.report!r}")
    if args.report:
        from .report import check_report_deps
        check_report_deps()
    if args.ray is not False and args.jobs > 1:
        raise ThievesError("use either -j/--jobs or --ray, not both")
    if args.resume and not (args.out or "").endswith((".jsonl", ".json")):
        raise ThievesError("--resume goes on from the records of an earlier run: give them with "
                           "--out FILE.jsonl")
    sweeps = parse_sweeps(args.sweep)
    n = check_match(args.game, bots, args.games, args.players)
    game = load_game(args.game)
    for point in sweeps:  # every option value fails now, not after an hour of games
        game.new_game(n, args.seed, {**options, **point})
    done = _earlier_records(args, sweeps, options)
    for point, earlier in zip(sweeps, done):  # records of another match fail now, before any game
        check_done(earlier, unique_labels(bots), n, args.games, args.seed, {**options, **point}, args.game)
    writer = RecordWriter(args.out, n, append=args.resume, names=item_names(game)) if args.out else None
    results: list[tuple[dict[str, Any], MatchResult]] = []
    try:
        for point, earlier in zip(sweeps, done):
            result = _one_match(args, console, bots, {**options, **point}, point, earlier, writer)
            results.append((point, result))
            _print_point(args, console, game.name, point, result)
            if args.items:
                names = item_names(game)
                print_items(console, result, names)
                if isinstance(args.items, str):
                    items_csv(args.items, item_stats(result.records), names, point, append=len(results) > 1)
            console.print()
        if len(results) > 1:
            print_sweep(console, results)
    except BotFailed:
        if writer is not None:
            console.print(f"{writer.count} new game records are in {escape(args.out)} (--resume goes on "
                          "from them; --forfeit scores a failing bot as a loss)", highlight=False)
        raise
    except KeyboardInterrupt:
        if writer is not None:
            console.print(f"stopped: {writer.count} new game records are in {escape(args.out)}; the same "
                          "command with --resume plays the rest", highlight=False)
        raise
    finally:
        if writer is not None:
            writer.close()
    if writer is not None:
        kept = sum(len(d) for d in done)
        console.print(f"{writer.count} game records written to {escape(args.out)}"
                      + (f" after the {kept} already there" if args.resume else ""), highlight=False)
    if args.report:
        from .report import write_report
        write_report(args.report, game.name, results, item_names(game))
        console.print(f"report written to {escape(args.report)}", highlight=False)
    return 0


def _print_point(args: argparse.Namespace, console: Console, name: str, point: dict[str, Any],
                 result: MatchResult) -> None:
    label = ", ".join(f"{k}={v}" for k, v in point.items())
    where = "on Ray" if args.ray is not False else (f"on {args.jobs} processes" if args.jobs > 1 else "")
    title = (f"{name} · {result.num_players} players · {args.games} games (deals from seed "
             f"{args.seed}, seats rotated) {where}" + (f" · {label}" if label else ""))
    print_summary(console, result, result.summary(), " ".join(title.split()))


def _earlier_records(args: argparse.Namespace, sweeps: list[dict[str, Any]],
                     options: dict[str, Any]) -> list[list[GameRecord]]:
    """With ``--resume``: the records already in ``--out``, split by sweep point."""
    done: list[list[GameRecord]] = [[] for _ in sweeps]
    if not args.resume or not os.path.exists(args.out):
        return done
    keys = [options_key(args.game, {**options, **p}) for p in sweeps]
    for r in read_records(args.out, args.game):
        try:
            key = options_key(args.game, r.options)
        except ThievesError as exc:
            raise ThievesError(f"{args.out}, game {r.index}: {exc}") from None
        if key not in keys:
            raise ThievesError(f"{args.out} holds game {r.index} with options {r.options}, which this run "
                               "does not play: resume with the options and --sweep of that run")
        if r.order != "dealt":
            raise ThievesError(f"{args.out} holds game {r.index}, played with seats deciding at once in "
                               "seat order (records older than the order drawn from the deal); going on "
                               "would mix the two: write the new games to another file")
        done[keys.index(key)].append(r)
    return done


def _one_match(args: argparse.Namespace, console: Console, bots: list[str], opts: dict[str, Any],
               point: dict[str, Any], done: list[GameRecord], writer: RecordWriter | None) -> MatchResult:
    """One point of a sweep, with its progress bar."""
    label = ", ".join(f"{k}={v}" for k, v in point.items())
    progress = _progress(console, not args.no_progress)
    update: Callable[[int], None] | None = None
    if progress is not None:
        progress.start()
        task = progress.add_task(f"{args.game} {label}".strip(), total=args.games)
        update = lambda k: progress.update(task, completed=k)  # noqa: E731
    try:
        return run_match(args.game, bots, args.games, args.players, args.seed, opts, args.jobs, args.ray,
                         update, done, writer.write if writer is not None else None, forfeit=args.forfeit)
    finally:
        if progress is not None:
            progress.stop()


def add_parser(sub: Any, game_args: Callable[[argparse.ArgumentParser], None]) -> None:
    sp = sub.add_parser("simulate", help="bot against bot over many seeded games, with statistics",
                        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    game_args(sp)
    sp.add_argument("--bots", default="greedy,random,random,random",
                    help="comma-separated bots, one per seat (the last fills the table up to --players): "
                         "random, greedy, mcts, mcts:200 (iterations), mcts:1s (time), module:Class, "
                         "file.py:Class")
    sp.add_argument("--bot", dest="extra_bot", action="append", metavar="MODULE:CLASS",
                    help="your own bot class, seated before the --bots (repeatable)")
    sp.add_argument("--games", type=int, default=100, help="number of games (at least 1)")
    sp.add_argument("-j", "--jobs", type=int, default=1, help="worker processes (same results as 1)")
    sp.add_argument("--ray", nargs="?", const=None, default=False, metavar="ADDRESS",
                    help="play on Ray: a local Ray without ADDRESS, else the cluster at ADDRESS "
                         "(needs the 'ray' extra)")
    sp.add_argument("--sweep", action="append", metavar="OPTION=A,B",
                    help="repeat the match for each value of a game option (repeatable: all combinations)")
    sp.add_argument("--out", metavar="FILE", help="one record per game, written as it ends: .jsonl or .csv")
    sp.add_argument("--resume", action="store_true",
                    help="go on from the games already in --out FILE.jsonl (same bots, seed and options)")
    sp.add_argument("--report", metavar="FILE.html", help="HTML report with plots (needs the 'report' extra)")
    sp.add_argument("--items", nargs="?", const=True, default=False, metavar="FILE.csv",
                    help="per component a seat can use (card, location...): the win share of the seats "
                         "that used it against the others, the p-value of the gap and that p-value "
                         "adjusted for the many components compared (Benjamini-Hochberg); with FILE.csv "
                         "also written there, one row per component")
    sp.add_argument("--no-progress", action="store_true", help="no progress bar")
    sp.add_argument("--forfeit", action="store_true",
                    help="a bot that fails (an exception, an illegal answer) loses that game and the "
                         "match goes on (default: the match stops, naming the bot, seat and move)")
