"""The numba engine: rng, deal, rules, the card loop, records and the bots' view.

Importing it first puts the package's cache locator in place
(:mod:`.jitcache`), so every cached kernel is keyed by all the source it inlines.
"""

from hokm_sim.engine import jitcache

jitcache.install()
