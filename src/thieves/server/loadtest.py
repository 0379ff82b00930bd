"""``thieves loadtest``: live tables with bots and websocket spectators, measured.

Starts ``--processes`` servers on free loopback ports (or uses ``--url``),
creates ``--tables`` tables of ``--game`` in which seat 1 is played by this
program (a random legal action as soon as it may act) and the other seats by
the server's random bots, opens ``--spectators`` sockets per table (spread
over the servers; every socket asks for patches as the browser does, or with
``--whole`` for every view whole), and for ``--seconds`` counts every decision
the spectators see (actions/s) and, for each action this program sends, the
time until each spectator socket receives the position after it
(action-to-broadcast, p50 and p99). A finished game is replaced by a new table.
"""
from __future__ import annotations

import asyncio
import json
import os
import random
import re
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from typing import Any

from .patches import apply_patch


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    #: from sending an action to the acting socket's own new position
    own: list[float] = field(default_factory=list)
    decisions: int = 0
    errors: int = 0
    tables_made: int = 0
    dropped: int = 0
    refused: int = 0
    measuring: bool = False
    #: CPU seconds of this program and of the servers during the measured time
    client_cpu: float = 0.0
    server_cpu: float | None = None
    #: frames (whole views and patches) one spectator socket per table got while
    #: measuring, and their characters (as text, before the socket's compression)
    frames: int = 0
    frame_bytes: int = 0


def process_cpu(pid: int) -> float:
    """CPU seconds (user + system, all threads) a process has used so far (Linux)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _servers_cpu(pids: list[int]) -> float | None:
    try:
        return sum(process_cpu(pid) for pid in pids)
    except (OSError, ValueError, IndexError):  # not Linux, or a server is gone
        return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_servers(n: int, database_url: str | None, redis_url: str | None, bot_delay: float,
                  prefix: str, src: str | None = None) -> tuple[list[str], list[subprocess.Popen[bytes]]]:
    """Start ``n`` servers; ``src``: the source tree they run (a ``src`` folder
    put first on their ``PYTHONPATH``), else this one."""
    if n > 1 and not redis_url:
        raise SystemExit("several processes need --redis-url (and a PostgreSQL --database-url)")
    if database_url is None:
        database_url = f"sqlite:///{tempfile.mkdtemp(prefix='thieves-load-')}/load.db"
    env = dict(os.environ, THIEVES_BOT_DELAY=str(bot_delay), THIEVES_TABLE_PREFIX=prefix,
               THIEVES_TABLES_PER_ADDRESS="0", THIEVES_OPEN_TABLES="0", THIEVES_SOCKETS_PER_TABLE="0",
               THIEVES_SOCKETS_PER_ADDRESS="0")
    if src is not None:
        env["PYTHONPATH"] = os.pathsep.join([src, *filter(None, [os.environ.get("PYTHONPATH")])])
    urls, procs = [], []
    for _ in range(n):
        port = _free_port()
        cmd = [sys.executable, "-m", "thieves.cli.main", "serve", "--host", "127.0.0.1", "--port", str(port),
               "--database-url", database_url]
        if redis_url:
            cmd += ["--redis-url", redis_url]
        procs.append(subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        urls.append(f"http://127.0.0.1:{port}")
    for url, proc in zip(urls, procs):
        deadline = time.time() + 60
        while True:
            try:
                urllib.request.urlopen(url + "/api/games", timeout=2).read()
                break
            except OSError:
                if proc.poll() is not None or time.time() > deadline:
                    raise SystemExit(f"the server at {url} did not start")
                time.sleep(0.3)
    return urls, procs


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        answer: dict[str, Any] = json.loads(r.read())
        return answer


async def one_table(i: int, urls: list[str], game: str, players: int, spectators: int, stats: Stats,
                    stop: asyncio.Event, by_table: bool = False, patches: bool = True) -> None:
    import websockets

    rng = random.Random(i)
    while not stop.is_set():
        base = urls[i % len(urls)]
        seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * (players - 1)
        try:
            made = await asyncio.to_thread(_post, base + "/api/tables",
                                           {"game": game, "players": players, "seats": seats})
        except OSError:
            stats.errors += 1
            await asyncio.sleep(1)
            continue
        stats.tables_made += 1
        tid, token = made["id"], made["tokens"]["0"]
        pending: dict[int, float] = {}  # ply the driver acted at -> when it sent the action
        done = asyncio.Event()

        async def watch(url: str, counts: bool) -> None:
            seen = -1
            measured: set[int] = set()
            ws_url = url.replace("http://", "ws://") + f"/ws/{tid}" + ("?patch=1" if patches else "")
            try:
                async with websockets.connect(ws_url, max_size=None) as ws:
                    async for text in ws:
                        now = time.perf_counter()
                        frame = frame_head(text)
                        if frame.get("type") not in ("state", "patch"):
                            continue
                        ply = frame["ply"]
                        if stats.measuring and counts:
                            stats.frames += 1
                            stats.frame_bytes += len(text)
                        if seen >= 0 and stats.measuring:
                            stats.decisions += max(0, ply - seen) if counts else 0  # one socket per table counts
                        for at, sent in list(pending.items()):
                            if ply > at and at not in measured:  # the first frame after it
                                measured.add(at)
                                if stats.measuring:
                                    stats.latencies.append(now - sent)
                        seen = max(seen, ply)
                        if frame["terminal"] or stop.is_set():
                            done.set()
                            return
            except Exception:  # noqa: BLE001 - a dropped socket counts, the run goes on
                stats.dropped += 1

        # spread over the servers, or all on the table's own (a balancer that routes by table)
        watchers = [asyncio.create_task(watch(urls[(i + (0 if by_table else k)) % len(urls)], k == 0))
                    for k in range(spectators)]
        try:
            ws_url = base.replace("http://", "ws://") + f"/ws/{tid}?token={token}" + ("&patch=1" if patches else "")
            own: set[int] = set()
            last: dict[str, Any] = {}
            async with websockets.connect(ws_url, max_size=None) as ws:
                while not stop.is_set() and not done.is_set():
                    try:
                        text = await asyncio.wait_for(ws.recv(), 1.0)
                    except asyncio.TimeoutError:
                        continue
                    frame = json.loads(text)
                    if frame.get("type") == "error":
                        stats.refused += 1
                        continue
                    if frame.get("type") == "patch" and last:
                        frame = apply_patch(last, frame, svg=False)  # the board is not looked at
                    if frame.get("type") != "state":
                        continue
                    last = frame
                    if frame["ply"] - 1 in pending and (frame["ply"] - 1) not in own:
                        own.add(frame["ply"] - 1)
                        if stats.measuring:
                            stats.own.append(time.perf_counter() - pending[frame["ply"] - 1])
                    # answers older than every spectator's view are done with
                    for at in [a for a in pending if a < frame["ply"]]:
                        if time.perf_counter() - pending[at] > 5:
                            del pending[at]
                    if frame["terminal"]:
                        break
                    legal = frame.get("legal") or []
                    if legal and 0 in frame["to_act"]:
                        action = rng.choice(legal)["action"]
                        pending[frame["ply"]] = time.perf_counter()
                        await ws.send(json.dumps({"type": "action", "action": action, "ply": frame["ply"]}))
        except Exception:  # noqa: BLE001
            stats.errors += 1
        finally:
            done.set()
            await asyncio.sleep(0.2)
            for w in watchers:
                w.cancel()


_HEAD = re.compile(r'{"type":\s*"(\w+)".*?"ply":\s*(\d+),\s*"terminal":\s*(true|false)', re.S)


def frame_head(text: str | bytes) -> dict[str, Any]:
    """What a spectator needs of a frame (its type, move number and whether the
    game is over), read from its first characters instead of parsing the whole
    board: the client shares the machine with the servers it measures."""
    if isinstance(text, str):
        m = _HEAD.match(text, 0, 600) if text.startswith('{"type"') else None
        if m is not None:
            return {"type": m[1], "ply": int(m[2]), "terminal": m[3] == "true"}
    frame: dict[str, Any] = json.loads(text)
    return frame


def _pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


async def run(urls: list[str], tables: int, game: str, players: int, spectators: int, seconds: float,
              warmup: float, pids: list[int] | None = None, by_table: bool = False,
              patches: bool = True) -> Stats:
    stats = Stats()
    stop = asyncio.Event()
    tasks = [asyncio.create_task(one_table(i, urls, game, players, spectators, stats, stop, by_table, patches))
             for i in range(tables)]
    await asyncio.sleep(warmup)
    stats.measuring = True
    client0, server0 = time.process_time(), _servers_cpu(pids or [])
    await asyncio.sleep(seconds)
    stats.measuring = False
    server1 = _servers_cpu(pids or [])
    stats.client_cpu = time.process_time() - client0
    if pids and server0 is not None and server1 is not None:
        stats.server_cpu = server1 - server0
    stop.set()
    await asyncio.wait(tasks, timeout=10)
    for t in tasks:
        t.cancel()
    return stats


def check_target(game: str, players: int, urls: list[str]) -> None:
    """Refuse, before anything starts, a game the servers do not have (or a
    number of players it does not take) and a server that does not answer
    (ThievesError, so the command exits non-zero with the reason)."""
    from ..core.errors import ThievesError

    for url in urls:
        try:
            with urllib.request.urlopen(url.rstrip("/") + "/api/games", timeout=10) as r:
                catalog = json.loads(r.read())
        except (OSError, ValueError) as exc:
            raise ThievesError(f"the server at {url} does not answer ({exc})") from None
        slugs = {g.get("slug"): g for g in catalog if isinstance(g, dict)} if isinstance(catalog, list) else {}
        _check_game(game, players, slugs, f"the server at {url}")
    if not urls:
        from .tables import playable_games
        from ..core.registry import load_game

        known = {}
        for slug in playable_games():
            g = load_game(slug)
            known[slug] = {"min_players": g.min_players, "max_players": g.max_players}
        _check_game(game, players, known, "this installation")


def _check_game(game: str, players: int, games: dict[Any, Any], where: str) -> None:
    from ..core.errors import ThievesError

    if game not in games:
        raise ThievesError(f"{where} has no game {game!r}; games: {', '.join(sorted(map(str, games)))}")
    g = games[game]
    low, high = g.get("min_players"), g.get("max_players")
    if isinstance(low, int) and isinstance(high, int) and not low <= players <= high:
        raise ThievesError(f"{game} is played by {low} to {high} players, not {players}")


def measure(args: Any, src: str | None = None) -> tuple[Stats, int, tuple[float, float, float]]:
    """One run: start the servers (of ``src``, else this source tree) unless
    ``--url`` names running ones, load them, stop them. Returns the figures,
    the number of servers and the load average before the run."""
    prefix = f"load{secrets.token_hex(3)}_"
    procs: list[subprocess.Popen[bytes]] = []
    urls = list(args.url or [])
    if not urls:
        urls, procs = start_servers(args.processes, args.database_url, args.redis_url, args.bot_delay, prefix,
                                    src)
    try:
        pids = [p.pid for p in procs] + list(getattr(args, "pid", None) or [])
        load = os.getloadavg()
        stats = asyncio.run(run(urls, args.tables, args.game, args.players, args.spectators, args.seconds,
                                args.warmup, pids, bool(getattr(args, "by_table", False)),
                                not getattr(args, "whole", False)))
    finally:
        for p in procs:
            p.send_signal(signal.SIGTERM)
        for p in procs:
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
        if procs and args.database_url and args.database_url.startswith("postgresql"):
            from .storage import Storage
            Storage(args.database_url, prefix=prefix).drop_all()
    return stats, len(urls), load


def report(args: Any, stats: Stats, servers: int, load: tuple[float, float, float]) -> None:
    lat = stats.latencies
    print(f"{servers} process(es), {args.tables} tables of {args.game} ({args.players} players: 1 driven "
          f"here, {args.players - 1} bots), {args.spectators} spectator socket(s) per table"
          f"{' on its own server' if getattr(args, 'by_table', False) else ''}, "
          f"{'every view whole' if getattr(args, 'whole', False) else 'views as patches'}, "
          f"{args.seconds:.0f} s measured")
    print(f"actions/s (decisions seen): {stats.decisions / args.seconds:.1f}")
    print(f"action-to-broadcast: p50 {_pct(lat, 0.5) * 1000:.1f} ms, p90 {_pct(lat, 0.9) * 1000:.1f} ms, "
          f"p99 {_pct(lat, 0.99) * 1000:.1f} ms "
          f"({len(lat)} frames)")
    print(f"action to the actor's own new position: p50 {_pct(stats.own, 0.5) * 1000:.1f} ms, "
          f"p99 {_pct(stats.own, 0.99) * 1000:.1f} ms")
    per = 1000 / max(stats.decisions, 1)
    server = (f"servers {stats.server_cpu:.1f} s ({stats.server_cpu * per:.2f} ms per decision), "
              if stats.server_cpu is not None else "")
    print(f"CPU during the measured time: {server}this client {stats.client_cpu:.1f} s "
          f"({stats.client_cpu * per:.2f} ms per decision); load average before the run "
          f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print(f"frames to a spectator: {stats.frames}, {stats.frame_bytes / max(stats.frames, 1):.0f} bytes "
          f"per frame (as text, before compression)")
    print(f"tables made: {stats.tables_made}, errors: {stats.errors}, actions refused: {stats.refused}, "
          f"dropped sockets: {stats.dropped}")


def compare(args: Any) -> int:
    """``--baseline-src``: the baseline source tree's servers and this one's,
    alternating for ``--rounds`` rounds (baseline first), each run as one
    without it; then the figures of each side over all its rounds."""
    sides: dict[str, list[Stats]] = {"baseline": [], "new": []}
    for r in range(max(1, args.rounds)):
        for side, src in (("baseline", args.baseline_src), ("new", None)):
            print(f"-- round {r + 1}, {side} ({src or 'this source tree'})", flush=True)
            stats, servers, load = measure(args, src)
            report(args, stats, servers, load)
            sides[side].append(stats)
    print(f"== {args.game}, {max(1, args.rounds)} round(s) each, alternating")
    print("side      decisions  server CPU ms/decision  bytes/frame  broadcast p50/p99 ms")
    cpu: dict[str, float] = {}
    for side, runs in sides.items():
        decisions = sum(s.decisions for s in runs)
        server = [s.server_cpu for s in runs if s.server_cpu is not None]
        cpu[side] = 1000 * sum(server) / max(decisions, 1) if server else float("nan")
        frames = sum(s.frames for s in runs)
        lat = [x for s in runs for x in s.latencies]
        print(f"{side:9} {decisions:9}  {cpu[side]:22.2f}  {sum(s.frame_bytes for s in runs) / max(frames, 1):11.0f}"
              f"  {_pct(lat, 0.5) * 1000:.1f}/{_pct(lat, 0.99) * 1000:.1f}")
    if cpu["baseline"] > 0:
        print(f"server CPU per decision, new / baseline: {cpu['new'] / cpu['baseline']:.2f}")
    return 0 if all(s.tables_made for runs in sides.values() for s in runs) else 1


def main(args: Any) -> int:
    """Run the load test; exits 1 when no table could be made (every request failed)."""
    urls = list(args.url or [])
    check_target(args.game, args.players, urls)
    if getattr(args, "baseline_src", None):
        if urls:
            raise SystemExit("--baseline-src starts its own servers: leave out --url")
        return compare(args)
    stats, servers, load = measure(args)
    report(args, stats, servers, load)
    if stats.tables_made == 0:
        print("error: no table could be made (see the errors above): nothing was measured", file=sys.stderr)
        return 1
    return 0
