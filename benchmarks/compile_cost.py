"""What compiling costs from an empty cache: numba and CPython as they are, and with two fixes.

Each round starts a new process per mode with a new empty cache and compiles,
in turn, ``expert``'s unit (as the generic engine calls it), the same unit in
the checking mode (bounds checks: a new or edited bot file's first run), and
the generic engine's ``trace_hands`` and ``run_hands``, on a thread other than
the main one, as a command compiles (``hokm_sim.sim.interrupt``); it prints
the CPU seconds (user and system) of each step. The
modes alternate, so load on the machine falls on both alike:

- ``fixed``: as hokm-sim runs (``hokm_sim.engine.framestack`` and
  ``hokm_sim.engine.inlinecopy`` in place from the first compilation);
- ``as-is``: ``HOKM_SIM_NUMBA_AS_IS=1``, numba and CPython untouched.

    python benchmarks/compile_cost.py [--rounds 3]

The machine code is the same either way (``tests/test_inlinecopy.py``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

STEPS = ("expert unit", "expert unit, checked", "trace_hands", "run_hands")

CHILD = """
import json, os, resource, sys, threading

def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime

from hokm_sim.bots.called import _DECISION, _entry
from hokm_sim.bots.compiled import seat_module
from hokm_sim.bots.registry import resolve

out = {}

def work():
    bot = resolve("expert").play
    for step, checked in (("expert unit", False), ("expert unit, checked", True)):
        t = cpu()
        unit = seat_module(bot, checked)
        unit.trump_at.compile(_DECISION)
        unit.play_at.compile(_DECISION)
        out[step] = cpu() - t
    for entry in ("trace_hands", "run_hands"):
        t = cpu()
        _entry(entry)
        out[entry] = cpu() - t

thread = threading.Thread(target=work)  # as a command compiles: off its main thread
thread.start()
thread.join()
print(json.dumps(out))
"""


def one(mode: str) -> dict[str, float]:
    """One new process of ``mode`` with an empty cache: CPU seconds per step."""
    env = dict(os.environ, HOKM_SIM_CACHE=tempfile.mkdtemp(prefix="hokm-compile-"))
    env.pop("HOKM_SIM_INLINE", None)
    if mode == "as-is":
        env["HOKM_SIM_NUMBA_AS_IS"] = "1"
    else:
        env.pop("HOKM_SIM_NUMBA_AS_IS", None)
    proc = subprocess.run(
        [sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, check=True
    )
    return json.loads(proc.stdout.splitlines()[-1])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=3)
    args = p.parse_args()
    got: dict[str, list[dict[str, float]]] = {"as-is": [], "fixed": []}
    for r in range(args.rounds):
        for mode in got:
            got[mode].append(one(mode))
            row = "  ".join(f"{s} {got[mode][-1][s]:.2f}" for s in STEPS)
            print(f"round {r + 1} {mode:6}  {row}", flush=True)
    print(f"\nmedian CPU seconds of {args.rounds} rounds:")
    print(f"{'step':24} {'as-is':>8} {'fixed':>8}")
    for s in (*STEPS, "all"):
        med = {
            m: statistics.median(sum(x.values()) if s == "all" else x[s] for x in rows)
            for m, rows in got.items()
        }
        print(f"{s:24} {med['as-is']:8.2f} {med['fixed']:8.2f}")


if __name__ == "__main__":
    main()
