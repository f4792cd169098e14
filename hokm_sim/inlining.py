"""Whether hokm-sim's compiled code inlines what it calls or calls it: which engine plays
a pair of bots (:data:`ENGINES`), and the package's larger helpers (:data:`HELPERS`).

Inlining gives the fastest machine code and the longest compilations. Compiled bots
are played by generic kernels by default (the engine of a pair, the steppers of
tables with plain-Python or protocol parts, the vector environment's tables), each
compiled once for every bot and calling each bot's own unit; a long run moves to
the pair's specialised engine, bots inlined, once it is compiled
(:mod:`hokm_sim.sim.specialise`). With ``$HOKM_SIM_INLINE=0`` (the test suite)
the package's larger helpers (dealing, scoring, records, the solver's search, the
bots' tips) are compiled as functions of their own (:data:`HELPERS`), for a quicker
compilation with the same results: numba's inlining copies a callee's code into
every caller, which is most of a kernel's compile time.

Figures are in docs/performance.md ("Engines" and "Inlining").
"""

from __future__ import annotations

import os

from hokm_sim.errors import InputError

HELPERS = "never" if os.environ.get("HOKM_SIM_INLINE", "").strip() == "0" else "always"
"""numba's ``inline`` option for the package's larger helpers, fixed when this module is
first imported: ``"never"`` with ``$HOKM_SIM_INLINE=0``, so that each is compiled once a
process and called, instead of copied into every kernel that uses it; ``"always"``
otherwise (any other value), the fastest machine code. With ``"never"`` the solver
compiles in about a third of the time and searches the same nodes about a quarter slower
(docs/performance.md, "Inlining").

Small leaves (``engine/bits.py``, ``rules.py``, ``rng.py``, the card loop's steps) stay
inlined in both modes: a call costs more than their code. So do the closures that bind a
bot into a kernel (:func:`hokm_sim.engine.play.bound_deciders`, the replays of
``dd/infer.py``): inlined, the bot is compiled with its caller's options, numba's bounds
checks of the checking mode included. The package's cached code is kept apart for each
mode (:func:`hokm_sim.engine.jitcache.package_cache`)."""


ENGINES = ("auto", "generic", "specialised")
"""The engines a pair of compiled strategies can be played by: ``generic``, one engine
compiled once per install that calls each bot's own compiled unit through a function
pointer (:mod:`hokm_sim.bots.called`); ``specialised``, an engine compiled for the pair
with both bots inlined into its card loop (the fastest hands, one compilation of the
whole engine per pair); ``auto`` (the default), the generic engine, moving to the
specialised one at a batch boundary once a long run has compiled it in the background
(:mod:`hokm_sim.sim.specialise`). The counts are the same whichever plays."""


def engine_kind(kind: str | None = None) -> str:
    """``kind`` checked (one of :data:`ENGINES`), or when None ``$HOKM_SIM_ENGINE``, else
    ``auto``."""
    if kind is None:
        env = os.environ.get("HOKM_SIM_ENGINE", "").strip() or "auto"
        if env not in ENGINES:
            raise InputError(f"HOKM_SIM_ENGINE={env!r}: expected {', '.join(ENGINES)}")
        return env
    if kind not in ENGINES:
        raise InputError(f"bad engine {kind!r}: expected {', '.join(ENGINES)}", "engine")
    return kind
