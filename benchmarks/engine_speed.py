"""Engine throughput beside the C yardstick, measured in one run on this machine.

Prints hands per second for each strategy pair on 1 and 2 threads (after
compilation), the C program's figures for the same work, their ratios, and
the start-up time of a cold and a warm `hokm-sim` process.

    python benchmarks/engine_speed.py [--hands 3000000] [--rounds 5]
        [--pairs random:random,longest:longest] [--engines generic,specialised]

Each round measures every figure once (a `hokm-sim bench --repeat 1`
process, or one C run); a figure is the fastest of its rounds, with the
median beside it. This VM slows busy code by 20-40% for stretches of
seconds (``benchmarks/steadiness.py``), on either core, often longer than
one `bench` process; rounds spread each figure over the whole run. Compare
ratios from one run, not absolute figures.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
C_SOURCE = ROOT.parent / "shared" / "bench" / "hokm_ref.c"


def c_yardstick(hands: int, mode: str, copies: int = 1) -> float | None:
    """hands/s of one run of the C reference, summed over ``copies`` processes run at once.

    Two copies show what two cores of this machine give to single-threaded
    compiled code: the ceiling for the engine's 2-thread scaling. None when
    gcc or the source is missing.
    """
    if not (C_SOURCE.exists() and shutil.which("gcc")):
        return None
    exe = Path(tempfile.gettempdir()) / "hokm_ref_bench"
    if not exe.exists():
        subprocess.run(["gcc", "-O3", "-march=native", "-o", str(exe), str(C_SOURCE)], check=True)
    procs = [
        subprocess.Popen(
            [str(exe), str(hands), str(5 + i), mode], stdout=subprocess.PIPE, text=True
        )
        for i in range(copies)
    ]
    outs = [p.communicate()[0] for p in procs]
    return sum(float(re.search(r"hands_per_sec=([0-9.]+)", o).group(1)) for o in outs)


def bench(a: str, b: str, hands: int, threads: int, engine: str) -> float:
    """hands/s of one `hokm-sim bench` run (a separate process, code from cache) of the
    ``engine`` (generic or specialised)."""
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "hokm_sim",
            "bench",
            "--a",
            a,
            "--b",
            b,
            "--hands",
            str(hands),
            "--threads",
            str(threads),
            "--repeat",
            "1",
            "--engine",
            engine,
            "--json",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return json.loads(out)["hands_per_sec"]


def startup(env: dict) -> float:
    """Seconds for a `hokm-sim trace` of one hand (compile or cache load included)."""
    t = time.perf_counter()
    subprocess.run(
        [
            sys.executable,
            "-m",
            "hokm_sim",
            "trace",
            "--seed",
            "1",
            "--hands",
            "1",
            "--a",
            "longest",
            "--b",
            "longest",
        ],
        env=env,
        capture_output=True,
        check=True,
    )
    return time.perf_counter() - t


def _fig(runs: list[float | None]) -> str:
    """'fastest (median)' of a figure's rounds."""
    if None in runs:
        return "n/a"
    return f"{max(runs):,.0f} ({statistics.median(runs):,.0f})"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=3_000_000)
    p.add_argument("--rounds", type=int, default=5, help="runs of each figure, interleaved")
    p.add_argument("--pairs", default="random:random,longest:longest,expert:expert,expert:longest")
    p.add_argument("--engines", default="generic,specialised", help="engines to time")
    p.add_argument("--no-startup", action="store_true")
    args = p.parse_args()
    pairs = [tuple(pair.split(":")) for pair in args.pairs.split(",")]
    engines = args.engines.split(",")
    two_threads = min(2, os.cpu_count() or 1)
    runs: dict[tuple, list] = {}
    for _ in range(args.rounds):
        for mode, copies in (("heur", 1), ("rand", 1), ("heur", 2)):
            runs.setdefault(("C", mode, copies), []).append(c_yardstick(args.hands, mode, copies))
        for a, b in pairs:
            for engine in engines:
                for threads in (1, two_threads):
                    rate = bench(a, b, args.hands, threads, engine)
                    runs.setdefault((a, b, threads, engine), []).append(rate)
    best = {key: max(r) if None not in r else None for key, r in runs.items()}
    c_heur, c_two = best["C", "heur", 1], best["C", "heur", 2]
    print(f"fastest of {args.rounds} interleaved rounds (median in brackets)")
    print(
        f"C yardstick, 1 core: heur {_fig(runs['C', 'heur', 1])} hands/s, "
        f"rand {_fig(runs['C', 'rand', 1])} hands/s; heur in 2 processes at once: "
        f"{_fig(runs['C', 'heur', 2])} hands/s in all"
        + (f" (x{c_two / c_heur:.2f}; the machine's ceiling)" if c_two and c_heur else "")
    )
    print(f"{'pair':<20}{'engine':<13}{'1 thread':>24}{'2 threads':>24}{'scaling':>9}{'vs C':>6}")
    for a, b in pairs:
        for engine in engines:
            one, two = runs[a, b, 1, engine], runs[a, b, two_threads, engine]
            ref = best["C", "rand" if a == b == "random" else "heur", 1]
            vs_c = f"{max(one) / ref:.2f}" if ref else "n/a"
            print(
                f"{a + ' vs ' + b:<20}{engine:<13}{_fig(one):>24}{_fig(two):>24}"
                f"{max(two) / max(one):>9.2f}{vs_c:>6}"
            )
    if not args.no_startup:
        cold = dict(os.environ, HOKM_SIM_CACHE=tempfile.mkdtemp())
        print(f"first hand, cold cache: {startup(cold):.1f} s; warm cache: {startup(cold):.1f} s")


if __name__ == "__main__":
    main()
