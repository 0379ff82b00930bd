"""How much the replay endpoint costs a server and the players at its other tables.

Starts ``thieves serve`` on a loopback port (with the ``thieves`` found on
``PYTHONPATH``), plays a long game (Thiefdom, 4 players) at one table (random legal
decisions over HTTP), then measures:

* the replay endpoint's cost per request late in that game (steps not asked before);
* the latency of players' actions at another table (p50/p99), alone and with
  ``--clients`` looping replay clients asking for steps of the long game.

Loopback only, bounded loops. Run it for two versions of the code on the same
machine to compare them, e.g.::

    PYTHONPATH=src python tools/replay_load.py --decisions 600
"""
from __future__ import annotations

import argparse
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import httpx


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _table(c: httpx.Client, players: int, game: str = "age-of-thieves") -> tuple[str, dict[str, str]]:
    r = c.post("/api/tables", json={"game": game, "players": players,
                                    "seats": [{"kind": "human"} for _ in range(players)]})
    r.raise_for_status()
    return r.json()["id"], r.json()["tokens"]


def _step(c: httpx.Client, tid: str, toks: dict[str, str], rng: random.Random) -> float | None:
    """One random legal decision of a seat to act; the seconds its POST took (None: game over)."""
    view = c.get(f"/api/tables/{tid}/view").json()
    if view["terminal"] or not view["to_act"]:
        return None
    seat = rng.choice(view["to_act"])
    mine = c.get(f"/api/tables/{tid}/view", params={"token": toks[str(seat)]}).json()
    action = rng.choice(mine["legal"])["action"]
    t = time.perf_counter()
    r = c.post(f"/api/tables/{tid}/actions", json={"token": toks[str(seat)], "action": action})
    took = time.perf_counter() - t
    r.raise_for_status()
    return took


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="thiefdom", help="the long game's game (4 players)")
    ap.add_argument("--decisions", type=int, default=600, help="decisions of the long game")
    ap.add_argument("--clients", type=int, default=4, help="looping replay clients")
    ap.add_argument("--actions", type=int, default=150, help="actions timed at the other table")
    ap.add_argument("--replays", type=int, default=3000, help="most requests per replay client")
    args = ap.parse_args()
    port = _port()
    db = os.path.join(tempfile.mkdtemp(), "t.db")
    server = subprocess.Popen([sys.executable, "-m", "thieves.cli.main", "serve", "--host", "127.0.0.1",
                               "--port", str(port), "--database-url", f"sqlite:///{db}"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        c = httpx.Client(base_url=base, timeout=60)
        for _ in range(200):
            try:
                c.get("/api/games")
                break
            except httpx.TransportError:
                time.sleep(0.1)
        rng = random.Random(1)
        long_id, long_toks = _table(c, 4, args.game)
        played = 0
        while played < args.decisions and _step(c, long_id, long_toks, rng) is not None:
            played += 1
        total = c.get(f"/api/tables/{long_id}/replay/0").json()["total"]
        cost = []
        for k in range(total, max(0, total - 30), -1):
            t = time.perf_counter()
            c.get(f"/api/tables/{long_id}/replay/{k}").raise_for_status()
            cost.append(time.perf_counter() - t)
        over = c.get(f"/api/tables/{long_id}/view").json()["terminal"]
        print(json.dumps({"game": args.game, "decisions": played, "over": over, "replay_steps": total,
                          "replay_ms_first": round(cost[0] * 1000, 1),
                          "replay_ms_p50": round(_pct(cost, 0.5), 1),
                          "replay_ms_max": round(max(cost) * 1000, 1)}))
        for clients in (0, args.clients):
            stop = threading.Event()
            counts = [0] * clients
            refused = [0] * clients

            def loop(i: int) -> None:
                cl = httpx.Client(base_url=base, timeout=60)
                r = random.Random(100 + i)
                while not stop.is_set() and counts[i] + refused[i] < args.replays:
                    resp = cl.get(f"/api/tables/{long_id}/replay/{r.randrange(total + 1)}")
                    if resp.status_code == 429:
                        refused[i] += 1
                    else:
                        counts[i] += 1

            threads = [threading.Thread(target=loop, args=(i,)) for i in range(clients)]
            for th in threads:
                th.start()
            tid, toks = _table(c, 2)
            lat = []
            while len(lat) < args.actions:
                took = _step(c, tid, toks, rng)
                if took is None:
                    tid, toks = _table(c, 2)
                    continue
                lat.append(took)
            stop.set()
            for th in threads:
                th.join()
            print(json.dumps({"replay_clients": clients, "actions": len(lat),
                              "action_ms_p50": round(_pct(lat, 0.5), 1),
                              "action_ms_p99": round(_pct(lat, 0.99), 1),
                              "replays_served": sum(counts), "replays_refused": sum(refused)}))
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main()
