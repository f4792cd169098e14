"""Uniform random trump and a uniformly random legal card: the floor any bot must beat.

Draws only from its own seeded stream, so a run stays reproducible.
"""

from hokm_sim.bots.botkit import V_LEGAL, kth_card, njit, popcount, rand_below

DESCRIPTION = "uniform random trump, uniform random legal card (the baseline)"


@njit
def choose_trump(view, params, mem, rng):
    """Any of the four suits with equal chance."""
    return rand_below(rng, 4)


@njit
def play_card(view, params, mem, rng):
    """Any legal card with equal chance."""
    legal = view[V_LEGAL]
    return kth_card(legal, rand_below(rng, popcount(legal)))
