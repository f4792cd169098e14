"""Machine instructions per hand, counted by valgrind: a speed measure that does not drift.

Times on this virtual machine move by 10-25% between runs of the same
command, more than most single changes to the engine gain or lose; an
instruction count is the same in every run, so an engine change can be
judged by one run of this script before it is timed with
``engine_speed.py``. Fewer instructions is not always faster (a cache miss
or a mispredicted branch costs more than a dozen instructions), so a change
is kept only when the time agrees.

    python benchmarks/engine_instructions.py [--pairs longest:longest] [--hands 300000]

For each pair it runs ``Runner.counts`` on 1,000 and on ``1,000 + hands``
independent hands under ``valgrind --tool=cachegrind`` and prints the
difference per hand (start-up cancels out; a start-up varies by some ten
million instructions between runs even with ``PYTHONHASHSEED`` fixed, hence
the many hands). The engine is
compiled outside valgrind first, for a fixed CPU (``NUMBA_CPU_NAME=znver3``:
valgrind runs no AVX-512, and numba's cache is keyed by the CPU), into a
scratch cache. The C yardstick is built with ``-march=x86-64-v3`` for the
same reason and counted the same way.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
C_SOURCE = ROOT.parent / "shared" / "bench" / "hokm_ref.c"
CPU = {
    "NUMBA_CPU_NAME": "znver3",
    "NUMBA_CPU_FEATURES": "+64bit,+popcnt,+bmi,+bmi2,+lzcnt,+avx,+avx2,+sse4.2",
}
PLAY = (
    "import sys\n"
    "from hokm_sim.bots.registry import resolve\n"
    "from hokm_sim.sim.runner import Runner\n"
    "Runner(resolve(sys.argv[1]), resolve(sys.argv[2]))"
    ".counts(1, int(sys.argv[3]), duplicate=False, threads=1)\n"
)


def instructions(cmd: list[str], env: dict | None = None) -> int:
    """Instructions executed by ``cmd`` under cachegrind (its ``I refs`` total)."""
    out = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]
        + cmd,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stderr
    return int(re.search(r"I\s+refs:\s+([\d,]+)", out).group(1).replace(",", ""))


def per_hand(command, hands: int, env: dict | None = None) -> float:
    """Instructions per hand: ``command(n)`` run for n = 1,000 and 1,000 + ``hands``."""
    base = instructions(command(1000), env)
    return (instructions(command(1000 + hands), env) - base) / hands


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--pairs", default="longest:longest,random:random")
    p.add_argument("--hands", type=int, default=300_000)
    args = p.parse_args()
    if not shutil.which("valgrind"):
        sys.exit("valgrind is not installed; this benchmark counts instructions with it")
    scratch = Path(tempfile.mkdtemp(prefix="hokm-instr-"))
    env = dict(
        os.environ,
        **CPU,
        HOKM_SIM_CACHE=str(scratch / "engines"),
        NUMBA_CACHE_DIR=str(scratch / "numba"),
        NUMBA_NUM_THREADS="1",
        PYTHONHASHSEED="0",
    )
    script = scratch / "play.py"
    script.write_text(PLAY)
    if C_SOURCE.exists() and shutil.which("gcc"):
        exe = scratch / "hokm_ref"
        subprocess.run(
            ["gcc", "-O3", "-march=x86-64-v3", "-o", str(exe), str(C_SOURCE)], check=True
        )
        for mode in ("heur", "rand"):
            n = per_hand(lambda k, m=mode: [str(exe), str(k), "5", m], args.hands)
            print(f"C yardstick {mode}: {n:,.0f} instructions/hand")
    for pair in args.pairs.split(","):
        a, b = pair.split(":")
        cmd = [sys.executable, str(script), a, b]
        subprocess.run([*cmd, "1000"], env=env, check=True)  # compile outside valgrind,
        instructions([*cmd, "1000"], env)  # then load once under it (fills what it misses)
        n = per_hand(lambda k, c=cmd: [*c, str(k)], args.hands, env)
        print(f"{a} vs {b}: {n:,.0f} instructions/hand")
    shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
