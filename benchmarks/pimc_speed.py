"""CPU per decision of the ``pimc`` bot against ``--against`` (``expert``), deals in duplicate.

For each spec, plays ``--hands`` deals twice (teams swapped) on one thread
after compilation and divides the process CPU time by pimc's decisions
(its cards, two seats a trick, and its trump calls as Hakem, half the
hands). The opponent's own decisions (a heuristic's cost microseconds) are
included. Prints the CPU per decision and the hand-win pair score with its
interval (strength as `hokm-sim run` reports it, on few deals).

    python benchmarks/pimc_speed.py [--specs "pimc(k=2);pimc(k=8)"] [--hands 100] [--seed 1]
        [--against expert]
"""

from __future__ import annotations

import argparse
import time

from hokm_sim.analysis.summary import summarize
from hokm_sim.bots.registry import resolve
from hokm_sim.engine.records import C_TRICKS
from hokm_sim.sim.runner import Runner


def main() -> None:
    """Time each spec and print one line per spec."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--specs", default="pimc(k=2);pimc(k=4);pimc(k=8);pimc(k=16)")
    ap.add_argument("--hands", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--against", default="expert", help="the opponent (a strategy spec)")
    args = ap.parse_args()
    vs = args.against
    print(f"{'spec':<40}{'ms CPU/decision':>16}  pair score vs {vs} ({args.hands} deals)")
    for spec in args.specs.split(";"):
        runner = Runner(resolve(spec), resolve(vs))
        runner.counts(args.seed, 1, duplicate=False, threads=1)  # compile or load
        t = time.process_time()
        counts = runner.counts(args.seed, args.hands, duplicate=True, threads=1)
        cpu = time.process_time() - t
        tricks = 0
        for i in range(128):  # (who * 8 + Hakem team's tricks) * 8 + defenders' tricks
            tricks += int(counts[C_TRICKS + i]) * ((i // 8) % 8 + i % 8)
        decisions = 2 * tricks + args.hands  # 2 hands per deal, Hakem in one
        s = summarize(counts, {"a": spec, "b": vs, "seed": args.seed}).data["pair_score"]
        print(
            f"{spec:<40}{1000 * cpu / decisions:>16.2f}  "
            f"{s['value']:.3f} [{s['low']:.3f}, {s['high']:.3f}]"
        )


if __name__ == "__main__":
    main()
