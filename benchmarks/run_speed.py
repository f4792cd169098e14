"""`hokm-sim run` throughput against `hokm-sim bench` for the same bots.

    python benchmarks/run_speed.py [--hands 10M] [--a expert] [--b longest]

Runs a duplicate comparison of N deals (2N hands) and reports hands/s of the
whole `hokm-sim run` process (start-up, engine load, statistics and report
included), of the same run through the Python API once the engine is loaded
(what the statistics cost beside the engine), and the bench figure on all
cores.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time

_IN_PROCESS = """
import sys, time
from hokm_sim.api import run
from hokm_sim.cli.options import SIZE
a, b, n = sys.argv[1], sys.argv[2], SIZE.convert(sys.argv[3], None, None)
run(a, b, hands=20_000, seed=1)  # load the engine
t = time.perf_counter()
s = run(a, b, hands=n, seed=1)
print(time.perf_counter() - t, s.data["hands"])
"""


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
    api = subprocess.run(
        [sys.executable, "-c", _IN_PROCESS, args.a, args.b, args.hands],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    api_secs, api_hands = float(api[0]), int(api[1])
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
                "--repeat",
                "1",  # one run, like the run it is compared with
                "--json",
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )["hands_per_sec"]
    print(
        f"run {args.a} vs {args.b}: {hands:,} hands in {secs:.1f} s (whole process) = "
        f"{hands / secs:,.0f} hands/s, ratio {hands / secs / bench:.2f} to bench; "
        f"engine loaded: {api_hands:,} hands in {api_secs:.1f} s = "
        f"{api_hands / api_secs:,.0f} hands/s, ratio {api_hands / api_secs / bench:.2f}; "
        f"bench on all cores {bench:,.0f} hands/s"
    )


if __name__ == "__main__":
    main()
