"""Scaling of one machine: numba threads against local Dask workers, and `hokm-sim bench`.

    python benchmarks/scaling.py [--hands 8M] [--a longest] [--b longest] [--repeat 2]

Plays the same independent deals (no duplicate, as `bench` does) through
both backends of :mod:`hokm_sim.sim.backends` after a warm-up (engines loaded,
workers started): this machine's Runner with 1 and 2 threads, and a local
Dask cluster (loopback, one numba thread per worker process) with 1 and 2
workers, measured in turn so that both see the same load of the machine.
Prints hands/s (best of ``--repeat``), the tasks and their mean length,
and the Dask overhead against threads at equal cores; then the
`hokm-sim bench` figures for 1 and 2 threads.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

from distributed import Client, LocalCluster

from hokm_sim.bots.registry import resolve
from hokm_sim.cli.options import SIZE
from hokm_sim.sim.backends import Dask, Local, Work
from hokm_sim.sim.runner import Runner


def warm(backend, runner: Runner, work: Work) -> None:
    """Load the engine (in every worker: a few tasks)."""
    for _ in backend.batches(runner, work, [(0, 8 * 8192)], ordered=False):
        pass


def once(backend, runner: Runner, work: Work, hands: int) -> tuple[float, int]:
    """Hands/s of one run of ``hands`` deals, and its number of batches (tasks)."""
    t = time.perf_counter()
    batches = sum(1 for _ in backend.batches(runner, work, [(0, hands)]))
    return hands / (time.perf_counter() - t), batches


def bench(a: str, b: str, threads: int, hands: int) -> float:
    """`hokm-sim bench` hands/s in a fresh process."""
    out = subprocess.run(
        [sys.executable, "-m", "hokm_sim", "bench", "--a", a, "--b", b, "--threads", str(threads)]
        + ["--hands", str(hands), "--json"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return json.loads(out)["hands_per_sec"]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", default="8M")
    p.add_argument("--a", default="longest")
    p.add_argument("--b", default="longest")
    p.add_argument("--repeat", type=int, default=2)
    args = p.parse_args()
    hands = SIZE.convert(args.hands, None, None)
    runner = Runner(resolve(args.a), resolve(args.b))
    work = Work(seed=1, duplicate=False)
    print(f"{args.a} vs {args.b}, {hands:,} independent deals per measurement")
    for k in (1, 2):
        with (
            LocalCluster(
                n_workers=k,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address="127.0.0.1:0",
            ) as cluster,
            Client(cluster) as client,
        ):
            local, dask = Local(k), Dask(client)
            warm(local, runner, work)
            warm(dask, runner, work)
            best = {"threads": (0.0, 0), "dask": (0.0, 0)}
            for _ in range(args.repeat):  # interleaved: both see the same load of the machine
                for name, backend in (("threads", local), ("dask", dask)):
                    best[name] = max(best[name], once(backend, runner, work, hands))
        (t, nb), (d, nt) = best["threads"], best["dask"]
        print(f"  {k} thread(s):   {t:>10,.0f} hands/s  ({nb} batches)")
        print(
            f"  {k} Dask worker(s): {d:>8,.0f} hands/s  ({nt} tasks of "
            f"{hands * k / nt / d:.2f} s); Dask overhead {100 * (1 - d / t):+.1f}%"
        )
    for k in (1, 2):
        print(f"  bench, {k} thread(s): {bench(args.a, args.b, k, hands):>8,.0f} hands/s")


if __name__ == "__main__":
    main()
