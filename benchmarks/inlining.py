"""Compile time and speed of each engine, and of the solver with its helpers inlined or called.

For each engine (``HOKM_SIM_ENGINE=specialised``: an engine per pair with its bots
inlined; ``generic``: one engine for every pair, each bot compiled once and called
through a function pointer) it starts from an empty cache and plays the pairs one
after the other in new processes, each ``hokm-sim run A B --hands 1 --threads 1``:
the user and system CPU of each process is what that pair costs to compile when the
pairs before it are cached. Then, with everything cached, hands per CPU second of
each pair on one thread (the best of ``--rounds`` runs of ``--deals`` duplicate deals).

Then the double-dummy solver in each mode (its helpers inlined, or called with
``HOKM_SIM_INLINE=0``), from an empty cache in a new process: the CPU of its
first answer (compiling ``reach_nb``), and nodes per CPU second over
``--solves`` full deals ("can the Hakem's team take 7?", one table kept across
deals, as ``benchmarks/dd_vs_dds.py`` asks), with the total node count, which
must be the same in both modes.

    python benchmarks/inlining.py [--pairs longest:longest,expert:longest]
        [--deals 200000] [--rounds 3] [--solves 200]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile

SPEED = """
import sys, time
from hokm_sim.bots.registry import resolve
from hokm_sim.sim.runner import Runner
r = Runner(resolve(sys.argv[1]), resolve(sys.argv[2]))
r.counts(1, 10, duplicate=True, threads=1)
n, best = int(sys.argv[3]), None
for _ in range(int(sys.argv[4])):
    t = time.process_time()
    r.counts(2, n, duplicate=True, threads=1)
    t = time.process_time() - t
    best = t if best is None else min(best, t)
print(2 * n / best)
"""


SOLVER = """
import sys, time
import numpy as np
from hokm_sim.analysis.trumpstudy import longest_suit
from hokm_sim.dd.deals import engine_deals
from hokm_sim.dd.search import S_NODES
from hokm_sim.dd.solver import reach_nb
from hokm_sim.dd.table import new_table
hands, hakem, five = engine_deals(1, 0, int(sys.argv[1]))
trumps = longest_suit(five)
keys, vals = new_table(20)
stats = np.zeros(1, np.int64)
trick = np.zeros(3, np.int64)
t = time.process_time()
reach_nb(hands[0], 0, 0, trick, 0, 0, 7, False, *new_table(8), stats)
first = time.process_time() - t
stats[S_NODES] = 0
t = time.process_time()
for i in range(len(hakem)):
    h = int(hakem[i])
    reach_nb(hands[i], int(trumps[i]), h, trick, 0, h & 1, 7, False, keys, vals, stats)
t = time.process_time() - t
print(first, stats[S_NODES], stats[S_NODES] / t)
"""


def cpu_of(cmd: list[str], env: dict[str, str]) -> float:
    """User and system CPU seconds of the process ``cmd`` (and its children)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", default="longest:longest,expert:longest")
    ap.add_argument("--deals", type=int, default=200_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--solves", type=int, default=200)
    args = ap.parse_args()
    pairs = [tuple(p.split(":")) for p in args.pairs.split(",")]
    hokm = [sys.executable, "-m", "hokm_sim"]
    print("| engine | pair | compile CPU s (pairs before it cached) | hands per CPU s |")
    print("|---|---|---|---|")
    for engine in ("specialised", "generic"):
        with tempfile.TemporaryDirectory() as cache:
            env = {**os.environ, "HOKM_SIM_CACHE": cache, "HOKM_SIM_ENGINE": engine,
                   "HOKM_SIM_BOUNDSCHECK": "0"}  # fmt: skip
            for a, b in pairs:
                run = [*hokm, "run", a, b, "--hands", "1", "--threads", "1", "--seed", "1"]
                compile_cpu = cpu_of([*run, "--out", os.path.join(cache, f"r-{a}-{b}")], env)
                out = subprocess.run(
                    [sys.executable, "-c", SPEED, a, b, str(args.deals), str(args.rounds)],
                    env=env, check=True, capture_output=True, text=True,
                )  # fmt: skip
                speed = float(out.stdout.strip())
                print(f"| {engine} | {a} vs {b} | {compile_cpu:.1f} | {speed:,.0f} |", flush=True)
    print()
    print("| solver helpers | first answer CPU s (compiling) | nodes | nodes per CPU s |")
    print("|---|---|---|---|")
    for inline in ("1", "0"):
        with tempfile.TemporaryDirectory() as cache:
            env = {**os.environ, "HOKM_SIM_CACHE": cache, "HOKM_SIM_INLINE": inline}
            out = subprocess.run(
                [sys.executable, "-c", SOLVER, str(args.solves)],
                env=env, check=True, capture_output=True, text=True,
            )  # fmt: skip
            first, nodes, rate = out.stdout.split()
            mode = "inlined" if inline == "1" else "called"
            print(f"| {mode} | {float(first):.1f} | {int(nodes):,} | {float(rate):,.0f} |")


if __name__ == "__main__":
    main()
