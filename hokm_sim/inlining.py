"""Whether hokm-sim's compiled code inlines what it calls (the default) or calls it.

Inlining gives the fastest machine code and the longest compilations. With
``$HOKM_SIM_INLINE=0`` (the test suite; a bot being written) hokm-sim compiles
for a quick start instead, with the same results:

- every pair of compiled strategies is played by one engine that calls its
  bots through function pointers (:mod:`hokm_sim.bots.called`), and seat
  modules, steppers and vector kernels call their bots too;
- the double-dummy solver's helpers are compiled as functions of their own
  (:data:`SOLVER_HELPERS`): numba's inlining copies a callee's code into every
  caller, which is most of the solver's compile time.

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


SOLVER_HELPERS = "never" if os.environ.get("HOKM_SIM_INLINE", "").strip() == "0" else "always"
"""numba's ``inline`` option for the double-dummy solver's helpers (``dd/search.py``,
``order.py``, ``bounds.py``, ``table.py``), fixed when this module is first imported:
``"never"`` with ``$HOKM_SIM_INLINE=0``, which halves the solver's compile time and
searches the same nodes about a quarter slower. The package's cached code is kept
apart for it (:func:`hokm_sim.engine.jitcache.package_cache`)."""
