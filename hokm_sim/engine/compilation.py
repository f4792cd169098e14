"""What a process does while numba compiles: three mends that make compiling cheaper.

numba tells its listeners when it starts and ends compiling a function (the
``"numba:compile"`` event, sent only on a cache miss: a warm command, which
loads machine code, sees none). From the first one on, the process keeps
CPython's spare frame-stack chunks (:mod:`.framestack`) and copies a callee's
variables once per inlined call (:mod:`.inlinecopy`); and while a compilation
runs, Python's collector of reference cycles starts a young-generation pass
after :data:`GC_YOUNG` new objects instead of 700: numba's compiler makes
millions of objects, and with the default the collector ran 1,211 times
while the generic engine's ``run_hands`` compiled (9 of them over every
object of the process), 185 times with this; compiling ``expert``'s units and
the generic engine took 14% less CPU (docs/performance.md).
The threshold is put back when the outermost compilation ends, so code that
runs afterwards (a plain-Python bot, the caller's own) sees the usual one.
Nothing here changes the machine code numba makes.
"""

from __future__ import annotations

import gc

from numba.core import event

from hokm_sim.engine import framestack, inlinecopy

GC_YOUNG = 20_000
"""New objects between two young-generation collections while numba compiles."""


class _Compiling(event.Listener):
    """Applies the mends at numba's compile events. numba compiles under one global lock,
    a function's callees inside its own compilation: ``depth`` counts the nesting."""

    def __init__(self) -> None:
        self.depth = 0
        self.first = True
        self.thresholds = gc.get_threshold()

    def on_start(self, event: event.Event) -> None:
        if self.first:
            self.first = False
            framestack.keep_chunks()
            inlinecopy.patch()
        if self.depth == 0:
            self.thresholds = gc.get_threshold()
            gc.set_threshold(max(GC_YOUNG, self.thresholds[0]), *self.thresholds[1:])
        self.depth += 1

    def on_end(self, event: event.Event) -> None:
        self.depth -= 1
        if self.depth == 0:
            gc.set_threshold(*self.thresholds)


def install() -> None:
    """Listen to numba's compilations (once per process: the engine's import calls it)."""
    event.register("numba:compile", _Compiling())
