"""Whether hokm-sim's compiled code inlines what it calls (the default) or calls it.

Inlining gives the fastest machine code and the longest compilations. With
``$HOKM_SIM_INLINE=0`` (the test suite; a bot being written) hokm-sim compiles
for a quick start instead, with the same results:

- every pair of compiled strategies is played by one engine that calls its
  bots through function pointers (:mod:`hokm_sim.bots.called`), and seat
  modules, steppers and vector kernels call their bots too;
- the package's larger helpers (dealing, scoring, records, the solver's
  search, the bots' tips) are compiled as functions of their own
  (:data:`HELPERS`): numba's inlining copies a callee's code into every
  caller, which is most of a kernel's compile time.

Figures for both are in docs/performance.md ("Inlining").
"""

from __future__ import annotations

import os

from hokm_sim.errors import InputError


def inlining() -> bool:
    """Whether engines inline the bots (the default) or call them.

    ``$HOKM_SIM_INLINE=0`` plays every pair of compiled strategies with one engine
    that calls its bots through function pointers (:mod:`hokm_sim.bots.called`): that
    engine is compiled once and each bot once, instead of an engine per pair, and its
    hands play slower (figures in ``docs/performance.md``), with the same counts: for
    the test suite, which plays dozens of pairs, or while a bot is being written. A
    called bot may allocate memory; inlined it may not, so a bot is finished only once
    it runs with the default. An engine of the checking mode always inlines: numba's
    bounds checks reach a bot only inlined.
    """
    env = os.environ.get("HOKM_SIM_INLINE", "").strip()
    if env not in ("", "0", "1"):
        raise InputError(f"HOKM_SIM_INLINE={env!r}: expected 1 (inline, the default) or 0 (call)")
    return env != "0"


HELPERS = "never" if os.environ.get("HOKM_SIM_INLINE", "").strip() == "0" else "always"
"""numba's ``inline`` option for the package's larger helpers, fixed when this module is
first imported: ``"never"`` with ``$HOKM_SIM_INLINE=0``, so that each is compiled once a
process and called, instead of copied into every kernel that uses it; ``"always"``
otherwise, the fastest machine code. The solver then compiles in about a third of the time and
searches the same nodes about a quarter slower (docs/performance.md, "Inlining").

Small leaves (``engine/bits.py``, ``rules.py``, ``rng.py``, the card loop's steps) stay
inlined in both modes: a call costs more than their code. So do the closures that bind a
bot into a kernel (:func:`hokm_sim.engine.play.bound_deciders`, the replays of
``dd/infer.py``): inlined, the bot is compiled with its caller's options, numba's bounds
checks of the checking mode included. The package's cached code is kept apart for each
mode (:func:`hokm_sim.engine.jitcache.package_cache`)."""
