"""Learner steps per second of the vector environment, and of the one-table Gymnasium one.

Each configuration steps ``--tables`` tables for ``--seconds`` of CPU with a
uniformly random legal action per table (drawn in numba, outside the timed
call), and prints the agent's decisions per CPU second inside ``step()``
(observations, masks and infos included; a step that only starts a table's
next episode, as the default ``NEXT_STEP`` autoreset does, is not counted),
the hands finished per second, each figure over the one-table ``gym`` one
when that was measured in the same run, and the CPU seconds of the set-up
(creating the environment, the first reset and 20 untimed steps): the
compiled code loaded from the disk cache, or compiled (run with
``HOKM_SIM_CACHE`` set to an empty folder for the figures of cold caches,
where the first configuration also compiles what all of them share).
CPU time of this process (``time.process_time``), so other work on the
machine counts less; pin it to one core for the one-core figure:

    taskset -c 1 python benchmarks/vector_env.py
    taskset -c 1 python benchmarks/vector_env.py --tables 1024,4096,16384 --configs longest

Configurations (``--configs``): ``longest`` (the agent at seat 0, ``longest``
partner and opponents), ``expert`` (``expert`` partner, ``longest``
opponents), ``team`` (the agent at seats 0 and 2 against ``longest``),
``self`` (the agent at every seat), ``nocopy`` (``longest`` with
``copy=False``: the same arrays every step), and ``gym`` (the one-table
``HokmGymEnv`` with ``expert`` partner and ``longest`` opponents, for the
ratio).
"""

from __future__ import annotations

import argparse
import time

import numba
import numpy as np

from hokm_sim.env.gym import HokmGymEnv
from hokm_sim.env.vector import HokmVectorEnv

CONFIGS = {
    "longest": {"partner": "longest", "opponents": "longest", "seat": 0},
    "expert": {"partner": "expert", "opponents": "longest", "seat": 0},
    "team": {"opponents": "longest", "seat": (0, 2)},
    "self": {"seat": (0, 1, 2, 3)},
    "nocopy": {"partner": "longest", "opponents": "longest", "seat": 0, "copy": False},
}


@numba.njit(cache=True)
def random_legal(mask, u):
    """A uniformly random legal action per row of ``mask`` (``int8[n, 56]``), from ``u``."""
    out = np.zeros(mask.shape[0], np.int64)
    for i in range(mask.shape[0]):
        legal = 0
        for a in range(mask.shape[1]):
            legal += mask[i, a]
        k = int(u[i] * legal)
        for a in range(mask.shape[1]):
            if mask[i, a]:
                if k == 0:
                    out[i] = a
                    break
                k -= 1
    return out


WARM = 20
"""Untimed steps after the first reset."""


def vector(tables: int, seconds: float, **kw) -> tuple[float, float, float]:
    """Agent decisions and hands per CPU second inside ``step()``, and the CPU seconds of
    the set-up (see :func:`main`)."""
    random_legal(np.ones((1, 56), np.int8), np.zeros(1))  # compiled apart from the kernel
    rng = np.random.default_rng(1)
    t = time.process_time()
    env = HokmVectorEnv(num_envs=tables, **kw)
    obs, _ = env.reset(seed=1)
    for _ in range(WARM):  # past the first deals, whose starts are all at once
        obs, *_ = env.step(random_legal(obs["action_mask"], rng.random(tables)))
    ready = time.process_time() - t
    cpu = 0.0
    steps = hands = 0
    over = np.zeros(tables, bool)
    while cpu < seconds:
        actions = random_legal(obs["action_mask"], rng.random(tables))
        t = time.process_time()
        obs, _, over_now, _, info = env.step(actions)
        cpu += time.process_time() - t
        steps += tables - int(over.sum())  # a table whose episode ended only starts the next
        over = over_now
        if "hand" in info:
            hands += int(info["_hand"].sum())
    env.close()
    return steps / cpu, hands / cpu, ready


def single(seconds: float) -> tuple[float, float, float]:
    """The same for ``HokmGymEnv`` (one table, ``expert`` partner, ``longest`` opponents)."""
    rng = np.random.default_rng(1)
    t = time.process_time()
    env = HokmGymEnv(partner="expert", opponents="longest", seat=0)
    obs, _ = env.reset(seed=1)
    for _ in range(WARM):  # the seats' bots are compiled, or loaded, at their first decision
        obs, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if done:
            obs, _ = env.reset()
    ready = time.process_time() - t
    cpu = 0.0
    steps = hands = 0
    while cpu < seconds:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        t = time.process_time()
        obs, _, done, _, _ = env.step(action)
        if done:
            obs, _ = env.reset()
            hands += 1
        cpu += time.process_time() - t
        steps += 1
    return steps / cpu, hands / cpu, ready


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", default="4096", help="comma-separated table counts")
    ap.add_argument("--configs", default="gym,longest,expert,team,self,nocopy")
    ap.add_argument("--seconds", type=float, default=5.0, help="CPU seconds per measurement")
    args = ap.parse_args()
    names = args.configs.split(",")
    unknown = sorted(set(names) - set(CONFIGS) - {"gym"})
    if unknown:
        ap.error(f"unknown configuration {unknown[0]!r}: expected {', '.join(['gym', *CONFIGS])}")
    print(f"{'configuration':<14} {'tables':>7} {'agent steps/s':>14} {'hands/s':>10} {'x gym':>7}"
          f" {'ready s':>8}")  # fmt: skip
    gym = None
    for name in names:
        if name == "gym":
            steps, hands, ready = gym = single(args.seconds)
            print(f"{name:<14} {1:>7} {steps:>14,.0f} {hands:>10,.0f} {'':>7} {ready:>8.1f}",
                  flush=True)  # fmt: skip
            continue
        for tables in (int(x) for x in args.tables.split(",")):
            steps, hands, ready = vector(tables, args.seconds, **CONFIGS[name])
            ratio = f"{steps / gym[0]:>7.1f}" if gym else f"{'':>7}"
            print(f"{name:<14} {tables:>7} {steps:>14,.0f} {hands:>10,.0f} {ratio} {ready:>8.1f}",
                  flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
