"""Train a small agent in the Gymnasium wrapper, then measure it against ``random`` in duplicate.

The agent is a linear softmax policy over the 56 actions (52 cards, 4 trump
calls): ``logits = features @ W``, illegal actions masked. It learns with
REINFORCE (a running-mean baseline) at seat 0 of ``HokmGymEnv`` with a
``random`` partner against ``random`` opponents, one hand per episode. The
trained policy then plays as a batched hokm-sim bot (greedy: the best legal
action) against ``random`` in a duplicate run, so the figure printed is the
pair score with its 95% interval, as ``hokm-sim run`` reports it.

    python examples/train_agent.py                     # 20,000 episodes, then 20k deals
    python examples/train_agent.py --episodes 2000 --deals 2000 --save policy.npy

Needs the env extra: ``pip install 'hokm-sim[env]'``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import hokm_sim
from hokm_sim.bots.observation import FEATURES
from hokm_sim.bots.pyrules import batched
from hokm_sim.env import HokmGymEnv

ACTIONS = 56


def train(episodes: int, seed: int, lr: float = 0.02) -> np.ndarray:
    """The weights ``float32[FEATURES, 56]`` after ``episodes`` hands of REINFORCE."""
    env = HokmGymEnv(partner="random", opponents="random", seat=0)
    rng = np.random.default_rng(seed)
    w = np.zeros((FEATURES, ACTIONS), np.float32)
    baseline = 0.0
    obs, _ = env.reset(seed=seed)
    t0 = time.perf_counter()
    for episode in range(episodes):
        if episode:
            obs, _ = env.reset()
        steps, ret, done = [], 0.0, False
        while not done:
            f, mask = obs["observation"], obs["action_mask"].astype(bool)
            logits = np.where(mask, f @ w, -np.inf)
            p = np.exp(logits - logits.max())
            p /= p.sum()
            a = int(rng.choice(ACTIONS, p=p))
            steps.append((f, p, a))
            obs, reward, done, _, _ = env.step(a)
            ret += reward
        advantage = ret - baseline
        baseline += 0.01 * (ret - baseline)
        for f, p, a in steps:
            grad = -p
            grad[a] += 1.0
            w += (lr * advantage) * np.outer(f, grad).astype(np.float32)
        if (episode + 1) % max(1, episodes // 10) == 0:
            rate = (episode + 1) / (time.perf_counter() - t0)
            print(f"  {episode + 1:,} episodes, mean return {baseline:+.3f}, {rate:,.0f}/s")
    return w


class Policy:
    """The trained weights as a batched hokm-sim bot: the best legal action, greedily."""

    NAME = "trained-policy"

    def __init__(self, w: np.ndarray) -> None:
        self.w = w

    def _best(self, obs, legal: np.ndarray) -> np.ndarray:
        return np.where(legal, obs.features() @ self.w, -np.inf).argmax(axis=1)

    @batched
    def choose_trump(self, obs):
        legal = np.zeros((len(obs), ACTIONS), bool)
        legal[:, 52:] = True
        return self._best(obs, legal) - 52

    @batched
    def play_card(self, obs):
        legal = np.zeros((len(obs), ACTIONS), bool)
        legal[:, :52] = obs.legal_mask
        return self._best(obs, legal)


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--episodes", type=int, default=20_000)
    ap.add_argument("--deals", type=int, default=20_000, help="duplicate deals to evaluate on")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--save", help="write the weights to this .npy file")
    ap.add_argument("--out", help="report folder of the evaluation run")
    args = ap.parse_args(argv)
    print(f"training for {args.episodes:,} episodes (seat 0, random partner and opponents)")
    w = train(args.episodes, args.seed)
    if args.save:
        np.save(args.save, w)
    # Fresh deals for the evaluation: a seed the training never saw.
    kw = {"out": args.out, "force": True} if args.out else {}
    s = hokm_sim.run(Policy(w), "random", hands=args.deals, seed=args.seed + 1_000_003, **kw)
    d = s.to_dict()
    print(repr(s))
    return d


if __name__ == "__main__":
    main()
