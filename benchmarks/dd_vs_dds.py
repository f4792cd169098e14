"""Our double-dummy solver against DDS, on the same deals in the same run.

The question is the one pimc and the studies ask most: "can the Hakem's team
take 7 tricks?" on full 13-card deals. The deals are the engine's seeded
deals (``hokm-sim run --hands`` deal ``d``, Hakem ``d % 4``, who leads);
trump is the longest suit of the Hakem's first five cards (ties to the
higher rank sum, as ``longest`` calls it). A Hokm position at a trick
boundary is a bridge deal with a trump suit, so DDS answers it with
``SolveBoard`` (through ``endplay``, DDS 2.9) with target 7 and one solution
for the side on lead, which is the Hakem's.

Both solvers run in this one process, one after the other over all deals
(each timed alone, after compilation or library load); run it pinned to one
core (``taskset -c 1``). Ours keeps one transposition table across deals, as
pimc and ``hokm-sim dd`` do; DDS is called as ``endplay`` calls it
(``mode`` 1), and DDS clears its table whenever a deal is not a near copy of
the one before, which unrelated deals never are. Prints the median, 90th
and 99th percentile and total time, nodes per second for each, and checks
that every answer agrees (exit status 1 if not). The node counts differ in
kind: ours counts every position searched, DDS (``futureTricks.nodes``)
only the positions at trick boundaries, about a third as many for the same
tree.

    taskset -c 1 python benchmarks/dd_vs_dds.py [--deals 200] [--seed 1]

``endplay`` is a benchmark and test dependency only (``pip install endplay``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from hokm_sim.analysis.trumpstudy import longest_suit
from hokm_sim.dd.deals import engine_deals
from hokm_sim.dd.search import S_NODES
from hokm_sim.dd.solver import reach_nb
from hokm_sim.dd.table import new_table

_RANKS = "23456789TJQKA"


def pbn(hands: np.ndarray) -> str:
    """The deal in PBN, seat 0 as North (seats go round as N, E, S, W as in Hokm).

    Hokm cards are ``13 * suit + rank`` with suits C, D, H, S and ranks 2..A;
    a PBN hand lists spades, hearts, diamonds, clubs, each from the ace down.
    """
    out = []
    for seat in range(4):
        m = int(hands[seat])
        suits = []
        for s in (3, 2, 1, 0):
            suits.append("".join(_RANKS[r] for r in range(12, -1, -1) if m >> (13 * s + r) & 1))
        out.append(".".join(suits))
    return "N:" + " ".join(out)


def _percentiles(ms: np.ndarray) -> dict:
    return {
        "median_ms": float(np.median(ms)),
        "p90_ms": float(np.percentile(ms, 90)),
        "p99_ms": float(np.percentile(ms, 99)),
        "max_ms": float(ms.max()),
        "total_s": float(ms.sum() / 1000),
    }


def run_ours(hands, hakem, trumps, tt_bits: int):
    """Times (ms), nodes and answers of our solver, one table kept across deals."""
    n = len(hakem)
    tt_keys, tt_vals = new_table(tt_bits)
    stats = np.zeros(1, np.int64)
    trick = np.zeros(3, np.int64)
    # Compile (or load from the cache) on a throwaway table.
    k0, v0 = new_table(8)
    reach_nb(hands[0], 0, 0, trick, 0, 0, 7, False, k0, v0, stats)
    times = np.zeros(n)
    nodes = np.zeros(n, np.int64)
    ans = np.zeros(n, bool)
    for i in range(n):
        h = int(hakem[i])
        hd = hands[i]
        tr = int(trumps[i])
        stats[S_NODES] = 0
        t = time.perf_counter()
        a = reach_nb(hd, tr, h, trick, 0, h & 1, 7, False, tt_keys, tt_vals, stats)
        times[i] = time.perf_counter() - t
        nodes[i] = stats[S_NODES]
        ans[i] = a
    return times * 1000, nodes, ans


def run_dds(hands, hakem, trumps):
    """Times (ms), nodes and answers of DDS ``SolveBoard`` (target 7, one solution)."""
    from endplay import _dds
    from endplay.types import Deal, Denom, Player

    denom = {0: Denom.clubs, 1: Denom.diamonds, 2: Denom.hearts, 3: Denom.spades}
    n = len(hakem)
    deals = []
    for i in range(n):
        d = Deal.from_pbn(pbn(hands[i]))
        d.first = Player(int(hakem[i]))
        d.trump = denom[int(trumps[i])]
        deals.append(d)
    fut = _dds.futureTricks()
    _dds.SolveBoard(deals[0]._data, 7, 1, 1, fut, 0)  # load and set up
    times = np.zeros(n)
    nodes = np.zeros(n, np.int64)
    ans = np.zeros(n, bool)
    for i in range(n):
        data = deals[i]._data
        t = time.perf_counter()
        _dds.SolveBoard(data, 7, 1, 1, fut, 0)  # raises on a DDS error code
        times[i] = time.perf_counter() - t
        nodes[i] = fut.nodes
        ans[i] = fut.score[0] >= 7
    return times * 1000, nodes, ans


def main() -> int:
    """Run both solvers on ``--deals`` deals and print the figures side by side."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", type=int, default=0, help="first deal number of the seed")
    ap.add_argument("--tt-bits", type=int, default=20)
    ap.add_argument("--only", choices=["both", "ours", "dds"], default="both")
    ap.add_argument("--json", help="also write the figures and per-deal times here")
    ap.add_argument("--slowest", type=int, default=0, help="list the N slowest deals (ours)")
    args = ap.parse_args()
    hands, hakem, five = engine_deals(args.seed, args.start, args.deals)
    trumps = longest_suit(five)
    res = {}
    if args.only in ("both", "ours"):
        res["ours"] = run_ours(hands, hakem, trumps, args.tt_bits)
    if args.only in ("both", "dds"):
        res["dds"] = run_dds(hands, hakem, trumps)
    print(
        f"{args.deals} deals (seed {args.seed}, from deal {args.start}); "
        "can the Hakem's team reach 7? one core"
    )
    print(
        f"{'solver':8} {'median ms':>10} {'p90 ms':>9} {'p99 ms':>9} {'max ms':>9} "
        f"{'total s':>8} {'Mnodes/s':>9} {'med nodes':>10} {'p99 nodes':>10}"
    )
    figures = {}
    for name, (ms, nodes, _) in res.items():
        f = _percentiles(ms)
        f["nodes_per_s"] = float(nodes.sum() / (ms.sum() / 1000))
        f["median_nodes"] = float(np.median(nodes))
        f["p99_nodes"] = float(np.percentile(nodes, 99))
        figures[name] = f
        print(
            f"{name:8} {f['median_ms']:10.3f} {f['p90_ms']:9.2f} {f['p99_ms']:9.2f} "
            f"{f['max_ms']:9.1f} {f['total_s']:8.3f} {f['nodes_per_s'] / 1e6:9.2f} "
            f"{f['median_nodes']:10.0f} {f['p99_nodes']:10.0f}"
        )
    status = 0
    if len(res) == 2:
        a, b = res["ours"][2], res["dds"][2]
        bad = np.flatnonzero(a != b)
        o, d = figures["ours"], figures["dds"]
        print(
            f"ours/DDS: median {o['median_ms'] / d['median_ms']:.2f}x, "
            f"p90 {o['p90_ms'] / d['p90_ms']:.2f}x, p99 {o['p99_ms'] / d['p99_ms']:.2f}x, "
            f"total {o['total_s'] / d['total_s']:.2f}x"
        )
        if len(bad):
            print(f"ANSWERS DIFFER on {len(bad)} deals: {bad[:20].tolist()}")
            status = 1
        else:
            print(f"answers identical on all {args.deals} deals (reach 7: {a.mean():.1%})")
    if args.slowest and "ours" in res:
        ms, nodes, _ = res["ours"]
        for i in np.argsort(-ms)[: args.slowest]:
            extra = f", DDS {res['dds'][0][i]:.2f} ms" if "dds" in res else ""
            print(
                f"  deal {args.start + i}: {ms[i]:.2f} ms, {nodes[i]} nodes, "
                f"hakem {hakem[i]} trump {'CDHS'[trumps[i]]}{extra}"
            )
    if args.json:
        out = {"deals": args.deals, "seed": args.seed, "start": args.start, "figures": figures}
        out["times_ms"] = {k: v[0].round(4).tolist() for k, v in res.items()}
        out["nodes"] = {k: v[1].tolist() for k, v in res.items()}
        with open(args.json, "w") as fh:
            json.dump(out, fh)
    return status


if __name__ == "__main__":
    sys.exit(main())
