"""Speed of the wrappers against the raw engine: ``python -m thieves.rl.bench GAME``.

Three loops over seeded random games, each for about ``seconds``:

* engine: ``legal_actions`` then ``apply_action`` of a random legal action (one decision);
* table: the integer wrapper (:class:`~thieves.rl.driver.Table`): the mask as a
  numpy array, then ``step`` with a random legal integer (one step; a decision is
  one step or more); the engine then replays exactly those games, decision by
  decision, for a comparison on the same positions (random integers and random
  engine actions lead to different games);
* pettingzoo: ``env.last()`` (observation tensor and mask) then ``env.step``.
"""
from __future__ import annotations

import argparse
import random
import time
from typing import Any, Callable

import thieves

from .driver import Table


def engine_rate(slug: str, n: int, seconds: float) -> tuple[float, int]:
    game = thieves.load_game(slug)
    rnd = random.Random(0)
    done = 0
    seed = 0
    end = time.perf_counter() + seconds
    start = time.perf_counter()
    while time.perf_counter() < end:
        st = game.new_game(n, seed=seed)
        seed += 1
        while not st.is_terminal():
            p = st.players_to_act()[0]
            acts = st.legal_actions(p)
            st.apply_action(p, acts[rnd.randrange(len(acts))])
            done += 1
    return done / (time.perf_counter() - start), done


def table_rate(slug: str, n: int, seconds: float,
               record: list[tuple[int, list[Any]]] | None = None) -> tuple[float, float]:
    """(steps per second, engine decisions per second) through the integer wrapper; the
    finished games' (seed, decisions) go to ``record``."""
    rnd = random.Random(0)
    steps = decisions = 0
    seed = 0
    end = time.perf_counter() + seconds
    start = time.perf_counter()
    while time.perf_counter() < end:
        t = Table(slug, n, seed)
        seed += 1
        while not t.is_over():
            t.mask()
            legal = t.legal()
            if t.step(legal[rnd.randrange(len(legal))]) is not None:
                decisions += 1
            steps += 1
        if record is not None:
            record.append((seed - 1, t.state.history))
    el = time.perf_counter() - start
    return steps / el, decisions / el


def engine_replay_rate(slug: str, n: int, games: list[tuple[int, list[Any]]]) -> float:
    """Engine decisions per second on exactly the games the wrapper played
    (``legal_actions`` then ``apply_action`` of the recorded decision)."""
    game = thieves.load_game(slug)
    done = 0
    start = time.perf_counter()
    for seed, history in games:
        st = game.new_game(n, seed=seed)
        for p, action in history:
            st.players_to_act()
            st.legal_actions(p)
            st.apply_action(p, action)
            done += 1
    return done / (time.perf_counter() - start)


def pettingzoo_rate(slug: str, n: int, seconds: float, tensors: bool = True,
                    clock: Callable[[], float] = time.perf_counter) -> float:
    """PettingZoo steps per second of ``clock`` (wall time, or ``time.process_time``
    for CPU time), with the observation tensor or the mask alone."""
    import numpy as np

    from .pz import env as make_env
    rnd = np.random.default_rng(0)
    e = make_env(slug, n)
    steps = 0
    seed = 0
    end = clock() + seconds
    start = clock()
    while clock() < end:
        e.reset(seed=seed)
        seed += 1
        for _agent in e.agent_iter():
            obs, _r, term, trunc, _i = e.last(observe=tensors)
            if term or trunc:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"] if tensors else e.action_mask(_agent))
            e.step(int(legal[rnd.integers(legal.size)]))
            steps += 1
    return steps / (clock() - start)


def tensor_rates(slug: str, n: int, seconds: float, rounds: int) -> tuple[float, float, float, float]:
    """PettingZoo steps per CPU second (``time.process_time``): the mask alone; the
    tensors before (the reference encoder, built at every step); the fast path built at
    every step; after (the fast path, kept by the table between the steps of one
    decision). Measures alternate in ``rounds`` slices and the best of each is kept."""
    from . import observe
    sl = seconds / rounds
    best = [0.0, 0.0, 0.0, 0.0]
    was = observe.fast_path_enabled(), Table.reuse_tensors
    try:
        for _ in range(rounds):
            best[0] = max(best[0], pettingzoo_rate(slug, n, sl, False, time.process_time))
            for k, (fast, reuse) in enumerate(((False, False), (True, False), (True, True)), 1):
                observe.set_fast_path(fast)
                Table.reuse_tensors = reuse
                best[k] = max(best[k], pettingzoo_rate(slug, n, sl, True, time.process_time))
    finally:
        observe.set_fast_path(was[0])
        Table.reuse_tensors = was[1]
    return best[0], best[1], best[2], best[3]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", default=["thiefs-market", "thieves-den", "age-of-thieves",
                                                "thiefdom", "cadwallon"])
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--rounds", type=int, default=5,
                    help="measures alternate in this many short slices; the best of each is kept "
                         "(a loaded machine slows whichever loop it hits)")
    ap.add_argument("--no-pettingzoo", action="store_true")
    ap.add_argument("--tensors", action="store_true",
                    help="only the PettingZoo loop per CPU second: mask only, reference tensors, fast tensors")
    args = ap.parse_args(argv)
    if args.tensors:
        print("game players | PettingZoo steps per CPU second: mask only | with tensors (share of mask "
              "only): before (reference encoder) | fast path | after (fast path, kept between the "
              "steps of a decision) | after / before")
        for slug in args.games:
            g = thieves.load_game(slug)
            n = args.players or max(g.min_players, min(3, g.max_players))
            mask, ref, fast, after = tensor_rates(slug, n, args.seconds, args.rounds)
            print(f"{slug} {n} | {mask:,.0f} | {ref:,.0f} ({ref / mask:.2f}) | {fast:,.0f} ({fast / mask:.2f}) "
                  f"| {after:,.0f} ({after / mask:.2f}) | {after / ref:.1f}", flush=True)
        return
    print("game players | engine decisions/s (random; same games as the wrapper) | wrapper steps/s "
          "(decisions/s) | step cost / engine decision, same games | pettingzoo steps/s: mask only, "
          "with observation tensors")
    for slug in args.games:
        g = thieves.load_game(slug)
        n = args.players or max(g.min_players, min(3, g.max_players))
        sl = args.seconds / args.rounds
        eng = same = steps = decs = pz_mask = pz_obs = 0.0
        for _ in range(args.rounds):
            eng = max(eng, engine_rate(slug, n, sl)[0])
            games: list[tuple[int, list[Any]]] = []
            s_, d_ = table_rate(slug, n, sl, games)
            if s_ > steps:
                steps, decs = s_, d_
            same = max(same, engine_replay_rate(slug, n, games))
            if not args.no_pettingzoo:
                pz_mask = max(pz_mask, pettingzoo_rate(slug, n, sl, False))
                pz_obs = max(pz_obs, pettingzoo_rate(slug, n, sl))
        pz = "" if args.no_pettingzoo else f"{pz_mask:,.0f}, {pz_obs:,.0f}"
        print(f"{slug} {n} | {eng:,.0f}; {same:,.0f} | {steps:,.0f} ({decs:,.0f}) | "
              f"{same / steps:.2f} | {pz}")


if __name__ == "__main__":
    main()
