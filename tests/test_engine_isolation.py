"""Two engines loaded in one process must each play their own bots.

numba names compiled functions by module, qualified name and a counter that
starts again in every process, and links code loaded from its disk cache by
those names. Two engines compiled in separate processes can therefore both
define ``make_play_hand.<locals>.play_hand$N``; before the fix, once both
were loaded, the second engine's kernels called the first one's card loop,
with the first one's bots (seen: ``longest`` played ``basic``'s cards, and
ran at ``basic``'s speed, after a ``basic`` run in the same process).

Each engine here is compiled in a process of its own into a fresh cache, so
the counters line up as they do for users, then both are loaded into a third;
they are specialised engines (``HOKM_SIM_ENGINE=specialised``), each with its
own card loop, not the generic engine, which is one module for every pair.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from test_bot_edit import BOT

from hokm_sim.engine import kernels as k

RUN = """
import json, sys
from hokm_sim.bots.registry import resolve
from hokm_sim.sim.runner import Runner
out = []
for bot in sys.argv[1:]:
    r = Runner(resolve(bot), resolve(bot))
    out.append(r.trace_hands(5, 0, 8).tolist())
print(json.dumps(out))
"""


def _traces(cache, *bots) -> list:
    env = dict(os.environ, HOKM_SIM_CACHE=str(cache), HOKM_SIM_ENGINE="specialised")
    proc = subprocess.run([sys.executable, "-c", RUN, *map(str, bots)], env=env,
                          capture_output=True, text=True, timeout=600)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_engines_compiled_apart_keep_their_own_bots_in_one_process(tmp_path):
    clubs, hearts = tmp_path / "clubs.py", tmp_path / "hearts.py"
    clubs.write_text(BOT.format(trump=0))
    hearts.write_text(BOT.format(trump=2))
    cache = tmp_path / "cache"
    [alone_clubs] = _traces(cache, clubs)
    [alone_hearts] = _traces(cache, hearts)
    both = _traces(cache, clubs, hearts)
    assert both == [alone_clubs, alone_hearts]
    assert {row[k.T_TRUMP] for row in alone_hearts} == {2}
