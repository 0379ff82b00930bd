"""Train a small masked policy on Thief's Market until it beats random players.

    PYTHONPATH=src python examples/train_masked_policy.py            # about 3 minutes on a laptop CPU
    PYTHONPATH=src python examples/train_masked_policy.py --minutes 1 --game thieves-den --players 2

Only numpy: a linear softmax policy over the game's fixed action space, reading the
observation tensor (squashed with sign(x)*log(1+|x|)), with illegal actions masked out,
trained by REINFORCE with a running baseline and Adam, one seat (random each game)
against built-in random bots (``thieves.rl.gym_env.ThievesGym``). The reward is the
environment's: +1 for a win, -1 otherwise, at the end of the game (``--reward margin``:
own score minus the best other score, which gives a signal against ``--opponents greedy``).

It prints the win rate of the untrained policy, then every few hundred games the
rolling win rate, and at the end the win rates of the trained policy over fresh games,
playing its most likely legal action and sampling from it. Plain REINFORCE on +1/-1
rewards is noisy: from one seed to another a run can stall or fall back, more so in the
games with long piece-by-piece decisions.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from thieves.rl.gym_env import ThievesGym


def features(obs: np.ndarray) -> np.ndarray:
    x = np.sign(obs) * np.log1p(np.abs(obs))
    return np.append(x, 1.0).astype(np.float32)       # a bias input


class LinearPolicy:
    """logits = x @ W over the action space, softmax over the legal actions."""

    def __init__(self, n_in: int, n_actions: int, lr: float, rng: np.random.Generator) -> None:
        self.W = np.zeros((n_in, n_actions), dtype=np.float32)
        self.lr = lr
        self.m = np.zeros_like(self.W)
        self.v = np.zeros_like(self.W)
        self.t = 0
        self.rng = rng

    def probs(self, x: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        legal = np.flatnonzero(mask)
        z = x @ self.W[:, legal]
        z -= z.max()
        p = np.exp(z)
        return legal, p / p.sum()

    def act(self, x: np.ndarray, mask: np.ndarray, greedy: bool = False) -> tuple[int, np.ndarray, np.ndarray, int]:
        legal, p = self.probs(x, mask)
        k = int(p.argmax()) if greedy else int(self.rng.choice(len(legal), p=p))
        return int(legal[k]), legal, p, k

    def update(self, grad: np.ndarray) -> None:
        # Adam, ascending the policy gradient
        self.t += 1
        self.m = 0.9 * self.m + 0.1 * grad
        self.v = 0.999 * self.v + 0.001 * grad * grad
        mh = self.m / (1 - 0.9 ** self.t)
        vh = self.v / (1 - 0.999 ** self.t)
        self.W += self.lr * mh / (np.sqrt(vh) + 1e-8)


def play(env: ThievesGym, policy: LinearPolicy, seed: int, greedy: bool = False,
         trace: list | None = None) -> tuple[float, bool]:
    """One game; returns (reward, won)."""
    obs, info = env.reset(seed=seed)
    done, reward = False, 0.0
    while not done:
        x = features(obs)
        a, legal, p, k = policy.act(x, info["action_mask"], greedy)
        if trace is not None and len(legal) > 1:
            trace.append((x, legal, p, k))
        obs, reward, term, trunc, info = env.step(a)
        done = term or trunc
    return reward, env.seat in info.get("winners", [])


def win_rate(env: ThievesGym, policy: LinearPolicy, games: int, seed: int, greedy: bool) -> float:
    return float(np.mean([play(env, policy, seed + i, greedy)[1] for i in range(games)]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="thiefs-market")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--opponents", default="random")
    ap.add_argument("--reward", default="win", choices=["win", "margin"],
                    help="win: +1/-1; margin: own score minus the best other (for strong opponents)")
    ap.add_argument("--minutes", type=float, default=2.0, help="training time")
    ap.add_argument("--batch", type=int, default=16, help="games per update")
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--eval-games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    rng = np.random.default_rng(args.seed)
    env = ThievesGym(args.game, args.players, opponents=args.opponents, seat=None, reward=args.reward)
    obs, _ = env.reset(seed=args.seed)
    policy = LinearPolicy(features(obs).size, env.action_space.n, args.lr, rng)

    print(f"{args.game}, {args.players} players, against {args.opponents}; "
          f"{env.action_space.n} actions, {obs.size} observation features")
    base = win_rate(env, policy, args.eval_games, 10_000_000, greedy=False)
    print(f"untrained (uniform over the legal integers): wins {base:.1%} of {args.eval_games} games")

    baseline, games, recent = 0.0, 0, []
    start = time.time()
    seed = 1
    while time.time() - start < args.minutes * 60:
        grad = np.zeros_like(policy.W)
        for _ in range(args.batch):
            trace: list = []
            r, won = play(env, policy, seed, trace=trace)
            seed += 1
            games += 1
            recent.append(won)
            adv = r - baseline
            baseline += 0.02 * (r - baseline)
            for x, legal, p, k in trace:
                g = -p
                g[k] += 1.0                       # d log pi(a) / d logits, legal actions only
                grad[:, legal] += adv * np.outer(x, g)
        policy.update(grad / args.batch)
        if games % (args.batch * 25) == 0:
            print(f"{games:6d} games, {time.time() - start:5.0f} s: wins {np.mean(recent[-400:]):.1%} "
                  f"of the last {min(400, len(recent))}")

    greedy = win_rate(env, policy, args.eval_games, 10_000_000, greedy=True)
    sampled = win_rate(env, policy, args.eval_games, 20_000_000, greedy=False)
    print(f"trained for {games} games: wins {greedy:.1%} of {args.eval_games} fresh games playing "
          f"its most likely action, {sampled:.1%} sampling its actions (untrained: {base:.1%}; "
          f"1/{args.players} = {1 / args.players:.1%})")


if __name__ == "__main__":
    main()
