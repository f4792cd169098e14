"""The numba engine: rng, deal, rules, the card loop, records and the bots' view.

Importing it first puts the package's cache locator in place
(:mod:`.jitcache`), so every cached kernel is keyed by all the source it inlines,
and has numba load that cached code without setting up its compiler
(:mod:`.quickload`); and makes numba's compilations cheaper
(:mod:`.compilation`), unless ``$HOKM_SIM_NUMBA_AS_IS`` is ``1``
(``benchmarks/compile_cost.py`` compares).
"""

import os

from hokm_sim.engine import compilation, jitcache, quickload

jitcache.install()
quickload.install()
if os.environ.get("HOKM_SIM_NUMBA_AS_IS", "").strip() != "1":
    compilation.install()
