"""Double-dummy solver speed: "can the Hakem's team reach 7?" on full 13-card deals.

The deals are the engine's seeded deals (``hokm-sim run --hands`` deal ``d``,
Hakem ``d % 4``, who leads); trump is the longest suit of the Hakem's first
five cards (ties to the higher rank sum, as ``longest`` calls it). Each
question is timed alone on one core, after compilation, with one
transposition table kept across deals. Prints the median, 90th and 99th
percentile times and the nodes searched.

    python benchmarks/dd_speed.py [--deals 500] [--seed 1] [--tt-bits 20]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from hokm_sim.analysis.trumpstudy import longest_suit
from hokm_sim.dd.deals import engine_deals
from hokm_sim.dd.search import S_NODES
from hokm_sim.dd.solver import reach_nb
from hokm_sim.dd.table import new_table


def main() -> None:
    """Time the question on ``--deals`` deals and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tt-bits", type=int, default=20)
    args = ap.parse_args()
    hands, hakem, five = engine_deals(args.seed, 0, args.deals)
    trumps = longest_suit(five)
    tt_keys, tt_vals = new_table(args.tt_bits)
    stats = np.zeros(1, np.int64)
    trick = np.zeros(3, np.int64)
    t0 = time.perf_counter()
    reach_nb(hands[0], 0, 0, trick, 0, 0, 7, False, tt_keys, tt_vals, stats)  # compile/load
    warm = time.perf_counter() - t0
    times = np.zeros(args.deals)
    nodes = np.zeros(args.deals, np.int64)
    yes = 0
    for i in range(args.deals):
        trump = int(trumps[i])
        h = int(hakem[i])
        stats[S_NODES] = 0
        t = time.perf_counter()
        yes += reach_nb(hands[i], trump, h, trick, 0, h & 1, 7, False, tt_keys, tt_vals, stats)
        times[i] = time.perf_counter() - t
        nodes[i] = stats[S_NODES]
    ms = times * 1000
    print(f"deals {args.deals} (seed {args.seed}), first call {warm:.2f} s (compile or load)")
    print(
        f"time per question: median {np.median(ms):.2f} ms, p90 {np.percentile(ms, 90):.2f} ms, "
        f"p99 {np.percentile(ms, 99):.2f} ms, mean {ms.mean():.2f} ms, max {ms.max():.1f} ms"
    )
    print(
        f"nodes per question: median {np.median(nodes):.0f}, p90 {np.percentile(nodes, 90):.0f}, "
        f"p99 {np.percentile(nodes, 99):.0f}; {nodes.sum() / times.sum() / 1e6:.2f} M nodes/s"
    )
    print(f"the Hakem's team reaches 7 in {yes / args.deals:.1%} of deals")


if __name__ == "__main__":
    main()
