"""The ``thieves`` command: list, play, bench, simulate, tournament, dataset, playtest, analyze, replay, data, serve."""
from __future__ import annotations

import argparse
import os
import sys
from typing import Any, Sequence, TypeAlias

from rich.console import Console
from rich.text import Text

from ..core.errors import ThievesError
from ..core.registry import GAME_MODULES, list_games, load_game
from .args import game_args, game_options, seconds


def cmd_list(args: argparse.Namespace, console: Console) -> int:
    ready = set(list_games())
    for slug in GAME_MODULES:
        if slug in ready:
            g = load_game(slug)
            console.print(f"[bold]{slug:15}[/bold] {g.name} ({g.min_players}-{g.max_players} players)")
            for o in g.all_options():
                console.print(f"{'':17}option {o.name} (default {o.default!r}): {o.help}", highlight=False)
        else:
            console.print(f"[dim]{slug:15} not implemented yet[/dim]")
    return 0


def cmd_play(args: argparse.Namespace, console: Console) -> int:
    from .play import play
    game = load_game(args.game)
    players = args.players if args.players is not None else min(max(game.min_players, 4), game.max_players)
    state = game.new_game(players, args.seed, game_options(args))
    if not 0 <= args.humans <= players:
        raise ThievesError(f"--humans must be between 0 and {players}")
    out = open(args.save, "w", encoding="utf-8") if args.save else None
    try:
        play(state, args.humans, args.bot, args.seed, console=console, replay_out=out)
    finally:
        if out:
            out.close()
            console.print(f"Replay saved to {args.save}")
    return 0


def cmd_bench(args: argparse.Namespace, console: Console) -> int:
    from .bench import bench, bench_playouts
    if args.playouts:
        p = bench_playouts(args.game, args.seconds, args.players, args.seed, game_options(args))
        console.print(f"{args.game}: playouts from {p.positions} mid-game positions "
                      f"({p.decisions} decisions each on average)")
        console.print(f"  checked path: {p.checked_per_second:,.0f} playouts per CPU second")
        console.print(f"  fast path:    {p.fast_per_second:,.0f} playouts per CPU second ({p.speedup:.2f}x)")
        console.print(f"  same games move for move: {'yes' if p.same else 'NO'}")
        return 0 if p.same else 1
    r = bench(args.game, args.seconds, args.players, args.seed, game_options(args))
    console.print(f"{args.game}: {r.games} games, {r.decisions} decisions in {r.seconds:.2f} s")
    console.print(f"  decisions/s: {r.decisions_per_second:,.0f} (per CPU second: {r.decisions_per_cpu_second:,.0f})")
    console.print(f"  games/s:     {r.games_per_second:,.1f}")
    console.print(f"  decisions/game: {r.decisions_per_game:,.1f}")
    return 0


def cmd_simulate(args: argparse.Namespace, console: Console) -> int:
    from .simulate import cmd_simulate as run
    return run(args, console, game_options(args))


def cmd_playtest(args: argparse.Namespace, console: Console) -> int:
    from .playtest import play_records, render, summarise, write_json
    import time
    start = time.perf_counter()
    records = play_records(args.game, args.games, args.bots.split(","), args.players, args.seed,
                           game_options(args), jobs=args.jobs)
    report = summarise(records)
    report.update({"game": args.game, "seed": args.seed, "seconds": round(time.perf_counter() - start, 1)})
    render(report, console, top=args.top)
    if args.out:
        write_json(report, args.out)
        console.print(Text(f"figures written to {args.out}"))
    return 0


def cmd_replay(args: argparse.Namespace, console: Console) -> int:
    from ..core.replay import Replay
    with open(args.file, "rb") as fh:
        replay = Replay.from_json(fh.read())
    _replay_data_dir(replay, args.data_dir)
    viewer = args.viewer
    if viewer is not None and not 0 <= viewer < replay.num_players:
        raise ThievesError(f"--viewer must be a seat from 0 to {replay.num_players - 1} (or left out "
                           "for a spectator), not {viewer}")
    state = None
    seen = 0
    for state in replay.states():
        for line in state.visible_log(viewer, seen):
            console.print(Text(f"  · {line}"))
        seen = len(state.log)
    assert state is not None
    console.print(Text(state.render_text(viewer)))
    console.print(Text("Scores: " + ", ".join(f"{n}: {s}" for n, s in zip(replay.players, state.scores()))))
    if state.is_terminal():
        console.print(Text("Winner(s): " + (", ".join(replay.players[w] if w < len(replay.players) else str(w)
                                                      for w in state.winners()) or "nobody")))
    return 0


def _replay_data_dir(replay: Any, data_dir: str | None) -> None:
    """Which component data a replay is played with is the user's choice, never the file's:
    a ``data_dir`` named inside a replay file would make the program read whatever path
    the file's author chose. The user's ``--data-dir`` replaces it; without one, a replay
    that names a directory is refused, saying what to do."""
    named = replay.options.pop("data_dir", None)
    if data_dir is not None:
        replay.options["data_dir"] = data_dir
    elif named is not None:
        raise ThievesError(
            f"this replay was played with component data from a directory ({str(named)[:200]!r}); "
            "a replay file does not choose which files are read: pass --data-dir DIR with your "
            "copy of that data to replay it")


def cmd_serve(args: argparse.Namespace, console: Console) -> int:
    try:
        from ..server.app import serve
    except ModuleNotFoundError as exc:
        raise ThievesError(f"the web server needs its extra packages ({exc.name}): "
                           "pip install 'thieves[server]'") from None
    _check_serve_args(args)
    serve(host=args.host, port=args.port, database_url=args.database_url, public_url=args.public_url,
          redis_url=args.redis_url, allowed_hosts=args.allowed_host, trusted_proxies=args.trusted_proxy)
    return 0


def _check_serve_args(args: argparse.Namespace) -> None:
    """Refuse a bad port, a busy port, a bad database URL or a bad
    ``THIEVES_SQLITE_SYNC`` before serving."""
    import socket

    from ..server.storage import sqlite_sync
    if not 0 <= args.port <= 65535:
        raise ThievesError(f"--port must be between 0 and 65535, not {args.port}")
    try:
        sqlite_sync()
    except ValueError as exc:
        raise ThievesError(str(exc)) from None
    if args.database_url:
        from sqlalchemy.engine import make_url
        from sqlalchemy.exc import ArgumentError, NoSuchModuleError
        try:
            make_url(args.database_url).get_dialect()
        except (ArgumentError, NoSuchModuleError, ValueError) as exc:
            raise ThievesError(f"--database-url {args.database_url!r} is not a database URL "
                               f"SQLAlchemy can use ({exc})") from None
        except ImportError as exc:
            raise ThievesError(f"--database-url needs a driver that is not installed ({exc})") from None
    try:
        infos = socket.getaddrinfo(args.host, args.port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise ThievesError(f"--host {args.host!r} is not an address of this machine ({exc})") from None
    family, kind, proto, _, addr = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(addr)
        except OSError as exc:
            raise ThievesError(f"cannot serve on {args.host}:{args.port}: {exc.strerror}") from None


def cmd_tournament(args: argparse.Namespace, console: Console) -> int:
    from .tournament import cmd_tournament as run
    return run(args, console, game_options(args))


def cmd_data(args: argparse.Namespace, console: Console) -> int:
    from . import data
    if args.action == "export":
        written = data.export(args.game, args.dir)
        console.print(Text(f"wrote {len(written)} files to {args.dir}; edit them, then: "
                           f"thieves data check {args.game} {args.dir}"))
    elif args.action == "check":
        files = data.check(args.game, args.dir, games=args.games)
        console.print(Text(f"ok: {', '.join(files)} valid; {args.games} seeded games played with them"))
    else:
        for line in data.diff(args.game, args.dir):
            console.print(Text(line))
    return 0


def cmd_loadtest(args: argparse.Namespace, console: Console) -> int:
    try:
        from ..server.loadtest import main as loadtest
    except ModuleNotFoundError as exc:
        raise ThievesError(f"the load test needs the server's extra packages ({exc.name}): "
                           "pip install 'thieves[server]'") from None
    return loadtest(args)


#: what ``add_subparsers`` returns, where each command adds its parser
Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="thieves", description=__doc__)
    sub = p.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="list the games and their options").set_defaults(func=cmd_list)
    _add_play(sub)
    _add_bench(sub)
    _add_measures(sub)
    _add_replay(sub)
    from .tournament import add_parser as add_tournament
    add_tournament(sub, game_args)
    sub.choices["tournament"].set_defaults(func=cmd_tournament)
    _add_data(sub)
    _add_serve(sub)
    _add_loadtest(sub)
    return p


def _add_play(sub: Subparsers) -> None:
    sp = sub.add_parser("play", help="play in the terminal against bots")
    game_args(sp)
    sp.add_argument("--humans", type=int, default=1, help="how many seats people take (the first ones)")
    sp.add_argument("--bot", default="greedy", help="bot for the other seats (random, greedy, ...)")
    sp.add_argument("--save", help="write the replay to this file at the end")
    sp.set_defaults(func=cmd_play)


def _add_bench(sub: Subparsers) -> None:
    sp = sub.add_parser("bench", help="decisions per second of random play")
    game_args(sp)
    sp.add_argument("--seconds", type=seconds, default=5.0, help="measured time (above 0, at most a day)")
    sp.add_argument("--playouts", action="store_true",
                    help="playouts per CPU second from mid-game positions, checked path against fast path")
    sp.set_defaults(func=cmd_bench)


def _add_measures(sub: Subparsers) -> None:
    """The commands that play many games and measure them: simulate, dataset,
    playtest, analyze (in the order ``thieves --help`` lists them)."""
    from .analyze import add_parser as add_analyze
    from .dataset import add_parser as add_dataset
    from .simulate import add_parser as add_simulate
    add_simulate(sub, game_args)
    sub.choices["simulate"].set_defaults(func=cmd_simulate)
    add_dataset(sub, game_args)
    sp = sub.add_parser("playtest", help="how the components play: bot games, per-component figures")
    game_args(sp)
    sp.add_argument("--bots", default="greedy", help="one bot for every seat, or one per seat (comma-separated)")
    sp.add_argument("--games", type=int, default=100)
    sp.add_argument("-j", "--jobs", type=int, default=1, help="worker processes (same results as 1)")
    sp.add_argument("--top", type=int, default=12, help="rows per component kind (busiest and quietest)")
    sp.add_argument("--out", help="write every figure to this JSON file")
    sp.set_defaults(func=cmd_playtest)
    add_analyze(sub)


def _add_replay(sub: Subparsers) -> None:
    sp = sub.add_parser("replay", help="replay a saved game")
    sp.add_argument("file")
    sp.add_argument("--viewer", type=int, default=None, help="see the game as this player (default spectator)")
    sp.add_argument("--data-dir", default=None,
                    help="your own component data files, for a replay played with them (the "
                         "directory a replay file names is never read)")
    sp.set_defaults(func=cmd_replay)


def _add_data(sub: Subparsers) -> None:
    sp = sub.add_parser("data", help="your own box's data: export templates, check, diff")
    sp.add_argument("action", choices=["export", "check", "diff"])
    sp.add_argument("game", help="game slug, e.g. thieves-den")
    sp.add_argument("dir", help="the directory of your data files")
    sp.add_argument("--games", type=int, default=3, help="check: seeded games to play with the data")
    sp.set_defaults(func=cmd_data)


def _add_serve(sub: Subparsers) -> None:
    sp = sub.add_parser("serve", help="start the web server")
    sp.add_argument("--host", default="127.0.0.1")
    sp.add_argument("--port", type=int, default=8000)
    sp.add_argument("--database-url", default=None, help="SQLAlchemy URL (default: SQLite file)")
    sp.add_argument("--public-url", default=None,
                    help="the address people use, e.g. https://thieves.example (links and origin checks; "
                         "default $THIEVES_PUBLIC_URL)")
    sp.add_argument("--redis-url", default=None,
                    help="Redis for several processes on one database, e.g. redis://127.0.0.1:6379/0 "
                         "(default $THIEVES_REDIS_URL; none: this process alone)")
    sp.add_argument("--allowed-host", action="append", metavar="HOST",
                    help="a name the Host header may give besides the public URL's (repeatable; "
                         "*.example.org for its subdomains; default $THIEVES_ALLOWED_HOSTS; with neither "
                         "this nor --public-url: localhost, 127.0.0.1, [::1] and --host)")
    sp.add_argument("--trusted-proxy", action="append", metavar="ADDRESS",
                    help="a proxy in front whose X-Forwarded-For says who is asking (repeatable; an "
                         "address or a network; default $THIEVES_TRUSTED_PROXIES; none: the peer's address counts)")
    sp.set_defaults(func=cmd_serve)


def _add_loadtest(sub: Subparsers) -> None:
    sp = sub.add_parser("loadtest", help="live tables with bots and spectators: actions/s and broadcast latency")
    sp.add_argument("--tables", type=int, default=50)
    sp.add_argument("--spectators", type=int, default=2, help="spectator sockets per table")
    sp.add_argument("--game", default="thiefs-market")
    sp.add_argument("--players", type=int, default=3)
    sp.add_argument("--seconds", type=float, default=15.0, help="measured time (after --warmup)")
    sp.add_argument("--warmup", type=float, default=5.0)
    sp.add_argument("--bot-delay", type=float, default=0.5, help="seconds a bot waits before each move")
    sp.add_argument("--processes", type=int, default=1, help="servers to start (several need Redis)")
    sp.add_argument("--database-url", default=None, help="default: a new SQLite file")
    sp.add_argument("--redis-url", default=None)
    sp.add_argument("--url", action="append", help="use a running server instead (repeatable)")
    sp.add_argument("--by-table", action="store_true",
                    help="every socket of a table on the server that made it (a balancer routing by "
                         "table), instead of spreading the spectators over the servers")
    sp.add_argument("--pid", type=int, action="append",
                    help="with --url: a server's process id, to report its CPU time (repeatable)")
    sp.add_argument("--whole", action="store_true",
                    help="every view whole (sockets that do not ask for patches, as before them)")
    sp.add_argument("--baseline-src", metavar="SRC",
                    help="compare: also run servers of another source tree (its src folder), "
                         "alternating with this one's, and report both")
    sp.add_argument("--rounds", type=int, default=2, help="with --baseline-src: runs of each side")
    sp.set_defaults(func=cmd_loadtest)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    console = Console()
    try:
        return int(args.func(args, console))
    except ThievesError as exc:
        console.print(f"[red]error:[/red] {exc}", highlight=False)
        return 2
    except (OSError, UnicodeDecodeError) as exc:
        console.print(f"[red]error:[/red] {exc}", highlight=False)
        return 1
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # noqa: BLE001 - a bug, not bad input: one line, details on request
        if os.environ.get("THIEVES_DEBUG"):
            raise
        console.print(f"[red]internal error:[/red] {type(exc).__name__}: {exc} "
                      "(set THIEVES_DEBUG=1 for the traceback)", highlight=False)
        return 3


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
