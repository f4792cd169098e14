"""Engine throughput beside the C yardstick, measured in one run on this machine.

Prints hands per second for each strategy pair on 1 and 2 threads (after
compilation), the C program's figures for the same work, their ratios, and
the start-up time of a cold and a warm `hokm-sim` process.

    python benchmarks/engine_speed.py [--hands 3000000] [--pairs random:random,longest:longest]

Compare ratios from one run, not absolute figures: they drift with load.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
C_SOURCE = ROOT.parent / "shared" / "bench" / "hokm_ref.c"


def c_yardstick(hands: int, mode: str, copies: int = 1) -> float | None:
    """hands/s of the C reference, summed over ``copies`` processes run at once.

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


def bench(a: str, b: str, hands: int, threads: int) -> float:
    """hands/s of `hokm-sim bench` (a separate process, compiled code from cache)."""
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


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=3_000_000)
    p.add_argument("--pairs", default="random:random,longest:longest,expert:expert,expert:longest")
    p.add_argument("--no-startup", action="store_true")
    args = p.parse_args()
    c_heur, c_rand = c_yardstick(args.hands, "heur"), c_yardstick(args.hands, "rand")
    c_two = c_yardstick(args.hands, "heur", copies=2)
    print(
        f"C yardstick, 1 core: heur {c_heur or float('nan'):,.0f} hands/s, "
        f"rand {c_rand or float('nan'):,.0f} hands/s; heur in 2 processes at once: "
        f"{c_two or float('nan'):,.0f} hands/s in all "
        f"(x{(c_two or float('nan')) / (c_heur or float('nan')):.2f}; the machine's ceiling)"
    )
    print(f"{'pair':<22}{'1 thread':>14}{'2 threads':>14}{'scaling':>9}{'vs C':>8}")
    for pair in args.pairs.split(","):
        a, b = pair.split(":")
        one = bench(a, b, args.hands, 1)
        two = bench(a, b, args.hands, min(2, os.cpu_count() or 1))
        ref = c_rand if a == b == "random" else c_heur
        vs_c = f"{one / ref:.2f}" if ref else "n/a"
        print(f"{a + ' vs ' + b:<22}{one:>14,.0f}{two:>14,.0f}{two / one:>9.2f}{vs_c:>8}")
    if not args.no_startup:
        cold = dict(os.environ, HOKM_SIM_CACHE=tempfile.mkdtemp())
        print(f"first hand, cold cache: {startup(cold):.1f} s; warm cache: {startup(cold):.1f} s")


if __name__ == "__main__":
    main()
