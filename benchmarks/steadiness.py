"""How steady this machine's cores are: rates of short slices of busy work, one core at a time.

On each CPU in turn (pinned, the other cores idle) it times, slice after
slice for ``--seconds``: a register-only C loop of eight independent
integer chains (no memory, no branches to mispredict: only the core's own
speed), the C yardstick (``../shared/bench/hokm_ref.c``, `heur`, 500,000
hands a slice), and the engine playing `longest` vs `longest` on one thread
in batches of ``--batch`` hands; then the engine on one thread per CPU, all
at once, in batches of ``--batch`` hands a thread. For each it prints the
fastest slice, the median, the slowest, and the share of slices more than
10% below the fastest.

    python benchmarks/steadiness.py [--seconds 20] [--batch 200000] [--cpus 0,1]

On a machine of its own every slice runs at about the same rate. On this
shared VM, stretches of seconds run 20-40% slower for the loop and the
engine, whatever the engine does; a run on two cores meets such a stretch on
either. (The C yardstick, which does fewer instructions per second, is
slowed less.) That is why
`hokm-sim bench` and `engine_speed.py` report the fastest of several runs.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

C_SOURCE = Path(__file__).resolve().parents[2] / "shared" / "bench" / "hokm_ref.c"

LOOP_C = r"""
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void) {
    struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9;
}
int main(int argc, char **argv) {
    long n = atol(argv[1]); double seconds = atof(argv[2]);
    uint64_t a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8;
    double start = now();
    while (now() - start < seconds) {
        double t = now();
        for (long i = 0; i < n; i++) {
            __asm__ volatile("");
            a += i; b ^= i; c += a; d ^= b; e += i; f ^= i; g += e; h ^= f;
        }
        printf("%.4f\n", n / (now() - t) / 1e9);
    }
    return (int)((a + b + c + d + e + f + g + h) & 1);
}
"""


def loop_slices(cpu: int, seconds: float) -> list[float] | None:
    """Billions of loop iterations per second, one figure per slice (~0.2 s), on ``cpu``."""
    if not shutil.which("gcc"):
        return None
    exe = Path(tempfile.gettempdir()) / "hokm_steadiness_loop"
    if not exe.exists():
        src = exe.with_suffix(".c")
        src.write_text(LOOP_C)
        subprocess.run(["gcc", "-O2", "-o", str(exe), str(src)], check=True)
    out = subprocess.run(
        [str(exe), "300000000", str(seconds)],
        capture_output=True,
        text=True,
        check=True,
        preexec_fn=lambda: os.sched_setaffinity(0, {cpu}),
    ).stdout
    return [float(x) for x in out.split()]


def yardstick_slices(cpu: int, seconds: float) -> list[float] | None:
    """Millions of hands per second of the C yardstick, one run of 500,000 a slice."""
    if not (C_SOURCE.exists() and shutil.which("gcc")):
        return None
    exe = Path(tempfile.gettempdir()) / "hokm_ref_bench"
    if not exe.exists():
        subprocess.run(["gcc", "-O3", "-march=native", "-o", str(exe), str(C_SOURCE)], check=True)
    rates = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        out = subprocess.run(
            [str(exe), "500000", "5", "heur"],
            capture_output=True,
            text=True,
            check=True,
            preexec_fn=lambda: os.sched_setaffinity(0, {cpu}),
        ).stdout
        rates.append(float(re.search(r"hands_per_sec=([0-9.]+)", out).group(1)) / 1e6)
    return rates


def engine_slices(runner, cpus: set[int], seconds: float, batch: int) -> list[float]:
    """Millions of hands per second, one figure per batch, one thread on each of ``cpus``."""
    old = os.sched_getaffinity(0)
    os.sched_setaffinity(0, cpus)
    try:
        rates = []
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            t = time.perf_counter()
            runner.counts(1, batch, duplicate=False, threads=len(cpus), per_batch=batch)
            rates.append(batch / (time.perf_counter() - t) / 1e6)
        return rates
    finally:
        os.sched_setaffinity(0, old)


def describe(name: str, rates: list[float] | None, unit: str) -> str:
    if not rates:
        return f"  {name:<22} n/a (needs gcc and ../shared)"
    best = max(rates)
    slow = sum(r < 0.9 * best for r in rates) / len(rates)
    return (
        f"  {name:<22} fastest {best:.2f} {unit}, median {statistics.median(rates):.2f}, "
        f"slowest {min(rates):.2f}; {slow:.0%} of {len(rates)} slices >10% below the fastest"
    )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=20.0, help="per CPU and workload")
    p.add_argument("--batch", type=int, default=200_000, help="engine hands per slice")
    p.add_argument("--cpus", default=",".join(map(str, sorted(os.sched_getaffinity(0)))))
    args = p.parse_args()

    from hokm_sim.registry import resolve
    from hokm_sim.runner import Runner

    runner = Runner(resolve("longest"), resolve("longest"))
    runner.counts(1, args.batch, duplicate=False, threads=1)  # compile or load
    for cpu in map(int, args.cpus.split(",")):
        print(f"CPU {cpu}:")
        print(describe("register loop", loop_slices(cpu, args.seconds), "G iter/s"))
        print(describe("C yardstick", yardstick_slices(cpu, args.seconds), "M hands/s"))
        rates = engine_slices(runner, {cpu}, args.seconds, args.batch)
        print(describe("engine, 1 thread", rates, "M hands/s"))
    cpus = set(map(int, args.cpus.split(",")))
    if len(cpus) > 1:
        print(f"CPUs {args.cpus} at once:")
        rates = engine_slices(runner, cpus, args.seconds, args.batch * len(cpus))
        print(describe(f"engine, {len(cpus)} threads", rates, "M hands/s"))


if __name__ == "__main__":
    main()
