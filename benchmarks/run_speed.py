"""`hokm-sim run` throughput against `hokm-sim bench` for the same bots.

    python benchmarks/run_speed.py [--hands 10M] [--a expert] [--b longest]

Runs a duplicate comparison of N deals (2N hands) and reports hands/s of the
whole run (statistics included) next to the bench figure on all cores.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", default="10M")
    p.add_argument("--a", default="expert")
    p.add_argument("--b", default="longest")
    args = p.parse_args()
    out = tempfile.mkdtemp()
    t = time.perf_counter()
    res = subprocess.run(
        [
            sys.executable,
            "-m",
            "hokm_sim",
            "run",
            args.a,
            args.b,
            "--hands",
            args.hands,
            "--seed",
            "1",
            "--json",
            "--out",
            out + "/r",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    secs = time.perf_counter() - t
    hands = json.loads(res.stdout)["hands"]
    bench = json.loads(
        subprocess.run(
            [
                sys.executable,
                "-m",
                "hokm_sim",
                "bench",
                "--a",
                args.a,
                "--b",
                args.b,
                "--hands",
                "4M",
                "--json",
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )["hands_per_sec"]
    print(
        f"run {args.a} vs {args.b}: {hands:,} hands in {secs:.1f} s (whole process) = "
        f"{hands / secs:,.0f} hands/s; bench on all cores {bench:,.0f} hands/s; "
        f"ratio {hands / secs / bench:.2f}"
    )


if __name__ == "__main__":
    main()
