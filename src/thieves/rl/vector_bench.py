"""Steps per CPU second of the vector environments against the single one, and the dataset rate.

``python -m thieves.rl.vector_bench [GAME ...] --players 3 --envs 8 --seconds 1.5 --rounds 3
[--dataset thiefs-market,thieves-den --games 10]``

Every environment is one seat against random bots, stepped with random legal actions read
from the masks; a step is one integer of the learning seat (the bots' moves happen inside
it). Measures alternate in slices of ``--seconds`` of this process's CPU time (so the load
of a shared machine counts less than in wall time) and the best slice of each is kept.
"""
from __future__ import annotations

import argparse
import os
import tempfile
import time
from typing import Callable

import numpy as np

from .gym_env import ThievesGym
from .vector import ThievesVectorEnv, gym_vector_env

GAMES = ["thiefs-market", "thieves-den", "age-of-thieves", "thiefdom", "cadwallon"]
KINDS = ["single, masks only", "single, reference tensors", "single, tensors", "vector, masks only",
         "vector, tensors", "SyncVectorEnv, tensors"]
#: the kind measured with the reference encoder at every step (the tensors before the fast path)
REFERENCE = "single, reference tensors"


def _stepper(kind: str, slug: str, n: int, envs: int, seed: int) -> Callable[[], int]:
    """A function doing a few steps and returning how many (agent steps over all games)."""
    rng = np.random.default_rng(seed)
    if kind.startswith("single"):
        env = ThievesGym(slug, n)
        mask = [env.reset(seed=seed)[1]["action_mask"]]
        tensors = kind.endswith("tensors")
        if kind == REFERENCE:
            return _with_reference(_single(env, mask, rng, tensors))
        return _single(env, mask, rng, tensors)
    vec = (gym_vector_env(slug, n, envs) if kind.startswith("Sync")
           else ThievesVectorEnv(slug, n, envs, tensors=kind.endswith("tensors")))
    _, info = vec.reset(seed=seed)
    box = [info["action_mask"]]

    def batched() -> int:
        for _ in range(2):
            acts = [rng.choice(np.flatnonzero(m)) for m in box[0]]
            box[0] = vec.step(np.array(acts))[4]["action_mask"]
        return 2 * envs
    return batched


def _with_reference(fn: Callable[[], int]) -> Callable[[], int]:
    """``fn`` run with the reference encoder and no tensor kept between steps."""
    from .driver import Table
    from .observe import set_fast_path

    def run() -> int:
        set_fast_path(False)
        Table.reuse_tensors = False
        try:
            return fn()
        finally:
            set_fast_path(True)
            Table.reuse_tensors = True
    return run


def _single(env: ThievesGym, mask: list[np.ndarray], rng: np.random.Generator, tensors: bool) -> Callable[[], int]:
    """Sixteen steps of one environment with random legal actions."""
    def single() -> int:
        for _ in range(16):
            a = int(rng.choice(np.flatnonzero(mask[0])))
            if tensors:
                _, _, te, tr, info = env.step(a)
            else:
                _, te, tr, info = env.advance(a)
            mask[0] = env.reset()[1]["action_mask"] if te or tr else info["action_mask"]
        return 16
    return single


def _rate(fn: Callable[[], int], seconds: float) -> float:
    start = time.process_time()
    done = 0
    while (spent := time.process_time() - start) < seconds:
        done += fn()
    return done / spent


def dataset_rate(slug: str, n: int, games: int) -> tuple[int, float]:
    """Decisions written per CPU second by ``write_dataset`` (greedy bots, -j 1)."""
    from .dataset import write_dataset
    with tempfile.TemporaryDirectory() as tmp:
        start = time.process_time()
        rows = write_dataset(slug, ["greedy"] * n, games, os.path.join(tmp, "d.parquet"), seed=1)
        return rows, rows / (time.process_time() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("games", nargs="*", default=GAMES)
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--envs", type=int, default=8)
    ap.add_argument("--seconds", type=float, default=1.5)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--dataset", default="thiefs-market,thieves-den", help="games for the dataset rate ('' for none)")
    ap.add_argument("--dataset-games", type=int, default=10)
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}; {args.players} players, {args.envs} envs, "
          f"best of {args.rounds} slices of {args.seconds} CPU s")
    print("| game | " + " | ".join(KINDS) + " |")
    print("|---|" + "---|" * len(KINDS))
    for slug in args.games:
        steppers = {k: _stepper(k, slug, args.players, args.envs, 1) for k in KINDS}
        best = dict.fromkeys(KINDS, 0.0)
        for _ in range(args.rounds):
            for k in KINDS:
                best[k] = max(best[k], _rate(steppers[k], args.seconds))
        print(f"| {slug} | " + " | ".join(f"{best[k]:,.0f}" for k in KINDS) + " |", flush=True)
    for slug in filter(None, args.dataset.split(",")):
        try:
            rows, rate = dataset_rate(slug, args.players, args.dataset_games)
        except ImportError as exc:
            print(f"dataset {slug}: needs pyarrow (the rl extra): {exc}")
            continue
        print(f"dataset {slug}: {rows:,} decisions of {args.dataset_games} games, {rate:,.0f} decisions/CPU s",
              flush=True)
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
