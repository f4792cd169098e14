"""Protocol bots (``exec:``): hands per second against ``expert``, and where the time goes.

Prints, for each bot, independent hands against ``expert`` on one hokm-sim
thread (so one bot process), after a warm-up that compiles and starts it:

1. ``benchmarks/bots/first_legal.c`` (trump clubs, the first legal card: the
   least a bot can do, so the figure is the host's), batched: every hand in
   flight (up to 2,048) in one message;
2. the same bot one decision per message (one hand in flight);
3. ``examples/bots/longest.js`` (Node.js), batched;
4. ``examples/bots/longest.c``, batched.

For each: hands per second of wall time; CPU seconds of hokm-sim and of the
bot process; hands per CPU second of both together (what one core does when
both share it); and the split of the CPU per hand into writing the requests
(numba, ``protocol/encode.py``), the exchange in hokm-sim (the pipe's system
calls and the select loop), reading the answers (``protocol/answers.py``),
the bot's own process (parsing, deciding, writing), and the rest of hokm-sim
(the numba steps that play ``expert`` and deal, slot bookkeeping).

    taskset -c 1 python benchmarks/protocol_bots.py [--hands 500000]

(``taskset -c 1`` puts hokm-sim and its bots on one core; the bots inherit it.)
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from hokm_sim.bots import host
from hokm_sim.bots.registry import resolve
from hokm_sim.protocol import child
from hokm_sim.sim.runner import Runner

ROOT = Path(__file__).resolve().parents[1]
PARTS = ("encode", "exchange", "answers")


class Clock:
    """CPU seconds of this process's thread in the host's three protocol steps."""

    def __init__(self) -> None:
        self.spent = dict.fromkeys(PARTS, 0.0)
        self._old = (host.write_decide, child.BotProcess.exchange, host.read_answers)

    def __enter__(self) -> Clock:
        write, exchange, read = self._old

        def timed(name, fn):
            def run(*args, **kw):
                t = time.thread_time()
                try:
                    return fn(*args, **kw)
                finally:
                    self.spent[name] += time.thread_time() - t

            return run

        host.write_decide = timed("encode", write)
        child.BotProcess.exchange = timed("exchange", exchange)
        host.read_answers = timed("answers", read)
        return self

    def __exit__(self, *exc) -> None:
        host.write_decide, child.BotProcess.exchange, host.read_answers = self._old


def bot_cpu() -> float:
    """CPU seconds used so far by the live bot processes."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for proc in list(child._LIVE):
        with open(f"/proc/{proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


def measure(spec: str, hands: int, slots: int | None = None) -> dict:
    runner = Runner(resolve(spec), resolve("expert"))
    if slots is not None:
        runner.engine.slots = slots
    runner.counts(1, 20_000 if slots is None else 500, duplicate=False, threads=1)  # warm
    with Clock() as clock:
        wall, cpu, bot = time.perf_counter(), time.process_time(), bot_cpu()
        runner.counts(2, hands, duplicate=False, threads=1)
        wall = time.perf_counter() - wall
        cpu = time.process_time() - cpu
        bot = bot_cpu() - bot
    runner.engine._host.close()
    us = {k: v / hands * 1e6 for k, v in clock.spent.items()}
    us["bot process"] = bot / hands * 1e6
    us["rest of hokm-sim"] = cpu / hands * 1e6 - sum(clock.spent.values()) / hands * 1e6
    return {
        "spec": spec,
        "hands": hands,
        "hands_per_sec": hands / wall,
        "hokm_sim_cpu": cpu,
        "bot_cpu": bot,
        "hands_per_cpu_sec": hands / (cpu + bot),
        "us_per_hand": us,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=500_000, help="hands per batched figure")
    ap.add_argument("--single", type=int, default=20_000, help="hands one decision per message")
    args = ap.parse_args()
    build = Path(tempfile.mkdtemp(prefix="hokm-protocol-bench-"))
    cc = shutil.which("gcc") or shutil.which("cc")
    exe = {}
    for name, src in (("first_legal", "benchmarks/bots/first_legal.c"),
                      ("longest", "examples/bots/longest.c")):  # fmt: skip
        exe[name] = build / name
        subprocess.run([cc, "-O2", "-o", str(exe[name]), str(ROOT / src)], check=True)
    runs = [
        ("trivial C bot, batched", measure(f"exec:{exe['first_legal']}", args.hands)),
        (
            "trivial C bot, one decision a message",
            measure(f"exec:{exe['first_legal']}", args.single, slots=1),
        ),  # fmt: skip
    ]
    node = shutil.which("node")
    if node:
        js = f"exec:{node} {ROOT / 'examples' / 'bots' / 'longest.js'}"
        runs.append(("longest.js (Node.js), batched", measure(js, args.hands // 5)))
    runs.append(("longest.c, batched", measure(f"exec:{exe['longest']}", args.hands)))
    shutil.rmtree(build, ignore_errors=True)
    cols = ["encode", "exchange", "answers", "bot process", "rest of hokm-sim"]
    print(f"{'bot against expert, 1 thread':40} {'hands/s':>9} {'per CPU s':>10}  "
          + "  ".join(f"{c:>9}" for c in cols) + "   (us of CPU per hand)")  # fmt: skip
    for label, r in runs:
        split = "  ".join(f"{r['us_per_hand'][c]:9.2f}" for c in cols)
        print(f"{label:40} {r['hands_per_sec']:9,.0f} {r['hands_per_cpu_sec']:10,.0f}  {split}")


if __name__ == "__main__":
    main()
