"""Plain-Python bots: identical to compiled ones, and how fast the engine runs them.

Prints, in one run:

1. whether the plain-Python port of ``longest`` (``examples/python_bot.py``)
   gives exactly the counts of the compiled ``longest``, in duplicate against
   ``expert``, on 1 and 2 threads;
2. hands per second of a trivial Python bot (trump clubs, the lowest legal
   card) against ``expert`` on one thread, deciding one hand at a time and
   in batches, with the time per Python decision split into the bot's own
   time and the engine's overhead (numba steps, observations, answers);
3. steps per second of the PettingZoo environment (uniformly random legal
   actions) and of the Gymnasium wrapper (``expert`` partner, ``longest``
   opponents).

    NUMBA_NUM_THREADS=2 taskset -c 1 python benchmarks/python_bots.py [--deals 20000]

(pinned to one core for items 2 and 3; ``NUMBA_NUM_THREADS=2`` keeps item 1's
two-thread run, which then shares that core.)
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from hokm_sim.bots.pyrules import batched
from hokm_sim.bots.registry import from_object, resolve
from hokm_sim.sim.runner import Runner, default_threads

ROOT = Path(__file__).resolve().parents[1]


class Lowest:
    """Trump clubs, the lowest legal card: one Python decision at a time."""

    NAME = "lowest"

    def __init__(self) -> None:
        self.calls = 0
        self.seconds = 0.0

    def choose_trump(self, obs):
        t = time.perf_counter()
        self.calls += 1
        self.seconds += time.perf_counter() - t
        return 0

    def play_card(self, obs):
        t = time.perf_counter()
        legal = obs.legal
        card = (legal & -legal).bit_length() - 1
        self.calls += 1
        self.seconds += time.perf_counter() - t
        return card


class LowestBatched:
    """The same bot deciding for every hand in flight at once."""

    NAME = "lowest-batched"

    def __init__(self) -> None:
        self.calls = 0
        self.decisions = 0
        self.seconds = 0.0

    @batched
    def choose_trump(self, obs):
        t = time.perf_counter()
        out = np.zeros(len(obs), np.int64)
        self._count(len(obs), t)
        return out

    @batched
    def play_card(self, obs):
        t = time.perf_counter()
        legal = obs.legal
        low = (legal & -legal).astype(np.float64)
        out = np.frexp(low)[1] - 1  # the index of the single set bit
        self._count(len(obs), t)
        return out

    def _count(self, n: int, t: float) -> None:
        self.calls += 1
        self.decisions += n
        self.seconds += time.perf_counter() - t


def identical(deals: int) -> None:
    py, nb, expert = (
        resolve(str(ROOT / "examples" / "python_bot.py")),
        resolve("longest"),
        resolve("expert"),
    )
    for threads in sorted({1, default_threads()}):
        got = Runner(py, expert).counts(1, deals, threads=threads)
        want = Runner(nb, expert).counts(1, deals, threads=threads)
        same = bool((got == want).all())
        print(f"  {threads} thread(s): {deals:,} deals in duplicate vs expert: counts identical: "
              f"{same}")  # fmt: skip


def speed(hands: int) -> None:
    expert = resolve("expert")
    for bot in (Lowest(), LowestBatched()):
        runner = Runner(from_object(bot), expert)
        runner.counts(2, 2000, duplicate=False, threads=1)  # compile or load
        bot.calls, bot.seconds = 0, 0.0
        if isinstance(bot, LowestBatched):
            bot.decisions = 0
        t = time.perf_counter()
        runner.counts(1, hands, duplicate=False, threads=1)
        wall = time.perf_counter() - t
        decisions = bot.decisions if isinstance(bot, LowestBatched) else bot.calls
        per = wall / decisions * 1e6
        own = bot.seconds / decisions * 1e6
        print(f"  {bot.NAME} vs expert: {hands / wall:,.0f} hands/s; {decisions / hands:.1f} "
              f"Python decisions a hand, {per:.2f} us each: bot {own:.2f} us, engine "
              f"{per - own:.2f} us" + (f"; {decisions / bot.calls:,.0f} decisions a call"
                                         if isinstance(bot, LowestBatched) else ""))  # fmt: skip


def env_speed(hands: int) -> None:
    from hokm_sim.env import HokmEnv, HokmGymEnv

    env = HokmEnv()
    rng = np.random.default_rng(1)
    env.reset(seed=1)
    steps = 0
    t = time.perf_counter()
    for i in range(hands):
        if i:
            env.reset()
        while env.table.waiting is not None:
            mask = env.observe(env.agent_selection)["action_mask"]
            env.step(int(rng.choice(np.flatnonzero(mask))))
            steps += 1
    wall = time.perf_counter() - t
    print(
        f"  PettingZoo AEC, random actions: {steps / wall:,.0f} steps/s "
        f"({hands / wall:,.0f} hands/s)"
    )
    gym = HokmGymEnv(partner="expert", opponents="longest")
    obs, info = gym.reset(seed=1)
    while gym.table.waiting is not None:  # the first calls compile the bots' functions
        obs, _, _, _, info = gym.step(int(np.flatnonzero(info["action_mask"])[0]))
    steps = 0
    t = time.perf_counter()
    for _ in range(hands):
        obs, info = gym.reset()
        done = False
        while not done:
            obs, _, done, _, info = gym.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            steps += 1
    wall = time.perf_counter() - t
    print(f"  Gymnasium, expert partner, longest opponents: {steps / wall:,.0f} learner steps/s "
          f"({hands / wall:,.0f} hands/s)")  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=20_000)
    ap.add_argument("--hands", type=int, default=100_000)
    ap.add_argument("--env-hands", type=int, default=5_000)
    args = ap.parse_args()
    print("1. the Python port of longest against the compiled longest")
    identical(args.deals)
    print("2. a trivial Python bot against expert, one thread")
    speed(args.hands)
    print("3. environments")
    env_speed(args.env_hands)


if __name__ == "__main__":
    main()
