"""Per-game speed table for docs/engine.md, side by side with catanatron.

Run from the repository root::

    python tools/speed_table.py [--catanatron /path/to/venv/bin/python] [--seconds 1.5]

Each game (and catanatron, in its own virtual environment: ``python3 -m venv
/tmp/catan && /tmp/catan/bin/pip install catanatron``) is measured in a child
process, one after the other in this one run, and the table is printed as
Markdown. Figures: decisions/s of seeded random games through the checked
contract; playouts/s from seeded mid-game positions (clone, then random
decisions to the end) by the checked path and by the trusted fast path;
clone, observation (a seat's, log included) and snapshot (``to_json`` /
``state_from_json``) in microseconds.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

THIEVES = r'''
import json, sys, time
from thieves.cli.bench import bench, checked_playout, midgame_positions
from thieves.core.registry import load_game
from thieves.core.rng import Rng
slug, secs = sys.argv[1], float(sys.argv[2])
game = load_game(slug)
def per_call(fn, n_min=20):
    n, t0 = 0, time.process_time()
    while True:
        fn(); n += 1
        t = time.process_time() - t0
        if n >= n_min and t > secs / 4:
            return t / n * 1e6
r = bench(slug, secs)
starts = midgame_positions(slug, 8)
def playouts(fast):
    n, t0 = 0, time.process_time()
    while time.process_time() - t0 < secs:
        s = starts[n % 8].clone(); rng = Rng.from_seed(n)
        s.random_playout(rng) if fast else checked_playout(s, rng)
        n += 1
    return n / (time.process_time() - t0)
mid = starts[0]
seat = mid.players_to_act()[0]
text = mid.to_json()
print(json.dumps({"name": game.name, "decisions": r.decisions_per_cpu_second,
    "checked": playouts(False), "fast": playouts(True),
    "clone": per_call(mid.clone), "observation": per_call(lambda: mid.observation(seat)),
    "to_json": per_call(mid.to_json), "from_json": per_call(lambda: game.state_from_json(text))}))
'''

CATAN = r'''
import json, random, sys, time
from catanatron import Game, RandomPlayer, Color
from catanatron.json import GameEncoder
secs = float(sys.argv[1])
def players():
    return [RandomPlayer(c) for c in (Color.RED, Color.BLUE, Color.WHITE, Color.ORANGE)]
def finished(g):
    return g.winning_color() is not None or g.state.num_turns >= 1000
def per_call(fn, n_min=20):
    n, t0 = 0, time.process_time()
    while True:
        fn(); n += 1
        t = time.process_time() - t0
        if n >= n_min and t > secs / 4:
            return t / n * 1e6
# decisions/s of random 4-player games (play_tick checks legality like our contract)
dec, t0, seed = 0, time.process_time(), 1
while time.process_time() - t0 < secs:
    g = Game(players(), seed=seed); seed += 1
    while not finished(g):
        g.play_tick(); dec += 1
decisions = dec / (time.process_time() - t0)
# mid-game positions: halfway through seeded random games
starts = []
for i in range(8):
    g = Game(players(), seed=100 + i); n = 0
    while not finished(g):
        g.play_tick(); n += 1
    g = Game(players(), seed=100 + i)
    for _ in range(n // 2):
        g.play_tick()
    starts.append(g)
def playouts(check):
    n, t0 = 0, time.process_time()
    while time.process_time() - t0 < secs:
        g = starts[n % 8].copy(); random.seed(n)
        while not finished(g):
            acts = g.state.playable_actions
            g.execute(random.choice(acts), validate_action=check)
        n += 1
    return n / (time.process_time() - t0)
mid = starts[0]
print(json.dumps({"name": "catanatron (Settlers of Catan)", "decisions": decisions,
    "checked": playouts(True), "fast": playouts(False), "clone": per_call(mid.copy),
    "observation": None, "to_json": per_call(lambda: json.dumps(mid, cls=GameEncoder)),
    "from_json": None}))
'''

GAMES = ["thiefs-market", "thieves-den", "age-of-thieves", "thiefdom", "cadwallon"]


def run(cmd: list[str], env: dict[str, str] | None = None) -> dict[str, object] | None:
    out = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if out.returncode != 0:
        print(out.stderr.strip().splitlines()[-1] if out.stderr.strip() else "failed", file=sys.stderr)
        return None
    result: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def cell(value: object, fmt: str) -> str:
    return "n/a" if value is None else format(value, fmt)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--catanatron", default="/tmp/catan/bin/python",
                    help="python of a virtual environment with catanatron installed")
    ap.add_argument("--seconds", type=float, default=1.5, help="time per measured figure")
    args = ap.parse_args()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.abspath("src") + os.pathsep + env.get("PYTHONPATH", "")
    rows = []
    for slug in GAMES:
        rows.append(run([sys.executable, "-c", THIEVES, slug, str(args.seconds)], env))
    if os.path.exists(args.catanatron):
        rows.append(run([args.catanatron, "-c", CATAN, str(args.seconds)]))
    else:
        print(f"no catanatron at {args.catanatron}: its row is left out", file=sys.stderr)
    print("| game | decisions/s | playouts/s checked | playouts/s fast | clone µs "
          "| observation µs | to_json µs | state_from_json µs |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        if r is None:
            continue
        print(f"| {r['name']} | {cell(r['decisions'], ',.0f')} | {cell(r['checked'], ',.0f')} "
              f"| {cell(r['fast'], ',.0f')} | {cell(r['clone'], ',.0f')} | {cell(r['observation'], ',.0f')} "
              f"| {cell(r['to_json'], ',.0f')} | {cell(r['from_json'], ',.0f')} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
