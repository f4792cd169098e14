"""An edited bot file must take effect in the next run: the stale-cache trap.

The second numba fact of docs/architecture.md ("The numba cache"): numba's
on-disk cache does not notice edits to functions defined in other files, so
an engine compiled with a strategy can silently keep playing the old
strategy after its file changed. Each run here is a new process (as a
user's runs are), sharing the suite's compile cache (the bot files are new
ones, in temporary folders): edit the bot or a helper file beside it, and the
traced hands must change; run again unchanged, and the engine is loaded from
the cache and gives the same hands.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from hokm_sim.engine import kernels as k

BOT = '''\
"""Test bot: a fixed trump, then the lowest legal card."""

from hokm_sim.bots.botkit import V_LEGAL, lowest, njit

TRUMP = {trump}


@njit
def choose_trump(view, params, mem, rng):
    """Always the same suit."""
    return TRUMP


@njit
def play_card(view, params, mem, rng):
    """The lowest legal card."""
    return lowest(view[V_LEGAL])
'''

BOT_WITH_HELPER = '''\
"""Test bot whose trump comes from a helper file beside it."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from edit_helper import trump_suit  # noqa: E402

from hokm_sim.bots.botkit import V_LEGAL, lowest, njit  # noqa: E402


@njit
def choose_trump(view, params, mem, rng):
    """The helper's suit."""
    return trump_suit()


@njit
def play_card(view, params, mem, rng):
    """The lowest legal card."""
    return lowest(view[V_LEGAL])
'''

HELPER = '''\
"""Helper module for a test bot."""

from numba import njit


@njit
def trump_suit():
    return {trump}
'''

RUN = f"""
import json, sys
from numba.core.dispatcher import Dispatcher
from hokm_sim.bots.registry import resolve
from hokm_sim.sim.runner import Runner
r = Runner(resolve(sys.argv[1]), resolve(sys.argv[1]))
rows = r.trace_hands(5, 0, 8)
stats = [v.stats for name, mod in list(sys.modules.items())
         if name.startswith(("hokm_engine_", "hokm_called_", "hokm_seat_"))
         for v in vars(mod).values() if isinstance(v, Dispatcher)]
print(json.dumps({{
    "trumps": rows[:, {k.T_TRUMP}].tolist(),
    "rows": rows.tolist(),
    "module": r.engine.name,
    "hits": sum(sum(s.cache_hits.values()) for s in stats),
    "misses": sum(sum(s.cache_misses.values()) for s in stats),
}}))
"""


def run_runner(bot: Path) -> dict:
    """Trace 8 hands of the bot against itself in a new Python process; the hit and miss
    counts of numba's cache over the engine's generated modules."""
    proc = subprocess.run([sys.executable, "-c", RUN, str(bot)],
                          capture_output=True, text=True, timeout=600)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def run_cli(bot: Path) -> list[dict]:
    """``hokm-sim trace`` of 8 hands of the bot against itself in a new process."""
    exe = shutil.which("hokm-sim", path=str(Path(sys.executable).parent))
    cmd = [exe] if exe else [sys.executable, "-c", "from hokm_sim.cli import main; main()"]
    args = ["trace", "--seed", "5", "--hands", "8", "--a", str(bot), "--b", str(bot)]
    proc = subprocess.run(cmd + args, capture_output=True, text=True,
                          timeout=600)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]


def test_edited_bot_takes_effect_in_the_next_process(tmp_path):
    bot = tmp_path / "bots" / "fixed_trump.py"
    bot.parent.mkdir()
    bot.write_text(BOT.format(trump=0))
    clubs = run_runner(bot)
    assert clubs["trumps"] == [0] * 8

    bot.write_text(BOT.format(trump=3))
    spades = run_runner(bot)
    assert spades["trumps"] == [3] * 8, "the edited bot did not take effect"
    assert spades["module"] != clubs["module"]

    again = run_runner(bot)
    assert again["rows"] == spades["rows"]
    assert again["module"] == spades["module"]
    assert again["hits"] >= 1 and again["misses"] == 0, "not loaded from the on-disk cache"


def test_edited_helper_beside_the_bot_takes_effect(tmp_path):
    folder = tmp_path / "bots"
    folder.mkdir()
    bot = folder / "helped.py"
    helper = folder / "edit_helper.py"
    bot.write_text(BOT_WITH_HELPER)
    helper.write_text(HELPER.format(trump=1))
    assert {rec["trump"] for rec in run_cli(bot)} == {"D"}

    helper.write_text(HELPER.format(trump=2))
    assert {rec["trump"] for rec in run_cli(bot)} == {"H"}, "helper edit was ignored"


def test_edit_keeping_size_and_mtime_takes_effect(tmp_path):
    """An edit in the same second (or a copy that keeps mtimes), Python's bytecode written
    (the suite writes it: conftest.py)."""
    bot = tmp_path / "bots" / "fixed_trump.py"
    bot.parent.mkdir()
    bot.write_text(BOT.format(trump=0))
    assert run_runner(bot)["trumps"] == [0] * 8
    stamp = bot.stat()
    bot.write_text(BOT.format(trump=3))  # same size
    os.utime(bot, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    assert run_runner(bot)["trumps"] == [3] * 8
