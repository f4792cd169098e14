"""Built-in bots, one file each; installed as ``hokm_sim.strategies``.

Each file defines ``choose_trump`` and ``play_card`` (see hokm_sim.bots.botkit) and
a docstring saying what it does and why. Files starting with ``_`` are
helpers, not bots.
"""
