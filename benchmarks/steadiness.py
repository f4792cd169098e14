"""How steady this machine's cores are: rates of short slices of busy work.

Three workloads, timed slice after slice for ``--seconds``:

- a register-only C loop of eight independent integer chains (no memory, no
  branches to mispredict: nothing but the core's own speed), ~0.2 s a slice;
- the C yardstick (``../shared/bench/hokm_ref.c``, `heur`), 500,000 hands a
  slice;
- the engine playing ``--a`` vs ``--b`` (default `longest` vs `longest`),
  ``--batch`` hands a slice and thread.

First on each CPU alone (pinned, the other cores idle), then on all CPUs at
once (the C programs as one process per CPU, the engine as one thread per
CPU), the three taking turns slice by slice so that they meet the same
moments of the machine. For each it prints the fastest slice, the median,
the slowest, and the share of slices more than 10% below the fastest.

    python benchmarks/steadiness.py [--seconds 20] [--batch 200000] [--cpus 0,1]
        [--a longest] [--b longest]

On a machine of its own every slice runs at about the same rate. On this
shared VM, stretches of seconds run 20-40% slower, for the register loop as
for the engine, more often when both cores are busy; the C yardstick, which
does fewer instructions per second, is slowed less. That is why `hokm-sim
bench` and `engine_speed.py` report the fastest of several runs.
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
LOOP_ITERATIONS = 300_000_000
YARDSTICK_HANDS = 500_000

LOOP_C = r"""
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void) {
    struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9;
}
int main(int argc, char **argv) {  /* iterations per slice; prints M iterations/s */
    long n = atol(argv[1]);
    uint64_t a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8;
    double t = now();
    for (long i = 0; i < n; i++) {
        __asm__ volatile("");
        a += i; b ^= i; c += a; d ^= b; e += i; f ^= i; g += e; h ^= f;
    }
    printf("%.1f\n", n / (now() - t) / 1e6);
    return (int)((a + b + c + d + e + f + g + h) & 1);
}
"""


def _build(name: str, source: Path, flags: list[str]) -> Path:
    """Compile ``source`` afresh (a fraction of a second; never a stale binary)."""
    exe = Path(tempfile.gettempdir()) / name
    subprocess.run(["gcc", *flags, "-o", str(exe), str(source)], check=True)
    return exe


def programs() -> dict[str, list[str]] | None:
    """Command lines of one slice of the register loop and of the C yardstick."""
    if not (C_SOURCE.exists() and shutil.which("gcc")):
        return None
    src = Path(tempfile.gettempdir()) / "hokm_steadiness_loop.c"
    src.write_text(LOOP_C)
    loop = _build("hokm_steadiness_loop", src, ["-O2"])
    ref = _build("hokm_ref_steadiness", C_SOURCE, ["-O3", "-march=native"])
    return {
        "register loop": [str(loop), str(LOOP_ITERATIONS)],
        "C yardstick": [str(ref), str(YARDSTICK_HANDS), "5", "heur"],
    }


def c_slice(cmd: list[str], cpus: list[int]) -> float:
    """One slice of a C program on each of ``cpus`` at once: millions a second, summed."""
    procs = [
        subprocess.Popen(
            cmd,
            stdout=subprocess.PIPE,
            text=True,
            preexec_fn=lambda cpu=cpu: os.sched_setaffinity(0, {cpu}),
        )
        for cpu in cpus
    ]
    total = 0.0
    for p in procs:
        out = p.communicate()[0]
        m = re.search(r"hands_per_sec=([0-9.]+)", out)
        total += float(m.group(1)) / 1e6 if m else float(out)
    return total


def engine_slice(runner, cpus: list[int], batch: int) -> float:
    """Millions of hands per second of one batch, one thread on each of ``cpus``."""
    old = os.sched_getaffinity(0)
    os.sched_setaffinity(0, set(cpus))
    try:
        n = batch * len(cpus)
        t = time.perf_counter()
        runner.counts(1, n, duplicate=False, threads=len(cpus), per_batch=n)
        return n / (time.perf_counter() - t) / 1e6
    finally:
        os.sched_setaffinity(0, old)


def slices(runner, progs, cpus: list[int], seconds: float, batch: int) -> dict[str, list]:
    """Each workload's slice rates, the workloads taking turns for ``seconds``."""
    rates: dict[str, list[float]] = {name: [] for name in progs or {}}
    rates["engine"] = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        for name, cmd in (progs or {}).items():
            rates[name].append(c_slice(cmd, cpus))
        rates["engine"].append(engine_slice(runner, cpus, batch))
    return rates


def describe(name: str, rates: list[float]) -> str:
    """One line: fastest slice, median (and its fraction of the fastest), slowest, slow share."""
    unit = "M iter/s" if name == "register loop" else "M hands/s"
    best = max(rates)
    slow = sum(r < 0.9 * best for r in rates) / len(rates)
    median = statistics.median(rates)
    return (
        f"  {name:<26} fastest {best:8.2f} {unit:<9}  median {median:8.2f} ({median / best:.2f})"
        f"  slowest {min(rates):8.2f}; {slow:4.0%} of {len(rates):3} slices >10% below fastest"
    )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=20.0, help="per CPU alone, and all at once")
    p.add_argument("--batch", type=int, default=200_000, help="engine hands per slice and thread")
    p.add_argument("--cpus", default=",".join(map(str, sorted(os.sched_getaffinity(0)))))
    p.add_argument("--a", default="longest", help="the engine's strategy A")
    p.add_argument("--b", default="longest", help="the engine's strategy B")
    args = p.parse_args()

    from hokm_sim.bots.registry import resolve
    from hokm_sim.sim.runner import Runner

    runner = Runner(resolve(args.a), resolve(args.b))
    runner.counts(1, args.batch, duplicate=False, threads=1)  # compile or load
    progs = programs()
    if progs is None:
        print("(gcc or ../shared missing: the engine only)")
    cpus = [int(c) for c in args.cpus.split(",")]
    groups = [[cpu] for cpu in cpus] + ([cpus] if len(cpus) > 1 else [])
    for group in groups:
        print(f"CPU {group[0]} alone:" if len(group) == 1 else f"CPUs {args.cpus} at once:")
        for name, rates in slices(runner, progs, group, args.seconds, args.batch).items():
            print(describe(f"engine {args.a} vs {args.b}" if name == "engine" else name, rates))


if __name__ == "__main__":
    main()
