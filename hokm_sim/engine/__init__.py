"""The numba engine: rng, deal, rules, the card loop, records and the bots' view.

Importing it first puts the package's cache locator in place
(:mod:`.jitcache`), so every cached kernel is keyed by all the source it inlines,
and has numba load that cached code without setting up its compiler
(:mod:`.quickload`).
"""

from hokm_sim.engine import jitcache, quickload

jitcache.install()
quickload.install()
