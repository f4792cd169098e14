"""Compile time and speed of the inlined engines against the one that calls its bots.

For each mode (``HOKM_SIM_INLINE=1``: an engine per pair with its bots inlined;
``0``: one engine for every pair, its bots called through function pointers)
it starts from an empty cache and plays the pairs one after the other in new
processes, each ``hokm-sim run A B --hands 1 --threads 1``: the user and system
CPU of each process is what that pair costs to compile when the pairs before it
are cached. Then, with everything cached, hands per CPU second of each pair on
one thread (the best of ``--rounds`` runs of ``--deals`` duplicate deals).

    python benchmarks/inlining.py [--pairs longest:longest,expert:longest]
        [--deals 200000] [--rounds 3]
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
    args = ap.parse_args()
    pairs = [tuple(p.split(":")) for p in args.pairs.split(",")]
    hokm = [sys.executable, "-m", "hokm_sim"]
    print("| mode | pair | compile CPU s (pairs before it cached) | hands per CPU s |")
    print("|---|---|---|---|")
    for inline in ("1", "0"):
        with tempfile.TemporaryDirectory() as cache:
            env = {**os.environ, "HOKM_SIM_CACHE": cache, "HOKM_SIM_INLINE": inline,
                   "HOKM_SIM_BOUNDSCHECK": "0"}  # fmt: skip
            for a, b in pairs:
                run = [*hokm, "run", a, b, "--hands", "1", "--threads", "1", "--seed", "1"]
                compile_cpu = cpu_of([*run, "--out", os.path.join(cache, f"r-{a}-{b}")], env)
                out = subprocess.run(
                    [sys.executable, "-c", SPEED, a, b, str(args.deals), str(args.rounds)],
                    env=env, check=True, capture_output=True, text=True,
                )  # fmt: skip
                speed = float(out.stdout.strip())
                mode = "inlined" if inline == "1" else "called"
                print(f"| {mode} | {a} vs {b} | {compile_cpu:.1f} | {speed:,.0f} |", flush=True)


if __name__ == "__main__":
    main()
