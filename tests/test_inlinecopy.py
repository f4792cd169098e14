"""numba's inliner copies a callee's variables once per call site (hokm_sim.engine.inlinecopy):
the same machine code as numba's own copies, block by block.

Each side compiles in a new interpreter, with nothing cached: ``longest``'s
decisions inlined as the engine inlines a bot (its helpers and botkit's are
inlined too), and a function of its own whose helpers have many blocks.
"""

from __future__ import annotations

import subprocess
import sys

CODE = """
import sys
from numba import njit
from hokm_sim.engine import inlinecopy
if sys.argv[1] == "as-is":
    inlinecopy._patched = True  # the first compilation then leaves numba's inliner alone
from hokm_sim.bots.compiled import inline_bot
from hokm_sim.strategies import longest

@njit(inline="always")
def branches(x):
    t = 0
    for i in range(x):
        if i % 3 == 0:
            t += i
        elif i % 3 == 1:
            t -= 1
        else:
            t ^= i
    return t

@njit(inline="always")
def twice(x):
    return branches(x) + branches(x + 1)

@njit
def caller(x):
    return twice(x) * twice(x + 2)

bot = inline_bot(longest.play_card)

@njit
def play(v, p, m, r):
    return bot(v, p, m, r)

caller(5)
import numpy as np
play(np.zeros(32, np.int64), np.zeros(16), np.zeros(16, np.int64), np.zeros(4, np.uint64))
assert inlinecopy._patched, "the first compilation wrapped the inliner"
for f in (caller, play):
    sys.stdout.write(f.inspect_asm(f.signatures[0]))
"""


def _asm(mode: str) -> str:
    proc = subprocess.run(
        [sys.executable, "-c", CODE, mode], capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_the_machine_code_is_numbas_own():
    mine, numbas = _asm("copy-once"), _asm("as-is")
    assert "caller" in mine and len(mine.splitlines()) > 100
    assert mine == numbas
