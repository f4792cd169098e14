"""Speed of the double-dummy analysis of played hands (``hokm-sim analyse``), by hand count.

Plays the first N/2 seeded deals in both copies (N hands) with A against B,
then grades every card and the trump call (:func:`hokm_sim.dd.analyse.analyse`)
on ``--threads`` threads, after a warm-up that loads the compiled code. For
each size it prints the seconds spent playing and analysing, milliseconds
per hand and the solver's nodes; then the wall time of the whole command
(``hokm-sim analyse ... --format summary``, start-up included) at the
largest size.

    python benchmarks/analyse_speed.py [--a expert] [--b longest] [--hands 250,500,1000]
        [--seed 1] [--threads 2]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

from hokm_sim.bots.registry import resolve
from hokm_sim.dd import analyse as an
from hokm_sim.sim.runner import Runner


def main() -> None:
    """Time the analysis at each size and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--a", default="expert")
    ap.add_argument("--b", default="longest")
    ap.add_argument("--hands", default="250,500,1000")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    runner = Runner(resolve(args.a), resolve(args.b))
    an.analyse(an.hands_from_seed(runner, args.seed, 1), args.threads)  # load compiled code
    sizes = [int(x) for x in args.hands.split(",")]
    print(f"{args.a} vs {args.b}, seed {args.seed}, {args.threads} threads")
    print("hands  play s  analyse s  ms/hand  nodes (millions)")
    for n in sizes:
        t0 = time.perf_counter()
        h = an.hands_from_seed(runner, args.seed, n // 2)
        t1 = time.perf_counter()
        a = an.analyse(h, args.threads)
        t2 = time.perf_counter()
        print(
            f"{len(h):5d}  {t1 - t0:6.2f}  {t2 - t1:9.2f}  {1000 * (t2 - t1) / len(h):7.1f}  "
            f"{a.nodes / 1e6:8.1f}"
        )
    n = max(sizes)
    cmd = [
        sys.executable, "-m", "hokm_sim", "analyse", "--seed", str(args.seed),
        "--hands", str(n // 2), "--a", args.a, "--b", args.b, "--format", "summary",
        "--threads", str(args.threads),
    ]  # fmt: skip
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True)
    print(f"whole command, {n} hands: {time.perf_counter() - t0:.1f} s")
    print("  " + " ".join(["hokm-sim", *cmd[3:]]))


if __name__ == "__main__":
    main()
