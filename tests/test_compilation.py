"""What a process does while numba compiles (hokm_sim.engine.compilation): from the first
compilation on it keeps the interpreter's spare frame-stack chunks (hokm_sim.engine.framestack),
and during each the collector of cycles waits longer.

Each check runs in a new interpreter: the allocator is the process's. A
recursion that goes past a chunk's end and back, over and over, maps a new
chunk at every crossing on CPython 3.11 and 3.12; every new chunk's pages are
touched, so the process's minor page faults count the chunks it mapped (a
count, not a time).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

CHURN = """
import json, resource

def deep(n):
    return deep(n - 1) if n else 0

def faults():
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(2000):
        deep(600)
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before
"""


def _run(code: str) -> dict:
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.splitlines()[-1])


@pytest.mark.skipif(
    not (3, 11) <= sys.version_info[:2] < (3, 13), reason="the chunks are kept on 3.11 and 3.12"
)
def test_the_first_compilation_keeps_the_chunks():
    got = _run(
        CHURN + "from numba import njit\n"
        "from hokm_sim.engine import framestack\n"
        "imported = bool(framestack._kept)\n"
        "before = faults()\n"
        "njit(lambda x: x + 1)(1)\n"
        "print(json.dumps([imported, bool(framestack._kept), before, faults()]))"
    )
    imported, compiled, before, after = got
    assert not imported, "importing the engine changes no allocator"
    assert compiled, "the first compilation puts the allocator in place"
    assert before > 2000, "each crossing mapped a chunk"
    assert after < before / 20, "crossings reuse the kept chunks"


def test_threads_and_exit_after_the_allocator_changed():
    """Threads come and go (each maps its own chunks and frees them at its end) and
    the process exits cleanly with the first allocator back in place."""
    got = _run(
        CHURN + "import threading\n"
        "from hokm_sim.engine import framestack\n"
        "framestack.keep_chunks()\n"
        "framestack.keep_chunks()\n"
        "out = []\n"
        "ts = [threading.Thread(target=lambda: out.append(deep(900))) for _ in range(16)]\n"
        "[t.start() for t in ts]; [t.join() for t in ts]\n"
        "print(json.dumps([out, len(framestack._kept)]))"
    )
    assert got == [[0] * 16, 4 if (3, 11) <= sys.version_info[:2] < (3, 13) else 0]


def test_the_collector_waits_longer_while_numba_compiles():
    """A young-generation pass every 20,000 new objects inside a compilation (numba makes
    millions), the caller's threshold outside it, nested compilations included."""
    got = _run(
        "import gc, json\n"
        "from numba import njit\n"
        "from numba.core import event\n"
        "import hokm_sim.engine\n"
        "gc.set_threshold(900, 11, 12)\n"
        "seen = []\n"
        "class Watch(event.Listener):\n"
        "    def on_start(self, e): seen.append(gc.get_threshold())\n"
        "    def on_end(self, e): pass\n"
        "event.register('numba:compile', Watch())\n"
        "inner = njit(lambda x: x * 2)\n"
        "outer = njit(lambda x: inner(x) + 1)\n"
        "outer(3)\n"
        "print(json.dumps([seen, gc.get_threshold()]))"
    )
    seen, after = got
    assert seen == [[20000, 11, 12], [20000, 11, 12]], "outer's compilation, then inner's in it"
    assert after == [900, 11, 12]
